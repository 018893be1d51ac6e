"""Free or credited TPU access (HW106, ruleset 2026.12.48): one fact, one rule.

HW106 reads free access as a reason for a project that does not train on TPUs to consider
them (JAX +2); once the TPUs are the training hardware, HW001/HW008 score them and HW106
stands aside. The questionnaire asks the question where HW106 can read the answer.
"""

from __future__ import annotations

from typing import Any

from advisor.decide.engine import decide
from advisor.decide.rules import load_ruleset
from advisor.model.decision import Decision
from advisor.model.facts import Facts
from advisor.model.profile import Profile
from advisor.questionnaire import load_questions


def _decision(data: dict[str, Any]) -> Decision:
    return decide(Profile.model_validate(data), Facts(), load_ruleset([]))


def _fired(decision: Decision, rule_id: str) -> Any:
    return next((r for r in decision.rules if r.id == rule_id), None)


def test_free_tpus_count_for_a_project_that_does_not_train_on_them_yet() -> None:
    fired = _fired(
        _decision({"hardware": {"free_tpu_access": True, "training": ["nvidia_gpu"]}}), "HW106"
    )
    assert fired is not None and fired.effects["jax"] > 0


def test_free_tpus_are_not_a_second_fact_beside_the_tpus_trained_on() -> None:
    for training in (["tpu"], ["tpu", "nvidia_gpu"]):
        decision = _decision({"hardware": {"free_tpu_access": True, "training": training}})
        assert _fired(decision, "HW106") is None


def test_the_questionnaire_asks_free_access_where_hw106_can_read_it() -> None:
    questions = load_questions()
    on_gpus = Profile.model_validate({"hardware": {"training": ["nvidia_gpu"]}})
    on_tpus = Profile.model_validate({"hardware": {"training": ["tpu"]}})
    assert "hardware.free_tpu_access" not in questions.unasked(on_gpus)
    assert "hardware.free_tpu_access" in questions.unasked(on_tpus)
