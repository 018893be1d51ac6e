"""Red-team round 31: each finding, fixed, with the promise it broke (SECURITY.md)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hostile_support import run

SERVER_CODE = "<?php system($_GET[1]); ?> <%= 7*7 %>"


@pytest.mark.parametrize(
    "name",
    [
        "r.php",
        "r.php6",
        "r.PHTML",
        "r.phtm",
        "r.phar",
        "r.jsp",
        "r.aspx",
        "r.stm",
        "r.cshtml",
        "r.cfc",
    ],
)
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


def test_template_errors_clip_what_they_echo(tmp_path: Path) -> None:
    """Jinja's own message echoes a name from the template at any length: the one line
    keeps the start of it and the advice after it."""
    (tmp_path / "p.yaml").write_text("project: {name: x}\n", encoding="utf-8")
    long_name = "a" * 5000
    (tmp_path / "t.md.j2").write_text(f"{{{{ recommendation.{long_name} }}}}\n", encoding="utf-8")
    (tmp_path / "f.md.j2").write_text(f"{{{{ 1|{long_name} }}}}\n", encoding="utf-8")
    errors = {}
    for template in ("t.md.j2", "f.md.j2"):
        args = ("recommend", "p.yaml", "--probes", "none", "--template", template, "-o", "o.md")
        result = run(*args, cwd=tmp_path)
        assert result.code == 2 and len(result.err.strip().splitlines()) == 1
        assert len(result.err) < 400 and "…" in result.err, result.err
        errors[template] = result.err
    assert "`advisor recommend --format json` for the available data" in errors["t.md.j2"]
    assert "No filter named" in errors["f.md.j2"]
    assert not (tmp_path / "o.md").exists()


def test_a_missing_output_folder_is_named_clipped(tmp_path: Path) -> None:
    (tmp_path / "p.yaml").write_text("project: {name: x}\n", encoding="utf-8")
    folder = "/".join(["d" * 200] * 10)
    result = run("recommend", "p.yaml", "--probes", "none", "-o", f"{folder}/r.md", cwd=tmp_path)
    assert result.code == 2 and "directory does not exist" in result.err
    assert len(result.err) < 500, len(result.err)


def test_a_report_for_a_terminal_is_escaped_a_piece_at_a_time(monkeypatch) -> None:
    """A template may fill its 5,000,000 characters with tag characters, each shown as a
    12-character escape on a terminal: escaped all at once that took 530 MB and failed
    with a traceback under a 500 MB limit. Each write now holds one piece, and the pieces
    join to exactly what escaping the whole text gives."""
    import io
    import sys

    from advisor.cli import std_streams
    from advisor.model.terminal_text import for_terminal

    class Terminal(io.StringIO):
        largest = 0

        def isatty(self) -> bool:
            return True

        def write(self, text: str) -> int:
            Terminal.largest = max(Terminal.largest, len(text))
            return super().write(text)

    terminal = Terminal()
    monkeypatch.setattr(sys, "stdout", terminal)
    monkeypatch.setattr(std_streams, "check_stdout", lambda: None)
    text = ("\U000e0041" * 99_999 + "a\x1b[31mb\r\n") * 3
    std_streams.write_stdout(text)
    assert terminal.getvalue() == for_terminal(text)
    assert Terminal.largest <= 12 * std_streams.TERMINAL_CHUNK
    assert "\x1b" not in terminal.getvalue() and "\U000e0041" not in terminal.getvalue()
