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
