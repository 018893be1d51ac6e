"""The probes' contract, no framework needed: catalog, records, comparisons, load, interpreters."""

from __future__ import annotations

import ast
import json
import os
import sys
from pathlib import Path

import pytest

from probes import catalog
from probes.env import interpreter, load
from probes.measure import agreement
from probes.measure.significance import compare
from probes.measure.stats import bootstrap_median
from probes.records import Comparison, Environment, ProbeRecord, ProbeRun

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures"


# -- catalog ----------------------------------------------------------------------------------


def test_levels_grow_and_every_probe_has_a_suite_module() -> None:
    quick, standard, full = (set(catalog.level_probes(lv)) for lv in catalog.LEVELS)
    assert quick == {"matmul", "autodiff"} and quick < standard < full
    assert "workload" in standard and "scale" in full - standard
    for spec in catalog.PROBES:
        assert (ROOT / (spec.module.replace(".", "/") + ".py")).is_file(), spec.id
        assert set(spec.frameworks) <= set(catalog.FRAMEWORKS)
        assert catalog.timeout_for(spec.id, spec.level) > 0
    for fw in catalog.FRAMEWORK_SPECS:
        assert (ROOT / (fw.backend.replace(".", "/") + ".py")).is_file(), fw.id


def test_every_backend_implements_the_protocol() -> None:
    """Read from source (no framework import): every backend class has every protocol method."""
    protocol = _methods(ROOT / "probes/suite/backend.py", "Backend")
    for fw in catalog.FRAMEWORK_SPECS:
        path = ROOT / (fw.backend.replace(".", "/") + ".py")
        tree = ast.parse(path.read_text())
        classes = [n for n in tree.body if isinstance(n, ast.ClassDef)]
        assert len(classes) == 1, path
        missing = protocol - _methods(path, classes[0].name)
        assert not missing, (fw.id, missing)


def _methods(path: Path, cls: str) -> set[str]:
    tree = ast.parse(path.read_text())
    node = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == cls)
    names = {n.name for n in node.body if isinstance(n, ast.FunctionDef)}
    names |= {
        n.target.id
        for n in node.body
        if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name)
    }
    names |= {
        t.id
        for n in node.body
        if isinstance(n, ast.Assign)
        for t in n.targets
        if isinstance(t, ast.Name)
    }
    return names - {"__init__"}


def test_fingerprint_covers_the_measuring_code(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = catalog.fingerprint()
    assert first == catalog.fingerprint()  # stable
    monkeypatch.setattr(catalog, "METHOD_VERSION", "changed")
    assert catalog.fingerprint() != first


def test_ok_median_is_defined_once() -> None:
    data = {
        "id": "matmul",
        "framework": "jax",
        "status": "ok",
        "metrics": {"gflops": {"median": 5.0, "iqr": 0.1, "n": 3, "unit": "GFLOP/s"}},
    }
    assert catalog.ok_median(data, "gflops") == 5.0
    assert catalog.ok_median(ProbeRecord.from_json(data), "gflops") == 5.0
    assert catalog.ok_median({**data, "status": "failed"}, "gflops") is None
    assert catalog.ok_median(data, "missing") is None


def test_probes_import_nothing_from_the_advisor() -> None:
    for path in (ROOT / "probes").rglob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            names = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
                if isinstance(node, ast.ImportFrom)
                else []
            )
            assert not any(n == "advisor" or n.startswith("advisor.") for n in names), path


def test_no_probe_module_is_over_400_lines() -> None:
    for path in (ROOT / "probes").rglob("*.py"):
        assert len(path.read_text().splitlines()) <= 400, path


# -- typed records ------------------------------------------------------------------------------


@pytest.mark.parametrize("fixture", ["probes_quick.json", "probes_standard.json"])
def test_records_round_trip_the_wire_format(fixture: str) -> None:
    data = json.loads((FIXTURES / fixture).read_text())
    run = ProbeRun.from_json(data)
    again = run.to_json()
    for old, new in zip(data["probes"], again["probes"], strict=True):
        assert {k: v for k, v in new.items() if k in old} == {
            k: v for k, v in old.items() if k in new
        }
    assert Environment.from_json(data["environment"]).to_json() == data["environment"]
    assert again["comparisons"] == []


def test_a_malformed_worker_result_is_failed_not_raised() -> None:
    record = ProbeRecord.from_json(
        {
            "id": "matmul",
            "framework": "jax",
            "status": "weird",
            "metrics": {
                "gflops": {"median": "fast"},
                "ok": {"median": 1, "iqr": 0, "n": 1, "unit": "x"},
            },
        }
    )
    assert record.status == "failed" and list(record.metrics) == ["ok"]


# -- comparisons ----------------------------------------------------------------------------------


def test_a_consistent_difference_is_significant() -> None:
    c = compare(
        "train_step",
        "steps_per_s",
        "ratio",
        "jax",
        "pytorch",
        [1.0, 1.02, 0.98, 1.01, 0.99, 1.0],
        [2.0, 2.1, 1.9, 2.0, 2.05, 1.95],
        distortion=None,
        threads=2,
    )
    assert c.significant and not c.distorted and c.ratio == pytest.approx(2.0, rel=0.05)
    assert c.decides and c.to_json()["decides"] is True
    assert c.interval is not None and c.interval[0] > 1.1 and c.sign_agreement == 1.0
    assert Comparison.from_json(json.loads(json.dumps(c.to_json()))) == c


def test_a_small_difference_is_none_and_an_inconsistent_one_inconclusive() -> None:
    small = compare(
        "matmul",
        "gflops",
        "ratio",
        "jax",
        "pytorch",
        [1.0] * 6,
        [1.03, 0.99, 1.04, 1.02, 0.98, 1.05],
        distortion=None,
        threads=2,
    )
    noisy = compare(
        "matmul",
        "gflops",
        "ratio",
        "jax",
        "pytorch",
        [1.0] * 6,
        [3.0, 0.4, 2.5, 0.5, 3.0, 0.45],
        distortion=None,
        threads=2,
    )
    assert not small.significant and small.verdict.startswith("no measurable difference")
    # rounds spread from 0.4x to 3x: the interval reaches past the band, so nothing is shown
    assert not noisy.significant and noisy.verdict.startswith("inconclusive")


def test_a_distorted_comparison_says_why() -> None:
    c = compare(
        "train_step",
        "steps_per_s",
        "ratio",
        "jax",
        "pytorch",
        [1.0] * 5,
        [3.0] * 5,
        distortion="other processes used 1.0 of 2 CPUs",
        threads=1,
    )
    assert c.distorted and c.reason and c.verdict.startswith("not compared")
    assert c.significant and not c.decides  # a clear ratio, but the machine was too busy
    run = ProbeRun("standard", ["pytorch", "jax"], [], Environment.from_json({}), [c])
    assert run.decisive_ratio("train_step", "jax") is None


def test_bootstrap_is_repeatable() -> None:
    values = [1.1, 1.3, 0.9, 1.2, 1.25, 1.05]
    assert bootstrap_median(values) == bootstrap_median(values)
    lo, hi = bootstrap_median(values)
    assert lo <= 1.15 <= hi


def test_mfu_uses_the_best_matmul_in_the_same_dtype() -> None:
    def rec(fw: str, probe: str, metrics: dict[str, float], dtype: str = "float32") -> ProbeRecord:
        return ProbeRecord.from_json(
            {
                "id": probe,
                "framework": fw,
                "status": "ok",
                "params": {"dtype": dtype},
                "metrics": {
                    k: {"median": v, "iqr": 0.0, "n": 5, "unit": "x"} for k, v in metrics.items()
                },
            }
        )

    probes = [
        rec("pytorch", "matmul", {"gflops": 100.0}),
        rec("jax", "matmul", {"gflops": 80.0}),
        rec("pytorch", "workload", {"model_gflops": 50.0, "peak_gflops": 90.0}),
        rec("jax", "workload", {"model_gflops": 60.0, "peak_gflops": 120.0}),
    ]
    agreement.add_mfu(probes)
    assert probes[2].metrics["mfu"].median == pytest.approx(50 / 120, rel=1e-3)
    assert probes[3].metrics["mfu"].median == pytest.approx(0.5)
    assert probes[3].params["machine_peak_source"] == "jax workload peak matmul"


# -- load and threads ---------------------------------------------------------------------------


def test_thread_plan_respects_the_users_settings() -> None:
    plan = load.ThreadPlan(available=2, other_busy=1.0, threads=1, cpus=[0], passive=True)
    env = plan.worker_env({"MKL_NUM_THREADS": "4"})
    assert env["OMP_NUM_THREADS"] == "1" and "MKL_NUM_THREADS" not in env
    assert env["OMP_WAIT_POLICY"] == "PASSIVE" and env["KMP_BLOCKTIME"] == "0"
    idle = load.ThreadPlan(available=2, other_busy=0.0, threads=2)
    assert idle.worker_env({}) == {} and idle.worker_threads == 0  # framework defaults


def test_other_busy_subtracts_our_own_time() -> None:
    before = load.CpuSnapshot(0.0, {0: (0, 0), 1: (0, 0)}, 0)
    after = load.CpuSnapshot(1.0, {0: (100, 100), 1: (50, 100)}, 50)
    ticks = os.sysconf("SC_CLK_TCK")
    expected = 1.5 - 50 / ticks
    assert load.other_busy(before, after, [0, 1]) == pytest.approx(max(0.0, expected), abs=0.01)
    assert load.busiest_last(before, after, [0, 1]) == [1, 0]


def test_plan_threads_stays_within_the_available_cpus() -> None:
    plan = load.plan_threads(0.05)
    assert 1 <= plan.threads <= plan.available
    assert set(plan.cpus) <= set(os.sched_getaffinity(0))


# -- interpreters -------------------------------------------------------------------------------


def test_our_own_interpreter_is_inspected_like_a_foreign_one() -> None:
    own = interpreter.inspect(sys.executable)
    assert own.version.count(".") == 2 and own.numpy and not own.own
    assert own.frameworks == interpreter.current().frameworks


@pytest.mark.parametrize("case", ["missing", "directory", "not_python", "old", "no_numpy"])
def test_bad_interpreters_are_one_line_errors(case: str, tmp_path: Path) -> None:
    path = tmp_path / "python"
    if case == "directory":
        path.mkdir()
    elif case == "not_python":
        path.write_text("#!/bin/sh\necho hello\n")
    elif case == "old":
        path.write_text('#!/bin/sh\necho \'{"version": [3, 8, 10], "implementation": "x"}\'\n')
    elif case == "no_numpy":
        path.write_text(
            '#!/bin/sh\necho \'{"version": [3, 12, 1], "implementation": "cpython", '
            '"numpy": null, "frameworks": {}}\'\n'
        )
    if path.exists() and path.is_file():
        path.chmod(0o755)
    with pytest.raises(interpreter.InterpreterError) as info:
        interpreter.resolve([str(path)])
    message = str(info.value)
    assert "\n" not in message and str(path) in message
    expected = {
        "missing": "no such file",
        "directory": "not an executable",
        "not_python": "not a working Python",
        "old": "too old",
        "no_numpy": "NumPy is not installed",
    }[case]
    assert expected in message


def test_one_bad_interpreter_among_good_ones_is_a_warning(tmp_path: Path) -> None:
    found, problems = interpreter.resolve([str(tmp_path / "nope"), sys.executable])
    assert [i.path for i in found] == [str(Path(sys.executable).absolute())]
    assert len(problems) == 1 and "no such file" in problems[0]


# -- interleaved rounds (fake workers: no framework) --------------------------------------------


class _FakeProc:
    pid = os.getpid()


class _FakeWorker:
    def __init__(self, name: str, seconds: float, calls: list[str]) -> None:
        self.name, self.seconds, self.calls, self.proc = name, seconds, calls, _FakeProc()

    def round(self, kernel: str, seconds: float, timeout: float) -> list[float] | str:
        self.calls.append(f"{self.name}:{kernel}")
        return [self.seconds] * 3


def _pair(calls: list[str], torch_seconds: float) -> tuple[dict[str, _FakeWorker], load.ThreadPlan]:
    """A fake PyTorch worker and a fake JAX worker (1 ms a call), and a 2-thread plan."""
    workers = {
        "pytorch": _FakeWorker("pytorch", torch_seconds, calls),
        "jax": _FakeWorker("jax", 0.001, calls),
    }
    return workers, load.ThreadPlan(available=2, other_busy=0.0, threads=2)


def test_rounds_alternate_and_compare_against_pytorch() -> None:
    from probes.run.rounds import run_rounds

    calls: list[str] = []
    workers, plan = _pair(calls, torch_seconds=0.002)
    lines: list[str] = []
    comparisons, log = run_rounds(
        workers,
        {"pytorch": ["matmul"], "jax": ["matmul"]},
        "quick",
        plan,
        baseline=0.0,
        say=lines.append,
    )
    rounds = catalog.rounds("quick").count
    matmul_calls = [c.split(":")[0] for c in calls]
    assert matmul_calls[:4] == ["pytorch", "jax", "jax", "pytorch"]  # A, B, B, A
    assert len(calls) == 2 * rounds
    (c,) = comparisons
    assert (c.numerator, c.denominator, c.ratio) == ("jax", "pytorch", 2.0)
    assert c.significant and c.rounds == rounds and len(lines) == 1
    assert not log.errors


def test_rounds_are_distorted_when_other_work_takes_the_workers_cpus() -> None:
    from probes.run.rounds import RoundLog, _judge

    log = RoundLog(other_busy_cpus=1.0, calibration=[100.0, 101.0, 99.0])
    _judge(log, load.ThreadPlan(available=2, other_busy=0.0, threads=2), baseline=100.0)
    assert log.reasons and "other processes" in log.reasons[0]
    slow = RoundLog(other_busy_cpus=0.0, calibration=[50.0, 52.0, 51.0])
    _judge(slow, load.ThreadPlan(available=2, other_busy=0.0, threads=2), baseline=100.0)
    assert slow.reasons and "calibration kernel" in slow.reasons[0]
    fine = RoundLog(other_busy_cpus=0.1, calibration=[98.0, 100.0, 99.0])
    _judge(fine, load.ThreadPlan(available=2, other_busy=0.0, threads=2), baseline=100.0)
    assert fine.reasons == []


def test_rounds_also_compare_the_bfloat16_matmul_kernel_when_registered() -> None:
    from probes.run.rounds import run_rounds

    calls: list[str] = []
    workers, plan = _pair(calls, torch_seconds=0.003)
    kernels = {"pytorch": ["matmul", "matmul_bf16"], "jax": ["matmul", "matmul_bf16"]}
    comparisons, _ = run_rounds(workers, kernels, "standard", plan, baseline=0.0, say=print)
    assert {(c.probe, c.metric) for c in comparisons} == {
        ("matmul", "gflops"),
        ("matmul", "gflops_bf16"),
    }
    assert {c.split(":")[1] for c in calls} == {"matmul", "matmul_bf16"}
    # a kernel only one framework registered is not compared
    kernels["jax"] = ["matmul"]
    comparisons, _ = run_rounds(workers, kernels, "standard", plan, baseline=0.0, say=print)
    assert [(c.probe, c.metric) for c in comparisons] == [("matmul", "gflops")]
