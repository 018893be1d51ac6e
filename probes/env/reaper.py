"""Run a command and, when it ends, stop everything it left running, sessions of its own too.

Killing a process group misses a process that called ``setsid``: it has left the group.
On Linux this process makes itself a child subreaper (``PR_SET_CHILD_SUBREAPER``) while the
command runs, so every orphan the command leaves behind, whatever its session, is
reparented to us instead of to init; when the command exits (or its time is up) every new
child of ours is killed, zombie thread-group leaders whose other threads still run
included, again and again until none is left. The subreaper is this process itself, not a
helper the command could kill first. Where the call does not exist (macOS) only the
command's process group is killed.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import subprocess
import time
from collections.abc import Iterator
from typing import Any

PR_SET_CHILD_SUBREAPER = 36
PR_GET_CHILD_SUBREAPER = 37
SWEEP_SECONDS = 5.0  # at most this long to kill what the command left behind


class LeftRunning(RuntimeError):
    """The command left processes that could not be stopped within SWEEP_SECONDS."""


def _prctl(option: int, value: Any) -> bool:
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return int(libc.prctl(option, value, 0, 0, 0)) == 0
    except (OSError, AttributeError):
        return False


def _is_subreaper() -> bool:
    flag = ctypes.c_int(0)
    return _prctl(PR_GET_CHILD_SUBREAPER, ctypes.byref(flag)) and bool(flag.value)


def _parents() -> dict[int, int]:
    """pid -> parent pid of every process (from /proc; empty where there is none)."""
    found: dict[int, int] = {}
    with contextlib.suppress(OSError):
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                with open(f"/proc/{entry}/stat", "rb") as handle:
                    stat = handle.read()
            except OSError:
                continue
            fields = stat[stat.rfind(b")") + 2 :].split()  # after "pid (comm) "
            if len(fields) > 1:
                found[int(entry)] = int(fields[1])
    return found


def _below(roots: set[int], parents: dict[int, int]) -> set[int]:
    """Every process below ``roots`` (not the roots themselves), zombies included."""
    kids: dict[int, list[int]] = {}
    for pid, parent in parents.items():
        kids.setdefault(parent, []).append(pid)
    found: set[int] = set()
    todo = [c for r in roots for c in kids.get(r, [])]
    while todo:
        pid = todo.pop()
        if pid not in found:
            found.add(pid)
            todo.extend(kids.get(pid, []))
    return found


def descendants(root: int) -> set[int]:
    """Every process below ``root`` (from /proc; empty where /proc is missing)."""
    return _below({root}, _parents())


def children(pid: int) -> set[int]:
    """The children of ``pid``, zombies included."""
    return {p for p, parent in _parents().items() if parent == pid}


def sweep(keep: set[int]) -> int:
    """Kill every process below us except ``keep`` and what lies below it, all at once
    (a chain a thousand deep dies in one round), and reap our children, until none is
    left; how many were still there when SWEEP_SECONDS ran out (0: all gone). Ctrl-C and
    SIGTERM wait until it is done, so a stop cannot leave half a sweep behind."""
    me = os.getpid()
    deadline = time.monotonic() + SWEEP_SECONDS
    blocked = {signal.SIGINT, signal.SIGTERM, signal.SIGHUP}
    old = signal.pthread_sigmask(signal.SIG_BLOCK, blocked) if hasattr(signal, "SIGHUP") else None
    try:
        while True:
            parents = _parents()
            targets = _below({me}, parents) - keep - _below(keep, parents)
            if not targets or time.monotonic() > deadline:
                return len(targets)
            for pid in targets:  # a zombie leader with live threads dies with its group
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)
            for pid in targets:
                if parents.get(pid) == me:
                    with contextlib.suppress(ChildProcessError, OSError):
                        os.waitpid(pid, os.WNOHANG)
            time.sleep(0.005)
    finally:
        if old is not None:
            signal.pthread_sigmask(signal.SIG_SETMASK, old)


@contextlib.contextmanager
def reaped() -> Iterator[list[int]]:
    """While inside, orphans of anything we start come back to us; on the way out every
    process started inside that is still running is killed. Yields a list that holds,
    afterwards, how many could not be stopped ([0]: none)."""
    keep = children(os.getpid())  # our own children from before, and what is below them
    became = not _is_subreaper() and _prctl(PR_SET_CHILD_SUBREAPER, 1)
    left = [0]
    try:
        yield left
    finally:
        try:
            left[0] = sweep(keep)
        finally:
            if became:
                _prctl(PR_SET_CHILD_SUBREAPER, 0)


def run_reaped(command: list[str], *, timeout: float, **popen: Any) -> int:
    """Run ``command`` (in a session of its own) to its end, then stop all it left behind.

    Returns its exit status; raises LeftRunning when something it started could not be
    stopped, else subprocess.TimeoutExpired when it ran out of time (both after the sweep)."""
    timed_out = False
    with reaped() as left:
        proc = subprocess.Popen(command, start_new_session=True, **popen)
        try:
            proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            timed_out = True
        finally:
            with contextlib.suppress(OSError):
                os.killpg(proc.pid, signal.SIGKILL)
            with contextlib.suppress(OSError):
                proc.kill()
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=SWEEP_SECONDS)
    if left[0]:
        raise LeftRunning(f"{left[0]} process(es) it started could not be stopped")
    if timed_out:
        raise subprocess.TimeoutExpired(command, timeout)
    return int(proc.returncode or 0)
