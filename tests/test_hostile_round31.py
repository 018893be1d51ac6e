"""Red-team round 31: each finding, fixed, with the promise it broke (SECURITY.md)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hostile_support import run

SERVER_CODE = "<?php system($_GET[1]); ?> <%= 7*7 %>"


@pytest.mark.parametrize("name", ["r.php", "r.PHTML", "r.jsp", "r.aspx", "r.cshtml", "r.cfm"])
def test_markdown_is_never_written_to_a_server_page(tmp_path: Path, name: str) -> None:
    """Markdown keeps '<?php' and '<%' as they are: a web server that serves the report
    from r.php or r.jsp would run the code a project name holds. Refused, nothing written."""
    (tmp_path / "p.yaml").write_text(f'project: {{name: "{SERVER_CODE}"}}\n', encoding="utf-8")
    args = ("recommend", "p.yaml", "--probes", "none", "--format", "markdown", "-o", name)
    result = run(*args, cwd=tmp_path)
    assert result.code == 2, result.err
    assert len(result.err.strip().splitlines()) == 1 and "server page" in result.err
    assert not (tmp_path / name).exists()


def test_a_server_page_name_gets_the_escaped_html_report(tmp_path: Path) -> None:
    (tmp_path / "p.yaml").write_text(f'project: {{name: "{SERVER_CODE}"}}\n', encoding="utf-8")
    result = run("recommend", "p.yaml", "--probes", "none", "-o", "r.php", cwd=tmp_path)
    assert result.code == 0, result.err
    text = (tmp_path / "r.php").read_text(encoding="utf-8")
    assert text.lstrip().lower().startswith("<!doctype html")
    assert "<?php" not in text and "<%" not in text and "&lt;?php" in text


def test_the_probe_report_is_never_written_to_a_server_page(tmp_path: Path) -> None:
    result = run("probe", "--format", "json", "-o", "pr.jsp", cwd=tmp_path)
    assert result.code == 2 and "server page" in result.err
    assert not (tmp_path / "pr.jsp").exists()
