"""Start a worker subprocess, follow its event stream, enforce timeouts, explain deaths.

The child's stdout and stderr go to private temporary files (never to the terminal);
their last lines explain a failure. Results are read while the child runs, so a crash
keeps every probe that finished before it.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from probes.env.limits import cap_file_size
from probes.env.reaper import descendants
from probes.run import trust
from probes.run.protocol import EventReader

POLL_SECONDS = 0.02
GAP_TIMEOUT = 60.0  # between one probe's result and the next start (or the final 'done')
TAIL_CHARS = 600


@dataclass
class Attempt:
    """What one child process did."""

    env: dict[str, Any] | None = None
    results: dict[str, dict[str, Any]] = field(default_factory=dict)
    import_error: dict[str, Any] | None = None
    current: str | None = None  # probe that had started but not finished when the child ended
    done: bool = False
    timed_out: bool = False
    overran: float | None = None  # the attempt's whole allowance (s), when it ran past it
    returncode: int | None = None
    elapsed: float = 0.0
    tail: str = ""
    kernels: list[str] = field(default_factory=list)  # kernels a live worker can time again
    asked: frozenset[str] = frozenset()  # the probes this child was asked to run
    live: LiveWorker | None = None  # the worker, still running, when asked to keep it alive

    def death(self) -> str:
        """Why the child ended early, in words, with the tail of its output."""
        if self.timed_out and self.overran is not None:
            what = f"ran past the whole attempt's allowance of {self.overran:.0f} s and was killed"
        elif self.timed_out:
            what = f"timed out after {self.elapsed:.0f} s and was killed"
        else:
            what = describe_exit(self.returncode)
        return f"{what}; last output: {self.tail}" if self.tail else what


MAX_FILE = 256 << 20  # bytes a worker may write to any one file (its events, stdout, stderr)
# the per-call times a round may report: a nanosecond to an hour (anything else is not one,
# and a ratio of two of them stays finite)
MIN_CALL_SECONDS, MAX_CALL_SECONDS = 1e-9, 3600.0


def _cap_files() -> None:
    """In the child, before it runs: a file over MAX_FILE stops it (SIGXFSZ), so a worker
    cannot fill the disk through its output files before its timeout."""
    cap_file_size(MAX_FILE)


def describe_exit(code: int | None) -> str:
    if code is None:
        return "worker ended without a status"
    if code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        if name == "SIGSEGV":
            return "worker crashed with SIGSEGV (segmentation fault)"
        if name == "SIGKILL":
            return "worker was killed by SIGKILL (often the kernel's out-of-memory killer)"
        if name == "SIGABRT":
            return "worker aborted (SIGABRT)"
        if name == "SIGXFSZ":
            return f"worker was stopped for writing a file over {MAX_FILE >> 20} MB (SIGXFSZ)"
        return f"worker died from {name}"
    return f"worker exited with status {code}"


def worker_command(
    framework: str,
    probes: list[str],
    level: str,
    out: Path,
    workload: Mapping[str, Any] | None,
    options: Mapping[str, Any],
    *,
    python: str | None = None,
    threads: int = 0,
    cpus: str = "",
    serve: bool = False,
) -> list[str]:
    command = [
        python or sys.executable,
        "-m",
        "probes.run.worker",
        "--framework",
        framework,
        "--probes",
        ",".join(probes),
        "--level",
        level,
        "--out",
        str(out),
        "--workload",
        json.dumps(dict(workload or {})),
        "--options",
        json.dumps(dict(options)),
        "--threads",
        str(threads),
    ]
    if cpus:
        command += ["--cpus", cpus]
    return [*command, "--serve"] if serve else command


def child_environment(extra: Mapping[str, str], package_root: str | None = None) -> dict[str, str]:
    """The parent's environment, with this package importable and quiet framework logs.

    ``package_root`` is the folder holding the ``probes`` package for the child (a private
    copy for a foreign interpreter, so nothing else of the advisor's environment leaks in).
    """
    env = dict(os.environ)
    root = package_root or str(Path(__file__).resolve().parents[2])
    if package_root:  # another interpreter: only the copy, never our site-packages
        env.pop("PYTHONPATH", None)
        env.pop("PYTHONHOME", None)
    parts = [root, *[p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p and p != root]]
    env["PYTHONPATH"] = os.pathsep.join(parts)
    env.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    env["PYTHONUNBUFFERED"] = "1"
    env.update(extra)
    return env


def run_attempt(
    command: list[str],
    events_path: Path,
    env: Mapping[str, str],
    timeouts: Callable[[str | None], float],
    on_result: Callable[[str, dict[str, Any]], None],
    keep_alive: bool = False,
    cwd: str | None = None,
    probes: Sequence[str] = (),
) -> Attempt:
    """Run one child to its end (or kill it) and collect its events.

    ``timeouts(None)`` is the import allowance; ``timeouts(probe)`` each probe's. Events
    move the deadline on (a ``start`` to that probe's timeout, a result to the gap), but
    never past the whole attempt's allowance: the import, every one of ``probes`` and a gap
    after each, so a worker that keeps sending events cannot run forever. With
    ``keep_alive`` a child that reports ``done`` is left running, in ``attempt.live``
    (its command must carry ``--serve``); the caller must ``close()`` it.
    """
    attempt = Attempt(asked=frozenset(probes))
    out_path = events_path.with_suffix(".stdout")
    err_path = events_path.with_suffix(".stderr")
    with open(out_path, "wb") as out_f, open(err_path, "wb") as err_f:
        start = time.monotonic()
        proc = subprocess.Popen(
            command,
            stdin=subprocess.PIPE if keep_alive else subprocess.DEVNULL,
            stdout=out_f,
            stderr=err_f,
            env=dict(env),
            cwd=cwd,
            start_new_session=(os.name == "posix"),
            preexec_fn=_cap_files if hasattr(os, "fork") else None,
        )
        reader = EventReader(events_path)
        allowance = timeouts(None) + sum(timeouts(p) for p in probes) + 2 * GAP_TIMEOUT
        end = start + allowance
        deadline = start + timeouts(None)
        phase_start = start
        try:
            while True:
                exited = proc.poll() is not None
                for event in reader.read_new():
                    deadline, phase_start = _handle(
                        event, attempt, timeouts, on_result, deadline, phase_start
                    )
                deadline = min(deadline, end)
                if exited:  # read the rest at once: its files are capped at MAX_FILE
                    if reader.behind:
                        continue
                    break
                if keep_alive and attempt.done:
                    attempt.live = LiveWorker(proc, reader, err_path, out_path)
                    attempt.elapsed = time.monotonic() - phase_start
                    return attempt
                now = time.monotonic()
                if now > deadline:
                    attempt.timed_out = True
                    attempt.overran = allowance if deadline >= end else None
                    attempt.elapsed = now - phase_start
                    kill_tree(proc)
                    for event in reader.read_new():
                        _handle(event, attempt, timeouts, on_result, deadline, phase_start)
                    break
                time.sleep(POLL_SECONDS)
        finally:
            if attempt.live is None:
                if proc.poll() is None:
                    kill_tree(proc)
                with contextlib.suppress(subprocess.TimeoutExpired):
                    proc.wait(timeout=10)
        attempt.returncode = proc.returncode
        if not attempt.timed_out:
            attempt.elapsed = time.monotonic() - phase_start
    attempt.tail = output_tail(err_path, out_path)
    return attempt


class LiveWorker:
    """A worker kept alive after its probes, answering comparison rounds."""

    def __init__(self, proc: subprocess.Popen[bytes], reader: EventReader, *tails: Path) -> None:
        self.proc, self.reader, self.tails = proc, reader, tails

    def round(self, kernel: str, seconds: float, timeout: float) -> list[float] | NoRound:
        """Per-call seconds of one round of ``kernel``, or why there are none."""
        line = json.dumps({"cmd": "round", "kernel": kernel, "seconds": seconds}) + "\n"
        try:
            assert self.proc.stdin is not None
            self.proc.stdin.write(line.encode())
            self.proc.stdin.flush()
        except (OSError, ValueError):
            return NoRound(f"the worker is gone ({describe_exit(self.proc.poll())})")
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for event in self.reader.read_new():
                if event.get("event") == "round" and event.get("kernel") == kernel:
                    samples = event.get("per_call")
                    if isinstance(samples, list) and samples:
                        return _seconds(samples)
                    reason = str(event.get("error") or "no samples")
                    return NoRound(reason[: trust.MAX_TEXT])
            if self.proc.poll() is not None:
                reason = f"{describe_exit(self.proc.returncode)}; {output_tail(*self.tails)}"
                return NoRound(reason)
            time.sleep(POLL_SECONDS / 4)
        return NoRound(f"no answer within {timeout:.0f} s")

    def close(self, grace: float = 5.0) -> None:
        """Ask the worker to exit; kill it (and anything it started) if it does not."""
        close_all([self], grace)


@dataclass(frozen=True)
class NoRound:
    """Why a round has no times. The worker is not asked again: silent, gone or dead, or
    answering with an error or with values that are not times, it cannot complete the
    pairs the comparison needs, and one that answers each round late with an error would
    otherwise hold the run for every round."""

    reason: str


def _seconds(samples: list[Any]) -> list[float] | NoRound:
    """A round's per-call times, read as input: each a finite number of seconds between
    MIN_CALL_SECONDS and MAX_CALL_SECONDS (a bool, a string, 1e400 or 10**400 is not)."""
    out = []
    for value in samples:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return NoRound("a round answer holds something that is not a time in seconds")
        try:
            seconds = float(value)
        except OverflowError:
            return NoRound("a round answer holds a time too large to be one")
        if not MIN_CALL_SECONDS <= seconds <= MAX_CALL_SECONDS:  # also NaN and infinities
            return NoRound(f"a round answer holds {seconds!r} s, not a time a call can take")
        out.append(seconds)
    return out


def close_all(workers: list[LiveWorker], grace: float = 1.0) -> None:
    """Ask every live worker to exit at once (end of stdin), then kill those still running.

    Their results are already in, so a framework's slow teardown costs at most ``grace``.
    """
    for worker in workers:
        with contextlib.suppress(OSError, ValueError):
            if worker.proc.stdin is not None:
                worker.proc.stdin.close()
    deadline = time.monotonic() + grace
    for worker in workers:
        try:
            worker.proc.wait(timeout=max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            kill_tree(worker.proc)
            with contextlib.suppress(subprocess.TimeoutExpired):
                worker.proc.wait(timeout=5)


def _handle(
    event: dict[str, Any],
    attempt: Attempt,
    timeouts: Callable[[str | None], float],
    on_result: Callable[[str, dict[str, Any]], None],
    deadline: float,
    phase_start: float,
) -> tuple[float, float]:
    kind = event.get("event")
    now = time.monotonic()
    if kind == "env":
        attempt.env = trust.clean_env(event)
        return now + GAP_TIMEOUT, now
    if kind == "import_error":
        attempt.import_error = trust.clean_import_error(event)
        return deadline, phase_start
    probe = event.get("probe")
    if not isinstance(probe, str):
        probe = None
    if kind == "start" and probe in attempt.asked:  # a probe it was not asked for is no
        # start (the catalog may not even know its timeout)
        attempt.current = probe
        return now + timeouts(probe), now
    if kind == "result" and probe in attempt.asked and probe not in attempt.results:
        # a probe's first result is its result, and one it was not asked for is none: a
        # worker naming a new probe in each of its 256 MB of events had held 1.35 GB, and
        # one repeating a result 4 million times printed as many progress lines (61 s)
        result = {k: v for k, v in event.items() if k not in ("event", "probe")}
        if not trust.valid_result(result):
            result = {"status": "failed", "reason": "the worker sent a result of the wrong shape"}
        attempt.results[probe] = result
        attempt.current = None
        on_result(probe, result)
        return now + GAP_TIMEOUT, now
    if kind == "done":
        attempt.done = True
        kernels = event.get("kernels")
        attempt.kernels = [str(k) for k in kernels] if isinstance(kernels, list) else []
    return deadline, phase_start


def kill_tree(proc: subprocess.Popen[bytes]) -> None:
    """SIGKILL the child, its process group and every descendant (torchrun's ranks too)."""
    if os.name != "posix":
        with contextlib.suppress(OSError):
            proc.kill()
        return
    for pid in [*descendants(proc.pid), proc.pid]:  # probes/env/reaper.py reads /proc
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
    with contextlib.suppress(OSError):
        os.killpg(proc.pid, signal.SIGKILL)


def output_tail(*paths: Path) -> str:
    """The last few non-empty lines of the child's stderr (or stdout), one line of text."""
    for path in paths:
        handle = trust.open_regular(path)  # a worker may have swapped it for a FIFO
        if handle is None:
            continue
        try:
            with handle:
                handle.seek(0, os.SEEK_END)
                size = handle.tell()
                handle.seek(max(0, size - 4096))
                text = handle.read().decode("utf-8", errors="replace")
        except OSError:
            continue
        lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
        fatal = [i for i, ln in enumerate(lines) if ln.startswith("Fatal Python error")]
        if fatal:  # faulthandler: the error, then the innermost frame first
            first = fatal[-1]
            frames = [ln for ln in lines[first + 1 :] if ln.startswith("File ")]
            lines = [lines[first], *frames[:2]]
        elif lines:
            lines = [ln for ln in lines if not ln.startswith("Extension modules:")][-4:]
        if lines:
            return " | ".join(lines)[-TAIL_CHARS:]
    return ""
