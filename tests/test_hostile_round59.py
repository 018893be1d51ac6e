"""Red-team round 59: rounds 57 and 58's changes, attacked again. Each finding, fixed, with
the promise it broke (README: "what would change the verdict" never offers a device that
cannot run the model; the report says nothing the data does not support; the install it
gives runs on the hardware it names, or says it does not)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from test_hostile_round57 import _all_flips, _json_report, _offered


@pytest.mark.parametrize(
    "targets", ["[server, edge, browser]", "[server, browser]", "[edge, browser]"]
)
def test_no_small_accelerator_is_offered_to_a_70b_project_whatever_its_targets(
    tmp_path: Path, targets: str
) -> None:
    """Finding 1: an added accelerator kept the browser target beside it, where the Coral
    Edge TPU check stands aside, and an Arm Ethos-U microNPU had no size check at all. An
    added accelerator is judged in the device it sits in (an Ethos-U beside a
    microcontroller)."""
    profile = (
        f"model: {{parameters: 70B}}\npurpose: production\ndeployment: {{targets: {targets}}}\n"
    )
    offered = _offered(_json_report(tmp_path, profile))
    assert "edge_tpu" not in offered and "arm_ethos" not in offered


def test_a_browser_added_beside_a_phone_budget_is_offered() -> None:
    """Finding 6: a 3B model with a 512 MB phone budget could not add a browser target: the
    added device was given the phone's budget, which is the smallest device's, not its."""
    profile = (
        "model: {parameters: 3B}\npurpose: production\ndomains: [nlp]\n"
        "deployment: {targets: [mobile, server, edge], device_memory_mb: 512}\n"
        "team: {experience: {tensorflow: expert}}\npriorities: {learning_curve: 2}\n"
    )  # PyTorch just ahead, so that adding a browser flips the verdict to TensorFlow
    flips = _all_flips(yaml.safe_load(profile))
    added = [f.to_value for f in flips if f.path == "deployment.targets"]
    assert any("browser" in (v or []) for v in added), added


@pytest.mark.parametrize(
    ("code", "warning"),
    [("tf2_keras", "backend-neutral Keras 3"), ("jax", "pmap is in maintenance mode")],
)
def test_a_large_codebase_that_stays_keeps_its_warnings(
    tmp_path: Path, code: str, warning: str
) -> None:
    """Finding 2: LEG001/LEG004 standing aside for their decisive twins took their risks
    with them (Keras 3 migration, pmap and Flax Linen)."""
    profile = (
        f"existing_code: [{code}]\nexisting_code_size: large\n"
        "hardware: {training: [nvidia_gpu]}\n"
    )
    data = _json_report(tmp_path, profile)
    assert warning in str(data["report"]["risks"]), data["report"]["risks"]


@pytest.mark.parametrize(
    ("hardware", "vetoed"),
    [("aws_trainium", {"tensorflow"}), ("intel_gaudi", {"tensorflow", "jax"})],
)
def test_a_framework_that_cannot_train_on_the_only_hardware_is_ruled_out(
    tmp_path: Path, hardware: str, vetoed: set[str]
) -> None:
    """Finding 3: a large Keras codebase training on Trainium or Gaudi was told to build on
    TensorFlow and given `pip install tensorflow` 'for your training hardware', while the
    same report said TensorFlow cannot train there."""
    profile = (
        f"hardware: {{training: [{hardware}]}}\nexisting_code: [tf2_keras]\n"
        "existing_code_size: large\nteam: {experience: {tensorflow: expert}}\n"
    )
    data = _json_report(tmp_path, profile)
    assert {e["framework"] for e in data["ranking"] if e["vetoed"]} == vetoed
    assert data["recommendation"]["framework"] == "pytorch"
    assert "backend-neutral Keras 3" in str(data["report"]["risks"])


def test_tensorflow_on_amd_gpus_says_the_wheel_has_no_rocm(tmp_path: Path) -> None:
    """Finding 3 (AMD): the plain tensorflow wheel was given 'for your training hardware
    (AMD GPU)' with a note about a GPU build for Linux."""
    profile = (
        "hardware: {training: [amd_gpu]}\nexisting_code: [tf2_keras]\nexisting_code_size: large\n"
    )
    data = _json_report(tmp_path, profile)
    assert data["recommendation"]["framework"] == "tensorflow"
    assert "no ROCm support" in (data["recommendation"]["install"] or {}).get("note", "")


def test_keras_2_on_tpus_does_not_pull_the_plain_tensorflow_wheel() -> None:
    """Finding 4: the TPU note forbade the plain tensorflow wheel, then said to install
    tf-keras, which requires it (tf-keras 2.20: tensorflow>=2.20,<2.21)."""
    from advisor.decide.conditions import build_context
    from advisor.decide.rules import load_ruleset
    from advisor.model.facts import Facts
    from advisor.model.profile import Profile

    pack = load_ruleset()
    profile = {"hardware": {"training": ["tpu"]}, "existing_code": ["tf2_keras"]}
    context = build_context(Profile.model_validate(profile), Facts())
    options = pack.meta.frameworks["tensorflow"].install
    chosen = next(
        o for i, o in enumerate(options)
        if pack.conditions[("tensorflow", "install", i)].evaluate(context) is True
    )  # fmt: skip
    assert "tensorflow-tpu" in chosen.command
    assert 'pip install --no-deps "tf-keras==2.20.*"' in (chosen.note or "")


def test_a_conflict_the_prior_settles_is_said_to_be_settled_by_the_prior(tmp_path: Path) -> None:
    """Finding 5: TPU-only training against a large PyTorch codebase: the whole soft lead was
    the prior's +1, yet the report said 'the soft preferences decide between them'."""
    profile = "hardware: {training: [tpu]}\nexisting_code: [pytorch]\nexisting_code_size: large\n"
    basis = str(_json_report(tmp_path, profile)["report"]["basis"])
    assert "the answers leave them level and the prior decides between them" in basis
