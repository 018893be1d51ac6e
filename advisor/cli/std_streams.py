"""The standard streams when the environment is hostile: closed, full or not a terminal.

``advisor ... >&-`` must not exit 0 having written nothing, ``>/dev/full`` must not
end in a traceback, and ``<&-`` must not crash the terminal check. A closed standard
descriptor is also refilled with ``/dev/null`` at start-up, so that no file the
advisor opens later can take its number (and be written to by a child process).
"""

from __future__ import annotations

import contextlib
import os
import select
import sys
from collections.abc import Callable
from typing import Any, TextIO

from advisor.io.safe_read import os_reason
from advisor.model.errors import InputError
from advisor.model.terminal_text import JOINER, for_terminal


def fill_closed_fds() -> None:
    """Open /dev/null on each of descriptors 0, 1 and 2 that is closed."""
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError:
            try:
                null = os.open(os.devnull, os.O_RDWR)
            except OSError:
                return
            if null != fd:
                os.dup2(null, fd)
                os.close(null)


def stdin_is_tty() -> bool:
    """True only for an open stdin attached to a terminal."""
    try:
        return sys.stdin is not None and sys.stdin.isatty()
    except (ValueError, OSError):
        return False


def _closed_stdout() -> InputError:
    return InputError(
        "standard output is closed, so the result would be lost; nothing was done (use -o FILE)",
        field="stdout",
    )


class GuardedStdout:
    """sys.stdout for every command: a write to a closed stdout (``>&-``) or one that fails
    (``>/dev/full``) is an InputError (one line, exit 2), whichever command writes, and
    help and --version included; a reader that stopped reading stays a BrokenPipeError."""

    def __init__(self, stream: TextIO | None) -> None:
        self.stream = stream

    def write(self, text: Any) -> int:  # str, or bytes when this guards a buffer
        return self._guard(lambda stream: _write_all(stream, text))

    def flush(self) -> None:
        if self.stream is not None:
            self._guard(lambda stream: stream.flush())

    def _guard(self, action: Callable[[TextIO], Any]) -> Any:
        if self.stream is None:
            raise _closed_stdout()
        try:
            return action(self.stream)
        except BrokenPipeError:
            raise
        except UnicodeEncodeError as exc:
            raise InputError(
                f"standard output's encoding ({exc.encoding}) cannot hold the output; use "
                "-o FILE (always UTF-8) or set PYTHONIOENCODING=utf-8",
                field="stdout",
            ) from None
        except (OSError, ValueError) as exc:  # silenced by the caller that reports it
            reason = os_reason(exc) if isinstance(exc, OSError) else str(exc)
            raise InputError(f"cannot write to standard output: {reason}", field="stdout") from None

    def isatty(self) -> bool:
        try:
            return self.stream is not None and self.stream.isatty()
        except (OSError, ValueError):
            return False

    @property
    def buffer(self) -> Any:
        """The bytes underneath, guarded the same way (click writes there when it finds
        the text stream's encoding misconfigured, e.g. PYTHONIOENCODING=ascii)."""
        if self.stream is None:
            raise AttributeError("buffer")
        return GuardedStdout(self.stream.buffer)  # type: ignore[arg-type]

    def __getattr__(self, name: str) -> Any:  # encoding, fileno, ...
        if self.stream is None:
            raise AttributeError(name)
        return getattr(self.stream, name)


def _write_all(stream: Any, data: str | bytes) -> int:
    """Write all of ``data`` or raise. On a full disk or over a file-size limit the kernel
    takes part of a write, and Python's buffered stream can drop the rest without an error
    (exit 0, a cut JSON file): so the bytes go to the descriptor here, in a loop, until all
    are out, and a failed write raises (ENOSPC, EFBIG); a non-blocking descriptor that is
    full is waited on. Not a file (a test's StringIO), or
    not POSIX (newline translation): the stream's own write."""
    try:
        fd = stream.fileno() if os.name == "posix" else None
    except (AttributeError, OSError, ValueError):
        fd = None
    if fd is None:
        return int(stream.write(data))
    stream.flush()  # what was buffered before goes first
    if isinstance(data, str):
        data = data.encode(stream.encoding or "utf-8", stream.errors or "strict")
    view = memoryview(data)
    while view:
        try:
            view = view[os.write(fd, view) :]
        except BlockingIOError:  # a non-blocking pipe whose reader is slow: wait, not fail
            select.select([], [fd], [])
    return len(data)


class QuietStderr:
    """sys.stderr when it cannot be written (``2>/dev/full``): messages are lost, as they
    must be, but the exit code stays the command's own (2 for bad input, 0 for success)."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream

    def write(self, text: Any) -> int:
        try:
            return self.stream.write(text)
        except (OSError, ValueError):
            return len(text)

    def flush(self) -> None:
        with contextlib.suppress(OSError, ValueError):
            self.stream.flush()

    @property
    def buffer(self) -> Any:  # what click writes to when the encoding looks misconfigured
        return QuietStderr(self.stream.buffer)  # type: ignore[arg-type]

    def __getattr__(self, name: str) -> Any:  # encoding, fileno, isatty, ...
        return getattr(self.stream, name)


def guard_stdout() -> None:
    """Put a GuardedStdout in place of sys.stdout and a QuietStderr in place of sys.stderr
    (once each)."""
    if not isinstance(sys.stdout, GuardedStdout):
        sys.stdout = GuardedStdout(sys.stdout)
    if sys.stderr is not None and not isinstance(sys.stderr, QuietStderr):
        sys.stderr = QuietStderr(sys.stderr)


def check_stdout() -> None:
    """Refuse to start work whose only output would go to a closed stdout."""
    stream = sys.stdout
    if stream is None or (isinstance(stream, GuardedStdout) and stream.stream is None):
        raise _closed_stdout()


STDOUT_STARTED = False  # set once a result starts going to standard output
TERMINAL_CHUNK = 65_536  # characters escaped for a terminal at a time


def write_stdout(text: str) -> None:
    """Write the whole result to stdout and flush it; any failure is an InputError.

    A reader that stops reading (a closed pipe) is not bad input: BrokenPipeError goes on
    to the command group, which ends silently with 141, as ``yes | head`` does.
    """
    check_stdout()
    global STDOUT_STARTED
    STDOUT_STARTED = True  # a stop from here on says the output may be cut short
    stream = sys.stdout
    # a lone surrogate (a name that is not valid UTF-8) as the visible text \udcff, never
    # its raw bytes (0x80-0x9f are C1 controls) nor an encoding error under a strict locale
    text = text.encode("utf-8", "backslashreplace").decode("utf-8")
    try:
        if stream.isatty():
            # escaped a piece at a time: a control or tag character becomes up to 12
            # visible ones, and a 5,000,000-character report of them must not need 60
            # million characters of memory at once
            text = text.replace(JOINER, "")  # every joiner in the output is the advisor's
            for start in range(0, len(text), TERMINAL_CHUNK):
                stream.write(for_terminal(text[start : start + TERMINAL_CHUNK]))
        else:
            stream.write(text)
        stream.flush()
    except BrokenPipeError:
        silence_stdout(stream)
        raise
    except (OSError, ValueError) as exc:
        silence_stdout(stream)
        reason = os_reason(exc) if isinstance(exc, OSError) else str(exc)
        raise InputError(f"cannot write to standard output: {reason}", field="stdout") from None


def silence_stdout(stream: object) -> None:
    """Point stdout at /dev/null so the flush at exit cannot fail a second time."""
    try:
        fd = stream.fileno()  # type: ignore[attr-defined]
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, fd)
        os.close(null)
    except (OSError, ValueError, AttributeError):
        pass
