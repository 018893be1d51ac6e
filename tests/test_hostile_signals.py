"""SIGTERM and SIGHUP during probes: the workers die, temporary folders go, exit 128+signal.

CI cancellations send exactly these signals. A probe is made to hang (fault injection) so
the advisor is surely mid-measurement when the signal arrives.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hostile_support import ROOT


def _descendants(root: int) -> list[int]:
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="ascii", errors="replace") as handle:
                ppid = int(handle.read().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        children.setdefault(ppid, []).append(int(entry))
    out, todo = [], [root]
    while todo:
        for child in children.get(todo.pop(), []):
            out.append(child)
            todo.append(child)
    return out


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as handle:
            return handle.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.probes
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP], ids=["SIGTERM", "SIGHUP"])
def test_signal_during_probes_kills_workers_and_cleans_up(tmp_path: Path, signum: int) -> None:
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "ADVISOR_PROBE_FAULT": "hang:jax:matmul",
        "ADVISOR_PROBE_HIDE": "pytorch,tensorflow",
        "ADVISOR_CACHE_DIR": str(tmp_path / "cache"),
        "TMPDIR": str(tmp),
    }
    args = [sys.executable, "-m", "advisor", "probe", "--framework", "jax", "-o", "out.md"]
    proc = subprocess.Popen(args, cwd=tmp_path, env=env, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 60
        while not _descendants(proc.pid) and time.monotonic() < deadline:
            time.sleep(0.1)
        time.sleep(3)  # the worker imports jax, then hangs in its first probe
        workers = _descendants(proc.pid)
        assert workers and list(tmp.iterdir()), "no worker or temporary folder to clean up"
        proc.send_signal(signum)
        code = proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    err = proc.stderr.read().decode() if proc.stderr else ""
    assert code == 128 + signum, err
    assert err.strip().splitlines()[-1] == (
        f"advisor: stopped by {signal.Signals(signum).name}; nothing was written"
    )
    assert "Traceback" not in err
    time.sleep(0.5)
    assert [pid for pid in workers if _alive(pid)] == []
    assert list(tmp.iterdir()) == []
    assert not (tmp_path / "out.md").exists()


def test_stop_signals_leave_an_ignored_signal_ignored() -> None:
    """nohup-style: a signal ignored at start stays ignored (the user chose that)."""
    code = (
        "import signal; signal.signal(signal.SIGHUP, signal.SIG_IGN);"
        "from advisor.cli.stop_signals import install; install();"
        "assert signal.getsignal(signal.SIGHUP) is signal.SIG_IGN;"
        "assert signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    subprocess.run([sys.executable, "-c", code], env=env, check=True, timeout=60)
