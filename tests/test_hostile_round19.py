"""Red-team round 19: user packs that veto everything, veto on a priority or hold a decisive
fact on an unsaid answer get reports that agree with themselves."""

from __future__ import annotations

from pathlib import Path

from advisor.decide.engine import decide
from advisor.decide.rules import load_ruleset
from advisor.model.profile import Profile
from advisor.report.basis import _conflict_sentence
from advisor.report.changes import changes

EVIDENCE = (
    "      - {title: Test source, source: Tester, year: 2024, claim: A claim of ten characters.}"
)


def _pack(tmp_path: Path, rule: str) -> Path:
    pack = tmp_path / "pack"
    pack.mkdir()
    (pack / "mine.yaml").write_text("rules:\n" + rule + "    evidence:\n" + EVIDENCE + "\n")
    return pack


VETO_ALL = """  - id: PROD901
    title: Nothing works when determinism is required
    criterion: production
    when: {field: determinism, eq: required}
    effects: {jax: 5}
    veto:
      pytorch: Vetoed for test purposes only.
      jax: Vetoed for test purposes only.
      tensorflow: Vetoed for test purposes only.
    why: Every framework is vetoed when determinism is required.
    examples: {fire: [{determinism: required}], ok: [{determinism: none}]}
"""


def test_a_change_that_vetoes_every_framework_is_no_flip_and_no_win(tmp_path: Path) -> None:
    ruleset = load_ruleset(extra_dirs=[_pack(tmp_path, VETO_ALL)])
    profile = Profile.model_validate(
        {"purpose": "research", "determinism": "preferred", "priorities": {"prototyping_speed": 5}}
    )
    sens = decide(profile, None, ruleset).sensitivity
    assert sens is not None
    for flip in [sens.smallest_flip, *sens.flips_by_framework.values()]:
        assert flip is None or flip.path != "determinism"  # the veto-everything change
    required = profile.model_dump(exclude_unset=True) | {"determinism": "required"}
    vetoed = decide(Profile.model_validate(required), None, ruleset)
    assert vetoed.recommendation.all_vetoed
    assert vetoed.sensitivity is not None
    assert sum(vetoed.sensitivity.win_probability.values()) < 0.5  # mostly nothing fits
    assert changes(vetoed) == {"available": False}


def test_a_veto_on_a_priority_is_lifted_by_a_priority_change(tmp_path: Path) -> None:
    rule = """  - id: LRN901
    title: Vetoed while ease of learning is the top priority
    criterion: learning_curve
    when: {field: priorities.learning_curve, eq: 5}
    veto:
      pytorch: Vetoed while ease of learning is the top priority.
      jax: Vetoed while ease of learning is the top priority.
      tensorflow: Vetoed while ease of learning is the top priority.
    why: A test rule that vetoes on a priority.
    examples: {fire: [{priorities: {learning_curve: 5}}], ok: [{priorities: {learning_curve: 3}}]}
"""
    ruleset = load_ruleset(extra_dirs=[_pack(tmp_path, rule)])
    profile = Profile.model_validate({"purpose": "research", "priorities": {"learning_curve": 5}})
    decision = decide(profile, None, ruleset)
    assert decision.no_fit is not None
    changes_found = [c.path for c in decision.no_fit.what_would_fit]
    assert changes_found == ["priorities.learning_curve"] * 3


def test_a_decisive_fact_on_an_unsaid_answer_leaves_an_empty_profile_thin(
    tmp_path: Path,
) -> None:
    rule = """  - id: HW907
    title: Assumed both purposes decisive
    criterion: hardware
    tier: decisive
    when: {field: purpose, eq: both, unsaid: true}
    effects: {jax: 2}
    why: Fires on an unsaid purpose, for testing only.
    examples: {fire: [{}], ok: [{purpose: production}]}
"""
    ruleset = load_ruleset(extra_dirs=[_pack(tmp_path, rule)])
    decision = decide(Profile.model_validate({}), None, ruleset)
    assert decision.thin_profile and decision.recommendation.confidence == "low"


def test_decisive_facts_that_pull_apart_say_what_settled_them() -> None:
    profile = Profile.model_validate(
        {
            "hardware": {"training": ["tpu", "nvidia_gpu", "aws_trainium"]},
            "existing_code": ["pytorch"],
            "existing_code_size": "large",
            "workload": {"compiled_training_loop": True, "simulator": "accelerator_jax"},
        }
    )
    decision = decide(profile, None, load_ruleset())
    units = {e.framework: e.decisive for e in decision.ranking}
    rec = decision.recommendation
    assert decision.decisive_conflict and rec.framework and rec.runner_up
    sentence = _conflict_sentence(decision)
    if units[rec.framework] > units[rec.runner_up]:
        assert "has more of them" in sentence and "soft preferences decide" not in sentence
    else:
        assert "soft preferences decide" in sentence


def test_a_pack_named_twice_is_loaded_once(tmp_path: Path) -> None:
    pack = _pack(tmp_path, VETO_ALL)
    once = load_ruleset(extra_dirs=[pack])
    twice = load_ruleset(extra_dirs=[pack, tmp_path / "pack" / ".." / "pack"])
    assert len(twice.rules) == len(once.rules)


def test_evidence_checked_before_its_source_existed_is_refused(tmp_path: Path) -> None:
    import pytest

    from advisor.model.errors import InputError

    rule = """  - id: PROTO951
    title: An old check
    criterion: prototyping
    when: {field: purpose, eq: research}
    effects: {pytorch: 1}
    why: A test rule with an impossible checked date.
    examples: {fire: [{purpose: research}], ok: [{purpose: production}]}
"""
    pack = tmp_path / "pack"
    pack.mkdir()
    (pack / "mine.yaml").write_text(
        "rules:\n"
        + rule
        + "    evidence:\n      - {title: Test source, source: Tester, year: 2024, "
        + "checked: 0001-01-01, claim: A claim of ten characters.}\n"
    )
    with pytest.raises(InputError, match=r"checked \(0001-01-01\) is before the source's year"):
        load_ruleset(extra_dirs=[pack])


def test_a_single_value_option_given_twice_with_different_values_is_refused() -> None:
    from click.testing import CliRunner

    from advisor.cli.main import main as cli

    runner = CliRunner()
    base = ["recommend", "--example", "student-starter", "--probes", "none"]
    twice = runner.invoke(cli, [*base, "--as-of", "2019-01", "--as-of=2026-11"])
    assert twice.exit_code == 2 and "--as-of is given twice" in twice.output
    same = runner.invoke(cli, [*base, "--seed", "1", "--seed", "1"])
    assert same.exit_code == 0, same.output


def test_a_seed_in_non_ascii_digits_is_a_usage_error() -> None:
    from click.testing import CliRunner

    from advisor.cli.main import main as cli

    runner = CliRunner()
    base = ["recommend", "--example", "student-starter", "--probes", "none", "--seed"]
    for typed in ("١٢", "1_000", "12\u0663"):  # Arabic-Indic digits, an underscore
        refused = runner.invoke(cli, [*base, typed])
        assert refused.exit_code == 2 and "ASCII digits" in refused.output, typed
    kept = runner.invoke(cli, [*base, "-12"])
    assert kept.exit_code == 0 and "--seed -12 --probes none" in kept.output
