"""An expert user's review of ten reports (2026-12-01): each finding fixed here has a test
that fails without its fix. The stack, the confidence and the risks must follow what the
profile says, not what a typical profile would say."""

from __future__ import annotations

from typing import Any

import pytest

from advisor.decide.engine import decide
from advisor.decide.rules import load_ruleset
from advisor.model.measurements import ProbeRun
from advisor.model.profile import Profile
from advisor.report.basis import basis
from advisor.report.context import ReportInput, build_report
from advisor.report.risks import memory_budget

RULES = load_ruleset()


def _decide(data: dict[str, Any]):
    return decide(Profile.model_validate(data), None, RULES)


def _stack(data: dict[str, Any]) -> list[str]:
    return [item.name for item in _decide(data).recommendation.stack]


def test_a_beginner_is_not_told_to_compile() -> None:
    beginner = {"team": {"new_to_deep_learning": True}, "priorities": {"learning_curve": 5}}
    assert _decide(beginner).recommendation.framework == "pytorch"
    assert "torch.compile" not in _stack(beginner)
    assert "torch.compile" in _stack({"team": {"new_to_deep_learning": False}})


def test_trainium_gets_the_neuron_stack_not_cuda_libraries() -> None:
    names = _stack(
        {
            "hardware": {"training": ["aws_trainium"], "inference": ["aws_inferentia"]},
            "training": {"accelerators": 32},
            "model": {"parameters": "7B"},
            "workload": {"sparse_embeddings": True},
        }
    )
    assert any("Neuron" in n for n in names)
    assert not any(n.startswith(("DistributedDataParallel", "FSDP2", "TorchRec")) for n in names)


def test_tpu_training_gets_no_64_bit_or_gpu_flags() -> None:
    tpu = {
        "hardware": {"training": ["tpu"]},
        "domains": ["scientific"],
        "workload": {"differentiable_solver": True},
        "determinism": "required",
    }
    names = _stack(tpu)
    assert _decide(tpu).recommendation.framework == "jax"
    assert not any("x64" in n or "xla_gpu" in n for n in names)
    gpu = {
        **tpu,
        "hardware": {"training": ["nvidia_gpu"]},
        "team": {"experience": {"jax": "expert"}},
    }
    assert _decide(gpu).recommendation.framework == "jax"
    assert any("x64" in n for n in _stack(gpu))


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        ({"deployment": {"edge_hardware": ["nvidia_jetson"], "targets": ["edge"]}}, "TensorRT"),
        (
            {"deployment": {"targets": ["browser"]}, "ecosystem": {"huggingface": True}},
            "Transformers.js",
        ),
        ({"domains": ["rl"], "workload": {"simulator": "accelerator_pytorch"}}, "rsl_rl"),
    ],
)
def test_the_stack_names_the_route_the_profile_implies(data: dict[str, Any], expected: str) -> None:
    assert any(expected in n for n in _stack(data))


def test_a_verdict_whose_route_is_only_experimental_is_not_high() -> None:
    # TPUs with GPUs (decisive for JAX), shipping to a Jetson, where JAX's route is experimental
    d = _decide(
        {
            "hardware": {"training": ["tpu", "nvidia_gpu"]},
            "deployment": {"targets": ["edge"], "edge_hardware": ["nvidia_jetson"]},
            "team": {"experience": {"jax": "some"}},
            "purpose": "research",
        }
    )
    rec = d.recommendation
    assert rec.framework == "jax" and rec.confidence == "medium"
    assert rec.confidence_capped and "experimental" in rec.confidence_capped


def test_a_vllm_stack_run_by_a_pytorch_team_is_a_decisive_fact() -> None:
    data = {
        "deployment": {"serving": "llm_serving", "serving_stack": "vllm"},
        "team": {"experience": {"pytorch": "expert"}},
        "hardware": {"training": ["nvidia_gpu", "tpu"]},
        "migrating_away": False,
    }
    d = _decide(data)
    assert "PROD105" in {r.id for r in d.rules}
    assert d.recommendation.framework == "pytorch" and d.recommendation.confidence != "high"


def test_a_ruled_out_framework_does_not_make_a_conflict() -> None:
    d = _decide(
        {
            "hardware": {"training": ["tpu"]},
            "deployment": {"targets": ["microcontroller"]},
            "workload": {"compiled_training_loop": True},
        }
    )
    assert d.recommendation.framework == "tensorflow"
    assert not d.decisive_conflict and d.recommendation.confidence == "high"
    assert not any("pull different ways" in line for line in basis(d)["decisive"])


def test_a_model_larger_than_the_device_budget_is_flagged_for_every_framework() -> None:
    over = Profile.model_validate(
        {
            "model": {"parameters": "15M"},
            "deployment": {"targets": ["mobile"], "device_memory_mb": 50},
        }
    )
    text = memory_budget(over)
    assert text and "60 MB" in text and "int8" in text
    report = build_report(ReportInput(decide(over, None, RULES), over, ProbeRun.from_dict(None)))
    assert report["risks"]["project"] == [text]
    fits = over.model_copy(
        update={"deployment": over.deployment.model_copy(update={"device_memory_mb": 100})}
    )
    assert memory_budget(fits) is None
    unsaid = Profile.model_validate({"deployment": {"device_memory_mb": 50}})  # default size
    assert memory_budget(unsaid) is None


def test_the_install_line_says_when_the_training_hardware_is_assumed() -> None:
    empty = Profile()
    report = build_report(ReportInput(decide(empty, None, RULES), empty, ProbeRun.from_dict(None)))
    assert "assumed" in report["training_hardware"]
    said = Profile.model_validate({"hardware": {"training": ["nvidia_gpu"]}})
    report = build_report(ReportInput(decide(said, None, RULES), said, ProbeRun.from_dict(None)))
    assert report["training_hardware"] == "NVIDIA GPU"


# --------------------------------------------------------------- third review (2026-12-01)


def test_a_beginner_is_not_asked_about_compiled_training_loops() -> None:
    from advisor.questionnaire import load_questions

    qs = load_questions()
    paths = [q.path for q in qs.questions]
    for beginner, asked in ((True, False), (False, True)):
        relevant, _ = qs.walk({"purpose": "research", "team.new_to_deep_learning": beginner}, {})
        assert ("workload.compiled_training_loop" in [paths[i] for i in relevant]) is asked


@pytest.mark.parametrize(
    "stack_rule", [("tf_serving", "tensorflow", "PROD101"), ("vllm", "pytorch", "PROD105")]
)
def test_a_serving_stack_counts_only_for_a_model_that_is_served(
    stack_rule: tuple[str, str, str],
) -> None:
    stack, framework, rule = stack_rule
    team = {"experience": {framework: "expert"}}
    served = _decide({"deployment": {"serving_stack": stack, "targets": ["server"]}, "team": team})
    phone = _decide({"deployment": {"serving_stack": stack, "targets": ["mobile"]}, "team": team})
    assert rule in {r.id for r in served.rules}
    assert rule not in {r.id for r in phone.rules}


def test_java_on_a_phone_is_android_not_a_jvm_server() -> None:
    phone = {
        r.id
        for r in _decide(
            {"team": {"languages": ["java"]}, "deployment": {"targets": ["mobile"]}}
        ).rules
    }
    server = {
        r.id
        for r in _decide(
            {"team": {"languages": ["java"]}, "deployment": {"targets": ["server"]}}
        ).rules
    }
    # on a phone the mobile route (DEP002) scores the Android runtimes; PROD108 would count
    # them twice (one fact, one rule, round 89), and PROD109's JVM server is not there
    assert "DEP002" in phone and "PROD108" not in phone and "PROD109" not in phone
    assert "PROD109" in server and "PROD108" not in server


def test_the_schema_names_its_draft_and_checks_numbers_written_as_text() -> None:
    import json
    import re

    from click.testing import CliRunner

    from advisor.cli.main import main as cli

    schema = json.loads(CliRunner().invoke(cli, ["schema"]).output)
    assert schema["$schema"].startswith("https://json-schema.org/")
    text = json.dumps(schema)
    from advisor.model.profile import COUNT_TEXT, SIZE_TEXT

    assert json.dumps(COUNT_TEXT) in text and json.dumps(SIZE_TEXT) in text
    for good in ("7B", "350M", "1,000,000", "1.5e11"):
        assert re.match(COUNT_TEXT, good)
    for bad in ("lots", "", "7 billion"):
        assert not re.match(COUNT_TEXT, bad)
    assert re.match(SIZE_TEXT, "256KB") and not re.match(SIZE_TEXT, "big")


def test_a_written_profile_gives_whole_numbers_as_integers() -> None:
    from advisor.io.profile_writer import profile_yaml

    text = profile_yaml(Profile.model_validate({"model": {"parameters": "25M"}}))
    assert "parameters: 25000000\n" in text


# --------------------------------------------------------------- fourth review (2026-12-01)


def test_tpus_beside_gpus_are_no_decisive_fact_for_a_team_expert_in_pytorch() -> None:
    plan = {"hardware": {"training": ["tpu", "nvidia_gpu"]}, "purpose": "research"}
    assert "HW001" in _decide(plan).decisive_facts.get("jax", [])
    expert = _decide({**plan, "team": {"experience": {"pytorch": "expert"}}})
    assert "HW001" not in {r.id for r in expert.rules}


def test_a_decisive_fact_does_not_rest_on_an_exception_left_unsaid() -> None:
    """HW001 stands aside for a PyTorch-expert team; a profile that does not say the
    team's PyTorch experience still gets HW001 as a firm fact (a 'high' verdict)."""
    d = _decide({"hardware": {"training": ["tpu", "nvidia_gpu"]}, "purpose": "research"})
    assert d.recommendation.framework == "jax" and d.recommendation.confidence == "high"


def test_a_team_weighing_a_move_has_no_decisive_serving_stack() -> None:
    estate = {
        "existing_code": ["tf2_keras"],
        "existing_code_size": "large",
        "deployment": {"serving_stack": "tf_serving", "targets": ["server"]},
        "team": {"experience": {"tensorflow": "expert"}},
    }
    assert "PROD101" in {r.id for r in _decide(estate).rules}
    weighing = {r.id for r in _decide({**estate, "weighing_a_move": True}).rules}
    assert "PROD101" not in weighing and "LEG101" not in weighing


def test_gradients_of_gradients_get_no_torch_compile_and_a_risk_saying_why() -> None:
    forces = {
        "workload": {"higher_order_derivatives": True},
        "team": {"experience": {"pytorch": "expert"}},
    }
    d = _decide(forces)
    assert d.recommendation.framework == "pytorch"
    assert "torch.compile" not in [s.name for s in d.recommendation.stack]
    assert any(r.rule == "PERF102" and "double backward" in r.text for r in d.risks)


def test_sharding_and_pretraining_stacks_follow_the_model_size() -> None:
    small = _stack(
        {
            "model": {"parameters": "5M"},
            "training": {"accelerators": 8},
            "hardware": {"training": ["nvidia_gpu"]},
        }
    )
    assert "FSDP2 (fully_shard)" not in small and "DistributedDataParallel (DDP)" in small
    pretrain = _stack(
        {
            "model": {"parameters": "7B"},
            "training": {"accelerators": 512},
            "hardware": {"training": ["nvidia_gpu"]},
        }
    )
    assert "torchtitan" in pretrain and "FSDP2 (fully_shard)" in pretrain


def test_tpus_beside_gpus_get_both_jax_installs_named() -> None:
    rec = _decide({"hardware": {"training": ["tpu", "nvidia_gpu"]}}).recommendation
    assert (
        rec.install and "jax[tpu]" in rec.install.command and "cuda13" in (rec.install.note or "")
    )


def test_the_apple_neural_engine_gets_core_ml_tools() -> None:
    assert "Core ML Tools (coremltools)" in _stack(
        {"deployment": {"targets": ["mobile"], "edge_hardware": ["apple_neural_engine"]}}
    )


# --------------------------------------------------------------- sixth session (2026-12-01)


def test_a_whole_compiled_loop_decides_nothing_for_a_billion_parameter_model() -> None:
    """Whole loops and many runs in one program are how small models train; a 70B
    pretraining run that answered yes had become JAX with high confidence."""
    plan = {
        "purpose": "research",
        "model": {"parameters": "70B"},
        "hardware": {"training": ["nvidia_gpu"]},
        "workload": {"compiled_training_loop": True},
    }
    assert "PERF101" not in _decide(plan).decisive_facts.get("jax", [])
    small = {**plan, "model": {"parameters": "5M"}}
    assert "PERF101" in _decide(small).decisive_facts.get("jax", [])
    unsaid = {k: v for k, v in plan.items() if k != "model"}
    decision = _decide(unsaid)
    assert "PERF101" in decision.decisive_facts.get("jax", [])
    assert decision.recommendation.confidence == "high"  # an unsaid size caps nothing


@pytest.mark.parametrize("other", ["aws_trainium", "intel_gaudi"])
def test_aws_or_intel_silicon_beside_tpus_is_no_decisive_fact(other: str) -> None:
    """A JAX team on TPUs that added some Trainium had become a high PyTorch verdict: beside
    TPUs each framework is native on one half of the plan and young on the other."""
    team = {"team": {"experience": {"jax": "expert"}}, "purpose": "research"}
    both = _decide({**team, "hardware": {"training": ["tpu", other]}})
    assert not both.decisive_facts.get("pytorch")
    assert both.recommendation.confidence != "high"
    alone = _decide({**team, "hardware": {"training": [other]}})
    assert alone.decisive_facts.get("pytorch")


def test_no_change_offered_empties_a_hardware_list() -> None:
    """'Remove nvidia_gpu from hardware.training' was offered as the smallest change for a
    project whose only training hardware it was: a model trains and runs somewhere."""

    plan = {
        "hardware": {"training": ["nvidia_gpu"], "inference": ["cpu"]},
        "workload": {"simulator": "accelerator_jax"},
    }
    sens = _decide(plan).sensitivity
    assert sens is not None
    flips = [
        *sens.flips_by_framework.values(),
        *sens.decidable_by_framework.values(),
        *sens.situation_flips.values(),
        sens.smallest_flip,
    ]
    for flip in flips:
        if flip and flip.path.startswith("hardware."):
            assert flip.to_value != [], flip


def test_a_triton_stack_no_longer_credits_tensorflow_after_its_backend_was_deprecated() -> None:
    """Triton's TensorFlow backend is deprecated since 25.03: today the stack credits
    PyTorch alone and warns a TensorFlow verdict; a view of 2024 still credits both."""
    plan = {"deployment": {"serving_stack": "triton", "targets": ["server"]}}
    today = {r.id: r for r in _decide(plan).rules}
    assert today["PROD103"].effects.get("tensorflow", 0) == 0
    assert "PROD203" not in today
    assert "25.03" in today["PROD103"].risks["tensorflow"]
    past = {r.id: r for r in decide(Profile.model_validate(plan), None, RULES.at("2024-06")).rules}
    assert past["PROD203"].effects.get("tensorflow") == 1


def test_an_image_generation_project_gets_diffusers_and_a_fine_tuning_shop_no_torchtitan() -> None:
    tuning = {
        "domains": ["generative", "vision"],
        "model": {"parameters": "12B"},
        "training": {"accelerators": 64},
        "hardware": {"training": ["nvidia_gpu"]},
        "ecosystem": {"huggingface": True, "pretrained_models": True},
        "team": {"experience": {"pytorch": "expert"}},
    }
    stack = _stack(tuning)
    assert "Diffusers" in stack and "torchtitan" not in stack
    pretraining = {**tuning, "domains": ["nlp"], "ecosystem": {"pretrained_models": False}}
    assert "torchtitan" in _stack(pretraining) and "Diffusers" not in _stack(pretraining)


def test_pytorch_on_amd_or_apple_gpus_names_its_own_risk() -> None:
    for hardware, words in (("amd_gpu", "ROCm wheel"), ("apple_silicon", "MPS")):
        decision = _decide({"hardware": {"training": [hardware]}})
        risks = [r.text for r in decision.risks if r.framework == "pytorch"]
        assert any(words in text for text in risks), (hardware, risks)
