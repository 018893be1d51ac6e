"""One bounded reader for every input path (profiles, rule packs, questions, templates).

The path is looked up with ``stat`` first, so a device is refused without being opened
(opening one can reset a board on a serial port or arm a watchdog); the file is then opened
with ``O_NONBLOCK`` (a FIFO with no writer cannot block the open), checked again with
``fstat`` *after* the open (so a symlink swapped in between cannot slip through), refused
unless it is a regular file (``/dev/zero``, ``/dev/urandom``, ``/dev/stdin``, FIFOs,
sockets and directories all are), and read in chunks with the size limit enforced while
reading, whatever ``st_size`` claimed.
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Iterable
from pathlib import Path

from advisor.model.errors import InputError

MAX_BYTES = 5 * 1024 * 1024
_CHUNK = 64 * 1024

_KINDS = (
    (stat.S_ISDIR, "is a directory, expected a file"),
    (stat.S_ISFIFO, "is a FIFO (named pipe), expected a regular file"),
    (stat.S_ISCHR, "is a character device, expected a regular file"),
    (stat.S_ISBLK, "is a block device, expected a regular file"),
    (stat.S_ISSOCK, "is a socket, expected a regular file"),
)

_OPEN_ERRORS = {
    errno.ENOENT: "no such file",
    errno.ENOTDIR: "no such file (a part of the path is not a directory)",
    errno.EACCES: "permission denied",
    errno.EPERM: "permission denied",
    errno.ENAMETOOLONG: "path is too long for this system",
    errno.ELOOP: "too many levels of symbolic links",
    errno.ENXIO: "is not a regular file (no device or reader behind it)",
}


def os_reason(exc: OSError) -> str:
    """A short, plain reason for an OSError, without the path (the caller names it)."""
    return _OPEN_ERRORS.get(exc.errno or 0) or exc.strerror or type(exc).__name__


def real_path(path: str | os.PathLike[str]) -> Path:
    """``path`` with its links resolved, to compare paths; a path that cannot be resolved
    (a link loop, which pathlib raises as RuntimeError) is an InputError naming it."""
    try:
        return Path(path).resolve()
    except OSError as exc:
        raise InputError(os_reason(exc), path=os.fspath(path)) from None
    except RuntimeError:  # Python < 3.13: "Symlink loop from ..."
        raise InputError(_OPEN_ERRORS[errno.ELOOP], path=os.fspath(path)) from None


def _refuse_unless_regular(mode: int, name: str) -> None:
    for test, message in _KINDS:
        if test(mode):
            raise InputError(message, path=name)
    if not stat.S_ISREG(mode):
        raise InputError("is not a regular file", path=name)


def read_bytes(path: str | os.PathLike[str], *, limit: int = MAX_BYTES) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes; anything else is an InputError."""
    name = os.fspath(path)
    if name == "":
        raise InputError("empty path; expected a file name", path="''")
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        # look before opening: opening a device has effects of its own (a serial port resets
        # the board behind it, /dev/watchdog arms a reboot), so no device is ever opened
        _refuse_unless_regular(os.stat(name).st_mode, name)
        fd = os.open(name, flags)
    except OSError as exc:
        raise InputError(os_reason(exc), path=name) from None
    try:
        info = os.fstat(fd)  # and again after: a link swapped in between is caught here
        _refuse_unless_regular(info.st_mode, name)
        if info.st_size > limit:
            raise InputError(f"file is too large ({info.st_size} bytes, limit {limit})", path=name)
        chunks: list[bytes] = []
        total = 0
        while True:
            chunk = os.read(fd, _CHUNK)
            if not chunk:
                break
            total += len(chunk)
            if total > limit:  # the file grew while we read it
                raise InputError(f"file is too large (over the limit of {limit} bytes)", path=name)
            chunks.append(chunk)
        return b"".join(chunks)
    except OSError as exc:
        raise InputError(f"cannot read file: {os_reason(exc)}", path=name) from None
    finally:
        os.close(fd)


def read_text(path: str | os.PathLike[str], *, limit: int = MAX_BYTES) -> str:
    """A UTF-8 text file through :func:`read_bytes`; invalid UTF-8 names its line."""
    raw = read_bytes(path, limit=limit)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = raw[: exc.start]  # lines as an editor counts them: \n, \r\n and a lone \r
        line = before.count(b"\n") + before.count(b"\r") - before.count(b"\r\n") + 1
        raise InputError(
            f"not valid UTF-8 text (byte {exc.start}); is this a binary file?",
            path=os.fspath(path),
            line=line,
        ) from None


def path_kind(path: str | os.PathLike[str]) -> str:
    """'missing', 'dir', 'file' or 'other' for ``path`` (symlinks followed), never raising.

    A path the system cannot even look up (too long, a loop) is an InputError.
    """
    name = os.fspath(path)
    if name == "":
        raise InputError("empty path", path="''")
    try:
        info = os.stat(name)
    except FileNotFoundError:
        return "missing"
    except NotADirectoryError:
        return "missing"
    except OSError as exc:
        raise InputError(os_reason(exc), path=name) from None
    if stat.S_ISDIR(info.st_mode):
        return "dir"
    return "file" if stat.S_ISREG(info.st_mode) else "other"


def input_paths(values: Iterable[str], option: str) -> list[Path]:
    """Paths given on the command line; an empty one (which would mean '.') is refused."""
    for value in values:
        if value == "":
            raise InputError("empty path; expected a file or directory name", field=option)
    return [Path(value) for value in values]
