"""Where questions are written (stderr) and answers read (stdin)."""

from __future__ import annotations

import os
import select
import sys
from typing import Any, TextIO

import click

from advisor.model.terminal_text import inert


class QuestionnaireStopped(click.ClickException):
    """The person stopped the questionnaire (EOF or cancel): one line, exit 1."""

    exit_code = 1

    def show(self, file: Any = None) -> None:
        """Print ``advisor: MESSAGE`` on stderr (click calls this)."""
        click.echo(f"advisor: {self.message}", err=True)


# --------------------------------------------------------------------------- the terminal


class Terminal:
    """Where questions are written (stderr) and answers read (stdin)."""

    def __init__(self, stdin: TextIO | None = None, out: TextIO | None = None) -> None:
        self._stdin = stdin
        self._out = out

    @property
    def out(self) -> TextIO:
        return self._out or sys.stderr

    def say(self, text: str = "", *, bold: bool = False) -> None:
        """Write one line (made inert: it can hold text from a question file)."""
        text = inert(text)
        if bold and not os.environ.get("NO_COLOR"):
            text = click.style(text, bold=True)
        click.echo(text, file=self.out)

    def read(self, prompt: str) -> str:
        """Show ``prompt`` and read one line; EOF stops the questionnaire."""
        click.echo(inert(prompt), file=self.out, nl=False)
        stream = self._stdin or sys.stdin
        try:
            line = _read_line(stream)
        except KeyboardInterrupt:
            click.echo("", file=self.out)
            raise
        except OSError as exc:  # the terminal went away (a hangup while SIGHUP is ignored)
            raise QuestionnaireStopped(
                f"the terminal could not be read ({exc.strerror or exc}); nothing was written"
            ) from None
        if not line:
            click.echo("", file=self.out)
            raise QuestionnaireStopped(
                "input ended before the questionnaire was finished; nothing was written"
            )
        return line.rstrip("\r\n")


def _read_line(stream: TextIO) -> str:
    """One line; bytes that are not text become NUL, which every question refuses.

    Reading the bytes line by line (where the stream has them) keeps one bad line
    from swallowing the lines after it.
    """
    buffer = getattr(stream, "buffer", None)
    if buffer is None or not hasattr(buffer, "readline"):
        return stream.readline()
    _wait_for_input(buffer)
    raw = buffer.readline()
    try:
        return raw.decode(getattr(stream, "encoding", None) or "utf-8")
    except UnicodeDecodeError:
        return "\x00\n"


def _wait_for_input(buffer: Any) -> None:
    """Wait until the person has typed a line (or ended the input) on a terminal left
    non-blocking by another program that shares it: there a read with nothing typed yet
    returns nothing, which would read as the end of the input and stop the questionnaire
    before anyone could answer. A blocking terminal waits in its own read."""
    try:
        fd = buffer.fileno()
        if os.name != "posix" or os.get_blocking(fd):
            return
        if buffer.peek(1):  # a line already read ahead, or typed: nothing to wait for
            return
    except BlockingIOError:  # nothing typed yet
        pass
    except (AttributeError, OSError, ValueError):  # not a file (a test's stream), or closed
        return
    select.select([fd], [], [])  # readable once a line is typed, or at its end (Ctrl-D)
