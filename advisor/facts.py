"""Measured facts: what the probes found on this machine, in a shape rules can read.

Rules name these as ``facts.<field>`` (for example ``facts.jit_speedup.jax``). Every
field is ``None`` until a probe measures it, and a rule whose condition needs a
missing fact stands aside instead of guessing.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from advisor.field_guards import guard_field
from advisor.frameworks import FRAMEWORKS
from advisor.profile import Hardware


class PerFramework(BaseModel):
    """One measured number per framework (None where not measured)."""

    model_config = ConfigDict(extra="forbid")

    _guard = field_validator("*", mode="before")(guard_field)

    pytorch: float | None = None
    jax: float | None = None
    tensorflow: float | None = None


class Facts(BaseModel):
    """Facts derived from a probe run; all None when probes were not run."""

    model_config = ConfigDict(extra="forbid")

    _guard = field_validator("*", mode="before")(guard_field)

    accelerator: Hardware | None = Field(
        None, description="Best accelerator any framework saw (cpu when none)."
    )
    accelerator_count: int | None = Field(None, description="Accelerators of that kind seen.")
    installed: list[str] | None = Field(None, description="Frameworks whose probes could run.")
    failed: list[str] | None = Field(
        None, description="Frameworks with at least one probe that failed or timed out."
    )
    matmul_gflops: PerFramework = Field(
        default_factory=PerFramework, description="1000x1000 float32 matmul rate, GFLOP/s."
    )
    matmul_bf16_gflops: PerFramework = Field(
        default_factory=PerFramework, description="bfloat16 matmul rate, GFLOP/s."
    )
    jit_speedup: PerFramework = Field(
        default_factory=PerFramework, description="Compiled over eager speed-up, x."
    )
    compile_seconds: PerFramework = Field(
        default_factory=PerFramework, description="First compile latency of the jit probe, s."
    )
    vmap_speedup: PerFramework = Field(
        default_factory=PerFramework, description="vmap per-example gradients over a loop, x."
    )
    train_steps_per_second: PerFramework = Field(
        default_factory=PerFramework, description="Training steps per second of the small model."
    )
    scaling_efficiency: PerFramework = Field(
        default_factory=PerFramework, description="Data-parallel scaling efficiency, 0-1."
    )
    jax_over_pytorch_matmul: float | None = Field(
        None, description="JAX fp32 matmul rate divided by PyTorch's."
    )
    jax_over_pytorch_train_step: float | None = Field(
        None, description="JAX train steps/s divided by PyTorch's."
    )
    jax_over_pytorch_matmul_bf16: float | None = Field(
        None, description="JAX bfloat16 matmul rate divided by PyTorch's."
    )
    tensorflow_over_pytorch_matmul: float | None = Field(
        None, description="TensorFlow fp32 matmul rate divided by PyTorch's."
    )
    tensorflow_over_pytorch_train_step: float | None = Field(
        None, description="TensorFlow train steps/s divided by PyTorch's."
    )
    noisy: bool | None = Field(None, description="True if the machine was too noisy to judge.")


_METRIC_FACTS = {
    # fact field: (probe id, metric name)
    "matmul_gflops": ("matmul", "gflops"),
    "matmul_bf16_gflops": ("matmul", "gflops_bf16"),
    "jit_speedup": ("jit", "speedup"),
    "compile_seconds": ("jit", "compile_s"),
    "vmap_speedup": ("vmap", "speedup"),
    "train_steps_per_second": ("train_step", "steps_per_s"),
    "scaling_efficiency": ("scale", "efficiency"),
}

# derived ratio fact: (per-framework fact, framework divided by PyTorch's figure)
_RATIOS = {
    "jax_over_pytorch_matmul": ("matmul_gflops", "jax"),
    "jax_over_pytorch_train_step": ("train_steps_per_second", "jax"),
    "jax_over_pytorch_matmul_bf16": ("matmul_bf16_gflops", "jax"),
    "tensorflow_over_pytorch_matmul": ("matmul_gflops", "tensorflow"),
    "tensorflow_over_pytorch_train_step": ("train_steps_per_second", "tensorflow"),
}

_ACCELERATOR_ORDER = ["tpu", "nvidia_gpu", "amd_gpu", "apple_silicon"]


def facts_from_probes(run: dict[str, Any] | None) -> Facts:
    """Derive Facts from a probe run dict (``{"probes": [...], "environment": {...}}``)."""
    if not run or not run.get("probes"):
        return Facts()
    probes = run["probes"]
    values: dict[str, Any] = {}
    for fact, (probe_id, metric) in _METRIC_FACTS.items():
        per: dict[str, float] = {}
        for probe in probes:
            if probe.get("id") == probe_id and probe.get("status") == "ok":
                m = (probe.get("metrics") or {}).get(metric)
                if isinstance(m, dict) and isinstance(m.get("median"), (int, float)):
                    per[probe["framework"]] = float(m["median"])
        values[fact] = PerFramework(**per)
    installed = sorted({p["framework"] for p in probes if p.get("status") != "skipped"})
    failed = sorted({p["framework"] for p in probes if p.get("status") in ("failed", "timeout")})
    env = run.get("environment") or {}
    accel = env.get("accelerator") or {}
    kind = accel.get("kind") if isinstance(accel, dict) else None
    values["accelerator"] = kind if kind in (*_ACCELERATOR_ORDER, "cpu") else "cpu"
    values["accelerator_count"] = int(accel.get("count", 0)) if isinstance(accel, dict) else 0
    values["installed"] = [f for f in FRAMEWORKS if f in installed]
    values["failed"] = [f for f in FRAMEWORKS if f in failed]
    values["noisy"] = bool(env.get("noisy", False))
    for name, (metric, fw) in _RATIOS.items():
        per = values[metric]
        numerator, denominator = getattr(per, fw), per.pytorch
        if numerator and denominator:
            values[name] = numerator / denominator
    return Facts(**values)
