"""Red-team round 93 (2026-12-06): a weather service, a physics PhD student and a mobile speech
team read their reports end to end; and round 92's open point, a team weighing a move told only
"Stay on X", now gets staying against moving side by side."""

from __future__ import annotations

from typing import Any

from test_report_round92 import RANKING  # the ranking team weighing a move

from advisor.decide.conditions import build_context
from advisor.decide.engine import decide
from advisor.decide.moves import porting_steps
from advisor.decide.rules import load_ruleset
from advisor.model.measurements import ProbeRun
from advisor.model.profile import Profile
from advisor.report.context import ReportInput, build_report


def _report(data: dict[str, Any]) -> dict[str, Any]:
    profile = Profile.model_validate(data)
    decision = decide(profile, None, load_ruleset())
    return build_report(ReportInput(decision=decision, profile=profile, run=ProbeRun()))


def test_a_team_weighing_a_move_sees_staying_against_moving() -> None:
    decision = decide(Profile.model_validate(RANKING), None, load_ruleset())
    move = decision.move
    assert move is not None
    assert (move.stay, move.move, move.recommended) == ("tensorflow", "pytorch", "tensorflow")
    assert "TEAM107" in [r.rule for r in move.for_staying]
    assert "TEAM003" in [r.rule for r in move.for_moving]
    assert not {r.rule for r in move.for_staying} & {r.rule for r in move.for_moving}
    topics = [s.topic for s in move.steps]
    assert topics[0] == "Model code" and "Serving" in topics and topics[-1] == "Check"
    assert any("KERAS_BACKEND=torch" in s.step for s in move.steps)
    assert [s.topic for s in move.stay_steps] == ["Keras 2 code"]  # Keras 3 since TF 2.16
    part = _report(RANKING)["stay_or_move"]
    assert part["title"] == "Staying on TensorFlow or moving to PyTorch"
    assert "staying comes out ahead" in part["standing"] and part["size"] == "large"


def test_tensorflow_1_code_leaving_gets_the_rewrite_steps_and_staying_costs_a_migration() -> None:
    leaving = {
        "existing_code": ["tf1"],
        "migrating_away": True,
        "team": {"experience": {"pytorch": "expert"}},
        "domains": ["vision"],
    }
    move = decide(Profile.model_validate(leaving), None, load_ruleset()).move
    assert move is not None and move.recommended == move.move == "pytorch"
    assert any("tf.train.load_checkpoint" in s.step for s in move.steps)
    assert not any("KERAS_BACKEND" in s.step for s in move.steps)  # no Keras code to carry
    assert [s.topic for s in move.stay_steps] == ["TensorFlow 1 code"]
    # a team that has decided to leave: staying is ruled out (LEG104), and the report says so
    assert _report(leaving)["stay_or_move"]["standing"].startswith(
        "Staying on TensorFlow is ruled out"
    )
    weighing = {**leaving, "migrating_away": False, "weighing_a_move": True}
    assert "moving comes out ahead" in _report(weighing)["stay_or_move"]["standing"]


def test_no_stay_or_move_part_for_a_team_that_is_not_weighing_one() -> None:
    settled = {k: v for k, v in RANKING.items() if k != "weighing_a_move"}
    assert decide(Profile.model_validate(settled), None, load_ruleset()).move is None
    assert _report(settled)["stay_or_move"] is None
    # weighing a move with no code in a candidate framework: nothing to stay on
    numpy_only = {"existing_code": ["numpy"], "weighing_a_move": True}
    assert decide(Profile.model_validate(numpy_only), None, load_ruleset()).move is None


def test_every_framework_says_how_to_port_each_other_frameworks_code() -> None:
    """Each framework's porting list covers the code of the others; each step links a source
    except the closing check, which is the team's own test."""
    from advisor.frameworks import CODE_FRAMEWORK

    rules = load_ruleset()
    for fw in rules.meta.frameworks:
        for kind, code_fw in CODE_FRAMEWORK.items():
            if code_fw == fw:
                continue
            profile = Profile.model_validate({"existing_code": [kind], "weighing_a_move": True})
            steps = porting_steps(rules, fw, build_context(profile, None))
            assert steps, (kind, code_fw, fw)
            assert all(s.url for s in steps if s.topic != "Check")


STUDENT: dict[str, Any] = {
    "purpose": "research",
    "domains": ["scientific"],
    "model": {"parameters": "2M"},
    "hardware": {"training": ["cpu", "nvidia_gpu"], "free_tpu_access": True},
    "deployment": {"targets": ["batch"], "serving": "none"},
    "team": {"size": 1, "new_to_deep_learning": True, "numpy": True},
    "existing_code": ["numpy"],
    "priorities": {"learning_curve": 5, "prototyping_speed": 4, "ecosystem_breadth": 4},
}


def test_a_student_training_a_network_is_a_beginner_whatever_numpy_code_it_has() -> None:
    """Finding 1: LRN001 stood aside for a physics student with NumPy simulation code, as for
    a team whose work is numerical modelling; a stated model size says it trains a network."""
    fired = [r.id for r in decide(Profile.model_validate(STUDENT), None, load_ruleset()).rules]
    assert "LRN001" in fired
    modelling = {k: v for k, v in STUDENT.items() if k != "model"}
    fired = [r.id for r in decide(Profile.model_validate(modelling), None, load_ruleset()).rules]
    assert "LRN001" not in fired  # numerical modelling with no network size: it stands aside


def test_a_compiled_training_loop_is_not_decisive_for_a_model_of_10m_parameters() -> None:
    """Finding 2: a 50M-parameter weather model on 32 GPUs was offered 'answer
    compiled_training_loop: true' as its cheapest flip to JAX, on a decisive fact."""
    weather = {
        "purpose": "production",
        "domains": ["scientific"],
        "model": {"parameters": "50M"},
        "training": {"accelerators": 32, "nodes": 8},
        "workload": {"compiled_training_loop": True},
    }
    fired = [r.id for r in decide(Profile.model_validate(weather), None, load_ruleset()).rules]
    assert "PERF101" not in fired
    weather["model"] = {"parameters": "5M"}
    fired = [r.id for r in decide(Profile.model_validate(weather), None, load_ruleset()).rules]
    assert "PERF101" in fired


def test_phone_npus_list_the_litert_torch_route_and_link_litert_s_own_page() -> None:
    """Finding 5: JAX was credited with a conversion route to LiteRT's NPU path and PyTorch
    not, though the stack sends PyTorch users down it; TensorFlow's link was a post the
    report said was not reachable."""
    routes = load_ruleset().routes
    assert routes is not None
    venue = routes.venues["mobile_npu"]
    assert any("litert-torch" in r.route for r in venue.routes["pytorch"])
    assert venue.best("pytorch").maturity == "beta"  # no better than ExecuTorch's backends
    assert venue.best("tensorflow").url == "https://ai.google.dev/edge/litert/next/npu"


def test_quantization_advice_names_the_targets_tools_and_says_whether_float16_fits() -> None:
    from advisor.report.risks import memory_budget

    app = Profile.model_validate(
        {
            "model": {"parameters": "30M"},
            "deployment": {
                "targets": ["mobile"],
                "edge_hardware": ["mobile_npu", "apple_neural_engine"],
                "device_memory_mb": 50,
            },
        }
    )
    text = memory_budget(app)
    assert text is not None
    assert "float16 alone (about 60 MB) does not fit" in text
    assert "coremltools.optimize" in text and "ONNX Runtime" not in text
    roomy = app.model_copy(
        update={"deployment": app.deployment.model_copy(update={"device_memory_mb": 80})}
    )
    assert "float16 weights (about 60 MB) fit it" in (memory_budget(roomy) or "")


def test_companions_say_what_they_pin_and_optional_ones_stay_out_of_the_pip_line() -> None:
    from advisor.report.context import companion_install

    phone = {
        "deployment": {"targets": ["mobile"]},
        "existing_code": ["pytorch"],
        "team": {"experience": {"pytorch": "expert", "tensorflow": "some"}},
        "determinism": "preferred",
    }
    rec = decide(Profile.model_validate(phone), None, load_ruleset()).recommendation
    assert rec.framework == "pytorch"
    items = {item.name: item for item in rec.stack}
    line = companion_install(rec)
    assert "executorch" in line.split() and "keras" not in line.split()
    assert "torch below 2.15" in items["LiteRT Torch (litert-torch, formerly ai-edge-torch)"].note
    assert "torch.use_deterministic_algorithms(True, warn_only=True)" in items
    assert "Keras 3 on the PyTorch back end" in items  # shown, but not in the pip line
    stack = load_ruleset().meta.frameworks["pytorch"].stack
    assert next(i for i in stack if i.name == "ExecuTorch").pip == "executorch"


def test_a_gpu_project_is_told_to_measure_on_its_kind_of_machine() -> None:
    assert _report({"hardware": {"training": ["nvidia_gpu"]}})["trains_on_accelerators"]
    assert not _report({"hardware": {"training": ["cpu"]}})["trains_on_accelerators"]


def test_a_laptop_beside_the_gpus_is_told_about_the_cpu_wheels_and_hosted_notebooks() -> None:
    """Finding 6: the student's laptop without a GPU was sent the several-GB CUDA wheels."""
    rec = decide(Profile.model_validate(STUDENT), None, load_ruleset()).recommendation
    assert rec.framework == "pytorch" and rec.install is not None
    assert "download.pytorch.org/whl/cpu" in rec.install.note
    assert "do not reinstall it there" in rec.install.note
    gpu_only = {**STUDENT, "hardware": {"training": ["nvidia_gpu"]}}
    rec = decide(Profile.model_validate(gpu_only), None, load_ruleset()).recommendation
    assert rec.install is not None and "whl/cpu" not in rec.install.note


def test_a_tfx_stack_is_told_that_tfx_pins_its_tensorflow() -> None:
    """Round 92's open point: TFX pins one TensorFlow minor version."""
    stack = load_ruleset().meta.frameworks["tensorflow"].stack
    tfx = next(item for item in stack if item.name.startswith("TFX"))
    assert "tfx 1.21 needs tensorflow 2.21" in tfx.role
    assert tfx.when == {"field": "deployment.serving_stack", "eq": "tf_serving"}
    mcu = next(item for item in stack if item.name == "LiteRT for Microcontrollers")
    assert "xxd -i" in mcu.role and "CMSIS-NN" in mcu.role
