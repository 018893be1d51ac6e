"""Round 10 of attacks on SECURITY.md: packs dated in the future, checks that trip on
nothing said, long echoed values, invisible characters, --python where nothing runs,
HTML-named templates and loose booleans. Each test fails without its fix."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hostile_support import ROOT, run

from advisor.model.terminal_text import inert

RULE = """rules:
  - id: PROTO901
    title: A rule of a user's pack
    criterion: prototyping
    when: {{field: purpose, eq: production}}
    effects: {{jax: 1}}
    why: Details at https://evil.example/why and www.why.example
    evidence:
      - {{title: Some title, source: Src, year: {year}, claim: "claim claim claim"{checked}}}
    examples:
      fire: [{{purpose: production}}]
      ok: [{{purpose: research}}]
"""


def _pack(tmp_path: Path, year: int = 2020, checked: str = "") -> Path:
    pack = tmp_path / "pack"
    pack.mkdir(exist_ok=True)
    text = RULE.format(year=year, checked=f", checked: {checked}" if checked else "")
    (pack / "mine.yaml").write_text(text)
    (tmp_path / "empty.yaml").write_text("{}\n")
    return pack


def _one_line(result, *needles: str) -> None:
    assert result.code == 2 and result.out == "", (result.code, result.err)
    assert result.err.count("\n") == 1 and "Traceback" not in result.err, result.err
    for needle in needles:
        assert needle in result.err, result.err


@pytest.mark.parametrize(
    ("year", "checked", "field"),
    [(2020, "2099-12-31", "evidence[1].checked"), (2100, "", "evidence[1].year")],
)
def test_a_user_pack_dated_in_the_future_is_refused_by_recommend(
    tmp_path: Path, year: int, checked: str, field: str
) -> None:
    _pack(tmp_path, year, checked)
    result = run("recommend", "empty.yaml", "--probes", "none", "--rules", "pack", cwd=tmp_path)
    _one_line(result, "pack/mine.yaml:9", field, "is in the future")


def test_a_dated_user_pack_still_loads(tmp_path: Path) -> None:
    _pack(tmp_path, 2020, "2025-01-01")
    result = run("recommend", "empty.yaml", "--probes", "none", "--rules", "pack", cwd=tmp_path)
    assert result.code == 0, result.err


def test_a_check_cannot_trip_on_an_empty_profile(tmp_path: Path) -> None:
    data = tmp_path / "pk" / "data"
    data.mkdir(parents=True)
    check = """checks:
  - id: CON990
    title: Always contradictory
    when: {any: [{field: purpose, eq: research, unsaid: true},
                 {field: purpose, ne: research, unsaid: true}]}
    message: your answers cannot all be true; do not trust this verdict
    basis: this check trips on every profile, even an empty one
    examples:
      trip: [EXAMPLE]
"""
    (data / "consistency.yaml").write_text(check.replace("EXAMPLE", "{}"))
    _one_line(run("rules", "check", "pk", cwd=tmp_path), "examples.trip[1]", "does not trip")
    (data / "consistency.yaml").write_text(check.replace("EXAMPLE", "{purpose: production}"))
    assert run("rules", "check", "pk", cwd=tmp_path).code == 0
    (tmp_path / "empty.yaml").write_text("{}\n")
    args = ("recommend", "empty.yaml", "--probes", "none", "--rules", "pk", "--format", "json")
    report = json.loads(run(*args, cwd=tmp_path).out)
    assert report["inconsistencies"] == [], report["inconsistencies"]


def test_values_echoed_from_a_pack_are_cut(tmp_path: Path) -> None:
    pack = tmp_path / "lv"
    pack.mkdir()
    long = "z" * 1000
    rule = RULE.format(year=2020, checked="").replace("field: purpose, eq", f"field: {long}, eq")
    (pack / "r.yaml").write_text(rule)
    result = run("rules", "check", "lv", cwd=tmp_path)
    _one_line(result, "unknown field", "…")
    assert len(result.err) < 200, len(result.err)
    (pack / "r.yaml").write_text(RULE.format(year=2020, checked="").replace("prototyping", long))
    result = run("rules", "check", "lv", cwd=tmp_path)
    _one_line(result, "is not a criterion", "…")
    assert len(result.err) < 400, len(result.err)


def test_a_failed_question_check_names_the_questions_file(tmp_path: Path) -> None:
    text = (ROOT / "advisor" / "questionnaire" / "questions.yaml").read_text()
    prompt = "    prompt: Is this project for research, production or both?\n"
    assert prompt in text
    check = (
        "    validate:\n"
        "      - {require: {field: purpose, eq: research}, message: must be research}\n"
    )
    (tmp_path / "qv.yaml").write_text(text.replace(prompt, prompt + check, 1))
    result = run("ask", "--questions", "qv.yaml", "--defaults", cwd=tmp_path)
    _one_line(result, "qv.yaml:", "purpose", "must be research")


@pytest.mark.parametrize("extra", [("--probes", "none"), ("--as-of", "2020-01")])
def test_python_where_no_probe_runs_is_a_usage_error(tmp_path: Path, extra) -> None:
    (tmp_path / "p.yaml").write_text("{}\n")
    result = run("recommend", "p.yaml", *extra, "--python", "/nonexistent", cwd=tmp_path)
    _one_line(result, "--python", "no probe runs")


@pytest.mark.parametrize("name", ["t.xhtml.j2", "t.html.tmpl", "t.html.j2.txt"])
def test_any_html_suffix_escapes_for_html(tmp_path: Path, name: str) -> None:
    (tmp_path / "p.yaml").write_text('project: {name: "<script>alert(1)</script>"}\n')
    (tmp_path / name).write_text("<h1>{{ profile.project.name }}</h1>\n")
    result = run("recommend", "p.yaml", "--probes", "none", "--template", name, cwd=tmp_path)
    assert result.code == 0, result.err
    assert "<script>" not in result.out and "&lt;script&gt;" in result.out, result.out


@pytest.mark.parametrize("value", ["1", "0.0", '"yes"', '"off"', '"t"'])
def test_only_a_boolean_answers_a_yes_no_field(tmp_path: Path, value: str) -> None:
    (tmp_path / "p.yaml").write_text(f"team:\n  functional_programming: {value}\n")
    result = run("recommend", "p.yaml", "--probes", "none", cwd=tmp_path)
    _one_line(result, "p.yaml:2", "team.functional_programming")


def test_a_quoted_infinite_fact_in_a_rule_example_is_refused(tmp_path: Path) -> None:
    pack = tmp_path / "pk"
    pack.mkdir()
    rule = RULE.format(year=2020, checked="").replace(
        "fire: [{purpose: production}]",
        "fire: [{purpose: production, facts: {jit_speedup: {jax: '1e999'}}}]",
    )
    (pack / "r.yaml").write_text(rule)
    _one_line(run("rules", "check", "pk", cwd=tmp_path), "jit_speedup.jax", "finite")


@pytest.mark.parametrize("char", ["\ufe0f", "\U000e0100", "\u3164", "\u115f", "\u2800", "\uffa0"])
def test_variation_selectors_and_blank_fillers_are_shown(char: str) -> None:
    assert char not in inert(f"Py{char}Torch")
