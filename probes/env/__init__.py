"""What the parent learns about the machine, its load and the interpreters, without a framework."""
