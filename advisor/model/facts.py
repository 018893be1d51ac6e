"""Measured facts: what the probes found on this machine, in a shape rules can read.

Rules name these as ``facts.<field>`` (for example ``facts.jit_speedup.jax``). Every
field is ``None`` until a probe measures it, and a rule whose condition needs a
missing fact stands aside instead of guessing. The per-framework fields and the ratio
facts (``facts.jax_over_pytorch_matmul``) derive from the framework registry.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, StrictBool, field_validator

from advisor.frameworks import DISPLAY_NAMES, REFERENCE, REGISTRY, per_framework_model
from advisor.model.choices import Choice
from advisor.model.field_guards import guard_field
from advisor.model.profile import Hardware


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")

    _guard = field_validator("*", mode="before")(guard_field)


if TYPE_CHECKING:
    PerFramework = Strict
else:
    PerFramework = per_framework_model(
        "PerFramework",
        lambda spec: (float | None, None),
        base=Strict,
        doc="One measured number per framework (None where not measured).",
    )

if TYPE_CHECKING:
    FrameworkId = str
else:  # a framework's id as a fact names it: a rule's literal must be one ('pytroch' is refused)
    FrameworkId = Choice("FrameworkId", {spec.id: spec.id for spec in REGISTRY})

# Ratio facts: (per-framework fact, the ratio's name after 'FW_over_REFERENCE_')
RATIO_OF = {
    "matmul_gflops": ("matmul", "fp32 matmul rate"),
    "train_steps_per_second": ("train_step", "train steps/s"),
    "matmul_bf16_gflops": ("matmul_bf16", "bfloat16 matmul rate"),
    "workload_steps_per_second": ("workload", "compiled workload steps/s"),
}


def ratio_facts() -> dict[str, tuple[str, str]]:
    """Ratio fact name -> (per-framework fact, framework), for every non-reference framework."""
    out = {}
    for spec in REGISTRY:
        if spec.id == REFERENCE:
            continue
        for fact, (suffix, _label) in RATIO_OF.items():
            out[f"{spec.id}_over_{REFERENCE}_{suffix}"] = (fact, spec.id)
    return out


class MeasuredFacts(Strict):
    """Facts derived from a probe run; all None when probes were not run."""

    accelerator: Hardware | None = Field(
        None, description="Best accelerator any framework saw (cpu when none)."
    )
    accelerator_count: int | None = Field(None, description="Accelerators of that kind seen.")
    installed: list[FrameworkId] | None = Field(
        None, description="Frameworks whose probes could run."
    )
    failed: list[FrameworkId] | None = Field(
        None,
        description=(
            "Frameworks with a probe that crashed or raised an error, or whose every probe "
            "timed out (a hang; a timeout beside finished probes is slowness, not a failure)."
        ),
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
    workload_steps_per_second: PerFramework = Field(
        default_factory=PerFramework,
        description="Training steps per second of the profile's model, compiled.",
    )
    workload_mfu: PerFramework = Field(
        default_factory=PerFramework,
        description="Model FLOP utilisation of that workload: its GFLOP/s over the machine's "
        "measured matmul peak, 0-1.",
    )
    noisy: StrictBool | None = Field(
        None, description="True if the machine was too noisy to judge."
    )

    # Ratio fact -> why it is None although both figures were measured (the interleaved
    # comparison found no measurable difference, or the machine was too busy to compare).
    # Not a field: rules cannot read it; the engine names it beside a rule that stood aside.
    _stand_aside: dict[str, str] = PrivateAttr(default_factory=dict)

    @property
    def stand_aside(self) -> dict[str, str]:
        """Ratio fact name -> why it was not scored (empty for old runs and no probes)."""
        return self._stand_aside


def _ratio_field(fact: str, framework: str) -> tuple[Any, Any]:
    label = RATIO_OF[fact][1]
    text = f"{DISPLAY_NAMES[framework]} {label} divided by {DISPLAY_NAMES[REFERENCE]}'s."
    return (float | None, Field(None, description=text))


if TYPE_CHECKING:
    Facts = MeasuredFacts
else:
    from pydantic import create_model

    Facts = create_model(
        "Facts",
        __base__=MeasuredFacts,
        **{n: _ratio_field(f, fw) for n, (f, fw) in ratio_facts().items()},
    )
