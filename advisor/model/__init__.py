"""The data the pipeline passes along: profile, measured facts, decision, errors."""
