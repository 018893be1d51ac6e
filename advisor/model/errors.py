"""The one error type a user sees: bad input, reported on a single line."""

from __future__ import annotations

from typing import Any

from advisor.model.terminal_text import one_line

PATH_LIMIT = 200  # characters of a path shown in a message
FIELD_LIMIT = 120


class InputError(Exception):
    """Invalid input from a file or the command line (exit code 2, no traceback)."""

    exit_code = 2
    document: Any = None  # the composed YAML document the error was found in, if any

    def __init__(
        self,
        message: str,
        *,
        path: str | None = None,
        line: int | None = None,
        field: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.path = path
        self.line = line
        self.field = field

    def __str__(self) -> str:
        where = ""
        if self.path:
            path = one_line(self.path, PATH_LIMIT)
            where = f"{path}:{self.line}: " if self.line else f"{path}: "
        field = f"{one_line(self.field, FIELD_LIMIT)}: " if self.field else ""
        return one_line(f"{where}{field}{one_line(self.message)}")  # the whole line: 600
