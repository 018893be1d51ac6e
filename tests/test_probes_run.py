"""The probes against the real frameworks, in subprocesses (marked ``probes``: slower).

Replicate budgets are shortened with $ADVISOR_PROBE_TIME_SCALE where only the
plumbing is under test; no test here checks a timing against a threshold.
"""

from __future__ import annotations

import importlib.util
import json
import os
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from probes import run_probes
from probes.catalog import INSTALL
from probes.run.orchestrate import run_selected

pytestmark = pytest.mark.probes
ROOT = Path(__file__).resolve().parent.parent
HAS_TF = importlib.util.find_spec("tensorflow") is not None
INSTALLED = [
    fw
    for fw, mod in (("pytorch", "torch"), ("jax", "jax"), ("tensorflow", "tensorflow"))
    if importlib.util.find_spec(mod) is not None
]

QUICK_SCRIPT = """
import json, sys
from probes import run_probes
run = run_probes("quick", progress=lambda line: print(line, file=sys.stderr))
loaded = [m for m in ("torch", "jax", "tensorflow") if m in sys.modules]
print(json.dumps({"run": run, "parent_imported": loaded}))
"""


def _by(run: dict[str, Any]) -> dict[tuple[str, str], dict[str, Any]]:
    return {(p["framework"], p["id"]): p for p in run["probes"]}


@pytest.fixture(scope="module")
def quick_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("quick-cache")


@pytest.fixture(scope="module")
def quick(quick_cache: Path) -> dict[str, Any]:
    """One real quick run of every installed framework, in a fresh interpreter."""
    env = dict(os.environ, ADVISOR_CACHE_DIR=str(quick_cache))
    env.pop("ADVISOR_PROBE_FAULT", None)
    proc = subprocess.run(
        [sys.executable, "-c", QUICK_SCRIPT],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=300,
        check=True,
    )
    data = json.loads(proc.stdout)
    data["stderr"] = proc.stderr
    return data


def test_quick_measures_the_article_experiment(quick: dict[str, Any]) -> None:
    run = quick["run"]
    probes = _by(run)
    for fw in ("pytorch", "jax"):
        matmul = probes[(fw, "matmul")]
        assert matmul["status"] == "ok", matmul["reason"]
        gflops = matmul["metrics"]["gflops"]
        assert gflops["unit"] == "GFLOP/s" and gflops["median"] > 0 and gflops["n"] >= 3
        assert matmul["metrics"]["seconds"]["unit"] == "s"
        assert matmul["params"]["dtype"] == "float32"
        assert matmul["params"]["shape"] == [1000, 1000]
        assert 0 < matmul["metrics"]["share_of_best"]["median"] <= 1.0
        assert matmul["check"]["agrees"] is True  # same seeded inputs, same product
        autodiff = probes[(fw, "autodiff")]
        assert autodiff["metrics"]["grad_at_2"]["median"] == 7.0
        assert autodiff["metrics"]["second_derivative"]["median"] == 2.0
    tf = probes[("tensorflow", "matmul")]
    if HAS_TF:
        assert tf["status"] == "ok" and tf["metrics"]["gflops"]["median"] > 0
        assert probes[("tensorflow", "autodiff")]["metrics"]["grad_at_2"]["median"] == 7.0
    else:
        assert tf["status"] == "skipped" and INSTALL["tensorflow"] in tf["reason"]


def test_quick_reports_the_environment_and_progress(quick: dict[str, Any]) -> None:
    env = quick["run"]["environment"]
    assert env["frameworks"]["pytorch"]["installed"] and env["frameworks"]["pytorch"]["devices"]
    assert env["frameworks"]["jax"]["devices"][0]["kind"] in (
        "cpu",
        "nvidia_gpu",
        "amd_gpu",
        "tpu",
        "apple_silicon",
    )
    assert env["accelerator"]["kind"] in ("cpu", "nvidia_gpu", "amd_gpu", "tpu", "apple_silicon")
    assert isinstance(env["benchmark_index"], float) and env["benchmark_index"] > 0
    assert "pytorch" in env["threads"]
    lines = [ln for ln in quick["stderr"].splitlines() if ln.startswith("probe ")]
    assert len(lines) == len(quick["run"]["probes"])  # one progress line per probe


def test_the_parent_never_imports_a_framework(quick: dict[str, Any]) -> None:
    assert quick["parent_imported"] == []


def test_cli_json_is_clean_and_uses_the_cache(quick: dict[str, Any], quick_cache: Path) -> None:
    env = dict(os.environ, ADVISOR_CACHE_DIR=str(quick_cache))
    proc = subprocess.run(
        [sys.executable, "-m", "advisor", "probe", "--format", "json"],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=120,
        check=True,
    )
    data = json.loads(proc.stdout)  # nothing but JSON on stdout
    assert set(data) >= {"probes", "environment", "cache"}
    assert data["cache"]["used"] is True and data["cache"]["age_seconds"] >= 0
    assert data["probes"] == quick["run"]["probes"]
    assert "cached measurements" in proc.stderr
    for probe in data["probes"]:
        assert probe["status"] in ("ok", "skipped", "failed", "timeout")
        for metric in probe["metrics"].values():
            assert set(metric) >= {"median", "iqr", "n", "unit"}
    cache_file = Path(data["cache"]["path"])
    assert stat.S_IMODE(cache_file.stat().st_mode) == 0o600
    md = subprocess.run(
        [sys.executable, "-m", "advisor", "probe"],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=120,
        check=True,
    )
    assert md.stdout.startswith("# Measurements on this machine")
    assert "| matmul | pytorch | gflops |" in md.stdout


# -- faults ---------------------------------------------------------------------------------


@pytest.fixture
def fast(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    monkeypatch.setenv("ADVISOR_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("ADVISOR_PROBE_TIME_SCALE", "0.1")
    monkeypatch.delenv("ADVISOR_PROBE_HIDE", raising=False)
    return tmp_path / "cache"


def test_segfault_marks_one_probe_and_the_rest_carry_on(
    fast: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ADVISOR_PROBE_FAULT", "segv:jax:matmul")
    run = run_probes("quick", frameworks=["jax"], refresh=True)
    probes = _by(run)
    assert probes[("jax", "matmul")]["status"] == "failed"
    assert "SIGSEGV" in probes[("jax", "matmul")]["reason"]
    assert probes[("jax", "autodiff")]["status"] == "ok"  # a new worker ran the rest
    assert run["cache"]["path"] is None and not list(fast.glob("probes-*.json"))


def test_hang_times_out_and_the_rest_carry_on(fast: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ADVISOR_PROBE_FAULT", "hang:jax:matmul")
    monkeypatch.setenv("ADVISOR_PROBE_TIMEOUT", "3")
    run = run_probes("quick", frameworks=["jax"], refresh=True)
    probes = _by(run)
    assert probes[("jax", "matmul")]["status"] == "timeout"
    assert "timed out" in probes[("jax", "matmul")]["reason"]
    assert probes[("jax", "autodiff")]["status"] == "ok"


def test_exception_and_sigkill_in_two_frameworks(
    fast: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ADVISOR_PROBE_FAULT", "raise:jax:matmul,kill:pytorch:autodiff")
    probes = _by(run_probes("quick", frameworks=["pytorch", "jax"], refresh=True))
    assert probes[("jax", "matmul")]["status"] == "failed"
    assert "RuntimeError" in probes[("jax", "matmul")]["reason"]
    assert probes[("jax", "autodiff")]["status"] == "ok"
    assert probes[("pytorch", "matmul")]["status"] == "ok"
    assert probes[("pytorch", "autodiff")]["status"] == "failed"
    assert "SIGKILL" in probes[("pytorch", "autodiff")]["reason"]


def test_out_of_memory_is_a_failure(fast: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ADVISOR_PROBE_FAULT", "oom:jax:autodiff")
    probes = _by(run_probes("quick", frameworks=["jax"], refresh=True))
    assert probes[("jax", "matmul")]["status"] == "ok"
    assert probes[("jax", "autodiff")]["status"] == "failed"
    assert "out of memory" in probes[("jax", "autodiff")]["reason"]


def test_failed_import_is_skipped_with_the_install_command(
    fast: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ADVISOR_PROBE_FAULT", "import:jax")
    run = run_probes("quick", frameworks=["jax"], refresh=True)
    probes = _by(run)
    for probe in ("matmul", "autodiff"):
        assert probes[("jax", probe)]["status"] == "skipped"
        assert INSTALL["jax"] in probes[("jax", probe)]["reason"]
    # every probe ok or skipped, yet a run with injected faults is never cached: a later
    # run without them would otherwise reuse "jax is not installed"
    assert run["cache"]["path"] is None and not list(fast.glob("probes-*.json"))
    assert any("ADVISOR_PROBE_FAULT" in w for w in run["environment"]["warnings"])


# -- another interpreter (the project's environment) --------------------------------------


def test_workers_run_in_the_interpreter_given_with_python(fast: Path) -> None:
    """The test's own interpreter plays the user's project environment."""
    run = run_probes("quick", frameworks=["jax"], python=[sys.executable], refresh=True)
    probes = _by(run)
    assert probes[("jax", "matmul")]["status"] == "ok"
    env = run["environment"]
    (interp,) = env["interpreters"]
    assert interp["path"] == str(Path(sys.executable).absolute()) and interp["own"] is False
    assert interp["frameworks"]["jax"] and interp["numpy"]
    worker = env["frameworks"]["jax"]["worker_python"]
    assert Path(worker["executable"]).absolute() == Path(sys.executable).absolute()
    # the worker imported a private copy of the probes package, not the advisor's tree
    assert not Path(worker["probes_from"]).is_relative_to(ROOT)
    assert env["frameworks"]["jax"]["interpreter"] == interp["path"]


def test_a_bad_interpreter_is_an_error_and_a_good_one_still_runs(fast: Path) -> None:
    from probes.api import InterpreterError

    with pytest.raises(InterpreterError, match="no such file"):
        run_probes("quick", frameworks=["jax"], python=["/nonexistent/python"], refresh=True)
    run = run_probes(
        "quick", frameworks=["jax"], python=["/nonexistent/python", sys.executable], refresh=True
    )
    assert _by(run)[("jax", "matmul")]["status"] == "ok"
    assert any("no such file" in w for w in run["environment"]["warnings"])


# -- cache with real measurements ---------------------------------------------------------


def test_cache_reuse_corruption_and_refresh(fast: Path) -> None:
    first = run_probes("quick", frameworks=["jax"])
    assert first["cache"]["used"] is False and first["cache"]["path"]
    path = Path(first["cache"]["path"])
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    second = run_probes("quick", frameworks=["jax"])
    assert second["cache"]["used"] is True and second["probes"] == first["probes"]
    path.write_text("{ this is not json")
    third = run_probes("quick", frameworks=["jax"])
    assert third["cache"]["used"] is False  # ignored, measured again ...
    assert json.loads(path.read_text())["run"]["probes"] == third["probes"]  # ... and rebuilt
    fourth = run_probes("quick", frameworks=["jax"], refresh=True)
    assert fourth["cache"]["used"] is False


# -- standard and full probes, shortened ----------------------------------------------------


def test_standard_probes_agree_across_frameworks(fast: Path) -> None:
    workload = {
        "model_family": "mlp",
        "batch_size": 32,
        "dtype": "float32",
        "per_example_gradients": True,
        "higher_order_derivatives": False,
    }
    frameworks = [fw for fw in ("pytorch", "jax") if fw in INSTALLED]
    run = run_probes("standard", frameworks=frameworks, workload=workload, refresh=True)
    probes = _by(run)
    for fw in frameworks:
        for probe in ("matmul", "autodiff", "vmap", "train_step"):
            record = probes[(fw, probe)]
            assert record["status"] == "ok", (fw, probe, record["reason"])
            assert record["check"]["agrees"] is True, (fw, probe, record["check"])
        m = probes[(fw, "matmul")]["metrics"]
        assert {"gflops_bf16", "gflops_n256", "gflops_n2000"} <= set(m)
        assert probes[(fw, "vmap")]["metrics"]["speedup"]["unit"] == "x"
        assert probes[(fw, "train_step")]["params"]["batch"] == 32
    assert probes[("jax", "jit")]["metrics"]["compile_s"]["unit"] == "s"
    assert probes[("jax", "jit")]["check"]["agrees"] is True
    # torch.compile runs at standard only with a warm cache; this cache is new.
    assert probes[("pytorch", "jit")]["status"] == "skipped"
    assert "--level full" in probes[("pytorch", "jit")]["reason"]


def test_model_families_compute_the_same_loss() -> None:
    """train_step's models are the same in PyTorch and JAX: same loss on the same data."""
    code = """
import json, sys
from probes.suite import data as W, models
from probes.backends import torch_backend, jax_backend
backends = [torch_backend.load(), jax_backend.load()]
if "tf" in sys.argv:
    from probes.backends import tf_backend
    backends.append(tf_backend.load())
out = {}
for family in ("mlp", "cnn", "transformer", "rnn"):
    for size in ("toy", "cpu"):
        spec = W.spec(family, size)
        params = W.init_params(spec)
        x, y = W.batch(spec, 4)
        out[family + "/" + size] = [
            float(b.numpy(models.loss(b, spec)([b.put(p) for p in params], b.put(x),
                                                 b.labels(y))))
            for b in backends]
print(json.dumps(out))
"""
    args = [sys.executable, "-c", code, *(["tf"] if HAS_TF else [])]
    out = subprocess.run(args, capture_output=True, text=True, cwd=ROOT, timeout=180, check=True)
    losses = json.loads(out.stdout.strip().splitlines()[-1])
    assert {k.split("/")[0] for k in losses} == {"mlp", "cnn", "transformer", "rnn"}
    for family, (torch_loss, *others) in losses.items():
        for other in others:  # JAX, and TensorFlow when installed
            assert other == pytest.approx(torch_loss, rel=1e-4), family


def test_scale_probe_jax_mesh(fast: Path) -> None:
    (record,) = run_selected("jax", "full", ["scale"])
    assert record["status"] == "ok", record["reason"]
    m = record["metrics"]
    assert m["devices"]["median"] >= 2 and m["efficiency"]["median"] > 0
    assert "NamedSharding" in record["params"]["engine"]
    assert "--xla_force_host_platform_device_count" in record["params"]["xla_flags"]


def test_scale_probe_pytorch_ddp(fast: Path) -> None:
    (record,) = run_selected("pytorch", "full", ["scale"])
    assert record["status"] == "ok", record["reason"]
    assert record["params"]["backend"] in ("gloo", "nccl")
    assert record["params"]["world_size"] >= 2 and record["metrics"]["efficiency"]["median"] > 0


def test_a_failed_run_removes_the_older_cached_run_it_says_will_be_measured_again(
    fast: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Red-team round 45: a run with a failed probe said "not cached; the next run measures
    again", but the next run reused an older cached run under the same key."""
    from probes.run import orchestrate

    first = run_probes("quick", frameworks=["jax"])
    path = Path(first["cache"]["path"])
    assert path.exists()
    monkeypatch.setenv("ADVISOR_PROBE_FAULT", "segv:jax:matmul")  # the workers fail ...
    monkeypatch.setattr(orchestrate.faults, "from_env", lambda: None)  # ... a real run here
    monkeypatch.setattr(orchestrate.cache, "cache_path", lambda key: path)  # the fault is in
    # the key's fingerprint; a real failure's key is the older run's
    failed = run_probes("quick", frameworks=["jax"], refresh=True)
    assert _by(failed)[("jax", "matmul")]["status"] == "failed"
    assert any("the next run measures again" in w for w in failed["environment"]["warnings"])
    assert not path.exists()
    monkeypatch.delenv("ADVISOR_PROBE_FAULT")
    assert run_probes("quick", frameworks=["jax"])["cache"]["used"] is False  # measured again
