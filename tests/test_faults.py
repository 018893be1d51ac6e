"""Faults in the environment end in a report or a clear error, and lose nothing."""

from __future__ import annotations

import errno
import os
import tempfile
from pathlib import Path

import pytest

from advisor.frameworks import FRAMEWORKS


def profile(tmp_path: Path) -> Path:
    path = tmp_path / "p.yaml"
    path.write_text("purpose: research\n")
    return path


def one_line_error(code: int, err: str, *fragments: str) -> None:
    assert code == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    for fragment in fragments:
        assert fragment in lines[0], lines[0]


def test_read_only_output_directory(cli, tmp_path: Path) -> None:
    """/sys refuses new files even to root: a real unwritable directory, and one the
    advisor refuses by name before trying (a kernel view is never a report's home)."""
    target = Path("/sys/advisor-report.md")
    try:
        fd, name = tempfile.mkstemp(dir="/sys")
    except OSError:
        pass
    else:  # pragma: no cover - only where /sys is writable
        os.close(fd)
        os.unlink(name)
        pytest.skip("/sys is writable here")
    code, out, err = cli("recommend", str(profile(tmp_path)), "--probes", "none", "-o", str(target))
    one_line_error(code, err, str(target), "system file")
    assert out == "" and not target.exists()


@pytest.mark.parametrize("err_no", [errno.ENOSPC, errno.EROFS, errno.EIO])
def test_full_or_failing_disk(
    cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, err_no: int
) -> None:
    import advisor.io.safe_yaml as yamlio

    def broken(*_args: object) -> None:
        raise OSError(err_no, os.strerror(err_no))

    monkeypatch.setattr(yamlio.os, "fsync", broken)
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    existing = out_dir / "report.md"
    existing.write_text("old report")
    code, _, err = cli(
        "recommend", str(profile(tmp_path)), "--probes", "none", "-o", str(existing), "--force"
    )
    one_line_error(code, err, "report.md", os.strerror(err_no))
    assert existing.read_text() == "old report"
    assert [p.name for p in out_dir.iterdir()] == ["report.md"]


def test_device_or_fifo_is_never_replaced(cli, tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    code, _, err = cli(
        "recommend", str(profile(tmp_path)), "--probes", "none", "-o", str(fifo), "--force"
    )
    one_line_error(code, err, "not a regular file")
    assert fifo.is_fifo()


# --- Probe faults, end to end: the report still comes out --------------------------------

FAST = {"ADVISOR_PROBE_TIME_SCALE": "0.1", "ADVISOR_PROBE_HIDE": "tensorflow"}


def _recommend_json(run_advisor, tmp_path: Path, env: dict[str, str]) -> dict:
    import json

    out = tmp_path / "report.json"
    proc = run_advisor(
        "recommend",
        str(profile(tmp_path)),
        "--probes",
        "quick",
        "--refresh-probes",
        "--format",
        "json",
        "-o",
        str(out),
        env={"ADVISOR_CACHE_DIR": str(tmp_path / "cache"), **FAST, **env},
    )
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    return json.loads(out.read_text())


def _status(report: dict) -> dict[tuple[str, str], str]:
    return {(p["id"], p["framework"]): p["status"] for p in report["probes"]}


@pytest.mark.probes
def test_segfault_and_sigkill_in_probes_still_give_a_report(run_advisor, tmp_path: Path) -> None:
    report = _recommend_json(
        run_advisor, tmp_path, {"ADVISOR_PROBE_FAULT": "segv:jax:matmul,kill:pytorch:autodiff"}
    )
    status = _status(report)
    assert status[("matmul", "jax")] == "failed"
    assert status[("autodiff", "pytorch")] == "failed"
    assert status[("matmul", "pytorch")] == "ok" and status[("autodiff", "jax")] == "ok"
    assert status[("matmul", "tensorflow")] == "skipped"
    fired = {r["id"] for r in report["rules"]}
    assert {"HW004", "HW005"} <= fired  # the failures feed the rules
    assert report["recommendation"]["framework"] in FRAMEWORKS


@pytest.mark.probes
def test_hung_probe_times_out_and_the_report_says_so(run_advisor, tmp_path: Path) -> None:
    report = _recommend_json(
        run_advisor,
        tmp_path,
        {"ADVISOR_PROBE_FAULT": "hang:jax:matmul", "ADVISOR_PROBE_TIMEOUT": "4"},
    )
    status = _status(report)
    assert status[("matmul", "jax")] == "timeout"
    assert status[("matmul", "pytorch")] == "ok"
    # one probe that outlived a short timeout beside JAX probes that finished is slowness
    # (or this cap), not a broken install: "JAX failed on this machine" stands aside
    assert "HW005" not in {r["id"] for r in report["rules"]}


@pytest.mark.probes
def test_framework_whose_import_fails_is_skipped(run_advisor, tmp_path: Path) -> None:
    report = _recommend_json(run_advisor, tmp_path, {"ADVISOR_PROBE_FAULT": "import:jax:*"})
    jax_probes = [p for p in report["probes"] if p["framework"] == "jax"]
    assert jax_probes and all(p["status"] in ("skipped", "failed") for p in jax_probes)
    assert all(p["reason"] for p in jax_probes)
    assert _status(report)[("matmul", "pytorch")] == "ok"


@pytest.mark.probes
def test_corrupted_and_unreadable_cache_files_are_rebuilt(run_advisor, tmp_path: Path) -> None:
    import json

    env = {"ADVISOR_CACHE_DIR": str(tmp_path / "cache"), **FAST}
    args = ("probe", "--level", "quick", "--format", "json")
    first = run_advisor(*args, env=env)
    assert first.returncode == 0, first.stderr
    files = [p for p in (tmp_path / "cache").rglob("*") if p.is_file()]
    assert files
    for path in files:
        path.write_bytes(b"\x00\xffnot json{{{")
    second = run_advisor(*args, env=env)
    assert second.returncode == 0 and "Traceback" not in second.stderr
    data = json.loads(second.stdout)
    assert not data["cache"]["used"]
    assert {p["status"] for p in data["probes"] if p["framework"] == "pytorch"} == {"ok"}
    third = run_advisor(*args, env=env)
    assert json.loads(third.stdout)["cache"]["used"]
    # a cache entry that cannot be read at all (here: a directory in its place, which even
    # root cannot read as a file) is skipped, and measuring carries on
    for path in files:
        path.unlink()
        path.mkdir()
    fourth = run_advisor(*args, env=env)
    assert fourth.returncode == 0 and "Traceback" not in fourth.stderr
    assert not json.loads(fourth.stdout)["cache"]["used"]
