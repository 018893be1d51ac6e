"""Models served to Google Earth Engine (deployment.targets: earth_engine, DEP115).

Earth Engine calls a model hosted on Vertex AI through ee.Model: TensorFlow SavedModels are
its first and default format, PyTorch models go through a serving container of their own
(beta), and JAX is not documented (a jax2tf SavedModel, experimental). Before Vertex AI
took PyTorch models (2023) TensorFlow was the only way in: a decisive fact then, a soft
lead now.
"""

from __future__ import annotations

from typing import Any

from advisor.decide.engine import decide
from advisor.decide.rules import load_ruleset
from advisor.model.decision import Decision
from advisor.model.facts import Facts
from advisor.model.profile import Profile

EARTH_ENGINE: dict[str, Any] = {"deployment": {"targets": ["earth_engine"]}}


def _decision(data: dict[str, Any], as_of: str | None = None) -> Decision:
    rules = load_ruleset([])
    return decide(Profile.model_validate(data), Facts(), rules.at(as_of) if as_of else rules)


def _fired(decision: Decision, rule_id: str) -> Any:
    return next((r for r in decision.rules if r.id == rule_id), None)


def test_today_the_route_gives_tensorflow_a_soft_lead_not_a_decisive_fact() -> None:
    decision = _decision(EARTH_ENGINE)
    rule = _fired(decision, "DEP115")
    assert rule is not None
    assert rule.effects["tensorflow"] > rule.effects["pytorch"] > rule.effects["jax"]
    assert not decision.decisive_facts.get("tensorflow")
    assert decision.recommendation.framework == "tensorflow"
    assert decision.recommendation.confidence != "high"


def test_before_vertex_ai_took_pytorch_models_tensorflow_was_the_only_way_in() -> None:
    decision = _decision(EARTH_ENGINE, as_of="2021-06")
    assert "DEP115" in decision.decisive_facts.get("tensorflow", [])
    assert decision.recommendation.framework == "tensorflow"


def test_before_earth_engine_called_hosted_models_the_target_scores_nothing() -> None:
    decision = _decision(EARTH_ENGINE, as_of="2019-03")
    assert not decision.decisive_facts.get("tensorflow")


def test_the_target_is_a_question_choice_and_a_profile_value() -> None:
    profile = Profile.model_validate(EARTH_ENGINE)
    assert [t.value for t in profile.deployment.targets] == ["earth_engine"]
