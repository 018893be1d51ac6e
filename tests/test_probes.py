"""Unit tests of the probes package that need no framework (fast)."""

from __future__ import annotations

import json
import os
import stat
import sys
from pathlib import Path
from typing import Any

import pytest

from probes.catalog import FRAMEWORKS, INSTALL, Budget
from probes.env import host as hostinfo
from probes.measure import agreement as compare
from probes.measure import stats, timing
from probes.records import ProbeRecord, ProbeRun
from probes.run import cache, faults
from probes.run.environment import environment as _environment
from probes.run.launcher import describe_exit, output_tail
from probes.run.orchestrate import run
from probes.run.protocol import EventReader, EventWriter

# -- stats and timing ---------------------------------------------------------------------


def test_metric_median_iqr_n() -> None:
    m = stats.metric([1.0, 2.0, 3.0, 4.0, 5.0], "ms")
    assert m == {"median": 3.0, "iqr": 2.0, "n": 5, "unit": "ms"}
    assert stats.metric([4.0], "s") == {"median": 4.0, "iqr": 0.0, "n": 1, "unit": "s"}


def test_ratio_propagates_relative_spread() -> None:
    num = {"median": 10.0, "iqr": 1.0, "n": 9, "unit": "ms"}
    den = {"median": 2.0, "iqr": 0.0, "n": 7, "unit": "ms"}
    r = stats.ratio(num, den, "x")
    assert r["median"] == 5.0 and r["n"] == 7 and r["iqr"] == pytest.approx(0.5)


def test_measure_takes_blocks_and_replicates() -> None:
    calls = {"n": 0}

    def call() -> int:
        calls["n"] += 1
        return sum(range(200))

    synced: list[Any] = []
    t = timing.measure(call, synced.append, Budget(min_time=0.02, max_time=0.2, min_reps=5))
    assert len(t.per_call) >= 5
    assert t.block > 1  # a microsecond call is grouped so the timer's overhead is negligible
    assert t.block * len(t.per_call) + t.warmup_calls <= calls["n"]
    assert len(synced) == calls["n"]  # every call is synchronised before the clock stops
    assert t.seconds()["n"] == len(t.per_call)
    assert t.rate(1.0, "calls/s")["median"] > 0


# -- faults and protocol ------------------------------------------------------------------


def test_fault_spec_parsing() -> None:
    parsed = faults.parse("segv:jax:matmul, hang:pytorch, bogus:x:y, import:tensorflow")
    assert [(f.kind, f.framework, f.probe) for f in parsed] == [
        ("segv", "jax", "matmul"),
        ("hang", "pytorch", "*"),
        ("import", "tensorflow", "*"),
    ]
    assert faults.import_fails(parsed, "tensorflow") and not faults.import_fails(parsed, "jax")
    assert parsed[0].matches("jax", "matmul") and not parsed[0].matches("jax", "jit")


def test_event_stream_keeps_whole_lines_only(tmp_path: Path) -> None:
    path = tmp_path / "events"
    writer = EventWriter(path)
    reader = EventReader(path)
    writer.emit({"event": "start", "probe": "matmul", "value": float("nan")})
    with open(path, "a", encoding="utf-8") as handle:
        handle.write("not json\n")
        handle.write('{"event": "result", "pro')  # a child killed mid-line
    events = reader.read_new()
    assert events == [{"event": "start", "probe": "matmul", "value": None}]
    with open(path, "a", encoding="utf-8") as handle:
        handle.write('be": "matmul"}\n')
    assert reader.read_new() == [{"event": "result", "probe": "matmul"}]


def test_exit_descriptions() -> None:
    assert "SIGSEGV" in describe_exit(-11)
    assert "SIGKILL" in describe_exit(-9) and "out-of-memory" in describe_exit(-9)
    assert "status 3" in describe_exit(3)


def test_output_tail_prefers_the_fatal_error(tmp_path: Path) -> None:
    err = tmp_path / "stderr"
    err.write_text(
        "noise\nFatal Python error: Segmentation fault\n\nCurrent thread:\n"
        '  File "/x/faults.py", line 9 in _trigger\n  File "/x/worker.py", line 1 in'
        " main\nExtension modules: numpy\n"
    )
    tail = output_tail(err)
    assert tail.startswith("Fatal Python error: Segmentation fault")
    assert "_trigger" in tail and "Extension modules" not in tail


# -- cross-framework checks ---------------------------------------------------------------


def _probe(framework: str, values: list[float], gflops: float) -> dict[str, Any]:
    return {
        "id": "matmul",
        "framework": framework,
        "status": "ok",
        "metrics": {"gflops": {"median": gflops, "iqr": 1.0, "n": 9, "unit": "GFLOP/s"}},
        "check": {"name": "c", "values": values, "scale": 1.0, "rtol": 1e-3},
    }


def test_disagreeing_results_are_flagged_and_not_ranked() -> None:
    probes = [
        ProbeRecord.from_json(p)
        for p in (
            _probe("pytorch", [10.0, 20.0], 100.0),
            _probe("jax", [10.0, 20.001], 50.0),
            _probe("tensorflow", [10.0, 25.0], 400.0),
        )
    ]
    warnings = compare.check_agreement(probes)
    assert [(p.check or {})["agrees"] for p in probes] == [True, True, False]
    assert len(warnings) == 1 and "tensorflow" in warnings[0]
    compare.add_share_of_best(probes)
    assert probes[0].metrics["share_of_best"].median == 1.0
    assert probes[1].metrics["share_of_best"].median == 0.5
    assert "share_of_best" not in probes[2].metrics


def test_accelerator_prefers_the_best_device_seen() -> None:
    envs = {
        "pytorch": {"devices": [{"kind": "nvidia_gpu", "name": "H100"}] * 2},
        "jax": {"devices": [{"kind": "cpu", "name": "cpu"}]},
    }
    assert compare.accelerator(envs) == {
        "kind": "nvidia_gpu",
        "count": 2,
        "names": ["H100", "H100"],
    }
    assert compare.accelerator({})["kind"] == "cpu"


# -- environment --------------------------------------------------------------------------


def test_host_information_without_frameworks(monkeypatch: pytest.MonkeyPatch) -> None:
    cpu = hostinfo.cpuinfo()
    assert cpu["model"] and cpu["logical_cpus"] >= 1 and isinstance(cpu["flags"], list)
    monkeypatch.setenv("XLA_FLAGS", "--xla_dump_to=/tmp")
    monkeypatch.setenv("JAX_API_TOKEN", "s3cret")
    monkeypatch.setenv("TF_CLI_CONFIG_FILE", "/root/.terraformrc")  # Terraform, not TensorFlow
    found = hostinfo.env_vars()
    assert found["XLA_FLAGS"] == "--xla_dump_to=/tmp"
    assert found["JAX_API_TOKEN"] == "<redacted>"
    assert "TF_CLI_CONFIG_FILE" not in found


# -- cache --------------------------------------------------------------------------------


def _key(level: str = "quick") -> dict[str, Any]:
    return cache.cache_key(level, ["jax"], {"jax": "0.0"}, None)


def _run() -> dict[str, Any]:
    return {
        "probes": [
            {
                "id": "matmul",
                "framework": "jax",
                "status": "ok",
                "metrics": {"gflops": {"median": 1.0, "iqr": 0.1, "n": 3, "unit": "GFLOP/s"}},
            }
        ],
        "environment": {
            "os": "Linux",
            "python": "3.11.9",
            "cpu": {},
            "frameworks": {},
            "accelerator": {"kind": "cpu", "count": 0, "names": []},
            "benchmark_index_detail": {
                "unit": "loops per ms",
                "before": {"median": 9.0},
                "after": {"median": 9.5},
            },
            "warnings": [],
        },
    }


def test_cache_files_are_private_and_atomic(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ADVISOR_CACHE_DIR", str(tmp_path / "c"))
    key = _key()
    path = cache.cache_path(key)
    cache.save(path, key, _run(), cache.now_iso())
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert [p.name for p in path.parent.iterdir()] == [path.name]  # no temporary left
    loaded = cache.load(path, key)
    # read back through the records a live run is built from: the same run, every key filled
    assert loaded is not None and loaded[0] == ProbeRun.from_json(_run()).to_json()


@pytest.mark.parametrize("damage", ["garbage", "truncated", "wrong_key", "bad_shape", "loose"])
def test_untrustworthy_cache_files_are_ignored(tmp_path: Path, damage: str) -> None:
    key = _key()
    path = tmp_path / "probes.json"
    cache.save(path, key, _run(), cache.now_iso())
    text = path.read_text()
    if damage == "garbage":
        path.write_bytes(b"\x00\xff not json")
    elif damage == "truncated":
        path.write_text(text[: len(text) // 2])
    elif damage == "wrong_key":
        cache.save(path, _key("standard"), _run(), cache.now_iso())
    elif damage == "bad_shape":
        data = json.loads(text)
        data["run"]["probes"][0]["metrics"]["gflops"] = "fast"
        path.write_text(json.dumps(data))
    elif damage == "loose":
        os.chmod(path, 0o666)  # writable by others: could have been planted
    assert cache.load(path, key) is None


def test_cache_dir_resolution(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("ADVISOR_CACHE_DIR", str(tmp_path / "explicit"))
    assert cache.cache_dir() == tmp_path / "explicit"
    monkeypatch.delenv("ADVISOR_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache.cache_dir() == tmp_path / "xdg" / "advisor"
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert cache.cache_dir() == Path.home() / ".cache" / "advisor"


# -- run_probes without frameworks --------------------------------------------------------


def test_hidden_frameworks_are_skipped_with_the_install_command(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("ADVISOR_CACHE_DIR", str(tmp_path))
    monkeypatch.setenv("ADVISOR_PROBE_HIDE", "all")
    lines: list[str] = []
    result = run("quick", progress=lines.append, refresh=True)
    assert {p["framework"] for p in result["probes"]} == set(FRAMEWORKS)
    for probe in result["probes"]:
        assert probe["status"] == "skipped" and probe["metrics"] == {}
        assert INSTALL[probe["framework"]] in probe["reason"]
    probe_lines = [ln for ln in lines if ln.startswith("probe ")]
    assert len(probe_lines) == len(result["probes"])  # one progress line per probe
    env = result["environment"]
    assert set(env) >= {
        "os",
        "python",
        "cpu",
        "memory_gb",
        "frameworks",
        "accelerator",
        "threads",
        "env_vars",
        "benchmark_index",
        "noisy",
        "warnings",
    }
    assert env["env_vars"]["ADVISOR_PROBE_HIDE"] == "all"
    assert set(result["cache"]) == {"used", "path", "created", "age_seconds"}
    json.dumps(result, allow_nan=False)


def test_bad_level_is_an_argument_error() -> None:
    with pytest.raises(ValueError, match="unknown probe level"):
        run("extreme")


def test_markdown_template_renders_every_status() -> None:
    from advisor.report.render import render_template

    ok = _probe("pytorch", [1.0], 150.0)
    ok.update(
        reason=None,
        params={"dtype": "float32", "shape": [1000, 1000]},
        noisy=True,
        seconds=1.0,
        noisy_metrics=["gflops"],
    )
    ok["check"].update(agrees=True, reference="pytorch", max_rel_diff=0.0)
    bad = {
        "id": "matmul",
        "framework": "jax",
        "status": "failed",
        "reason": "worker crashed with SIGSEGV | tail",
        "metrics": {},
        "params": {},
        "noisy": False,
        "seconds": 0.1,
    }
    env = _environment(
        ["pytorch"],
        {"pytorch": "2.0", "jax": None, "tensorflow": None},
        {},
        [ProbeRecord.from_json(ok), ProbeRecord.from_json(bad)],
        {"median": 100.0, "iqr": 1.0, "n": 3, "noisy": False, "slow": False},
        {"median": 100.0, "iqr": 1.0, "n": 3, "noisy": False, "slow": False},
        0.1,
        [],
    ).to_json()
    env["env_vars"] = {"XLA_FLAGS": "--a|b"}  # outside a table: shown as set, no backslash
    text = render_template(
        "probe.md.j2",
        {
            "level": "quick",
            "probes": [ok, bad],
            "environment": env,
            "wall_seconds": 3.0,
            "cache": {
                "used": True,
                "path": "/x",
                "created": "2026-01-01T00:00:00+00:00",
                "age_seconds": 60.0,
            },
        },
    )
    assert "| matmul | pytorch | gflops | 150 |" in text and "noisy" in text
    assert "SIGSEGV \\| tail" in text and "cached figures" in text
    assert "Settings in the environment: `XLA_FLAGS=--a|b`" in text


def test_parent_modules_never_import_a_framework() -> None:
    """The parent-side modules import no framework (checked in a clean interpreter)."""
    code = (
        "import sys, probes, probes.api, probes.catalog, probes.run.orchestrate, "
        "probes.run.cache, probes.run.launcher, probes.env.host, probes.env.load, "
        "probes.env.interpreter, probes.run.rounds;"
        "print([m for m in ('torch', 'jax', 'tensorflow', 'numpy') if m in sys.modules])"
    )
    import subprocess

    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        cwd=Path(__file__).resolve().parent.parent,
    )
    assert out.stdout.strip() == "[]"
