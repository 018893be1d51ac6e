"""Red-team round 78 (security): regression tests, each failing before its fix."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
from hostile_support import needs_torch_here, run

from advisor.report.render import render_template

# A worker (run by a --python interpreter) that answers every probe with an ok result whose
# metrics are valid but whose parameters say nothing: what trust.valid_result lets through.
_BARE_WORKER = """\
import json, sys
args = sys.argv[1:]
arg = lambda n: args[args.index(n) + 1]
out = open(arg("--out"), "a")
def emit(event):
    out.write(json.dumps(event) + "\\n")
    out.flush()
emit({"event": "env", "version": "2.0.0", "devices": [], "threads": {}})
for probe in [p for p in arg("--probes").split(",") if p]:
    emit({"event": "start", "probe": probe})
    emit({"event": "result", "probe": probe, "status": "ok", "seconds": 0.1, "params": {},
          "metrics": {"steps_per_s": {"median": 10.0, "iqr": 0.0, "n": 5, "unit": "steps/s"}}})
emit({"event": "done", "kernels": []})
"""


def _bare_interpreter(folder: Path) -> Path:
    """An interpreter that answers the advisor's questions as this Python does, and whose
    worker is ``_BARE_WORKER``."""
    worker = folder / "bare_worker.py"
    worker.write_text(_BARE_WORKER)
    fake = folder / "fakepy"
    fake.write_text(
        "#!/bin/sh\n"
        'case "$*" in *probes.run.worker*)\n'
        f'  shift 2; exec "{sys.executable}" "{worker}" "$@" ;;\n'
        "esac\n"
        f'exec "{sys.executable}" "$@"\n'
    )
    fake.chmod(0o755)
    return fake


@needs_torch_here
def test_a_workload_result_without_its_parameters_is_no_traceback(tmp_path: Path) -> None:
    """Finding 1: a foreign interpreter's worker answering the workload probe with an ok
    result and empty ``params`` (valid by trust.valid_result: only n, size and batch are
    checked) stopped `advisor probe --level standard` with a jinja2 UndefinedError
    traceback (exit 1, no report) after every probe had run, and the run was cached, so
    the next run measured again only to crash the same way."""
    fake = _bare_interpreter(tmp_path)
    out = tmp_path / "p.md"
    env = {"ADVISOR_CACHE_DIR": str(tmp_path / "cache")}
    args = ("probe", "--level", "standard", "--framework", "pytorch", "--python", str(fake))
    result = run(*args, "-o", str(out), cwd=tmp_path, env=env)
    assert "Traceback" not in result.err, result.err[-1500:]
    assert result.code == 0, result.err[-1500:]
    assert "Your workload" in out.read_text()


def _run_with_workload(params: dict[str, Any], metrics: dict[str, Any]) -> dict[str, Any]:
    return {
        "level": "standard",
        "cache": {"created": "2026-01-01T00:00:00+00:00", "used": False},
        "environment": {
            "os": "Linux",
            "python": "3.11",
            "cpu": {"model": "x", "cores": 1, "logical_cpus": 1, "available_cpus": 1, "flags": []},
            "memory_gb": 1,
            "accelerator": {"kind": "cpu"},
            "benchmark_index": 1,
            "benchmark_index_detail": {"unit": "x", "after": {"median": 1}},
            "load_average": None,
            "noisy": False,
            "frameworks": {},
            "threads": {},
            "warnings": [],
            "env_vars": {},
        },
        "probes": [
            {
                "id": "workload",
                "framework": "pytorch",
                "status": "ok",
                "reason": None,
                "metrics": metrics,
                "params": params,
            }
        ],
    }


def test_the_probe_report_reads_workload_parameters_it_may_lack() -> None:
    unit = {"median": 1.0, "iqr": 0.0, "n": 3, "unit": "x"}
    for params, metrics in (
        ({}, {"steps_per_s": unit}),
        ({"model": "mlp", "flops_per_step": "many"}, {"step_ms": unit}),
        ({"compiler": 1, "flops_per_step": 2e9}, {"model_gflops": unit}),
    ):
        text = render_template("probe.md.j2", _run_with_workload(params, metrics))
        assert "Your workload" in text


def test_folder_removal_takes_its_tools_from_the_system_not_from_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Noticed in round 78: `rm` and `chmod` were looked up on PATH, so a PATH naming the
    working folder ('.') would run an `rm` lying there. They come from os.defpath now."""
    from probes.env import folders

    fake = tmp_path / "rm"
    fake.write_text("#!/bin/sh\ntouch " + str(tmp_path / "ran") + "\n")
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", str(tmp_path))
    for name in ("rm", "find", "chmod"):
        found = folders._tool(name)
        assert Path(found).is_absolute() and Path(found).parent != tmp_path, found
