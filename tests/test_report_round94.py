"""Red-team round 94 (2026-12-06): a bank's fraud team scoring from Java, a browser photo
editor, a PyTorch lab with free TPUs training an image diffusion model, and a logistics company
with TensorFlow 1 models weighing a move read their reports end to end."""

from __future__ import annotations

from typing import Any

from advisor.decide.conditions import build_context
from advisor.decide.engine import decide
from advisor.decide.install import choose_setup
from advisor.decide.rules import load_ruleset
from advisor.decide.said_context import SaidContext
from advisor.decide.sensitivity import uncertain_answers
from advisor.model.facts import Facts
from advisor.model.measurements import ProbeRun
from advisor.model.paths import framing_paths
from advisor.model.profile import Profile
from advisor.report.context import ReportInput, build_report

LOGISTICS: dict[str, Any] = {
    "purpose": "production",
    "domains": ["tabular"],
    "hardware": {"training": ["nvidia_gpu"], "inference": ["cpu"]},
    "deployment": {"targets": ["server"], "serving": "online_api", "serving_stack": "tf_serving"},
    "team": {"size": 6, "experience": {"tensorflow": "expert", "pytorch": "some"}},
    "existing_code": ["tf1"],
    "existing_code_size": "large",
    "weighing_a_move": True,
    "priorities": {"long_term_stability": 5},
}


def _decide(data: dict[str, Any]) -> Any:
    return decide(Profile.model_validate(data), None, load_ruleset())


def test_a_large_codebase_weighing_a_move_is_told_what_the_points_leave_out() -> None:
    """Finding 1: 'moving comes out ahead, by 4.8 points' for three years of production TF1
    code, whose port the points price as a small prototype's."""
    profile = Profile.model_validate(LOGISTICS)
    decision = decide(profile, None, load_ruleset())
    part = build_report(ReportInput(decision=decision, profile=profile, run=ProbeRun()))
    sm = part["stay_or_move"]
    assert "the points leave out" in sm["cost"] and "small prototype" in sm["cost"]
    assert "two serving stacks" in sm["middle"]
    small = Profile.model_validate({**LOGISTICS, "existing_code_size": "small"})
    sm = build_report(
        ReportInput(decision=decide(small, None, load_ruleset()), profile=small, run=ProbeRun())
    )["stay_or_move"]
    assert sm["cost"] == ""


def test_the_porting_steps_hold_on_today_s_tensorflow() -> None:
    """Findings 2, 5, 6 and 8 (checked on TensorFlow 2.21: tf.compat.v1.layers and
    nn.rnn_cell raise 'not available with Keras 3'; tf.estimator is gone)."""
    move = _decide(LOGISTICS).move
    steps = {s.topic: s.step for s in move.steps}
    stay = {s.topic: s.step for s in move.stay_steps}
    assert "TF_USE_LEGACY_KERAS=1" in stay["TensorFlow 1 code"]
    assert "tf.estimator left TensorFlow in 2.16" in stay["TensorFlow 1 code"]
    assert "i, j, f, o" in steps["Weights"] and "(out, in, height, width)" in steps["Weights"]
    assert "eager mode only" in steps["Input pipeline"]
    assert "ONNX Runtime for CPUs" in steps["Serving"] and "Predict API" in steps["Serving"]


def test_the_question_asked_is_never_offered_as_the_change() -> None:
    """Finding 11: 'change weighing_a_move from true to false' was the cheapest flip."""

    assert framing_paths() == {"weighing_a_move", "migrating_away"}
    sens = _decide(LOGISTICS).sensitivity
    offered = [sens.smallest_flip, sens.decidable_flip, *sens.flips_by_framework.values()]
    offered += list(sens.situation_flips.values())
    assert not any(f and f.path in framing_paths() for f in offered)

    base = SaidContext(Profile.model_validate(LOGISTICS), Facts())
    assert not set(uncertain_answers(base)) & framing_paths()


def test_experts_are_not_new_to_deep_learning() -> None:
    """Finding 10: a lab of PyTorch experts was offered 'if team.new_to_deep_learning were
    true' as the situation that would make PyTorch win."""
    both = {"team": {"new_to_deep_learning": True, "experience": {"pytorch": "expert"}}}
    assert "CON018" in [c.id for c in _decide(both).inconsistencies]
    lab = {
        "purpose": "research",
        "domains": ["vision", "generative"],
        "model": {"parameters": "1B"},
        "hardware": {"training": ["tpu"], "free_tpu_access": True},
        "team": {"experience": {"pytorch": "expert"}},
    }
    sens = _decide(lab).sensitivity
    flips = [*sens.situation_flips.values(), *sens.flips_by_framework.values()]
    assert not any(f and f.path == "team.new_to_deep_learning" for f in flips)


def test_java_scoring_gets_an_in_process_route_and_tabular_work_a_baseline() -> None:
    """Findings 3 and 14: a bank scoring from a Java service on CPUs was shown only Python
    and GPU servers, and nothing on the usual tabular baseline."""
    bank = {
        "domains": ["tabular"],
        "hardware": {"inference": ["cpu"]},
        "deployment": {"targets": ["server"], "serving": "online_api"},
        "team": {"languages": ["java"]},
    }
    rules = load_ruleset()
    for fw, expected in (("pytorch", "ONNX Runtime's Java API"), ("tensorflow", "TensorFlow Java")):
        context = build_context(Profile.model_validate(bank), None)
        names = [i.name for i in choose_setup(rules, fw, context, ["cpu"]).stack]
        assert any(n.startswith(expected) for n in names), (fw, names)
    for fw in rules.meta.frameworks:
        context = build_context(Profile.model_validate(bank), None)
        names = [i.name for i in choose_setup(rules, fw, context, ["cpu"]).stack]
        assert any(n.startswith("Gradient-boosted trees") for n in names), fw


def test_an_image_diffusion_model_is_shown_maxdiffusion_not_maxtext() -> None:
    """Finding 7: a 1B image diffusion lab got LLM tooling."""

    rules = load_ruleset()
    diffusion = {"domains": ["vision", "generative"], "model": {"parameters": "1B"}}
    context = build_context(Profile.model_validate(diffusion), None)
    names = [i.name for i in choose_setup(rules, "jax", context, ["tpu"]).stack]
    assert "MaxDiffusion" in names and "MaxText" not in names
    llm = {"domains": ["nlp", "generative"], "model": {"parameters": "7B"}}
    context = build_context(Profile.model_validate(llm), None)
    names = [i.name for i in choose_setup(rules, "jax", context, ["tpu"]).stack]
    assert "MaxText" in names and "MaxDiffusion" not in names


def test_a_photo_editor_s_8m_model_is_not_offered_a_microcontroller() -> None:
    """Finding 4: 'add microcontroller to deployment.targets; TensorFlow would then win' for
    an 8M-parameter browser model (CON001 tripped only from 10M parameters)."""
    editor = {
        "domains": ["vision"],
        "model": {"parameters": "8M"},
        "deployment": {"targets": ["browser"], "device_memory_mb": 20},
        "team": {"languages": ["javascript"]},
    }
    sens = _decide(editor).sensitivity
    offered = [sens.smallest_flip, sens.decidable_flip, *sens.flips_by_framework.values()]
    assert not any(
        f and f.path == "deployment.targets" and "microcontroller" in (f.to_value or [])
        for f in offered
    )
    mcu = {"deployment": {"targets": ["microcontroller"]}, "model": {"parameters": "5M"}}
    assert "CON001" in [c.id for c in _decide(mcu).inconsistencies]


def test_a_tensorflow_simulator_has_an_answer_of_its_own() -> None:
    """The sixty-second batch: wireless demos on Sionna 1.x could only be called
    'accelerator' (array code compiled with the model), which HW104 makes decisive for JAX."""
    from advisor.model.choices import Simulator

    assert "accelerator_tensorflow" in {s.value for s in Simulator}
    sim = {"domains": ["scientific"], "workload": {"simulator": "accelerator_tensorflow"}}
    decision = _decide(sim)
    fired = {r.id: r for r in decision.rules}
    assert "HW113" in fired and "HW104" not in fired
    assert fired["HW113"].decisive == {"tensorflow": 1}
    assert decision.recommendation.framework == "tensorflow"
    from advisor.questionnaire.loader import load_questions

    question = next(q for q in load_questions().questions if q.path == "workload.simulator")
    assert "accelerator_tensorflow" in [v for v, _ in question.choices]
