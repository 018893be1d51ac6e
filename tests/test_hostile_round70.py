"""Red-team round 70 (decisions): an unsaid training hardware read as "not GPUs", one
serving stack counted as a decisive and a soft fact, LiteRT's phone-NPU route still rated
beta after it graduated, a microcontroller's Ethos-U NPU judged by the generic
microcontroller route, and one learning-material claim counted twice for a newcomer team."""

from __future__ import annotations

from typing import Any

import pytest

from advisor.decide.engine import decide
from advisor.decide.rules import load_ruleset
from advisor.model.profile import Profile
from advisor.pipeline import unasked_fields

RULESET = load_ruleset()


def _decide(profile: dict[str, Any], as_of: str | None = None) -> Any:
    model = Profile.model_validate(profile)
    ruleset = RULESET.at(as_of) if as_of else RULESET
    return decide(model, None, ruleset, verdict_only=True, unasked=unasked_fields(model))


def _fired(profile: dict[str, Any], as_of: str | None = None) -> set[str]:
    return {r.id for r in _decide(profile, as_of).rules}


@pytest.mark.parametrize(
    "profile",
    [
        {"training": {"accelerators": 512, "nodes": 64}, "model": {"parameters": "70B"}},
        {"training": {"accelerators": 64}, "purpose": "research"},
    ],
)
def test_an_unsaid_training_hardware_is_not_read_as_no_gpus(profile: dict[str, Any]) -> None:
    """Finding 1: SCL004 and PAR002 (JAX for banks of accelerators that are not GPUs) read an
    unsaid hardware.training as "not GPUs", though its default is NVIDIA GPUs: a large run
    got JAX when the hardware was left out and PyTorch when it said nvidia_gpu."""
    assert not _fired(profile) & {"SCL004", "PAR002"}
    said = {**profile, "hardware": {"training": ["tpu"]}}
    assert _fired(said) & {"SCL004", "PAR002"}  # said TPUs: the rules still apply


def test_a_serving_stack_run_by_its_team_is_one_fact_not_two() -> None:
    """Finding 2: PROD104 (TF Serving in place, soft) fired beside its decisive twin PROD101
    (the same stack run by a TensorFlow team), and PROD102 (vLLM, soft) beside PROD105."""
    tf = {"deployment": {"targets": ["server"], "serving_stack": "tf_serving"},
          "team": {"experience": {"tensorflow": "some"}}}  # fmt: skip
    assert "PROD101" in _fired(tf) and "PROD104" not in _fired(tf)
    assert "PROD104" in _fired({"deployment": {"serving_stack": "tf_serving"}})
    vllm = {"deployment": {"targets": ["server"], "serving_stack": "vllm",
                           "serving": "llm_serving"},
            "team": {"experience": {"pytorch": "expert"}}}  # fmt: skip
    assert "PROD105" in _fired(vllm) and "PROD102" not in _fired(vllm)


def test_litert_npu_acceleration_is_mature_since_tensorflow_2_21() -> None:
    """Finding 3: the phone-NPU route rated LiteRT 'beta' today, though the pack's own
    evidence (F-TF221, Mar 2026) says its NPU acceleration graduated to production."""
    profile = {"deployment": {"targets": ["mobile"], "edge_hardware": ["mobile_npu"]}}
    venue = RULESET.routes.venues["mobile_npu"]
    assert venue.best("tensorflow").maturity == "mature"
    assert RULESET.at("2025-06").routes.venues["mobile_npu"].best("tensorflow").maturity == "beta"
    assert _decide(profile).recommendation.framework == "tensorflow"


def test_a_microcontrollers_ethos_u_npu_is_judged_by_its_own_route() -> None:
    """Finding 4: a PyTorch-expert team targeting a microcontroller with an Ethos-U NPU got
    TensorFlow at high confidence from the generic microcontroller route (PyTorch
    experimental), though the device's own venue rates ExecuTorch's Ethos-U backend beta."""
    profile = {"deployment": {"targets": ["microcontroller"], "edge_hardware": ["arm_ethos"]},
               "team": {"experience": {"pytorch": "expert"}}}  # fmt: skip
    decision = _decide(profile)
    fired = {r.id for r in decision.rules}
    assert "DEP001" not in fired and {"DEP106", "DEP114"} <= fired
    assert decision.recommendation.confidence != "high"
    assert next(e for e in decision.ranking if e.framework == "jax").vetoed  # still no route
    plain = {"deployment": {"targets": ["microcontroller"]}}
    assert "DEP001" in _fired(plain) and "DEP114" not in _fired(plain)


def test_a_newcomer_team_gets_the_learning_material_claims_once() -> None:
    """Finding 5: LRN001 (a team new to deep learning) and LRN003 (no framework experience)
    cite the same claims, and both fired for a newcomer team that also said it knew no
    framework."""
    none = {"pytorch": "none", "jax": "none", "tensorflow": "none"}
    newcomer = {"team": {"new_to_deep_learning": True, "experience": none}}
    assert "LRN001" in _fired(newcomer) and "LRN003" not in _fired(newcomer)
    assert "LRN003" in _fired({"team": {"experience": none}})
