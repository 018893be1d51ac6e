"""Run a command and, when it ends, stop everything it left running, sessions of its own too.

Usage: python -I reaper.py TIMEOUT COMMAND...

Killing a process group misses a process that called ``setsid``: it has left the group.
On Linux this process makes itself a child subreaper (``PR_SET_CHILD_SUBREAPER``), so
every orphan the command leaves behind, whatever its session, is reparented here instead
of to init; when the command exits (or TIMEOUT seconds pass) every child of this process
is killed, again and again until none is left. Exit status: 124 when the command ran out
of time, else 0. Where the call does not exist (macOS) it falls back to killing what it
can see. Standard library only: it runs in the advisor's own interpreter, isolated (-I).
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import subprocess
import sys
import time

PR_SET_CHILD_SUBREAPER = 36
SWEEP_SECONDS = 5.0  # at most this long to kill what the command left behind


def become_subreaper() -> bool:
    """Ask the kernel to reparent our orphaned descendants to us; False where it cannot."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return int(libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)) == 0
    except (OSError, AttributeError):
        return False


def children(pid: int) -> list[int]:
    """The live children of ``pid`` (from /proc; empty where there is no /proc)."""
    found = []
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
            if len(fields) > 1 and int(fields[1]) == pid and fields[0] != b"Z":
                found.append(int(entry))
    return found


def sweep(proc: subprocess.Popen[bytes]) -> None:
    """Kill the command and every process reparented to us, and reap them all."""
    with contextlib.suppress(OSError):
        proc.kill()
    deadline = time.monotonic() + SWEEP_SECONDS
    while time.monotonic() < deadline:
        for pid in children(os.getpid()):
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        try:
            while os.waitpid(-1, os.WNOHANG)[0]:
                pass
        except ChildProcessError:
            return  # no child of ours is left, running or not
        time.sleep(0.01)


def main(argv: list[str]) -> int:
    timeout, command = float(argv[1]), argv[2:]
    become_subreaper()
    proc = subprocess.Popen(command)  # stdio, folder and limits are ours, as given
    code = 0
    try:
        proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        code = 124
    finally:
        sweep(proc)
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv))
