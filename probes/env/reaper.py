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


def children(pid: int) -> set[int]:
    """The children of ``pid``, zombies included (from /proc; empty where there is none)."""
    found = set()
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
            if len(fields) > 1 and int(fields[1]) == pid:
                found.add(int(entry))
    return found


def sweep(keep: set[int]) -> int:
    """Kill and reap every child of ours not in ``keep`` until none is left; how many were
    still there when SWEEP_SECONDS ran out (0: all gone)."""
    deadline = time.monotonic() + SWEEP_SECONDS
    left = children(os.getpid()) - keep
    while left and time.monotonic() < deadline:
        for pid in left:  # a zombie leader with live threads dies with its whole group
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        for pid in left:
            with contextlib.suppress(ChildProcessError, OSError):
                os.waitpid(pid, os.WNOHANG)
        time.sleep(0.005)
        left = children(os.getpid()) - keep
    return len(left)


def run_reaped(command: list[str], *, timeout: float, **popen: Any) -> int:
    """Run ``command`` (in a session of its own) to its end, then stop all it left behind.

    Returns its exit status; raises subprocess.TimeoutExpired when it ran out of time and
    LeftRunning when something it started could not be stopped (both after the sweep)."""
    keep = children(os.getpid())  # our own children from before: never touched
    became = not _is_subreaper() and _prctl(PR_SET_CHILD_SUBREAPER, 1)
    timed_out, left = False, 0
    try:
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
            left = sweep(keep)
    finally:
        if became:
            _prctl(PR_SET_CHILD_SUBREAPER, 0)
    if timed_out:
        raise subprocess.TimeoutExpired(command, timeout)
    if left:
        raise LeftRunning(f"{left} process(es) it started could not be stopped")
    return int(proc.returncode or 0)
