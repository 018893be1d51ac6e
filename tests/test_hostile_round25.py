"""Red-team round 25: markup names read as a server reads them, a reproduce command that
names the file that was read, staleness counted from the machine's own date, repeated
options in click's attached form, an empty --example, and long words kept on the page."""

from __future__ import annotations

import datetime as dt
import os
import subprocess
from pathlib import Path

import pytest
from hostile_support import assert_refused, run

from advisor.cli.output import named_html

RULE = """rules:
  - id: DEP901
    title: Test rule one
    criterion: deployment
    when: {{field: deployment.targets, contains: mobile}}
    effects: {{pytorch: 1}}
    why: because of reasons
    evidence:
      - {{title: ttt, source: ss, year: 2026, checked: {checked}, claim: claim claim claim}}
    examples:
      fire: [{{deployment: {{targets: [mobile]}}}}]
      ok: [{{deployment: {{targets: [server]}}}}]
"""


@pytest.mark.parametrize("name", ["team.its.yaml", "acme.rs.md", "lab.cl.yaml", "notes.odd.md"])
def test_a_mime_suffix_inside_a_name_is_part_of_the_name(name: str) -> None:
    assert not named_html(name)


@pytest.mark.parametrize("name", ["r.rss", "t.rss.j2", "r.xhtm", "t.html.j2.txt"])
def test_the_suffix_a_server_reads_still_counts(name: str) -> None:
    assert named_html(name)


def test_ask_writes_a_name_with_a_mime_word_inside(tmp_path: Path) -> None:
    done = run("ask", "--defaults", "-o", "team.its.yaml", cwd=tmp_path)
    assert done.code == 0, done.err
    done = run("recommend", "--example", "student-starter", "--probes", "none", "-o", "acme.rs.md",
               cwd=tmp_path)  # fmt: skip
    assert done.code == 0, done.err
    assert not (tmp_path / "acme.rs.md").read_text().startswith("<!DOCTYPE")


def _command_word(report: str) -> str:
    line = next(x for x in report.splitlines() if "advisor recommend " in x and "--probes" in x)
    return line.split("advisor recommend ", 1)[1].split(" --", 1)[0].strip("`")


@pytest.mark.parametrize("name", ["-p.yaml", "b{{x}}.yaml", "t\tx.yaml", "v\rx.yaml"])
def test_the_reproduce_command_survives_dashes_braces_and_controls(
    tmp_path: Path, name: str
) -> None:
    (tmp_path / name).write_text("purpose: research\n")
    for fmt in ("markdown", "html"):
        done = run("recommend", "--probes", "none", "--format", fmt, "--", name, cwd=tmp_path)
        assert done.code == 0, done.err
        word = _command_word(done.out).replace("&#39;", "'").replace("&#x27;", "'")
        assert "\u200b" not in word and "&#" not in word, word
        named = subprocess.run(
            ["bash", "-c", f"printf %s {word}"], capture_output=True, check=True, cwd=tmp_path
        ).stdout
        assert os.path.samefile(tmp_path / os.fsdecode(named), tmp_path / name), named


def test_stale_counts_from_the_machines_own_date(tmp_path: Path) -> None:
    """Evidence checked today, in a zone far west of UTC, is 0 days old, not 1 or 2."""
    env = {"TZ": "Etc/GMT+12"}
    today = subprocess.run(
        ["date", "+%F"], capture_output=True, text=True, env={**os.environ, **env}, check=True
    ).stdout.strip()
    pack = tmp_path / "pack"
    pack.mkdir()
    (pack / "r.yaml").write_text(RULE.format(checked=today))
    done = run("rules", "check", "pack", "--stale", "0", cwd=tmp_path, env=env)
    assert done.code == 0, done.out + done.err
    assert f"0 evidence entries last checked more than 0 days before {today}" in done.out
    yesterday = (dt.date.fromisoformat(today) - dt.timedelta(days=1)).isoformat()
    (pack / "r.yaml").write_text(RULE.format(checked=yesterday))
    done = run("rules", "check", "pack", "--stale", "0", cwd=tmp_path, env=env)
    assert done.code == 1 and "1 day ago" in done.out, done.out


@pytest.mark.parametrize("days", ["\u0661", "1_000", "-1"])
def test_stale_takes_ascii_digits_from_zero(tmp_path: Path, days: str) -> None:
    done = run("rules", "check", "--stale", days, cwd=tmp_path)
    assert_refused(done, "--stale")


@pytest.mark.parametrize(
    "args",
    [
        ["-oa.md", "-ob.md"],
        ["-oc.md", "--output=d.md"],
        ["--output=e.md", "-of.md"],
    ],
)
def test_an_option_repeated_in_attached_form_is_a_usage_error(
    tmp_path: Path, args: list[str]
) -> None:
    done = run("recommend", "--example", "student-starter", "--probes", "none", *args, cwd=tmp_path)
    assert_refused(done, "given twice")
    assert list(tmp_path.iterdir()) == []


def test_a_value_that_looks_like_an_attached_option_is_a_value(tmp_path: Path) -> None:
    done = run("recommend", "--example", "student-starter", "--probes", "none",
               "--rules", "-oq", "-o", "r.md", cwd=tmp_path)  # fmt: skip
    assert_refused(done, "-oq")  # the pack folder is missing; -o is not "given twice"


@pytest.mark.parametrize("extra", [[], ["p.yaml"]])
def test_an_empty_example_is_refused(tmp_path: Path, extra: list[str]) -> None:
    (tmp_path / "p.yaml").write_text("purpose: research\n")
    done = run("recommend", "--example", "", "--probes", "none", *extra, cwd=tmp_path)
    assert_refused(done, "--example", "is empty")


def test_long_words_wrap_inside_the_html_page(tmp_path: Path) -> None:
    (tmp_path / "p.yaml").write_text(f"project: {{name: {'W' * 200}, notes: {'A' * 3000}}}\n")
    done = run("recommend", "p.yaml", "--probes", "none", "--format", "html", cwd=tmp_path)
    assert done.code == 0, done.err
    assert "overflow-wrap: break-word" in done.out


@pytest.mark.parametrize(("month", "word"), [("9999-12", "after"), ("1000-01", "before")])
def test_a_month_outside_the_years_is_named_as_such(tmp_path: Path, month: str, word: str) -> None:
    done = run("recommend", "--example", "student-starter", "--as-of", month, cwd=tmp_path)
    assert_refused(done, "--as-of", f"{month} is {word} the months")
