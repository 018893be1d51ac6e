"""Send a rendered document to stdout or, atomically, to a file."""

from __future__ import annotations

import click

from advisor.io.safe_yaml import write_atomic


def emit(text: str, path: str | None, *, force: bool = False) -> None:
    """Print ``text`` or write it atomically to ``path`` (kept unless ``force``)."""
    if path is None or path == "-":
        click.echo(text, nl=not text.endswith("\n"))
        return
    write_atomic(path, text, force=force)
    click.echo(f"advisor: wrote {path}", err=True)
