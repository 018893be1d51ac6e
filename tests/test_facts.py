"""Facts derived from a probe run: what the rules can read."""

from __future__ import annotations

import pytest

from advisor.model.facts import Facts
from advisor.model.measurements import facts_from_probes


def metric(value: float, unit: str = "GFLOP/s") -> dict:
    return {"median": value, "iqr": 0.0, "n": 5, "unit": unit}


RUN = {
    "probes": [
        {
            "id": "matmul",
            "framework": "pytorch",
            "status": "ok",
            "metrics": {"gflops": metric(150.0), "gflops_bf16": metric(300.0)},
        },
        {
            "id": "matmul",
            "framework": "jax",
            "status": "ok",
            "metrics": {"gflops": metric(165.0), "gflops_bf16": metric(105.0)},
        },
        {
            "id": "matmul",
            "framework": "tensorflow",
            "status": "failed",
            "reason": "boom",
            "metrics": {},
        },
        {
            "id": "train_step",
            "framework": "pytorch",
            "status": "ok",
            "metrics": {"steps_per_s": metric(100, "1/s")},
        },
        {
            "id": "train_step",
            "framework": "jax",
            "status": "ok",
            "metrics": {"steps_per_s": metric(160, "1/s")},
        },
        {"id": "jit", "framework": "jax", "status": "timeout", "reason": "slow", "metrics": {}},
    ],
    "environment": {"accelerator": {"kind": "cpu", "count": 0}, "noisy": False},
}


def test_no_run_means_no_facts() -> None:
    assert facts_from_probes(None) == Facts()
    assert facts_from_probes({"probes": []}) == Facts()


def test_facts_from_a_run() -> None:
    facts = facts_from_probes(RUN)
    assert facts.matmul_gflops.pytorch == 150.0 and facts.matmul_gflops.jax == 165.0
    assert facts.matmul_gflops.tensorflow is None  # failed probes give no figure
    assert facts.jax_over_pytorch_matmul == pytest.approx(1.1)
    assert facts.jax_over_pytorch_matmul_bf16 == pytest.approx(0.35)
    assert facts.jax_over_pytorch_train_step == pytest.approx(1.6)
    assert facts.tensorflow_over_pytorch_matmul is None
    # JAX's jit probe timed out beside probes that finished: slowness, not a broken install
    assert facts.failed == ["tensorflow"]
    assert facts.installed == ["pytorch", "jax", "tensorflow"]
    assert facts.accelerator == "cpu" and facts.noisy is False


def test_skipped_framework_is_not_installed() -> None:
    run = {
        "probes": [{"id": "matmul", "framework": "tensorflow", "status": "skipped", "metrics": {}}],
        "environment": {},
    }
    facts = facts_from_probes(run)
    assert facts.installed == [] and facts.failed == []
    assert facts.accelerator == "cpu"


def test_a_framework_whose_every_probe_timed_out_counts_as_failed() -> None:
    """Round 39: with a short ADVISOR_PROBE_TIMEOUT, timeouts beside finished probes had
    counted as a failed installation ("fix the installation") and handed the verdict to a
    framework that was not even installed; a hang of every probe still counts."""
    run = {
        "probes": [
            {
                "id": "matmul",
                "framework": "pytorch",
                "status": "ok",
                "metrics": {"gflops": metric(150, "GFLOP/s")},
            },
            {"id": "train_step", "framework": "pytorch", "status": "timeout", "metrics": {}},
            {"id": "matmul", "framework": "jax", "status": "timeout", "metrics": {}},
            {"id": "train_step", "framework": "jax", "status": "timeout", "metrics": {}},
        ],
        "environment": {},
    }
    assert facts_from_probes(run).failed == ["jax"]
