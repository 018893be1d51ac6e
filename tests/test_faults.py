"""Faults in the environment end in a report or a clear error, and lose nothing."""

from __future__ import annotations

import errno
import os
import tempfile
from pathlib import Path

import pytest


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
    """/sys refuses new files even to root: a real unwritable directory."""
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
    one_line_error(code, err, str(target), "permission denied")
    assert out == "" and not target.exists()


@pytest.mark.parametrize("err_no", [errno.ENOSPC, errno.EROFS, errno.EIO])
def test_full_or_failing_disk(
    cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, err_no: int
) -> None:
    import advisor.yamlio as yamlio

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
