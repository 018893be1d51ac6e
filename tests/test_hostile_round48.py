"""Red-team round 48: confidence that rests on unsaid answers, and reports of user packs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hostile_support import run

_PACK = """rules:
  - id: LEG902
    title: Nobody is migrating, so JAX and TensorFlow are out
    criterion: legacy
    {kind}
    when: {{field: migrating_away, eq: false, unsaid: true}}
    {what}
    why: When the team is not migrating away, JAX and TensorFlow are impractical here.
    evidence:
      - {{title: My note, source: me, year: 2024, claim: Everything is decisive.}}
    examples:
      fire: [{{purpose: research}}]
      ok: [{{migrating_away: true}}]
"""
_AGAINST = "effects: {jax: -2, tensorflow: -2}"
_VETO = (
    "veto: {jax: 'Ruled out unless migrating, says this note.', "
    "tensorflow: 'Ruled out unless migrating, says this note.'}"
)


def _confidence(tmp_path: Path, profile: str, kind: str, what: str) -> dict:
    pack = tmp_path / "pack"
    pack.mkdir(exist_ok=True)
    (pack / "legacy.yaml").write_text(_PACK.format(kind=kind, what=what))
    (tmp_path / "p.yaml").write_text(profile)
    result = run(
        "recommend", "p.yaml", "--probes", "none", "--rules", "pack", "--format", "json",
        cwd=tmp_path,
    )  # fmt: skip
    assert result.code == 0, result.err
    data = json.loads(result.out)
    return {**data["recommendation"], "thin": data["thin_profile"]}


# three answers a bundled rule reads (team.size alone would not count: round 83)
THREE = "purpose: research\ndomains: [nlp]\nteam: {size: 3}\ntraining: {federated: false}\n"


@pytest.mark.parametrize(("kind", "what"), [("tier: decisive", _AGAINST), ("", _VETO)])
def test_units_or_vetoes_against_the_rivals_that_rest_on_an_unsaid_answer_back_nothing(
    tmp_path: Path, kind: str, what: str
) -> None:
    """A decisive fact against the rivals (or a veto of them) that holds only through an
    unsaid answer had backed a "high" verdict, even for an empty profile."""
    if kind:
        empty = _confidence(tmp_path, "{}\n", kind, what)
        assert empty["confidence"] == "low" and empty["thin"]
    three = _confidence(tmp_path, THREE, kind, what)
    assert three["confidence"] == "medium"
    assert "migrating_away" in three["confidence_capped"]
    said = _confidence(tmp_path, THREE + "migrating_away: false\n", kind, what)
    assert said["confidence"] == "high" and said["confidence_capped"] is None


def test_a_report_says_which_rules_came_from_the_users_own_pack(tmp_path: Path) -> None:
    """Round 48: a pack's rule read as bundled knowledge (header, JSON, 'Why', staleness)."""
    pack = tmp_path / "mine"
    pack.mkdir()
    (pack / "hardware.yaml").write_text(
        "rules:\n  - id: HW907\n    title: My own hardware preference\n    criterion: hardware\n"
        "    when: {field: purpose, eq: research}\n    effects: {pytorch: 1, jax: 1}\n"
        "    why: Our lab prefers these two frameworks for research on our cluster.\n"
        "    evidence:\n      - {title: My note, source: me, year: 2022, checked: 2023-01-05,"
        " claim: We prefer these.}\n"
        "    examples:\n      fire: [{purpose: research}]\n      ok: [{purpose: production}]\n"
    )
    (tmp_path / "p.yaml").write_text(THREE)
    args = ("recommend", "p.yaml", "--probes", "none", "--rules", "mine")
    text = run(*args, cwd=tmp_path).out
    assert "+ 1 rule of your own (mine)" in text.splitlines()[2]
    assert "rule `HW907`, from your pack mine)" in text
    assert "refresh the evidence of your own rules HW907 (mine)" in text
    data = json.loads(run(*args, "--format", "json", cwd=tmp_path).out)
    assert data["ruleset"]["packs"] == ["mine"] and data["ruleset"]["pack_rules"] == 1
    assert {r["id"]: r["pack"] for r in data["rules"]}["HW907"] == "mine"
    bundled = json.loads(run(*args[:4], "--format", "json", cwd=tmp_path).out)
    assert bundled["ruleset"]["packs"] == [] and all(r["pack"] is None for r in bundled["rules"])


@pytest.mark.parametrize("where", [("--probes", "none"), ("--as-of", "2020-01")])
def test_refresh_probes_where_no_probe_runs_is_a_usage_error(tmp_path: Path, where) -> None:
    (tmp_path / "p.yaml").write_text(THREE)
    result = run("recommend", "p.yaml", *where, "--refresh-probes", cwd=tmp_path)
    assert result.code == 2 and "--refresh-probes" in result.err
    assert len(result.err.strip().splitlines()) == 1


@pytest.mark.parametrize(
    ("seed", "said"),
    [("9007199254740992", "is above"), ("-9007199254740992", "is below"), ("9" * 5000, "4,000")],
)
def test_a_seed_is_one_every_json_reader_keeps_exact(tmp_path: Path, seed: str, said: str) -> None:
    (tmp_path / "p.yaml").write_text(THREE)
    result = run("recommend", "p.yaml", "--probes", "none", "--seed", seed, cwd=tmp_path)
    assert result.code == 2 and said in result.err


def test_every_framework_vetoed_has_no_hedge_between_them(tmp_path: Path) -> None:
    veto = "veto: {pytorch: 'Out, says this note of ours.', jax: 'Out, says this note of ours.', "
    veto += "tensorflow: 'Out, says this note of ours.'}"
    data = _confidence(tmp_path, "purpose: research\nmigrating_away: false\n", "", veto)
    assert data["all_vetoed"] and data["hedge"] is None


def test_a_lone_surrogate_from_a_template_is_shown_as_its_escape(tmp_path: Path) -> None:
    """Round 48: it came out as three U+FFFD (encoded with surrogatepass, decoded 'replace')."""
    (tmp_path / "t.j2").write_text('{{ "a\\ud800b" }}\n')
    result = run(
        "recommend", "--example", "student-starter", "--probes", "none", "--template", "t.j2",
        cwd=tmp_path,
    )  # fmt: skip
    assert result.code == 0, result.err
    assert result.out.strip() == "a\\ud800b"


def test_a_duplicate_key_in_a_questions_file_names_its_question_from_1(tmp_path: Path) -> None:
    """Round 48: the same question was questions[3] for an unknown key, questions.2 for a
    duplicate one."""
    from advisor.questionnaire.spec import QUESTIONS_FILE

    base = QUESTIONS_FILE.read_text()
    start = base.index("  - field: domains\n")
    end = base.index("\n", base.index("prompt", start)) + 1
    for extra, said in (("    prompt: again\n", "duplicate key"), ("    bogus: 1\n", "unknown")):
        (tmp_path / "q.yaml").write_text(base[:end] + extra + base[end:])
        result = run("ask", "--defaults", "--questions", "q.yaml", cwd=tmp_path)
        assert result.code == 2 and said in result.err
        assert "questions[3]." in result.err and "questions.2" not in result.err
