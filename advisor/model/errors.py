"""The one error type a user sees: bad input, reported on a single line."""

from __future__ import annotations


class InputError(Exception):
    """Invalid input from a file or the command line (exit code 2, no traceback)."""

    exit_code = 2

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
            where = f"{self.path}:{self.line}: " if self.line else f"{self.path}: "
        field = f"{self.field}: " if self.field else ""
        return f"{where}{field}{_one_line(self.message)}"


def _one_line(text: str) -> str:
    """Collapse whitespace so the message stays on one line."""
    return " ".join(str(text).split())
