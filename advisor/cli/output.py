"""Send a rendered document to stdout or, atomically, to a file."""

from __future__ import annotations

import click

from advisor.cli.std_streams import check_stdout, write_stdout
from advisor.io.safe_write import check_output, write_atomic
from advisor.model.terminal_text import inert


def check_destination(path: str | None, *, force: bool = False) -> None:
    """Refuse a bad ``-o`` (or a closed stdout) before any work is done."""
    if path is None or path == "-":
        check_stdout()
    else:
        check_output(path, force=force)


def emit(text: str, path: str | None, *, force: bool = False) -> None:
    """Print ``text`` or write it atomically to ``path`` (kept unless ``force``)."""
    if path is None or path == "-":
        write_stdout(text if text.endswith("\n") else text + "\n")
        return
    write_atomic(path, text, force=force)
    click.echo(f"advisor: wrote {inert(path)}", err=True)
