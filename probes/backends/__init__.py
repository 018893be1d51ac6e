"""Each framework's operations behind the Backend protocol (imported in a worker only)."""
