"""`--python PATH` is asked what it is under a subreaper: what it leaves running is
stopped, even a process that left its session with setsid."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import pytest

import probes.env.interpreter as interpreter
from probes.env.interpreter import InterpreterError, inspect

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux /proc")


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            state = handle.read().rsplit(b")", 1)[1].split()[0]
    except OSError:
        return False
    return state != b"Z"


def _fake(tmp_path: Path, body: str) -> Path:
    script = tmp_path / "python"
    script.write_text(f'#!/bin/sh\n{body}\nexec "{sys.executable}" "$@"\n')
    script.chmod(0o755)
    return script


def _pids(pid_file: Path) -> list[int]:
    for _ in range(200):  # the background shell writes it at once; allow a slow machine
        if pid_file.exists() and pid_file.read_text().strip():
            break
        time.sleep(0.01)
    return [int(p) for p in pid_file.read_text().split()]


@pytest.mark.parametrize(
    "spawn",
    [
        "setsid sh -c 'echo $$ >> {f}; exec sleep 300' </dev/null >/dev/null 2>&1 &",
        # a daemon: a new session, then a grandchild whose parent exits at once
        "setsid sh -c '(echo $$ >> {f}; sh -c \"echo \\$\\$ >> {f}; exec sleep 300\" &)' "
        "</dev/null >/dev/null 2>&1 &",
        "sh -c 'echo $$ >> {f}; exec sleep 300' </dev/null >/dev/null 2>&1 &",
    ],
)
def test_what_the_interpreter_leaves_running_is_stopped(tmp_path: Path, spawn: str) -> None:
    pid_file = tmp_path / "pids"
    found = inspect(str(_fake(tmp_path, spawn.format(f=pid_file))))
    assert found.version
    pids = _pids(pid_file)
    deadline = time.monotonic() + 5
    while any(_alive(p) for p in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    left = [p for p in pids if _alive(p)]
    for pid in left:  # never leave a sleeper behind, even when the test fails
        os.kill(pid, 9)
    assert not left, f"still running: {left}"


def test_an_interpreter_that_never_answers_times_out(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(interpreter, "INSPECT_TIMEOUT", 1.0)
    script = tmp_path / "python"
    script.write_text(f"#!/bin/sh\necho $$ > {tmp_path / 'pid'}\nexec sleep 300\n")
    script.chmod(0o755)
    start = time.monotonic()
    with pytest.raises(InterpreterError, match="did not answer within 1 s"):
        inspect(str(script))
    assert time.monotonic() - start < 10
    assert not _alive(int((tmp_path / "pid").read_text()))


ZOMBIE_LEADER = """
import ctypes, os, sys, threading, time
os.setsid()
with open(sys.argv[1], "a") as f:
    f.write(f"{os.getpid()}\\n")
threading.Thread(target=lambda: time.sleep(300)).start()
time.sleep(0.2)
ctypes.CDLL(None).syscall(60, 0)  # SYS_exit (x86-64): only the main thread ends
"""


@pytest.mark.skipif(os.uname().machine != "x86_64", reason="syscall number of x86-64")
def test_a_leader_whose_main_thread_exited_is_stopped_too(tmp_path: Path) -> None:
    """Its /proc state is Z while a thread still runs: it must be killed, not skipped."""
    pid_file = tmp_path / "pids"
    (tmp_path / "leader.py").write_text(ZOMBIE_LEADER)
    leader = f"{sys.executable} {tmp_path / 'leader.py'} {pid_file}"
    spawn = f"{leader} </dev/null >/dev/null 2>&1 &\nsleep 1"
    start = time.monotonic()
    inspect(str(_fake(tmp_path, spawn)))
    assert time.monotonic() - start < 5  # no 5 s sweep spinning on it
    (pid,) = _pids(pid_file)
    tasks = Path(f"/proc/{pid}/task")
    alive = tasks.exists() and any(tasks.iterdir())
    if alive:
        os.kill(pid, 9)
    assert not alive


CHAIN = """#!/bin/sh
echo $$ >> "$2"
if [ "$1" -gt 0 ]; then "$0" $(($1 - 1)) "$2" </dev/null >/dev/null 2>&1 & fi
exec sleep 300
"""


def test_a_deep_chain_dies_at_once(tmp_path: Path) -> None:
    """1,000 processes, each the parent of the next: killing only direct children took a
    round per level and ran out of time with most of them alive."""
    chain, pid_file = tmp_path / "chain.sh", tmp_path / "pids"
    chain.write_text(CHAIN)
    chain.chmod(0o755)
    spawn = (
        f"setsid {chain} 1000 {pid_file} </dev/null >/dev/null 2>&1 &\n"
        f'while [ "$(wc -l < {pid_file} 2>/dev/null || echo 0)" -lt 1001 ]; do sleep 0.05; done'
    )
    inspect(str(_fake(tmp_path, spawn)))
    pids = [int(p) for p in pid_file.read_text().split()]
    left = [p for p in pids if _alive(p)]
    for pid in left:
        os.kill(pid, 9)
    assert len(pids) == 1001 and not left, f"{len(left)} still running"


def test_what_a_probe_run_leaves_behind_is_stopped(tmp_path: Path) -> None:
    """With --python, probes/run/orchestrate.py measures inside reaped(): a worker's
    setsid child, which outlives the worker, is stopped when the run ends."""
    import subprocess

    from probes.env.reaper import reaped

    pid_file = tmp_path / "pid"
    with reaped() as left:
        subprocess.run(
            ["sh", "-c", f"setsid sh -c 'echo $$ > {pid_file}; exec sleep 300' &"], check=True
        )
        (pid,) = _pids(pid_file)
        assert _alive(pid)
    assert left == [0] and not _alive(pid)
