"""Send a rendered document to stdout or, atomically, to a file."""

from __future__ import annotations

import os
from collections.abc import Sequence

import click

from advisor.cli.std_streams import check_stdout, write_stdout
from advisor.io.safe_write import check_output, write_atomic
from advisor.model.errors import InputError
from advisor.model.terminal_text import inert


def check_destination(
    path: str | None, *, force: bool = False, inputs: Sequence[str | None] = ()
) -> None:
    """Refuse a bad ``-o`` (or a closed stdout) before any work is done; ``--force`` never
    lets the output replace one of the command's own input files."""
    if path is None or path == "-":
        check_stdout()
        return
    check_output(path, force=force)
    for source in inputs:
        if source and _same_file(path, source):
            raise InputError(
                f"is also an input ({inert(source)}): the output would replace it; "
                "choose another -o path",
                path=path,
            )


def _same_file(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:  # either does not exist (yet): not the same file
        return False


def emit(text: str, path: str | None, *, force: bool = False) -> None:
    """Print ``text`` or write it atomically to ``path`` (kept unless ``force``)."""
    if path is None or path == "-":
        write_stdout(text if text.endswith("\n") else text + "\n")
        return
    write_atomic(path, text, force=force)
    click.echo(f"advisor: wrote {inert(path)}", err=True)
