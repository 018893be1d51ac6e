"""Write output files atomically, and never replace anything without ``--force``.

``check_output`` runs before any work is done, so a bad ``-o`` fails in a moment. The
write itself goes to a temporary file in the target's directory that is then
*published*: with ``--force`` by ``rename`` (replacing the old file), without it by an
operation that fails if anything at all (a file, a dangling symlink, a FIFO) holds the
name: ``renameat2(RENAME_NOREPLACE)`` where the kernel and file system offer it, else
``link`` + ``unlink``. There is no window between a check and the rename. Where Linux
offers it (O_TMPFILE), the temporary file has no name at all until it is linked into place,
so even a process killed outright leaves nothing behind; a signal that asks the advisor to
stop is held for the few system calls of the publish, and every published name is recorded
(``PUBLISHED``) so that the stop message can say what was written.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import errno
import os
import secrets
import signal
import stat
import tempfile
from collections.abc import Iterator

from advisor.io.safe_read import os_reason
from advisor.model.errors import PATH_LIMIT, InputError
from advisor.model.terminal_text import clip, hides_text

NAME_MAX = 255  # bytes in one path component (Linux, macOS)
PATH_MAX = 4096


def check_output(path: str, *, force: bool) -> None:
    """Refuse an output path that cannot be written (or would overwrite) before any work."""
    if path == "":
        raise InputError("empty output path; give a file name or '-' for stdout", field="-o")
    name = path
    if path.endswith(("/", os.sep)):
        raise InputError("ends with '/', so it names a directory; expected a file path", path=name)
    _check_plain_name(path)
    encoded = os.fsencode(path)
    if len(encoded) >= PATH_MAX or any(len(part) > NAME_MAX for part in encoded.split(b"/")):
        raise InputError("path is too long for this system", path=name)
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        info = None
    except OSError as exc:
        raise InputError(os_reason(exc), path=name) from None
    _check_not_system(path, info)
    if info is not None:
        _check_existing(path, info, force)
    parent = os.path.dirname(path) or "."
    try:
        parent_info = os.stat(parent)
    except OSError:
        shown = clip(parent, PATH_LIMIT)
        raise InputError(f"directory does not exist: {shown}", path=name) from None
    if not stat.S_ISDIR(parent_info.st_mode):
        raise InputError(f"not a directory: {clip(parent, PATH_LIMIT)}", path=name)
    if not os.access(parent, os.W_OK | os.X_OK):
        raise InputError("permission denied (cannot write here)", path=name)


def _check_plain_name(path: str) -> None:
    """Refuse a file name that starts or ends with blank space, or holds a control or
    invisible character (a newline, a tab, a right-to-left override): listings do not show
    them, or show the name reordered, so the report would land under a name the
    user cannot see or type (``-o "report.md "`` is almost surely a quoting slip)."""
    base = os.path.basename(path)
    if any("\udc80" <= ch <= "\udcff" for ch in base):  # bytes that are not UTF-8
        raise InputError(
            "the file name holds bytes that are not UTF-8 (an 8-bit terminal may read them as a "
            "control sequence); choose a plain name",
            path=path,
        )
    if hides_text(base):
        raise InputError(
            "the file name holds a control or invisible character (a newline, a tab, a "
            "zero-width or bidi control); choose a plain name",
            path=path,
        )
    if base != base.strip():
        where = "starts" if base[:1].isspace() else "ends"
        raise InputError(
            f"the file name '{clip(base, PATH_LIMIT)}' {where} with blank space, which "
            "listings do not show; "
            f"did you mean '{clip(base.strip(), PATH_LIMIT)}'?",
            path=path,
        )


_KERNEL = ("/proc", "/sys")  # kernel views: never a report's home


def _check_not_system(path: str, info: os.stat_result | None) -> None:
    """Refuse a path in /dev itself, /proc or /sys, or a link into /dev or /proc
    (``/dev/stdout``, ``/dev/fd/1``): with --force the report would replace the system's
    link, not reach the stream. Folders below /dev such as /dev/shm are ordinary."""
    try:
        where = os.path.realpath(os.path.dirname(path) or ".")
        target = os.path.realpath(path) if info is not None and stat.S_ISLNK(info.st_mode) else ""
    except (OSError, ValueError):
        return
    in_kernel = any(where == root or where.startswith(root + "/") for root in _KERNEL)
    streams = target.startswith(("/proc/", "/dev/"))
    if in_kernel or where == "/dev" or streams:
        raise InputError(
            "is a device, stream or system file (in /dev, /proc or /sys, or a link there); "
            "write the report to stdout with '-' (or no -o) or give a file path",
            path=path,
        )


def _check_existing(path: str, info: os.stat_result, force: bool) -> None:
    if stat.S_ISDIR(info.st_mode):
        raise InputError("is a directory, expected a file path", path=path)
    if stat.S_ISLNK(info.st_mode):
        try:
            target = os.stat(path)
        except OSError:
            target = None
        if target is None and not force:
            raise InputError(
                "a (dangling) symbolic link is in the way; use --force to replace it", path=path
            )
        if target is not None and stat.S_ISDIR(target.st_mode):
            raise InputError("is a directory, expected a file path", path=path)
        if target is not None and not stat.S_ISREG(target.st_mode):
            raise InputError("is not a regular file; refusing to replace it", path=path)
    elif not stat.S_ISREG(info.st_mode):
        raise InputError("is not a regular file; refusing to replace it", path=path)
    if not force:
        raise InputError("file exists; use --force to overwrite it", path=path)


# Every file this process has published, in order: a stop by a signal after one of them
# says so, instead of "nothing was written" (advisor/cli/options.py).
PUBLISHED: list[str] = []

_HELD = tuple(
    s for s in (getattr(signal, n, None) for n in ("SIGINT", "SIGTERM", "SIGHUP")) if s is not None
)


@contextlib.contextmanager
def _stop_signals_held() -> Iterator[None]:
    """Hold Ctrl-C, SIGTERM and SIGHUP for the few system calls of a publish; one that
    arrives meanwhile is delivered right after (where the platform can hold signals)."""
    mask = getattr(signal, "pthread_sigmask", None)
    if mask is None:
        yield
        return
    before = mask(signal.SIG_BLOCK, _HELD)
    try:
        yield
    finally:
        mask(signal.SIG_SETMASK, before)


def write_atomic(path: str, text: str, *, force: bool = False, private: bool = False) -> None:
    """Write ``text`` to ``path`` via a temporary file; keep an existing file unless ``force``.

    On any failure nothing is left behind: neither a partial file nor the temporary one.
    ``private`` makes the file readable by its owner only (caches).
    """
    name = os.fspath(path)
    check_output(name, force=force)
    parent = os.path.dirname(name) or "."
    tmp_name = None
    try:
        mode = 0o600 if private else _kept_mode(name) if force else 0o666 & ~_umask()
        unnamed = _open_unnamed(parent)
        if unnamed is not None:
            with os.fdopen(unnamed, "w", encoding="utf-8") as handle:
                os.fchmod(handle.fileno(), mode)
                handle.write(text)
                handle.flush()
                os.fsync(handle.fileno())
                with _stop_signals_held():
                    _link_unnamed(handle.fileno(), name, parent, force=force)
                    PUBLISHED.append(name)
            return
        fd, tmp_name = tempfile.mkstemp(prefix=".advisor-", suffix=".tmp", dir=parent)
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            os.fchmod(handle.fileno(), mode)  # on the open file: no path to swap meanwhile
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        with _stop_signals_held():  # published and recorded as one step, never half
            if force:
                os.replace(tmp_name, name)
            else:
                publish_no_replace(tmp_name, name)
            tmp_name = None
            PUBLISHED.append(name)
    except FileExistsError:
        raise InputError("file exists; use --force to overwrite it", path=name) from None
    except PermissionError:
        raise InputError("permission denied (cannot write here)", path=name) from None
    except OSError as exc:
        raise InputError(f"cannot write file: {os_reason(exc)}", path=name) from None
    finally:
        if tmp_name:
            with contextlib.suppress(OSError):
                os.unlink(tmp_name)


def _open_unnamed(parent: str) -> int | None:
    """A file with no name yet in ``parent`` (Linux's O_TMPFILE), or None where the system or
    the file system has none: a process killed while writing it (SIGKILL, the OOM killer)
    leaves nothing behind, since the file gets its name only when it is complete."""
    flag = getattr(os, "O_TMPFILE", 0)
    if not flag or not os.path.isdir("/proc/self/fd"):
        return None
    try:
        return os.open(parent, flag | os.O_WRONLY | getattr(os, "O_CLOEXEC", 0), 0o600)
    except OSError as exc:
        if exc.errno in (errno.EOPNOTSUPP, errno.EISDIR, errno.EINVAL, errno.ENOENT):
            return None  # this file system cannot: a named temporary file instead
        raise


def _link_unnamed(fd: int, name: str, parent: str, *, force: bool) -> None:
    """Give the unnamed file ``fd`` the name ``name``: without ``force`` only if nothing holds
    the name (link fails with EEXIST), with it by a link to a temporary name renamed over.
    (os.link follows /proc/self/fd/N's link only through linkat, that is with a folder fd.)"""
    src = f"/proc/self/fd/{fd}"
    leaf = os.path.basename(name)
    folder = os.open(parent, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | os.O_CLOEXEC)
    try:
        if not force:
            os.link(src, leaf, dst_dir_fd=folder, follow_symlinks=True)
            return
        tmp = f".advisor-{secrets.token_hex(6)}.tmp"
        os.link(src, tmp, dst_dir_fd=folder, follow_symlinks=True)
        try:
            os.replace(tmp, leaf, src_dir_fd=folder, dst_dir_fd=folder)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp, dir_fd=folder)
            raise
    finally:
        os.close(folder)


def publish_no_replace(src: str, dst: str) -> None:
    """Move ``src`` to ``dst`` atomically; FileExistsError if ``dst`` exists in any form."""
    if _renameat2_noreplace(src, dst):
        return
    os.link(src, dst)  # fails with EEXIST for any existing name, dangling symlinks included
    os.unlink(src)


_RENAME_NOREPLACE = 1
_AT_FDCWD = -100
_libc: ctypes.CDLL | bool | None = False


def _renameat2_noreplace(src: str, dst: str) -> bool:
    """True if renamed; False where renameat2 is not available (caller falls back)."""
    global _libc
    if _libc is False:
        name = ctypes.util.find_library("c")
        try:
            _libc = ctypes.CDLL(name, use_errno=True) if name else None
        except OSError:
            _libc = None
    func = getattr(_libc, "renameat2", None) if _libc else None
    if func is None:
        return False
    result = func(_AT_FDCWD, os.fsencode(src), _AT_FDCWD, os.fsencode(dst), _RENAME_NOREPLACE)
    if result == 0:
        return True
    err = ctypes.get_errno()
    if err in (errno.ENOSYS, errno.EINVAL, errno.ENOTSUP):
        return False  # this kernel or file system cannot do it: link + unlink instead
    raise OSError(err, os.strerror(err), dst)


def _kept_mode(name: str) -> int:
    """The permission bits of the regular file ``--force`` replaces (a report kept private
    stays private); a new file's are the umask's."""
    try:
        info = os.lstat(name)  # a link is replaced, not its target: its target's mode is not ours
    except (OSError, ValueError):
        return 0o666 & ~_umask()
    return stat.S_IMODE(info.st_mode) & 0o777 if stat.S_ISREG(info.st_mode) else 0o666 & ~_umask()


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
