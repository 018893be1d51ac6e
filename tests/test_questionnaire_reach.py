"""The questionnaire asks what the rules read (round 88).

Three answers that rules score were asked only behind earlier answers that do not imply
them: a company's small open model never met the open-weights question (asked of research
or 1B+ models), a production team training with differential privacy never met the
per-example-gradients one (research or scientific/RL/generative work), federated training
across hospitals' servers never met the federated one (device targets), and differentiable
physics for control (RL) never met the solver one (scientific only).
"""

from __future__ import annotations

from typing import Any

import pytest

from advisor.decide.engine import decide
from advisor.decide.rules import load_ruleset
from advisor.model.facts import Facts
from advisor.model.profile import Profile
from advisor.questionnaire import load_questions


def _asks(data: dict[str, Any], field: str) -> bool:
    return field not in load_questions().unasked(Profile.model_validate(data))


SMALL_PRODUCT = {
    "purpose": "production",
    "domains": ["nlp"],
    "model": {"parameters": "300M"},
    "deployment": {"targets": ["server"]},
}


def test_a_company_small_open_model_is_asked_about() -> None:
    assert _asks(SMALL_PRODUCT, "deployment.open_weights")


def test_private_training_is_asked_of_production_teams() -> None:
    bank = {"purpose": "production", "domains": ["tabular"], "deployment": {"targets": ["batch"]}}
    assert _asks(bank, "workload.per_example_gradients")


def test_cross_silo_federated_training_is_asked_without_device_targets() -> None:
    hospitals = {
        "purpose": "research",
        "domains": ["vision"],
        "deployment": {"targets": ["server"]},
    }
    assert _asks(hospitals, "training.federated")


def test_differentiable_physics_for_control_is_asked_of_rl_work() -> None:
    assert _asks({"purpose": "research", "domains": ["rl"]}, "workload.differentiable_solver")


@pytest.mark.parametrize(
    "targets",
    [
        ["server"],
        ["batch"],
        ["edge"],
        ["mobile"],
        ["browser", "microcontroller"],
        ["mobile", "server"],
        [],
    ],
)
def test_open_weights_is_asked_exactly_where_eco102_can_read_it(targets: list[str]) -> None:
    data: dict[str, Any] = {"purpose": "production", "model": {"parameters": "10M"}}
    if targets:
        data["deployment"] = {"targets": targets}
    profile = Profile.model_validate(
        {**data, "deployment": {**data.get("deployment", {}), "open_weights": True}}
    )
    fired = any(r.id == "ECO102" for r in decide(profile, Facts(), load_ruleset([])).rules)
    assert _asks(data, "deployment.open_weights") == fired
