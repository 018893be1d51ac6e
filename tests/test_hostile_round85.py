"""Red-team round 85 (security): a `--python` interpreter and its workers, and the
environment the advisor runs in (a file-size limit, a full temporary folder). Each finding,
fixed, with the promise it broke (SECURITY.md: "Probe workers", "Exit codes and streams":
a foreign interpreter cannot crash the report or put non-JSON into it; bad input of any
kind, the environment included, is exit 2 with one line and no traceback)."""

from __future__ import annotations

import json
import math
import os
import resource
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hostile_support import ROOT, assert_clean, run

from advisor.report.claims_base import matmul_seconds
from probes.env import interpreter
from probes.measure.agreement import add_mfu, add_share_of_best
from probes.records import Metric, ProbeRecord
from probes.run import launcher, trust

pytestmark = pytest.mark.skipif(os.name != "posix", reason="fake interpreters need a shebang")

# An interpreter that says it is CPython 3.11 with NumPy and PyTorch (so the advisor starts
# PyTorch's workers even under the light install) and whose worker writes ``EVENTS``: Python
# source run with `out` (the events file), `probes` (the probes asked for) and `json` in scope.
_FAKE = """#!{python}
import json, sys
a = sys.argv[1:]
if "-c" in a:
    print(json.dumps({{"version": [3, 11, 0], "implementation": "cpython", "numpy": "1.26",
                      "frameworks": {{"pytorch": "2.1", "jax": None, "tensorflow": None}}}}))
    sys.exit()
out = open(a[a.index("--out") + 1], "a")
probes = a[a.index("--probes") + 1].split(",")
def emit(event):
    out.write(json.dumps(event) + "\\n")
    out.flush()
emit({{"event": "env", "version": "2.1.0", "devices": [], "threads": {{}}}})
{events}
emit({{"event": "done", "kernels": []}})
"""


def _fake(folder: Path, events: str = "") -> Path:
    path = folder / "fakepy"
    path.write_text(_FAKE.format(python=sys.executable, events=events))
    path.chmod(0o755)
    return path


def _metric(median: float, iqr: float = 0.0, unit: str = "GFLOP/s") -> dict[str, object]:
    return {"median": median, "iqr": iqr, "n": 5, "unit": unit}


def _attempt(tmp_path: Path, lines: str) -> tuple[launcher.Attempt, list[str]]:
    """A child that appends ``lines`` (JSON events) to its events file, asked for matmul."""
    path, source = tmp_path / "w.jsonl", tmp_path / "sent.jsonl"
    source.write_text(lines)
    seen: list[str] = []
    attempt = launcher.run_attempt(
        [sys.executable, "-c", f"open({str(path)!r}, 'a').write(open({str(source)!r}).read())"],
        path,
        dict(os.environ),
        lambda probe: 30.0,
        lambda probe, result: seen.append(probe),
        probes=["matmul"],
    )
    return attempt, seen


def test_results_for_probes_a_worker_was_not_asked_for_are_not_held(tmp_path: Path) -> None:
    """Finding 1: every `result` event was kept, whatever probe it named, so a worker that
    named a new probe in each of 230 result lines of 1 MB (a fake interpreter of 20 lines)
    held the advisor at 1.35 GB of memory for a run that measured nothing."""
    unasked = "".join(
        json.dumps({"event": "result", "probe": f"x{i}", "status": "failed"}) + "\n"
        for i in range(500)
    )
    attempt, seen = _attempt(tmp_path, unasked)
    assert attempt.results == {} and seen == []


def test_a_probes_first_result_is_its_result(tmp_path: Path) -> None:
    """Finding 1, the same lines for the probe asked for: each repeat was validated, made a
    record and printed a progress line (4 million repeats: 61 s and as many lines on
    stderr), and the last one won over the first."""
    ok = {"event": "result", "probe": "matmul", "status": "ok", "metrics": {}, "params": {}}
    failed = {"event": "result", "probe": "matmul", "status": "failed", "reason": "later"}
    lines = json.dumps(ok) + "\n" + (json.dumps(failed) + "\n") * 1000
    attempt, seen = _attempt(tmp_path, lines)
    assert seen == ["matmul"] and attempt.results["matmul"]["status"] == "ok"


def _under_file_limit(
    code: str, limit: int, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """Run ``code`` in a Python whose file-size limit is ``limit`` bytes, hard and soft (as
    `ulimit -f` sets it)."""
    return subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})},
        preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit)),
        timeout=120,
        check=False,
    )


def test_asking_an_interpreter_under_a_lower_file_size_limit_is_no_traceback() -> None:
    """Finding 2: `ulimit -f 1; advisor probe --python X` stopped with a SubprocessError
    traceback (exit 1): the check raised the child's file-size limit to 1 MB, above the
    hard limit the user had set, and a failing preexec_fn fails the whole Popen."""
    done = _under_file_limit(
        "import sys\nfrom probes.env.interpreter import inspect\n"
        "print(inspect(sys.executable).version)",
        64 * 1024,
    )
    assert done.returncode == 0, done.stderr[-1500:]
    assert done.stdout.strip().count(".") == 2


def test_a_full_temporary_folder_under_python_is_one_line(tmp_path: Path) -> None:
    """Finding 3: the copy of the probes a foreign interpreter's workers import was not
    guarded: a full temporary folder (ENOSPC) or a file-size limit below a module's size
    (`ulimit -f 1`) stopped `probe --python` and `recommend --python` with a shutil.Error
    traceback (exit 1) that listed every file."""
    python = _fake(tmp_path)
    cache = tmp_path / "cache"
    cache.mkdir(mode=0o700)
    code = (
        "import sys\nfrom advisor.cli.main import main\n"
        f"sys.argv = ['advisor', 'probe', '--refresh-probes', '--python', {str(python)!r}]\n"
        "main()"
    )
    done = _under_file_limit(code, 1024, {"ADVISOR_CACHE_DIR": str(cache)})
    assert "Traceback" not in done.stderr, done.stderr[-1500:]
    assert done.returncode == 2, done.stderr[-1500:]
    line = done.stderr.strip()
    assert line.count("\n") == 0 and "cannot copy the probes" in line, line
    assert "File too large" in line and "Errno" not in line and "-> '" not in line


def test_a_failed_copy_names_its_reason_once(tmp_path: Path, monkeypatch) -> None:
    errors = [
        (f"/src/{i}.py", f"/dst/{i}.py", f"[Errno 28] No space left on device: '{i}'")
        for i in range(50)
    ]

    def full(*_: object, **__: object) -> None:
        raise shutil.Error(errors)

    monkeypatch.setattr(shutil, "copytree", full)
    foreign = interpreter.Interpreter("/x/python", "3.11.0", "cpython", "1.26", {}, own=False)
    with pytest.raises(interpreter.InterpreterError) as caught:
        interpreter.stage([foreign], tmp_path)
    assert str(caught.value) == (
        "--python: cannot copy the probes its workers run into the temporary folder "
        f"{tmp_path.parent}: No space left on device"
    )


@pytest.mark.parametrize("shape", [["abc"], [1e300], [[1]], [True], [-5]])
def test_a_matmul_shape_that_is_not_a_size_gives_no_seconds(shape: list[object]) -> None:
    """Finding 4: a foreign worker's matmul result with a rate but no time per call, and a
    `shape` of ["abc"], stopped `recommend --python X` with a ValueError traceback (exit 1)
    after every probe had run; [1e300] overflowed. The cached run was refused and measured
    again, so every later run crashed the same way."""
    record = {"status": "ok", "metrics": {"gflops": _metric(10.0)}, "params": {"shape": shape}}
    assert matmul_seconds({("matmul", "pytorch"): record}, "pytorch") is None  # type: ignore[dict-item]


def test_a_foreign_matmul_shape_is_no_traceback_end_to_end(tmp_path: Path) -> None:
    python = _fake(
        tmp_path,
        "for p in probes:\n"
        "    emit({'event': 'result', 'probe': p, 'status': 'ok', 'seconds': 0.1,\n"
        "          'params': {'shape': ['abc']}, 'metrics': {'gflops': "
        + repr(_metric(10.0))
        + "}})\n",
    )
    env = {"ADVISOR_CACHE_DIR": str(tmp_path / "cache")}
    args = ("recommend", "--example", "student-starter", "--python", str(python))
    result = run(*args, cwd=tmp_path, env=env)
    assert "Traceback" not in result.err, result.err[-1500:]
    assert result.code == 0 and "Recommend" in result.out


@pytest.mark.parametrize("median", [5e-324, 1e-300, 1e-13])
def test_a_median_too_small_to_be_a_measurement_is_a_failed_probe(median: float) -> None:
    """Finding 5: a worker's medians had only to be above 0. A bf16 matmul rate of 5e-324
    GFLOP/s became the machine's peak, and a workload's model rate over it an MFU of inf:
    `recommend --python X` stopped with a pydantic traceback, and `advisor probe --format
    json` wrote `Infinity` (not JSON); a spread (IQR over median) of 5e-324 was inf too."""
    assert not trust.valid_result({"status": "ok", "metrics": {"g": _metric(median)}})
    assert trust.valid_result({"status": "ok", "metrics": {"g": _metric(trust.MIN_MEDIAN)}})


def test_a_share_that_would_be_infinite_is_left_out() -> None:
    """Finding 5, where the parent divides: MFU and share of the best rate stay finite or
    are not given, whatever medians reach them."""
    tiny = ProbeRecord(
        "matmul", "tensorflow", "ok", metrics={"gflops_bf16": Metric(5e-324, 0, 5, "")}
    )
    tiny.metrics["gflops"] = Metric(5e-324, 1e15, 5, "GFLOP/s")
    work = ProbeRecord(
        "workload",
        "jax",
        "ok",
        params={"dtype": "bfloat16"},
        metrics={"model_gflops": Metric(1e15, 0.0, 5, "GFLOP/s")},
    )
    add_mfu([tiny, work])
    add_share_of_best([tiny])
    for record in (tiny, work):
        for metric in record.metrics.values():
            assert math.isfinite(metric.median) and math.isfinite(metric.iqr)
    assert "mfu" not in work.metrics


def test_tiny_medians_from_a_worker_put_no_infinity_in_the_json(tmp_path: Path) -> None:
    metrics = {"gflops": _metric(5e-324, 1e15), "gflops_bf16": _metric(5e-324)}
    python = _fake(
        tmp_path,
        "for p in probes:\n"
        "    emit({'event': 'result', 'probe': p, 'status': 'ok', 'seconds': 0.1,\n"
        f"          'params': {{'n': 256}}, 'metrics': {metrics!r}}})\n",
    )
    env = {"ADVISOR_CACHE_DIR": str(tmp_path / "cache")}
    result = run("probe", "--format", "json", "--python", str(python), cwd=tmp_path, env=env)
    assert_clean(result)
    assert result.code == 0, result.err[-1500:]

    def refuse(constant: str) -> None:
        raise AssertionError(f"{constant} is not JSON")

    json.loads(result.out, parse_constant=refuse)


def test_security_md_states_the_floor_the_code_enforces() -> None:
    doc = (ROOT / "SECURITY.md").read_text(encoding="utf-8")
    assert trust.MIN_MEDIAN == 1e-12
    assert "finite medians of at least 10^-12" in doc and "a median of at least 10^-12" in doc


def test_the_template_jail_keeps_a_users_lower_cpu_hard_limit() -> None:
    """Under `ulimit -t 1` the jail had asked for a hard CPU limit of 2 s, which an
    unprivileged process cannot raise to: every custom template then failed."""
    script = (
        "import resource\n"
        "from advisor.report import template_jail\n"
        "resource.setrlimit(resource.RLIMIT_CPU, (1, 1))\n"
        "template_jail._limit_resources()\n"
        "print(resource.getrlimit(resource.RLIMIT_CPU))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "(1, 1)"
