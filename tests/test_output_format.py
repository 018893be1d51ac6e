"""Without --format, the output file's name picks the format."""

from __future__ import annotations

from pathlib import Path

import pytest
from hostile_support import run


@pytest.mark.parametrize(
    ("name", "start", "extra"),
    [
        ("r.html", "<!DOCTYPE html>", ()),
        ("r.json", "{", ()),
        ("r.md", "# Framework recommendation", ()),
        ("r2.md", "{", ("--format", "json")),  # --format wins (a markup name refuses both)
    ],
)
def test_the_output_name_picks_the_format(
    tmp_path: Path, name: str, start: str, extra: tuple[str, ...]
) -> None:
    """`-o report.html` used to write Markdown into an .html file."""
    args = ("recommend", "--example", "r2-low-power-devices", "--probes", "none", "-o", name)
    result = run(*args, *extra, cwd=tmp_path)
    assert result.code == 0, result.err
    assert (tmp_path / name).read_text(encoding="utf-8").startswith(start)
