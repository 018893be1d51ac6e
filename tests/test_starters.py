"""Each framework's starter code (rules/pack.yaml), shown in every report, runs as printed."""

from __future__ import annotations

import importlib.util
import subprocess
import sys

import pytest

from advisor.decide.rules import load_ruleset

MODULE = {"pytorch": "torch", "jax": "jax", "tensorflow": "keras"}


@pytest.mark.probes
@pytest.mark.parametrize("framework", sorted(MODULE))
def test_the_starter_code_runs(framework: str) -> None:
    if importlib.util.find_spec(MODULE[framework]) is None:
        pytest.skip(f"{framework} is not installed here")
    if framework == "tensorflow" and importlib.util.find_spec("tensorflow") is None:
        pytest.skip("Keras without TensorFlow: the starter is for the TensorFlow back end")
    starter = load_ruleset().meta.frameworks[framework].starter
    env = {"KERAS_BACKEND": "tensorflow", "TF_CPP_MIN_LOG_LEVEL": "3", "PATH": "/usr/bin:/bin"}
    done = subprocess.run(
        [sys.executable, "-c", starter], capture_output=True, text=True, timeout=300, env=env
    )
    assert done.returncode == 0, done.stderr[-2000:]
