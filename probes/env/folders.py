"""Private temporary folders that are removed whatever was built in them.

A worker, or the interpreter it runs in (``--python``), works in such a folder and can
leave anything there: a chain of folders deeper than ``shutil.rmtree``'s recursion (a
``RecursionError``, which ``tempfile.TemporaryDirectory`` lets through as a traceback), or
folders it made unreadable. ``remove_tree`` falls back on ``rm -rf`` for those.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
import subprocess
import tempfile
from collections.abc import Iterator

RM_TIMEOUT = 60.0


def remove_tree(folder: str | os.PathLike[str]) -> None:
    """Remove ``folder`` and everything in it, as far as this user can; never raises."""
    path = os.fspath(folder)
    try:
        shutil.rmtree(path)
        return
    except FileNotFoundError:
        return
    except (OSError, RecursionError):
        pass
    # rm has no recursion limit; folders made unreadable are opened up (folders only: a file
    # needs no permission of its own to be removed, and a hard link to a file elsewhere must
    # keep its mode), then removed again. The tools come from the system's own folders, not
    # from a PATH that may hold the working folder.
    path = os.path.abspath(path)  # never read as an option by rm or find
    rm, find, chmod = _tool("rm"), _tool("find"), _tool("chmod")
    # each folder is opened before find reads it (';', not '+'), or it could not look inside
    opened = [find, path, "-type", "d", "-exec", chmod, "u+rwx", "{}", ";"]
    for command in ([rm, "-rf", "--", path], opened, [rm, "-rf", "--", path]):
        if command is opened and not _real_folder(path):
            return
        with contextlib.suppress(OSError, subprocess.SubprocessError):
            subprocess.run(
                command,
                timeout=RM_TIMEOUT,
                check=False,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,  # the advisor's own message stays one line
            )
        if not os.path.lexists(path):
            return


def _tool(name: str) -> str:
    """``name``'s full path in the system's default folders (/bin, /usr/bin), else the name."""
    return shutil.which(name, path=os.defpath) or name


def _real_folder(path: str) -> bool:
    try:
        return stat.S_ISDIR(os.lstat(path).st_mode)
    except OSError:
        return False


@contextlib.contextmanager
def private_folder(prefix: str = "advisor-") -> Iterator[str]:
    """A new private temporary folder (0700), removed afterwards by ``remove_tree``."""
    folder = tempfile.mkdtemp(prefix=prefix)
    try:
        yield folder
    finally:
        remove_tree(folder)
