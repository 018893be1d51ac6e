"""The scoring engine on a small, hand-made rule pack (independent of the bundled rules)."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
from pack_support import minimal_core

from advisor.decide.engine import decide, to_score
from advisor.decide.rules import load_ruleset
from advisor.decide.scoring import combine
from advisor.frameworks import FRAMEWORKS
from advisor.model.errors import InputError
from advisor.model.facts import Facts
from advisor.model.profile import Profile

EVIDENCE = """
    evidence:
      - title: A test source
        source: Test
        year: 2025
        claim: A claim that is long enough to count.
"""


def rule(
    rid: str, criterion: str, when: str, effects: str, fire: str, ok: str, extra: str = ""
) -> str:
    return f"""
  - id: {rid}
    title: Rule {rid} for tests
    criterion: {criterion}
    when: {when}
    effects: {effects}
    why: Because the test says so.{extra}{EVIDENCE}
    examples:
      fire: [{fire}]
      ok: [{ok}]
"""


@pytest.fixture
def pack(tmp_path: Path):
    # the real pack's criteria and decision constants, without the prior: these tests
    # look at the rules' arithmetic alone (the prior has tests of its own)
    core = minimal_core(tmp_path, prior=False)

    def make(*rules: str) -> Path:
        (core / "rules.yaml").write_text("rules:" + "".join(rules))
        return core

    return make


def test_weighted_scores_and_ranking(pack) -> None:
    core = pack(
        rule(
            "HW001",
            "hardware",
            "{field: hardware.training, contains: tpu}",
            "{jax: 3, pytorch: -1}",
            "{hardware: {training: [tpu]}}",
            "{}",
        ),
        rule(
            "PROTO001",
            "prototyping",
            "{field: purpose, eq: research}",
            "{pytorch: 2}",
            "{purpose: research}",
            "{purpose: production}",
        ),
    )
    rs = load_ruleset(core=core)
    profile = Profile.model_validate({"hardware": {"training": ["tpu"]}, "purpose": "research"})
    d = decide(profile, None, rs, with_sensitivity=False)
    order = [r.framework for r in d.ranking]
    assert order[:2] == ["jax", "pytorch"]
    assert order[2:] == sorted(set(FRAMEWORKS) - {"jax", "pytorch"})  # tied at 0: by name
    assert d.ranking[0].soft == pytest.approx(3.0)
    assert d.ranking[1].soft == pytest.approx(1.0)
    model = rs.meta.decision
    assert d.ranking[0].raw == pytest.approx(combine(0, 3.0, model), abs=1e-4)
    assert d.ranking[0].score == to_score(combine(0, 3.0, model))
    assert {r.id for r in d.rules} == {"HW001", "PROTO001"}
    assert d.breakdown["hardware"]["jax"] == pytest.approx(3.0)

    # priority 0 switches the prototyping criterion off; 5 weighs it 5/3
    off = profile.model_copy(
        update={"priorities": profile.priorities.model_copy(update={"prototyping_speed": 0})}
    )
    raw_off = {r.framework: r.soft for r in decide(off, None, rs, with_sensitivity=False).ranking}
    assert raw_off["pytorch"] == pytest.approx(-1.0)
    high = profile.model_copy(
        update={"priorities": profile.priorities.model_copy(update={"prototyping_speed": 5})}
    )
    raw = {r.framework: r.soft for r in decide(high, None, rs, with_sensitivity=False).ranking}
    assert raw["pytorch"] == pytest.approx(-1 + 2 * 5 / 3, abs=1e-3)


def _microcontroller_decision(pack, veto: str):
    """The decision for a microcontroller target under one rule that vetoes as ``veto`` says."""
    core = pack(
        rule(
            "DEP001",
            "deployment",
            "{field: deployment.targets, contains: microcontroller}",
            "{jax: 5}",
            "{deployment: {targets: [microcontroller]}}",
            "{}",
            veto,
        ),
    )
    profile = Profile.model_validate({"deployment": {"targets": ["microcontroller"]}})
    return decide(profile, None, load_ruleset(core=core))


def test_veto_excludes_whatever_the_score(pack) -> None:
    veto = "\n    veto:\n      jax: JAX has no supported path to this target in the test."
    d = _microcontroller_decision(pack, veto)
    assert d.recommendation.framework != "jax"
    assert d.ranking[-1].framework == "jax" and d.ranking[-1].vetoed
    assert "DEP001" in d.ranking[-1].veto_reasons[0]
    assert d.sensitivity is not None and d.sensitivity.win_probability["jax"] == 0.0


def test_a_lone_survivor_has_no_margin_to_quote(pack) -> None:
    veto = "\n    veto:\n      jax: vetoed in the test.\n      pytorch: vetoed in the test."
    rec = _microcontroller_decision(pack, veto).recommendation
    assert rec.framework == "tensorflow" and rec.runner_up is None
    assert rec.margin is None  # was 100.0, above the lone survivor's own score


def test_ties_are_broken_deterministically_and_reported(pack) -> None:
    core = pack(
        rule(
            "ECO001",
            "ecosystem",
            "{field: ecosystem.huggingface, eq: true}",
            "{pytorch: 2, jax: 2}",
            "{ecosystem: {huggingface: true}}",
            "{}",
        ),
    )
    rs = load_ruleset(core=core)
    profile = Profile.model_validate({"ecosystem": {"huggingface": True}})
    first = decide(profile, None, rs)
    again = decide(profile, None, rs)
    assert first.recommendation.tie_broken
    assert first.recommendation.framework == "jax"  # equal support: alphabetical
    assert "tie" in (first.recommendation.tie_note or "")
    assert first.recommendation.confidence == "low"
    assert first.model_dump() == again.model_dump()
    assert (first.recommendation.tie_note or "").startswith("JAX and PyTorch scored the same")
    assert "as many supporting rules (1 vs 1)" in (first.recommendation.tie_note or "")
    assert "broken alphabetically" in (first.recommendation.tie_note or "")
    # a three-way tie names all three, not only the first two
    three = decide(Profile.model_validate({"purpose": "research"}), None, rs)
    assert (three.recommendation.tie_note or "").startswith(
        "JAX, PyTorch and TensorFlow scored the same"
    )


def test_a_tie_broken_by_supporting_rules_does_not_say_alphabetically(pack) -> None:
    """Two rules of +1 for TensorFlow against one of +2 for JAX: the count decides, and the
    note says so without the alphabet, which decided nothing."""
    hf = "{field: ecosystem.huggingface, eq: true}"
    pretrained = "{field: ecosystem.pretrained_models, eq: true}"
    core = pack(
        rule("ECO001", "ecosystem", hf, "{jax: 2}", "{ecosystem: {huggingface: true}}", "{}"),
        rule(
            "ECO002", "ecosystem", hf, "{tensorflow: 1}", "{ecosystem: {huggingface: true}}", "{}"
        ),
        rule(
            "ECO003",
            "ecosystem",
            pretrained,
            "{tensorflow: 1}",
            "{ecosystem: {pretrained_models: true}}",
            "{}",
        ),
    )
    rs = load_ruleset(core=core)
    said = {"ecosystem": {"huggingface": True, "pretrained_models": True}}
    rec = decide(Profile.model_validate(said), None, rs).recommendation
    assert rec.tie_broken and rec.framework == "tensorflow"
    assert (rec.tie_note or "").startswith(
        "TensorFlow and JAX scored the same; the tie was broken by the number of supporting "
        "rules (2 vs 1)."
    )  # then, as JAX wins more of the perturbations, a sentence saying so (round 60)


def test_fact_rules_stand_aside_without_measurements(pack) -> None:
    core = pack(
        rule(
            "PERF001",
            "performance",
            "{field: facts.jit_speedup.jax, gt: 2}",
            "{jax: 2}",
            "{facts: {jit_speedup: {jax: 3.0}}}",
            "{facts: {jit_speedup: {jax: 1.0}}}",
        ),
    )
    rs = load_ruleset(core=core)
    profile = Profile()
    without = decide(profile, None, rs)
    assert [s.id for s in without.skipped_rules] == ["PERF001"]
    assert without.rules == [] and not without.probes_used
    measured = decide(profile, Facts.model_validate({"jit_speedup": {"jax": 2.9}}), rs)
    assert [r.id for r in measured.rules] == ["PERF001"]
    assert measured.rules[0].facts_used == {"facts.jit_speedup.jax": 2.9}
    assert measured.measured_facts_moved == ["PERF001"]
    slow = decide(profile, Facts.model_validate({"jit_speedup": {"jax": 1.1}}), rs)
    assert slow.rules == [] and slow.skipped_rules == []


def test_sensitivity_finds_the_smallest_flip(pack) -> None:
    core = pack(
        rule(
            "HW001",
            "hardware",
            "{field: hardware.training, contains: tpu}",
            "{jax: 4}",
            "{hardware: {training: [tpu]}}",
            "{}",
        ),
        rule(
            "PROTO001",
            "prototyping",
            "{field: purpose, eq: research}",
            "{pytorch: 2}",
            "{purpose: research}",
            "{purpose: production}",
        ),
        rule(
            "SCL001",
            "scale",
            "{field: model.parameters, gte: 1e10}",
            "{jax: 3}",
            "{model: {parameters: 2e10}}",
            "{}",
        ),
    )
    rs = load_ruleset(core=core)
    d = decide(Profile.model_validate({"purpose": "research"}), None, rs)
    assert d.recommendation.framework == "pytorch"
    sens = d.sensitivity
    assert sens is not None
    flips = {(f.path, str(f.to_value)) for f in [sens.flips_by_framework["jax"]] if f}
    assert sens.smallest_flip is not None and sens.smallest_flip.new_winner == "jax"
    assert sens.smallest_flip.cost == 1.0
    # the threshold on model.parameters is found from the rule's own literal
    assert flips & {
        ("hardware.training", "['tpu']"),  # hardware was not said: saying TPUs
        ("model.parameters", "10000000000.0"),
        ("purpose", "production"),
        ("purpose", "both"),
    }
    assert sum(sens.win_probability.values()) == pytest.approx(1.0)
    again = decide(Profile.model_validate({"purpose": "research"}), None, rs)
    assert again.sensitivity and again.sensitivity.win_probability == sens.win_probability


def test_flips_of_the_situation_are_listed_apart(pack) -> None:
    """A change to what is already so (the team, the existing code) is not a change a
    project decides: it is listed apart, and never as the smallest flip."""
    core = pack(
        rule(
            "LEG001",
            "legacy",
            "{field: existing_code, contains: tf2_keras}",
            "{tensorflow: 4}",
            "{existing_code: [tf2_keras]}",
            "{}",
        ),
        rule(
            "PROTO001",
            "prototyping",
            "{field: purpose, eq: research}",
            "{pytorch: 2}",
            "{purpose: research}",
            "{purpose: production}",
        ),
        rule(
            "DEP001",
            "deployment",
            "{field: deployment.targets, contains: browser}",
            "{tensorflow: 5}",
            "{deployment: {targets: [browser]}}",
            "{}",
        ),
    )
    rs = load_ruleset(core=core)
    d = decide(Profile.model_validate({"purpose": "research", "existing_code": []}), None, rs)
    assert d.recommendation.framework == "pytorch"
    sens = d.sensitivity
    assert sens is not None
    situation = sens.situation_flips["tensorflow"]
    assert situation is not None and situation.category == "situation"
    assert situation.path == "existing_code"
    planned = sens.decidable_by_framework["tensorflow"]
    assert planned is not None and planned.category == "plan" and planned.kind == "answer"
    # reconsidering the answer given (purpose) comes before taking on a new target
    assert sens.decidable_flip is not None and sens.decidable_flip.path == "purpose"
    assert all(f is None or f.category != "situation" for f in sens.decidable_by_framework.values())


def test_rule_prefix_must_match_criterion(pack) -> None:
    core = pack(
        rule(
            "HW001",
            "scale",
            "{field: purpose, eq: research}",
            "{jax: 1}",
            "{purpose: research}",
            "{}",
        ),
    )
    with pytest.raises(InputError) as info:
        load_ruleset(core=core)
    assert "rule HW001: id" in str(info.value) and "SCL" in str(info.value)


@pytest.mark.parametrize(
    "example", ["student-starter", "r2-low-power-devices", "r4-product-team-vision-nlp"]
)
def test_a_flip_quotes_the_lead_the_changed_profile_really_has(example: str) -> None:
    """What would change the verdict says how thin each flip is: the lead it quotes is the
    margin, in the report's points, that deciding the changed profile really gives."""
    import yaml

    from advisor.resources import data_dir

    said = yaml.safe_load((data_dir("examples") / f"{example}.yaml").read_text(encoding="utf-8"))
    rs = load_ruleset()
    d = decide(Profile.model_validate(said), None, rs)
    assert d.sensitivity is not None
    flips = [f for f in d.sensitivity.decidable_by_framework.values() if f]
    assert flips
    for flip in flips:
        changed = copy.deepcopy(said)
        *parents, leaf = flip.path.split(".")
        node = changed
        for key in parents:
            node = node.setdefault(key, {})
        node[leaf] = flip.to_value
        after = decide(Profile.model_validate(changed), None, rs).recommendation
        assert after.framework == flip.new_winner
        assert flip.new_lead == after.margin
        assert flip.near_tie == (
            not flip.new_lead_decisive and after.margin < rs.meta.decision.medium_margin
        )
