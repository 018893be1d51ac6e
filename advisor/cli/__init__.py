"""The ``advisor`` command line: a click group (``main``), one module per command."""

from advisor.cli.import_path import drop_relative_pythonpath

drop_relative_pythonpath()  # before click, yaml or pydantic is imported (import_path.py)

from advisor.cli.main import main  # noqa: E402

__all__ = ["main"]
