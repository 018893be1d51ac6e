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
    # rm has no recursion limit; a folder made unreadable is opened up, then removed again
    # (chmod only on the folder itself, never through a link swapped into its place)
    for command in (["rm", "-rf"], ["chmod", "-R", "u+rwx"], ["rm", "-rf"]):
        if command[0] == "chmod" and not _real_folder(path):
            return
        with contextlib.suppress(OSError, subprocess.SubprocessError):
            subprocess.run(
                [*command, "--", path],
                timeout=RM_TIMEOUT,
                check=False,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,  # the advisor's own message stays one line
            )
        if not os.path.lexists(path):
            return


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
