"""Red-team round 39: what the report says against what the data supports. Each finding,
fixed, with the promise it broke. (The speed claims judged by interleaved rounds are in
tests/test_report.py; timeouts that are not failures in tests/test_facts.py.)"""

from __future__ import annotations

from advisor.decide.engine import decide
from advisor.decide.rules import load_ruleset
from advisor.model.paths import display_only_paths
from advisor.model.profile import Profile


def test_display_only_answers_neither_thicken_a_profile_nor_raise_its_confidence() -> None:
    """README: the workload's model family and batch size are "Display only: shapes the
    probes' workload; no rule reads it". They had counted as answers: a thin profile lost
    its warning and went from low to medium confidence, and the Monte-Carlo varied them."""
    rules = load_ruleset()
    thin = {"team": {"experience": {"jax": "expert"}}}
    shaped = {**thin, "workload": {"batch_size": 128, "model_family": "transformer"}}
    a, b = (decide(Profile.model_validate(p), None, rules) for p in (thin, shaped))
    assert a.recommendation.confidence == b.recommendation.confidence == "low"
    assert a.thin_profile and b.thin_profile and a.answered == b.answered
    assert a.sensitivity.win_probability == b.sensitivity.win_probability
    assert {"workload.batch_size", "workload.model_family", "project.name"} <= (
        display_only_paths()
    )


def test_no_flip_puts_a_model_of_ten_million_parameters_on_a_microcontroller() -> None:
    """ "What would change the verdict" had headlined "add 'microcontroller' to
    deployment.targets" for models of 10M to 50M parameters (10 to 50 MB at 8 bits), which
    the consistency check's own evidence says no microcontroller holds."""
    from advisor.io.profiles import example_path, load_profile

    rules = load_ruleset()
    for name in ("r6b-research-top-performance", "r6a-beginners-production", "student-starter"):
        decision = decide(load_profile(str(example_path(name))), None, rules)
        s = decision.sensitivity
        offered = [
            s.smallest_flip,
            s.decidable_flip,
            *s.flips_by_framework.values(),
            *s.decidable_by_framework.values(),
            *s.situation_flips.values(),
        ]
        assert not any(f and "microcontroller" in str(f.to_value) for f in offered), name


_UNCHECKED_PACK = """\
rules:
  - id: TEAM901
    title: A user rule whose evidence was never checked
    criterion: team_style
    when: {field: purpose, eq: research}
    effects: {jax: 5}
    why: Because the lab says so.
    evidence:
      - {title: A source, source: A publisher, year: 2019, claim: A claim long enough.}
    examples:
      fire: [{purpose: research}]
      ok: [{purpose: production}]
"""


def test_a_rule_whose_evidence_was_never_checked_is_named_beside_the_knowledge_date(  # type: ignore[no-untyped-def]
    cli, tmp_path
) -> None:
    """The header had said "knowledge as of" the snapshot's date while the JSON said no
    date held, and the rule that decided the verdict had never been checked."""
    import json

    pack = tmp_path / "pack"
    pack.mkdir()
    (pack / "mine.yaml").write_text(_UNCHECKED_PACK, encoding="utf-8")
    alone = tmp_path / "alone.yaml"
    alone.write_text("purpose: research\n", encoding="utf-8")
    mixed = tmp_path / "mixed.yaml"
    mixed.write_text("purpose: research\nteam: {experience: {pytorch: some}}\n", encoding="utf-8")
    code, out, _ = cli("recommend", str(alone), "--rules", str(pack), "--probes", "none")
    assert code == 0 and "knowledge never checked (TEAM901)" in out
    code, out, _ = cli("recommend", str(mixed), "--rules", str(pack), "--probes", "none")
    assert code == 0 and ", except TEAM901 (evidence never checked)" in out
    code, out, _ = cli(
        "recommend", str(alone), "--rules", str(pack), "--probes", "none", "--format", "json"
    )
    knowledge = json.loads(out)["knowledge"]
    assert knowledge["as_of"] is None and knowledge["unchecked_rules"] == ["TEAM901"]


def test_the_schema_and_the_reader_take_the_same_blanks_around_a_count() -> None:
    """The schema's pattern used \\s, which JSON Schema reads as JavaScript does, and the
    reader Python's \\s: '7B' followed by NEL or U+001C passed the reader and failed the
    schema, and '7B' followed by a BOM the other way round. Both now take ASCII blanks."""
    import re

    import pytest
    from pydantic import ValidationError

    from advisor.model.profile import COUNT_TEXT, SIZE_TEXT

    for text in ("7B\u0085", "7B\u001c", "7B\ufeff", "7B\u00a0", "\u20037B"):
        with pytest.raises(ValidationError):
            Profile.model_validate({"model": {"parameters": text}})
        assert not re.search(COUNT_TEXT, text)
        assert not re.search(SIZE_TEXT, text.replace("B", "MB"))
    for text in (" 7B ", "\t350M\n", "7 B"):
        assert Profile.model_validate({"model": {"parameters": text}}).model.parameters > 0
        assert re.search(COUNT_TEXT, text)
