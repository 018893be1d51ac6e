"""Run the advisor as an attacker's victim would, and check every promise at once.

``run`` starts ``python -m advisor`` in a subprocess under ``RLIMIT_AS`` = 500 MB and
measures its wall time and peak memory (``ru_maxrss`` from ``wait4``).
``assert_refused`` checks the contract of a refused input: the exit code, nothing on
stdout, one short ``advisor: error:`` line that names the file (and the field), no
traceback, no raw control characters, and the time and memory bounds.
"""

from __future__ import annotations

import importlib.util
import os
import re
import resource
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
CORPUS = Path(__file__).resolve().parent / "bad_inputs" / "hostile"
# Fake interpreters that hand the advisor's inspection to this one need PyTorch here: under the
# light install (or a JAX-only one) the advisor rightly skips PyTorch's probes before any worker.
needs_torch_here = pytest.mark.skipif(
    importlib.util.find_spec("torch") is None,
    reason="PyTorch not installed: pip install -c constraints-cpu.txt -e '.[test,all]'",
)
MEMORY_LIMIT = 500 * 1024 * 1024
# The work an input may cost, in CPU seconds (user + system, the advisor and the children
# it waited for): a count of work that a busy machine stretches in wall time but does not
# change (a template burning its 1 s CPU budget had taken 8.5 s of wall time beside three
# other test workers on two cores). WALL_LIMIT still catches a run that waits or sleeps.
TIME_LIMIT = 5.0
WALL_LIMIT = 30.0
LINE_LIMIT = 1000  # characters of the one error line, whatever the input held

# Raw control characters a terminal could act on (tab and newline are fine).
RAW_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u202a-\u202e\u2066-\u2069]")


@dataclass
class Result:
    code: int
    out: str
    err: str
    seconds: float
    max_rss_mb: float
    cpu_seconds: float = 0.0


def _limiter(close: tuple[int, ...]) -> Callable[[], None]:
    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        for fd in close:  # e.g. `>&-`: the advisor starts with this descriptor closed
            os.close(fd)

    return limit


def run(
    *args: str,
    cwd: Path,
    stdin: Any = subprocess.DEVNULL,
    stdout: Any = subprocess.PIPE,
    env: dict[str, str] | None = None,
    timeout: float = 60,
    close: tuple[int, ...] = (),
) -> Result:
    """``python -m advisor ARGS`` in ``cwd`` with the memory limit; returns what it did."""
    full_env = {**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}
    with tempfile.TemporaryFile() as out_f, tempfile.TemporaryFile() as err_f:
        start = time.monotonic()
        proc = subprocess.Popen(
            [sys.executable, "-m", "advisor", *args],
            cwd=cwd,
            stdin=stdin,
            stdout=out_f if stdout is subprocess.PIPE else stdout,
            stderr=err_f,
            env=full_env,
            preexec_fn=_limiter(close),
        )
        timer = threading.Timer(timeout, proc.kill)
        timer.start()
        try:
            _, status, usage = os.wait4(proc.pid, 0)
        finally:
            timer.cancel()
        seconds = time.monotonic() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        out_f.seek(0)
        err_f.seek(0)
        out_b, err_b = out_f.read(), err_f.read()
    if seconds >= timeout:
        raise AssertionError(f"advisor {args} ran longer than {timeout} s")
    return Result(
        proc.returncode,
        out_b.decode("utf-8", "replace"),
        err_b.decode("utf-8", "replace"),
        seconds,
        usage.ru_maxrss / 1024,  # Linux reports KB
        usage.ru_utime + usage.ru_stime,
    )


def assert_clean(result: Result) -> None:
    """No traceback and no raw control character anywhere in what the advisor printed."""
    assert "Traceback" not in result.err + result.out, result.err[-2000:]
    assert not RAW_CONTROL.search(result.err), repr(result.err[:400])
    assert not RAW_CONTROL.search(result.out), repr(result.out[:400])
    assert result.cpu_seconds <= TIME_LIMIT, f"took {result.cpu_seconds:.1f} s of CPU"
    assert result.seconds <= WALL_LIMIT, f"took {result.seconds:.1f} s"
    assert result.max_rss_mb <= MEMORY_LIMIT / 2**20, f"peak memory {result.max_rss_mb:.0f} MB"


def assert_refused(result: Result, *fragments: str, code: int = 2) -> str:
    """The refusal contract; returns the one error line."""
    assert result.code == code, (result.code, result.err[-2000:])
    assert_clean(result)
    assert result.out == "", result.out[:400]
    lines = result.err.strip().splitlines()
    assert len(lines) == 1, result.err[:2000]
    line = lines[0]
    assert line.startswith("advisor: error: "), line
    assert len(line) <= LINE_LIMIT, len(line)
    for fragment in fragments:
        assert fragment in line, (fragment, line)
    return line


def snapshot(folder: Path) -> dict[str, tuple[int, bytes]]:
    """Every entry under ``folder`` (symlinks not followed) with its mode and content."""
    out: dict[str, tuple[int, bytes]] = {}
    for path in sorted(folder.rglob("*")):
        info = path.lstat()
        data = b""
        if path.is_file() and not path.is_symlink():
            data = path.read_bytes()
        elif path.is_symlink():
            data = os.readlink(path).encode()
        out[str(path.relative_to(folder))] = (info.st_mode, data)
    return out


# A stand-in for `--python`: it answers the interpreter check, reports every probe ok, offers
# one kernel to compare, then answers each comparison round with ``round_line`` (Python
# source for the loop body, run once per round command; `emit`, `json`, `os` and `time` in
# scope). Rounds 21 and 22 of the red team made their workers from it.
_FAKE_HEAD = """#!{python}
import json, os, sys, time
a = sys.argv[1:]
if "-c" in a:
    print(json.dumps({{"version": [3, 11, 0], "numpy": "1.26",
                      "frameworks": {{"pytorch": "2.1", "jax": "0.4"}}}}))
    sys.exit()
out = open(a[a.index("--out") + 1], "a")
def emit(line):
    out.write(line + "\\n"); out.flush()
emit('{{"event": "env"}}')
for p in a[a.index("--probes") + 1].split(","):
    emit(json.dumps({{"event": "result", "probe": p, "status": "ok", "metrics": {{}}}}))
emit('{{"event": "done", "kernels": ["matmul"]}}')
for line in sys.stdin:
"""


def fake_interpreter(folder: Path, round_body: str) -> Path:
    """Write an executable fake interpreter into ``folder``; ``round_body`` is indented
    Python run for each round command."""
    path = folder / "fakepy"
    body = "".join(f"    {line}\n" for line in round_body.strip("\n").splitlines())
    path.write_text(_FAKE_HEAD.format(python=sys.executable) + body)
    path.chmod(0o755)
    return path
