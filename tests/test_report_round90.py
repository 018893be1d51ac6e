"""Red-team round 90 (a tech lead read three fresh reports end to end, 2026-12-06)."""

from __future__ import annotations

from advisor.decide.engine import decide
from advisor.decide.rules import load_ruleset
from advisor.decide.scoring import to_score
from advisor.model.profile import Profile
from advisor.report.changes import changes


def test_a_flip_that_only_rules_the_winner_out_says_so() -> None:
    """Section 7 offered "answer migrating_away: true; JAX would then win, by 3.8 points" as
    if JAX were close: the change vetoes PyTorch, and JAX then scored 38 of 100. (Round 94
    took migrating_away out of the offered changes: it frames the team's question; training
    on Gaudi alone, which rules JAX out, is the example now.)"""
    jax_team = {"purpose": "research", "team": {"experience": {"jax": "expert"}},
                "workload": {"compiled_training_loop": True}}  # fmt: skip
    decision = decide(Profile.model_validate(jax_team), None, load_ruleset())
    assert decision.recommendation.framework == "jax"
    flip = decision.sensitivity.smallest_flip
    assert flip is not None and flip.path == "hardware.training"
    assert flip.rules_out == "jax"
    shown = changes(decision)["smallest"]["lead"]
    assert shown.endswith("only because the change rules JAX out"), shown


def test_a_flip_that_outscores_the_winner_names_no_veto() -> None:
    decision = decide(
        Profile.model_validate({"priorities": {"learning_curve": 5}}), None, load_ruleset()
    )
    offered = [f for f in decision.sensitivity.flips_by_framework.values() if f]
    assert offered and all(f.rules_out is None for f in offered)


def test_a_score_never_shows_a_perfect_fit_the_model_does_not_compute() -> None:
    """A differentiable fluid solver's report said "JAX scores 100 of 100" for 99.98."""
    assert to_score(1e4) == 99.9 and to_score(-1e4) == 0.1 and to_score(0.0) == 50.0
    solver = {
        "purpose": "research",
        "domains": ["scientific"],
        "hardware": {"training": ["nvidia_gpu"]},
        "existing_code": ["numpy"],
        "workload": {
            "differentiable_solver": True,
            "simulator": "accelerator",
            "compiled_training_loop": True,
            "higher_order_derivatives": True,
        },
    }
    decision = decide(Profile.model_validate(solver), None, load_ruleset())
    assert decision.recommendation.framework == "jax"
    assert all(0.1 <= r.score <= 99.9 for r in decision.ranking)


def test_a_beta_route_to_the_only_target_is_a_risk_of_the_recommended_framework() -> None:
    """An ultrasound CNN for an Arm Ethos-U device: the route table rated PyTorch's way
    there beta, but section 8's risks for PyTorch never said so."""
    device = {
        "purpose": "production",
        "domains": ["vision"],
        "model": {"parameters": "2M"},
        "hardware": {"training": ["nvidia_gpu"], "inference": ["cpu"]},
        "deployment": {"targets": ["edge"], "edge_hardware": ["arm_ethos"]},
        "team": {"experience": {"pytorch": "some", "tensorflow": "some"}},
        "ecosystem": {"pretrained_models": True, "libraries": ["vision"]},
        "priorities": {"production_maturity": 5, "long_term_stability": 5},
    }
    decision = decide(Profile.model_validate(device), None, load_ruleset())
    winner = decision.recommendation.framework
    route = next(
        c for r in decision.rules for c in r.routes if c.framework == winner and r.id == "DEP106"
    )
    said = [r.text for r in decision.risks if r.framework == winner and r.rule == "DEP106"]
    assert route.maturity in ("beta", "experimental")  # routes.yaml, checked 2026-11-30
    assert said and f"is only {route.maturity}" in said[0], said


def test_a_team_without_jax_or_a_functional_habit_is_warned_when_jax_wins() -> None:
    """A fluid-solver lab with no JAX and no functional habit got JAX, and section 8 said
    "No rule flagged a specific risk of JAX for this profile" beside TEAM002's -2."""
    lab = {
        "purpose": "research",
        "domains": ["scientific"],
        "hardware": {"training": ["nvidia_gpu"]},
        "team": {"experience": {"jax": "none"}, "functional_programming": False},
        "existing_code": ["numpy"],
        "workload": {"differentiable_solver": True, "simulator": "accelerator"},
    }
    decision = decide(Profile.model_validate(lab), None, load_ruleset())
    assert decision.recommendation.framework == "jax"
    assert any(r.rule == "TEAM002" and r.framework == "jax" for r in decision.risks)


def test_the_companions_come_with_one_pip_line() -> None:
    """Rounds 88 and 90: the install line named only the framework; an LLM fine-tuning
    report listed Transformers, PEFT and TRL without a way to install them."""
    from advisor.io.profiles import example_path, load_profile
    from advisor.report.context import companion_install

    decision = decide(
        load_profile(str(example_path("llm-finetuning-nvidia-hf"))), None, load_ruleset()
    )
    line = companion_install(decision.recommendation)
    assert line == "pip install transformers peft trl", line


def test_a_pip_requirement_is_never_shell_syntax() -> None:
    import pytest
    from pydantic import ValidationError

    from advisor.model.rulepack import StackItem

    ok = StackItem(name="x", role="y", pip="jax[cuda13] foo>=1.2,<2")
    assert ok.pip
    for bad in ("x; rm -rf ~", "a && b", "$(curl evil)", "a|sh", "`id`", '"x"', "a  b"):
        with pytest.raises(ValidationError):
            StackItem(name="x", role="y", pip=bad)


def test_a_requirement_the_shell_would_read_is_quoted() -> None:
    from advisor.model.decision import Recommendation
    from advisor.model.rulepack import StackItem
    from advisor.report.context import companion_install

    rec = Recommendation.model_construct(
        stack=[StackItem(name="a", role="b", pip="jax[cuda13] foo>=1.2 jax[cuda13]")]
    )
    assert companion_install(rec) == 'pip install "jax[cuda13]" "foo>=1.2"'
