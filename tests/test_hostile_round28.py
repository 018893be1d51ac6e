"""Red-team round 28: each finding, fixed, with the promise it broke (SECURITY.md)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hostile_support import run

SCRIPT = "<script>alert(document.domain)</script>"


@pytest.mark.parametrize("fmt", ["json", "markdown"])
@pytest.mark.parametrize("name", ["r.html", "r.htm", "r.hta", "r.svg"])
def test_markdown_or_json_is_never_written_to_a_file_a_browser_opens_as_html(
    tmp_path: Path, fmt: str, name: str
) -> None:
    """JSON keeps '<' and Markdown escapes it as '\\<': in a file named .html either runs
    the script a project name holds. Refused, one line, nothing written."""
    (tmp_path / "p.yaml").write_text(f'project: {{name: "{SCRIPT}"}}\n', encoding="utf-8")
    args = ("recommend", "p.yaml", "--probes", "none", "--format", fmt, "-o", name)
    result = run(*args, cwd=tmp_path)
    assert result.code == 2, result.err
    assert len(result.err.strip().splitlines()) == 1 and "--format html" in result.err
    assert not (tmp_path / name).exists()


def test_the_probe_report_is_never_written_to_a_markup_name_even_as_json(tmp_path: Path) -> None:
    result = run("probe", "--format", "json", "-o", "pr.hta", cwd=tmp_path)
    assert result.code == 2 and ".md or .json" in result.err
    assert not (tmp_path / "pr.hta").exists()


def test_html_to_a_markup_name_and_json_to_a_json_name_still_work(tmp_path: Path) -> None:
    (tmp_path / "p.yaml").write_text(f'project: {{name: "{SCRIPT}"}}\n', encoding="utf-8")
    for fmt, name in (("html", "r.html"), ("json", "r.json"), ("markdown", "r.md")):
        args = ("recommend", "p.yaml", "--probes", "none", "--format", fmt, "-o", name)
        assert run(*args, cwd=tmp_path).code == 0, (fmt, name)
    assert "<script>" not in (tmp_path / "r.html").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("body", "says"),
    [("# {{ 1/0 }}\n", "ZeroDivisionError"), ("# {{ nosuch.thing }}\n", "undefined")],
)
def test_a_template_that_fails_as_it_renders_fails_before_the_questions(
    tmp_path: Path, body: str, says: str
) -> None:
    """Before, 28 answers were given, then the template failed and they were lost."""
    pexpect = pytest.importorskip("pexpect")
    import os
    import sys

    (tmp_path / "t.md.j2").write_text(body, encoding="utf-8")
    script = Path(sys.executable).with_name("advisor")
    cmd = [str(script)] if script.exists() else [sys.executable, "-m", "advisor"]
    args = [*cmd[1:], "recommend", "--template", "t.md.j2", "--probes", "none", "-o", "r.md"]
    child = pexpect.spawn(
        cmd[0],
        args,
        cwd=str(tmp_path),
        env={**os.environ, "NO_COLOR": "1", "TERM": "dumb"},
        encoding="utf-8",
        timeout=60,
    )
    index = child.expect([says, r"Question 1 of", pexpect.EOF])
    assert index == 0, child.before
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 2
    assert not (tmp_path / "r.md").exists()


def test_a_template_that_fails_as_it_renders_fails_before_the_probes(tmp_path: Path) -> None:
    (tmp_path / "t.md.j2").write_text("# {{ 1/0 }}\n", encoding="utf-8")
    cache = tmp_path / "cache"
    args = ("recommend", "--example", "student-starter", "--template", "t.md.j2", "-o", "r.md")
    result = run(*args, cwd=tmp_path, env={"ADVISOR_CACHE_DIR": str(cache)})
    assert result.code == 2 and "ZeroDivisionError" in result.err
    assert "measur" not in result.err.lower()
    assert not cache.exists()  # no probe ran, so nothing was cached
