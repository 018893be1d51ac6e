"""Files in and out: safe YAML, validation messages, profiles read and written."""
