"""The decision model (issue 11): what was said, decisive facts, routes, priors, machines."""

from __future__ import annotations

from pathlib import Path

import pytest
from pack_support import minimal_core

from advisor.decide.conditions import PROFILE_PATHS, build_context, parse_condition
from advisor.decide.engine import decide
from advisor.decide.rules import load_ruleset
from advisor.decide.scoring import combine
from advisor.model.facts import Facts
from advisor.model.profile import DISPLAY_ONLY, Profile
from advisor.model.said import said_paths
from advisor.questionnaire.spec import model_field

PACK = load_ruleset()

EVIDENCE = """
    evidence:
      - {title: A test source, source: Test, year: 2025, claim: A claim that is long enough.}
"""


def rule(rid: str, criterion: str, when: str, effects: str, fire: str, tier: str = "") -> str:
    extra = f"\n    tier: {tier}" if tier else ""
    return f"""
  - id: {rid}
    title: Rule {rid} for tests
    criterion: {criterion}{extra}
    when: {when}
    effects: {effects}
    why: Because the test says so.{EVIDENCE}
    examples:
      fire: [{fire}]
      ok: [{{}}]
"""


@pytest.fixture
def pack(tmp_path: Path):
    core = minimal_core(tmp_path, prior=False)

    def make(*rules: str):
        (core / "rules.yaml").write_text("rules:" + "".join(rules))
        return load_ruleset(core=core)

    return make


# --------------------------------------------------------------------------- what was said


def test_said_paths_are_the_explicit_answers_only() -> None:
    p = Profile.model_validate({"team": {"experience": {"jax": "some"}}, "purpose": "research"})
    assert said_paths(p) == {"team.experience.jax", "purpose"}
    assert said_paths(Profile()) == set()
    assert said_paths(Profile.model_validate({"team": {}})) == set()


def test_an_unsaid_answer_is_unknown_unless_the_rule_says_otherwise() -> None:
    profile = Profile()
    context = build_context(profile, None, said_paths(profile))
    assert parse_condition({"field": "team.numpy", "eq": True}).evaluate(context) is None
    cond = parse_condition({"field": "migrating_away", "eq": False, "unsaid": True})
    assert cond.evaluate(context) is True
    said = Profile.model_validate({"migrating_away": True})
    assert cond.evaluate(build_context(said, None, said_paths(said))) is False


def test_the_empty_profile_is_a_near_tie_with_low_confidence_and_says_so() -> None:
    d = decide(Profile(), None, PACK)
    assert d.thin_profile and d.answered == []
    assert d.recommendation.confidence == "low"
    assert d.recommendation.margin < 3
    # only the prior moved the scores, and it is small and documented
    assert [r.id for r in d.rules] == []
    prior = d.prior["effects"]
    assert max(abs(v) for v in prior.values()) <= 1 and d.prior["why"]
    assert d.sensitivity is not None and max(d.sensitivity.win_probability.values()) < 0.8


def test_neutral_priorities_said_explicitly_fire_no_preference_rule() -> None:
    neutral = {name: 3 for name in Profile().priorities.model_dump()}
    d = decide(Profile.model_validate({"priorities": neutral}), None, PACK, with_sensitivity=False)
    assert [r.id for r in d.rules] == []


def test_every_profile_field_is_read_by_a_rule_or_marked_display_only() -> None:
    read = set().union(*(r.condition.fields() for r in PACK.rules if r.condition))
    read |= {f"priorities.{p}" for c in PACK.meta.criteria for p in c.priorities}
    # Read by no bundled rule since ECO009 was retired (ruleset 2026.12.38), and said so in
    # its description; not display-only, so a user's own pack may still read it.
    # workload.dtype: read by no bundled rule since the bfloat16 matmul rules were retired
    # (2026.12.45); the probes run in it, and the train-step rules score what they measure.
    pack_only = {"team.size", "workload.dtype"}
    unread = []
    for path in PROFILE_PATHS:
        if path in pack_only:
            assert "No bundled rule reads it" in (model_field(path)[1].description or "")
            continue
        _, info = model_field(path)
        extra = info.json_schema_extra if isinstance(info.json_schema_extra, dict) else {}
        if path not in read and DISPLAY_ONLY not in extra:
            unread.append(path)
    assert unread == []


def test_no_bundled_rule_reads_a_field_marked_display_only() -> None:
    """The reference, the schema and the questionnaire promise that a display-only field
    changes no verdict (a rule that read `workload.model_family`, which the questionnaire
    fills with its default, broke that promise once)."""
    read = set().union(*(r.condition.fields() for r in PACK.all_rules if r.condition))
    marked = []
    for path in PROFILE_PATHS:
        _, info = model_field(path)
        extra = info.json_schema_extra if isinstance(info.json_schema_extra, dict) else {}
        if DISPLAY_ONLY in extra:
            marked.append(path)
    assert marked and not read & set(marked)


def test_the_long_term_priority_never_penalises_the_teams_own_tensorflow_stack() -> None:
    data = {"existing_code": ["tf2_keras"], "priorities": {"long_term_stability": 5}}
    d = decide(Profile.model_validate(data), None, PACK, with_sensitivity=False)
    assert all(r.weighted.get("tensorflow", 0) >= 0 for r in d.rules if r.criterion == "legacy")
    assert d.ranking[0].framework == "tensorflow"


# --------------------------------------------------------------------------- decisive facts


def test_one_decisive_fact_outranks_any_pile_of_soft_preferences(pack) -> None:
    soft = [
        rule(
            f"ECO{n:03d}",
            "ecosystem",
            "{field: purpose, eq: research}",
            "{pytorch: 5}",
            "{purpose: research}",
        )
        for n in range(1, 9)
    ]
    decisive = rule(
        "HW001",
        "hardware",
        "{field: hardware.training, contains: tpu}",
        "{tensorflow: 1}",
        "{hardware: {training: [tpu]}}",
        tier="decisive",
    )
    rs = pack(*soft, decisive)
    d = decide(
        Profile.model_validate({"purpose": "research", "hardware": {"training": ["tpu"]}}), None, rs
    )
    assert d.recommendation.framework == "tensorflow"
    assert d.decisive_facts == {"tensorflow": ["HW001"]} and not d.decisive_conflict
    model = rs.meta.decision
    assert 2 * model.soft_bound < model.decisive_unit
    assert combine(1, -1e9, model) > combine(0, 1e9, model)


def test_conflicting_decisive_facts_are_reported_and_the_soft_score_decides(pack) -> None:
    rs = pack(
        rule(
            "HW001",
            "hardware",
            "{field: hardware.training, contains: tpu}",
            "{jax: 1}",
            "{hardware: {training: [tpu]}}",
            tier="decisive",
        ),
        rule(
            "LEG001",
            "legacy",
            "{field: existing_code, contains: tf2_keras}",
            "{tensorflow: 1}",
            "{existing_code: [tf2_keras]}",
            tier="decisive",
        ),
        rule(
            "TEAM001",
            "team_style",
            "{field: team.experience.tensorflow, eq: expert}",
            "{tensorflow: 3}",
            "{team: {experience: {tensorflow: expert}}}",
        ),
    )
    data = {
        "hardware": {"training": ["tpu"]},
        "existing_code": ["tf2_keras"],
        "team": {"experience": {"tensorflow": "expert"}},
    }
    d = decide(Profile.model_validate(data), None, rs)
    assert d.decisive_conflict
    assert d.recommendation.framework == "tensorflow"
    assert d.recommendation.confidence != "high"


# --------------------------------------------------------------------------- routes


def test_deployment_rules_score_the_route_and_name_it() -> None:
    d = decide(Profile.model_validate({"deployment": {"targets": ["mobile"]}}), None, PACK)
    mobile = next(r for r in d.rules if r.id == "DEP002")
    names = {r.framework: r.route for r in mobile.routes}
    assert "ExecuTorch" in names["pytorch"] and "LiteRT" in names["tensorflow"]
    assert mobile.effects.get("jax", 0) < 0  # JAX's best route to phones is younger


def test_a_venue_with_one_mature_runtime_is_a_decisive_fact() -> None:
    assert PACK.routes is not None
    assert PACK.routes.sole_runtime("microcontroller") == "tensorflow"
    assert PACK.routes.sole_runtime("edge_tpu") == "tensorflow"
    assert PACK.routes.sole_runtime("mobile") is None  # ExecuTorch and LiteRT are both mature
    data = {
        "deployment": {"targets": ["edge"], "edge_hardware": ["edge_tpu"]},
        "team": {"experience": {"pytorch": "expert"}},
        "ecosystem": {"huggingface": True},
    }
    assert decide(Profile.model_validate(data), None, PACK).recommendation.framework == (
        "tensorflow"
    )


def test_fpga_venues_score_each_route_and_date_them() -> None:
    """FPGA logic (hls4ml, FINN) favours Keras without deciding; a DPU (Vitis AI) takes
    PyTorch and TensorFlow alike; JAX has no mature route to either. Before PyTorch reached
    Vitis AI (mid-2020), a DPU was TensorFlow's alone: a decisive fact in that view."""
    assert PACK.routes is not None
    logic, dpu = PACK.routes.effects("fpga_logic"), PACK.routes.effects("fpga_dpu")
    assert logic["tensorflow"] > logic["pytorch"] > logic["jax"]
    assert dpu["tensorflow"] == dpu["pytorch"] > dpu["jax"]
    assert PACK.routes.sole_runtime("fpga_logic") is None
    assert PACK.routes.sole_runtime("fpga_dpu") is None
    assert PACK.routes.at("2020-03").sole_runtime("fpga_dpu") == "tensorflow"
    server_fpga = {"deployment": {"targets": ["server"], "edge_hardware": ["fpga_dpu"]}}
    d = decide(Profile.model_validate(server_fpga), None, PACK)
    assert "DEP113" in {r.id for r in d.rules}
    assert not d.inconsistencies  # an FPGA card in a server needs no device target
    trigger = {"deployment": {"targets": ["edge"], "edge_hardware": ["fpga_logic"]}}
    d = decide(Profile.model_validate(trigger), None, PACK)
    fired = next(r for r in d.rules if r.id == "DEP112")
    assert "hls4ml" in {r.framework: r.route for r in fired.routes}["tensorflow"]
    assert fired.weighted["pytorch"] < 0 and "tensorflow" not in fired.weighted
    assert d.thin_profile and d.recommendation.confidence == "low"


# --------------------------------------------------------------------------- measurements


def test_measurements_from_another_kind_of_machine_are_shown_not_scored() -> None:
    facts = Facts.model_validate(
        {"accelerator": "cpu", "jax_over_pytorch_train_step": 3.0, "noisy": False}
    )
    gpu = Profile.model_validate({"hardware": {"training": ["nvidia_gpu"]}})
    d = decide(gpu, facts, PACK, with_sensitivity=False)
    assert "PERF001" not in {r.id for r in d.rules}
    skipped = {s.id: s.reason for s in d.skipped_rules}
    assert "PERF001" in skipped and "not scored" in skipped["PERF001"]
    assert d.measurement_note and "nvidia_gpu" in d.measurement_note
    cpu = Profile.model_validate({"hardware": {"training": ["cpu"]}})
    assert "PERF001" in {r.id for r in decide(cpu, facts, PACK, with_sensitivity=False).rules}


# --------------------------------------------------------------------------- confidence


def test_the_win_probability_perturbs_uncertain_answers_too() -> None:
    data = {
        "team": {"experience": {"pytorch": "some", "jax": "some"}, "functional_programming": True},
        "purpose": "research",
    }
    d = decide(Profile.model_validate(data), None, PACK)
    assert d.sensitivity is not None and "uncertain answers" in d.sensitivity.method
    assert 0 < max(d.sensitivity.win_probability.values()) < 1


def test_high_confidence_needs_a_decisive_fact_behind_the_verdict() -> None:
    """Soft preferences alone, however many agree, give at most medium; the cap says why."""
    from advisor.decide.scoring import confidence
    from advisor.model.rulepack import DecisionModel

    model = DecisionModel()
    sure = {"margin": 20.0, "win_p": 1.0, "tie": False, "all_vetoed": False, "thin": False}
    assert confidence(model, **sure, conflict=False, backed=True) == ("high", None)
    level, why = confidence(model, **sure, conflict=False, backed=False)
    assert level == "medium" and why and "soft preferences" in why
    lenient = model.model_copy(update={"high_needs_decisive": False})
    assert confidence(lenient, **sure, conflict=False, backed=False) == ("high", None)
    # a lower level is never raised, and needs no reason
    assert confidence(model, **{**sure, "win_p": 0.7}, conflict=False, backed=False) == (
        "medium",
        None,
    )


def test_a_soft_verdict_is_medium_and_a_decisive_one_can_be_high() -> None:
    soft = {
        "purpose": "research",
        "team": {"experience": {"pytorch": "expert"}, "new_to_deep_learning": True},
        "ecosystem": {"huggingface": True, "pretrained_models": True},
        "priorities": {"prototyping_speed": 5, "ecosystem_breadth": 5},
    }
    d = decide(Profile.model_validate(soft), None, PACK)
    rec = d.recommendation
    winner = next(r for r in d.ranking if r.framework == rec.framework)
    assert winner.decisive == 0 and rec.margin is not None and rec.margin >= 8
    assert rec.confidence == "medium" and rec.confidence_capped
    firm = {"deployment": {"targets": ["microcontroller"], "device_memory_mb": 0.25}}
    d = decide(Profile.model_validate(firm), None, PACK)
    assert d.recommendation.framework == "tensorflow"
    assert d.recommendation.confidence == "high" and d.recommendation.confidence_capped is None


# --------------------------------------------------------------------------- bad input


def test_a_rule_naming_an_unknown_route_is_an_input_error(tmp_path: Path) -> None:
    from advisor.model.errors import InputError

    core = minimal_core(tmp_path, routes=True)
    (core / "bad.yaml").write_text(
        "rules:"
        + rule(
            "DEP901", "deployment", "{field: deployment.targets, contains: mobile}", "{}",
            "{deployment: {targets: [mobile]}}",
        ).replace("    effects: {}\n", "    route: the_moon\n")
    )  # fmt: skip
    with pytest.raises(InputError, match="unknown route venue 'the_moon'"):
        load_ruleset(core=core)


def test_unsaid_must_be_a_boolean_and_applies_to_answers_only() -> None:
    from advisor.decide.conditions import ConditionError

    with pytest.raises(ConditionError, match="'unsaid' must be true or false"):
        parse_condition({"field": "team.numpy", "eq": True, "unsaid": "yes"})
    with pytest.raises(ConditionError, match="profile answers, not measured facts"):
        parse_condition({"field": "facts.noisy", "eq": False, "unsaid": True})


@pytest.mark.parametrize(
    ("text", "megabytes"), [("256KB", 0.256), ("4 GB", 4000.0), ("0.5", 0.5), (2, 2)]
)
def test_device_memory_accepts_sizes(text: object, megabytes: float) -> None:
    profile = Profile.model_validate({"deployment": {"device_memory_mb": text}})
    assert profile.deployment.device_memory_mb == pytest.approx(megabytes)


@pytest.mark.parametrize("text", ["12 parsecs", "-1MB", "lots", "1e400"])
def test_device_memory_refuses_what_is_not_a_size(text: str) -> None:
    with pytest.raises(ValueError):
        Profile.model_validate({"deployment": {"device_memory_mb": text}})


LARGE_TF = {
    "existing_code": ["tf2_keras"],
    "existing_code_size": "large",
    "team": {"experience": {"tensorflow": "expert"}},
    "hardware": {"training": ["nvidia_gpu"]},
}


def test_a_team_weighing_a_move_gets_its_code_as_a_cost_not_a_settled_choice() -> None:
    said = {**LARGE_TF, "migrating_away": False, "weighing_a_move": False}
    stays = decide(Profile.model_validate(said), None, PACK)
    weighing = decide(Profile.model_validate({**LARGE_TF, "weighing_a_move": True}), None, PACK)
    assert "LEG101" in {r.id for r in stays.rules}
    assert stays.recommendation.confidence == "high"
    fired = {r.id for r in weighing.rules}
    # the code still counts, as a switching cost: the points of a small prototype
    assert "LEG101" not in fired and "LEG001" not in fired and "LEG010" in fired
    unsized = {k: v for k, v in LARGE_TF.items() if k != "existing_code_size"}
    keeps = decide(Profile.model_validate(unsized), None, PACK)
    cost = decide(Profile.model_validate({**unsized, "weighing_a_move": True}), None, PACK)
    kept = {r.id: r.weighted.get("tensorflow", 0.0) for r in keeps.rules}
    costs = {r.id: r.weighted.get("tensorflow", 0.0) for r in cost.rules}
    assert costs["LEG010"] == kept["LEG001"] / 2 > 0 and "LEG001" not in costs
    assert weighing.recommendation.confidence != "high"
    both = {**LARGE_TF, "weighing_a_move": True, "migrating_away": True}
    assert "CON011" in {
        i.id for i in decide(Profile.model_validate(both), None, PACK).inconsistencies
    }


def test_a_decisive_fact_that_assumes_an_unsaid_answer_backs_no_high_verdict() -> None:
    # "a large codebase that stays" read from silence: the same ranking, but not "high"
    # until the profile says the team stays (dev: 13 of 16 such highs were right)
    unsaid = decide(Profile.model_validate(LARGE_TF), None, PACK)
    rec = unsaid.recommendation
    assert rec.framework == "tensorflow" and "LEG101" in unsaid.decisive_facts["tensorflow"]
    assert rec.confidence == "medium"
    assert rec.confidence_capped == (
        "what backs it assumes answers the profile omits: migrating_away, weighing_a_move"
    )
    half = {**LARGE_TF, "migrating_away": False}  # still silent on weighing a move
    assert decide(Profile.model_validate(half), None, PACK).recommendation.confidence_capped
    # a second decisive fact that rests on what was said backs the verdict on its own
    tpu = {**LARGE_TF, "existing_code": ["jax"], "hardware": {"training": ["tpu"]}}
    tpu_dec = decide(Profile.model_validate(tpu), None, PACK)
    assert tpu_dec.recommendation.framework == "jax"
    assert len(tpu_dec.decisive_facts["jax"]) >= 2
    assert tpu_dec.recommendation.confidence == "high"


def test_the_weighing_question_follows_a_no_to_leaving() -> None:
    from advisor.questionnaire import load_questions

    qs = load_questions()
    base = qs.base()
    asked = {qs.questions[i].path for i in qs.walk({"existing_code": ["tf1"]}, base)[0]}
    assert "weighing_a_move" in asked
    left = {"existing_code": ["tf1"], "migrating_away": True}
    assert "weighing_a_move" not in {qs.questions[i].path for i in qs.walk(left, base)[0]}


def test_an_assumed_decisive_fact_against_the_winner_still_counts(tmp_path: Path) -> None:
    # round 15: only favourable decisive units that hold through an unsaid answer are set
    # aside; one against the winner, read from silence, must not make its verdict firmer
    evidence = "[{title: A source, source: Tests, year: 2024, claim: A claim long enough.}]"
    (tmp_path / "scale.yaml").write_text(
        "rules:\n"
        "  - {id: SCL951, title: A said fact for PyTorch, criterion: scale, tier: decisive,\n"
        "     when: {field: ecosystem.pretrained_models, eq: true}, effects: {pytorch: 2},\n"
        f"     why: Because the test says so., evidence: {evidence},\n"
        "     examples: {fire: [{ecosystem: {pretrained_models: true}}], ok: [{}]}}\n"
        "  - {id: SCL952, title: An assumed fact against PyTorch, criterion: scale,\n"
        "     tier: decisive, effects: {pytorch: -2}, why: Because the test says so.,\n"
        "     when: {field: workload.differentiable_solver, eq: false, unsaid: true},\n"
        f"     evidence: {evidence},\n"
        "     examples: {fire: [{}], ok: [{workload: {differentiable_solver: true}}]}}\n",
        encoding="utf-8",
    )
    pack = load_ruleset([tmp_path])
    base = {
        "ecosystem": {"pretrained_models": True},
        "domains": ["vision", "nlp"],
        "purpose": "production",
        "priorities": {"prototyping_speed": 5},
    }
    unsaid = decide(Profile.model_validate(base), None, pack).recommendation
    said = {**base, "workload": {"differentiable_solver": False}}
    told = decide(Profile.model_validate(said), None, pack).recommendation
    assert unsaid.framework == told.framework == "pytorch"
    assert unsaid.confidence == told.confidence != "high"


@pytest.mark.parametrize(
    "profile",
    [
        {"domains": ["vision"], "migrating_away": True},
        {"purpose": "production", "existing_code_size": "large", "team": {"size": 30}},
        {"hardware": {"training": ["tpu"]}, "priorities": {"long_term_stability": 5}},
        {"deployment": {"targets": ["mobile"]}, "ecosystem": {"pretrained_models": True}},
    ],
)
def test_code_in_another_framework_credits_no_candidate(profile: dict) -> None:
    """existing_code 'other' (MXNet, Caffe, Theano, ...) must be ported whichever framework
    is chosen: the scores are those of the same profile with no existing code. (A writer
    who could not say MXNet had written 'numpy', which credits JAX.)"""
    ruleset = load_ruleset()
    other = decide(Profile.model_validate({**profile, "existing_code": ["other"]}), None, ruleset)
    none = decide(Profile.model_validate(profile), None, ruleset)
    assert {r.framework: r.score for r in other.ranking} == {
        r.framework: r.score for r in none.ranking
    }
    assert not other.inconsistencies


def test_at_a_tie_the_answers_outrank_the_prior() -> None:
    """The prior (PyTorch +1) levels a framework with one the answers put a point ahead; it
    cannot pass it, whichever framework that is (the name order had let PyTorch pass
    TensorFlow there, but not JAX)."""
    rs = load_ruleset()
    assert rs.meta.prior is not None and rs.meta.prior.effects.pytorch == 1
    # FPGA logic: TensorFlow's route is mature, PyTorch's beta (one point), JAX's experimental
    profile = Profile.model_validate(
        {"deployment": {"targets": ["edge"], "edge_hardware": ["fpga_logic"]}}
    )
    d = decide(profile, None, rs, verdict_only=True)
    scores = {r.framework: r.score for r in d.ranking}
    assert scores["tensorflow"] == scores["pytorch"]
    assert d.recommendation.framework == "tensorflow"
    assert "only because of the prior" in (d.recommendation.tie_note or "")
