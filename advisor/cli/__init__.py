"""The ``advisor`` command line: a click group (``main``), one module per command."""

from advisor.cli.main import main

__all__ = ["main"]
