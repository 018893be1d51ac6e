"""Each framework's starter code (rules/pack.yaml), shown in every report, runs as printed;
the report shows the first option whose `when` fits the profile."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

from advisor.decide.engine import decide
from advisor.decide.rules import load_ruleset
from advisor.model.profile import Profile

MODULE = {"pytorch": "torch", "jax": "jax", "tensorflow": "keras"}
OPTIONS = [
    (fw, i)
    for fw, info in sorted(load_ruleset().meta.frameworks.items())
    for i in range(len(info.starter))
]


@pytest.mark.probes
@pytest.mark.parametrize(("framework", "option"), OPTIONS)
def test_the_starter_code_runs(framework: str, option: int, tmp_path: Path) -> None:
    if importlib.util.find_spec(MODULE[framework]) is None:
        pytest.skip(f"{framework} is not installed here")
    if framework == "tensorflow" and importlib.util.find_spec("tensorflow") is None:
        pytest.skip("Keras without TensorFlow: the starter is for the TensorFlow back end")
    starter = load_ruleset().meta.frameworks[framework].starter[option].code
    env = {"KERAS_BACKEND": "tensorflow", "TF_CPP_MIN_LOG_LEVEL": "3", "PATH": "/usr/bin:/bin"}
    done = subprocess.run(
        [sys.executable, "-c", starter],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
        cwd=tmp_path,  # an export starter writes its model file here
    )
    assert done.returncode == 0, done.stderr[-2000:]


@pytest.mark.parametrize(
    ("profile", "framework", "shows"),
    [
        ({"deployment": {"targets": ["mobile"]}}, "tensorflow", "TFLITE_BUILTINS_INT8"),
        (
            {"deployment": {"targets": ["mobile"], "edge_hardware": ["apple_neural_engine"]}},
            "tensorflow",
            "tf.float16",
        ),
        ({"deployment": {"targets": ["browser"]}}, "tensorflow", "tensorflowjs_converter"),
        ({"deployment": {"targets": ["server"]}}, "tensorflow", None),
        ({"deployment": {"targets": ["mobile"]}}, "pytorch", "in place of this small image"),
        # round 94: a fraud team on tabular data was shown an MNIST-shaped classifier
        ({"domains": ["tabular"]}, "pytorch", "pos_weight=pos_weight"),
        ({"domains": ["tabular"]}, "jax", "def loss(params, x, y, pos_weight=9.0)"),
        ({"domains": ["tabular"]}, "tensorflow", "class_weight="),
        # round 94: a browser photo editor was shown a classifier with no export
        (
            {"domains": ["vision"], "deployment": {"targets": ["browser"]}},
            "pytorch",
            "external_data=False",
        ),
        # rounds 92-93: speech on a device was shown an image network
        ({"domains": ["speech"], "deployment": {"targets": ["mobile"]}}, "pytorch", "ctc_loss"),
        (
            {"deployment": {"targets": ["mobile"], "edge_hardware": ["apple_neural_engine"]}},
            "pytorch",
            "ct.convert",
        ),
        (
            {"deployment": {"targets": ["edge"], "edge_hardware": ["nvidia_jetson"]}},
            "pytorch",
            None,
        ),
        ({"workload": {"compiled_training_loop": True}}, "jax", "jax.lax.scan"),
        # round 88: an LLM project was shown an MLP; a transformer gets a small language model
        ({"workload": {"model_family": "transformer"}}, "pytorch", "is_causal=True"),
        ({"workload": {"model_family": "transformer"}}, "jax", "is_causal=True"),
        ({"workload": {"model_family": "transformer"}}, "tensorflow", "use_causal_mask=True"),
        # round 91: the field's description said the starter follows the model family, and a
        # CNN was shown the MLP; a CNN gets a small convolutional network
        ({"workload": {"model_family": "cnn"}}, "pytorch", "nn.MaxPool2d(2)"),
        ({"workload": {"model_family": "cnn"}}, "jax", "conv_general_dilated"),
        ({"workload": {"model_family": "cnn"}}, "tensorflow", "layers.MaxPooling2D()"),
        ({"workload": {"model_family": "rnn"}}, "pytorch", None),
        (
            {"workload": {"model_family": "transformer"}, "deployment": {"targets": ["mobile"]}},
            "pytorch",
            "in place of this small image",
        ),
        ({}, "jax", None),
    ],
)
def test_the_starter_fits_the_profile(profile: dict, framework: str, shows: str | None) -> None:
    """The first option whose `when` fits is the one shown (None: the plain default)."""
    from advisor.decide.conditions import build_context

    rs = load_ruleset()
    info = rs.meta.frameworks[framework]
    expected = next(o for o in info.starter if shows in o.code) if shows else info.starter[-1]
    said = Profile.model_validate(profile)
    context = build_context(said, None)
    first = next(
        o
        for i, o in enumerate(info.starter)
        if o.when is None or rs.conditions[(framework, "starter", i)].evaluate(context) is True
    )
    assert first is expected
    rec = decide(said, None, rs).recommendation
    if rec.framework == framework:  # and the report shows it, with what it shows
        assert rec.starter == expected.code and (rec.starter_note or "") == expected.note


def test_a_pack_whose_last_starter_has_a_condition_is_refused() -> None:
    from pydantic import ValidationError

    from advisor.model.rulepack import FrameworkInfo

    info = load_ruleset().meta.frameworks["jax"].model_dump()
    info["starter"] = [{"code": "pass", "when": {"field": "purpose", "eq": "research"}}]
    with pytest.raises(ValidationError, match="last starter option"):
        FrameworkInfo.model_validate(info)
    info["starter"] = "print(1)"  # one text is one option for every profile
    assert FrameworkInfo.model_validate(info).starter[0].code == "print(1)"
