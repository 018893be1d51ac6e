"""Red-team round 73 (security): a cached run whose probe records do not belong to it, and
a probe worker's `result` event read past its metrics. Each finding, fixed, with the
promise it broke (SECURITY.md, Probe cache: a cached run is used only if it has the shape
a real run has and belongs to its run; Probe workers: a foreign interpreter cannot crash
the report)."""

from __future__ import annotations

import copy
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hostile_support import assert_clean, needs_torch_here, run
from test_hostile_round72 import fake_worker

from probes.records import ProbeRecord
from probes.run import cache, launcher, trust
from probes.run.cache import now_iso

FIXTURE = Path(__file__).parent / "fixtures" / "probes_standard_v2.json"


def _run() -> dict[str, Any]:
    return json.loads(FIXTURE.read_text(encoding="utf-8"))


def _probe(run_: dict[str, Any], probe: str, framework: str) -> dict[str, Any]:
    return next(p for p in run_["probes"] if (p["id"], p["framework"]) == (probe, framework))


def _twice(run_: dict[str, Any]) -> None:
    """A second JAX matmul record, five times faster (its rate still matching its time)."""
    again = copy.deepcopy(_probe(run_, "matmul", "jax"))
    again["metrics"]["gflops"]["median"] *= 5
    again["metrics"]["seconds"]["median"] /= 5
    run_["probes"].append(again)


def _not_installed(run_: dict[str, Any]) -> None:
    """TensorFlow's figures kept beside 'installed: no' (its comparisons dropped)."""
    run_["environment"]["frameworks"]["tensorflow"]["installed"] = False
    run_["comparisons"] = [
        c for c in run_["comparisons"] if "tensorflow" not in (c["numerator"], c["denominator"])
    ]


def _foreign_framework(run_: dict[str, Any]) -> None:
    run_["probes"].append({**copy.deepcopy(_probe(run_, "matmul", "jax")), "framework": "mxnet"})


def _not_planned(run_: dict[str, Any]) -> None:
    """A probe the catalog does not run at this level (scale is `full` only)."""
    run_["probes"].append(
        {**copy.deepcopy(_probe(run_, "vmap", "jax")), "id": "scale",
         "metrics": {"efficiency": {"median": 0.99, "iqr": 0.0, "n": 5, "unit": "ratio"}}}
    )  # fmt: skip


def _unknown_level(run_: dict[str, Any]) -> None:
    run_["level"] = "ludicrous"


DAMAGES: dict[str, Callable[[dict[str, Any]], None]] = {
    "a probe twice": _twice,
    "figures of a framework not installed": _not_installed,
    "a framework the run did not measure": _foreign_framework,
    "a probe not run at this level": _not_planned,
    "a level the catalog does not know": _unknown_level,
}


def test_the_fixture_is_a_run_the_cache_trusts() -> None:
    assert trust.valid_run(_run(), now_iso())


@pytest.mark.parametrize("name", sorted(DAMAGES))
def test_a_cached_runs_probes_belong_to_it(tmp_path: Path, name: str) -> None:
    """Finding 1: each of these was used. Two records for JAX's matmul made the report show
    72 and 361 GFLOP/s, its claims checking "JAX 361 vs PyTorch 55.6" beside the rounds'
    0.93x; TensorFlow's figures stood beside "installed: no"; a quick run showed a training
    step of 1,000,000 steps/s; an `mxnet` row appeared."""
    run_ = _run()
    DAMAGES[name](run_)
    assert not trust.valid_run(run_, now_iso())
    key = {"level": "standard"}
    path = tmp_path / "c" / "probes.json"
    cache.save(path, key, run_, now_iso())
    assert cache.load(path, key) is None


def _attempt(tmp_path: Path, result: dict[str, Any]) -> launcher.Attempt:
    path, source = tmp_path / "w.jsonl", tmp_path / "sent.jsonl"
    event = {"event": "result", "probe": "matmul", **result}
    source.write_text(json.dumps({"event": "env"}) + "\n" + json.dumps(event) + "\n")
    return launcher.run_attempt(
        [sys.executable, "-c", f"open({str(path)!r}, 'a').write(open({str(source)!r}).read())"],
        path,
        dict(os.environ),
        lambda probe: 30.0,
        lambda probe, result: None,
        probes=["matmul"],
    )


GFLOPS = {"gflops": {"median": 5.0, "iqr": 0.1, "n": 3, "unit": "GFLOP/s"}}
REAL_CHECK = {"name": "c", "values": [1.0, 2.0], "scale": 1.0, "rtol": 1e-3}
WRONG = {
    "seconds as text": {"seconds": "abc"},
    "seconds as a list": {"seconds": [1]},
    "reason as a mapping": {"reason": {"a": 1}},
    "tolerance as text": {"check": {**REAL_CHECK, "rtol": "abc"}},
    "scale as text": {"check": {**REAL_CHECK, "scale": "nan"}},
    "check without a name": {"check": {"values": [1.0]}},
    "check as a list": {"check": [1]},
    "noisy metrics not texts": {"noisy_metrics": [1]},
}


@pytest.mark.parametrize("name", sorted(WRONG))
def test_a_result_is_read_as_input_past_its_metrics(tmp_path: Path, name: str) -> None:
    """Finding 2: a `seconds` that is text raised in the parent (`internal error:
    ValueError(...)` for every probe of the framework, results already sent included); a
    check's tolerance or scale as text, or a check without a name, stopped `advisor probe`
    with a traceback (exit 1). Now such a result counts as a failed probe."""
    result = {"status": "ok", "metrics": GFLOPS, "params": {}, **WRONG[name]}
    assert not trust.valid_result(result)
    attempt = _attempt(tmp_path, result)
    assert attempt.results["matmul"]["status"] == "failed"
    good = {"status": "ok", "metrics": GFLOPS, "params": {}, "seconds": 0.5, "check": REAL_CHECK}
    assert trust.valid_result(good)


def test_a_check_a_worker_computed_as_nan_does_not_stop_the_run() -> None:
    """A real worker writes a NaN scale (an array of NaNs) as null: `float(None)` had
    stopped the whole run with a traceback once two frameworks sent such a check."""
    from probes.measure.agreement import check_agreement

    check = {"name": "c", "values": [None, 1.0], "scale": None, "rtol": None}
    assert trust.valid_result({"status": "ok", "metrics": GFLOPS, "check": check})
    records = [ProbeRecord("matmul", fw, "ok", check=dict(check)) for fw in ("pytorch", "jax")]
    warnings = check_agreement(records)
    assert records[1].check is not None and records[1].check["agrees"] is False
    assert len(warnings) == 1


_fake = fake_worker  # the fake interpreter of round 72


@needs_torch_here
@pytest.mark.skipif(os.name != "posix", reason="fake interpreters need a shebang")
def test_a_foreign_workers_check_cannot_stop_advisor_probe(tmp_path: Path) -> None:
    check = {**REAL_CHECK, "rtol": "abc"}
    result = {"event": "result", "probe": "matmul", "status": "ok", "metrics": GFLOPS,
              "params": {}, "check": check}  # fmt: skip
    fake = _fake(tmp_path, {"event": "env"}, result)
    env = {"ADVISOR_CACHE_DIR": str(tmp_path / "cache"), "ADVISOR_PROBE_HIDE": "tensorflow"}
    done = run("probe", "--python", str(fake), "--format", "json", cwd=tmp_path, env=env,
               timeout=120)  # fmt: skip
    assert done.code == 0, done.err  # was 1, with a traceback
    assert_clean(done)
    statuses = {(p["id"], p["framework"]): p["status"] for p in json.loads(done.out)["probes"]}
    assert statuses[("matmul", "pytorch")] == "failed", statuses
