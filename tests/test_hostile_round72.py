"""Red-team round 72 (security): what a foreign interpreter's worker writes is input, its
`import_error` and `start` events included. Each finding, fixed, with the promise it broke
(SECURITY.md, Probe workers: a worker's texts are cut at 4,000 characters, "like every
other text a worker writes"; a foreign interpreter cannot crash the report)."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest
from hostile_support import needs_torch_here, run

from probes.run import launcher, trust

pytestmark = pytest.mark.skipif(os.name != "posix", reason="fake interpreters need a shebang")


def fake_worker(tmp_path: Path, *events: dict[str, object]) -> Path:
    """An interpreter that answers the advisor's inspection as the real one does, and whose
    worker only writes ``events`` to its events file."""
    source = tmp_path / "fake-events.jsonl"
    source.write_text("".join(json.dumps(event) + "\n" for event in events))
    fake = tmp_path / "fakepy"
    fake.write_text(
        f"#!{sys.executable}\n"
        "import os, sys\n"
        "if 'probes.run.worker' not in sys.argv:\n"
        f"    os.execv({sys.executable!r}, [{sys.executable!r}, *sys.argv[1:]])\n"
        "out = sys.argv[sys.argv.index('--out') + 1]\n"
        f"open(out, 'a').write(open({str(source)!r}).read())\n"
    )
    fake.chmod(0o755)
    return fake


def _attempt(tmp_path: Path, *events: dict[str, object]) -> launcher.Attempt:
    path, source = tmp_path / "w.jsonl", tmp_path / "sent.jsonl"
    source.write_text("".join(json.dumps(event) + "\n" for event in events))
    return launcher.run_attempt(
        [sys.executable, "-c", f"open({str(path)!r}, 'a').write(open({str(source)!r}).read())"],
        path,
        dict(os.environ),
        lambda probe: 30.0 if probe is None else launcher_timeout(probe),
        lambda probe, result: None,
        probes=["matmul"],
    )


def launcher_timeout(probe: str) -> float:
    from probes import catalog

    return catalog.timeout_for(probe, "quick")  # KeyError for a probe the catalog lacks


def test_an_import_errors_reason_is_cut_like_every_other_text_a_worker_writes(
    tmp_path: Path,
) -> None:
    """Finding 1: the `import_error` event was kept whole, so a worker whose reason held
    1 MB put it in every probe of its framework: an 18 MB JSON report from `probe --level
    full`; `missing: "no"` (a text) read as true."""
    event = {"event": "import_error", "missing": "no", "reason": "R" * 1_000_000,
             "module": "M" * 30_000}  # fmt: skip
    attempt = _attempt(tmp_path, event)
    assert attempt.import_error is not None
    assert len(attempt.import_error["reason"]) == trust.MAX_TEXT
    assert attempt.import_error["missing"] is False and "module" not in attempt.import_error
    real = {"event": "import_error", "missing": True, "reason": "No module named 'torch'"}
    assert trust.clean_import_error({**real, "module": "torch"}) == {**real, "module": "torch"}
    assert trust.clean_import_error({"event": "import_error", "reason": ["x"]})["reason"] == ""

    fake = fake_worker(tmp_path, event)
    env = {"ADVISOR_CACHE_DIR": str(tmp_path / "cache")}
    result = run("probe", "--level", "full", "--python", str(fake), "--format", "json",
                 cwd=tmp_path, env=env, timeout=120)  # fmt: skip
    assert result.code == 0, result.err
    assert len(result.out) < 500_000, len(result.out)  # was 18,009,489 characters
    for probe in json.loads(result.out)["probes"]:
        assert len(probe["reason"]) <= trust.MAX_TEXT + 200, probe["id"]


@pytest.mark.parametrize("probe", ["no-such-probe", ["matmul"], {"a": 1}, "scale"])
def test_a_start_of_a_probe_the_worker_was_not_asked_for_is_no_start(
    tmp_path: Path, probe: object
) -> None:
    """Finding 2: a `start` naming a probe the catalog does not know raised KeyError in the
    parent (`internal error: KeyError('no-such-probe')` for every probe of the framework,
    results already sent included); a list or mapping would have raised TypeError."""
    ok = {"event": "result", "probe": "matmul", "status": "ok", "metrics": {}, "params": {}}
    attempt = _attempt(tmp_path, {"event": "start", "probe": probe}, ok)
    assert attempt.current is None and "matmul" in attempt.results


@needs_torch_here
def test_a_foreign_worker_naming_an_unknown_probe_keeps_its_results(tmp_path: Path) -> None:
    ok = {"event": "result", "probe": "matmul", "status": "ok", "metrics": {}, "params": {}}
    fake = fake_worker(tmp_path, {"event": "env"}, ok, {"event": "start", "probe": "no-such-probe"})
    env = {"ADVISOR_CACHE_DIR": str(tmp_path / "cache"), "ADVISOR_PROBE_HIDE": "jax,tensorflow"}
    result = run("probe", "--python", str(fake), "--format", "json", cwd=tmp_path, env=env,
                 timeout=120)  # fmt: skip
    assert result.code == 0, result.err
    assert "internal error" not in result.out + result.err, result.err
    statuses = {p["id"]: p["status"] for p in json.loads(result.out)["probes"]
                if p["framework"] == "pytorch"}  # fmt: skip
    assert statuses["matmul"] == "ok", statuses
