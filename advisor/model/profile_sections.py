"""The sections of the project profile (:mod:`advisor.model.profile` assembles them into
``Profile``, the single source of truth for what a user can tell the advisor) and the
field metadata they share: display-only answers, answers about the situation.

A new field goes in its section here; a new set of options in :mod:`advisor.model.choices`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field, StrictBool, field_validator

from advisor.frameworks import per_framework_model
from advisor.model.choices import (
    DType,
    EdgeHardware,
    Experience,
    Hardware,
    Language,
    LibraryFamily,
    ModelFamily,
    Serving,
    ServingStack,
    Simulator,
    Target,
    parse_count,
    parse_megabytes,
)
from advisor.model.field_guards import SPACES, guard_field


class Section(BaseModel):
    """Base for every profile section: unknown keys are errors."""

    model_config = ConfigDict(extra="forbid", use_enum_values=False, validate_default=True)

    _guard = field_validator("*", mode="before")(guard_field)


DISPLAY_ONLY = "x-display-only"


def display_only(reason: str) -> dict[str, Any]:
    """Field metadata for an answer no rule reads: shown or used by the probes only."""
    return {DISPLAY_ONLY: reason}


SITUATION = "x-situation"
FRAMING = "x-framing"


def framing(reason: str) -> dict[str, Any]:
    """Field metadata for an answer that frames the question the team asks (whether to
    move), not a fact of the project nor a plan: it is never offered as a change that would
    flip the verdict (red-team round 94: "change weighing_a_move to false" was a team's
    cheapest flip)."""
    return {FRAMING: reason}


def situation(reason: str) -> dict[str, Any]:
    """Field metadata for an answer about what is already so (the team, the code, the
    stack in production), not a plan the project can change: 'what would change the
    verdict' lists changes to it apart, as 'if this were not so'."""
    return {SITUATION: reason}


class Project(Section):
    name: str = Field(
        "Unnamed project",
        max_length=200,
        description="A name for the report.",
        json_schema_extra=display_only("a label for the report"),
    )
    notes: str = Field(
        "",
        max_length=4000,
        description="Free-text notes, shown in the report.",
        json_schema_extra=display_only("shown in the report as written"),
    )


# What an editor can check of a number written as text ('7B', '1,000,000', '256KB'); the
# advisor's own reading (advisor/model/choices.py) stays the judge of the value.
# Thousands groups only after a first group that does not start with 0, and one separator
# throughout ('1,000_000' is refused), as the reader.
_DIGITS = (
    r"(?:[1-9][0-9]{0,2}(?:(?:,[0-9]{3})+|(?:_[0-9]{3})+)(?:\.[0-9]*)?"
    r"|[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?"
)
COUNT_TEXT = rf"^{SPACES}{_DIGITS}{SPACES}[kKmMbBgGtT]?{SPACES}$"
SIZE_TEXT = rf"^{SPACES}{_DIGITS}{SPACES}(?:[kKmMgGtT](?:[iI]?[bB])?|[bB])?{SPACES}$"


def _number_or_text(pattern: str) -> Callable[[dict[str, Any]], None]:
    """JSON Schema for a number that a profile may also write as text with a unit ('7B',
    '256KB'): the number keeps its bounds, the text its pattern; the value is checked when
    the profile is read."""

    def extra(schema: dict[str, Any]) -> None:
        number = {k: schema.pop(k) for k in ("type", "minimum", "maximum") if k in schema}
        text = {"type": "string", "maxLength": 64, "pattern": pattern}
        schema["anyOf"] = [number, text]

    return extra


class ModelScale(Section):
    parameters: float = Field(
        1e8,
        ge=1,
        le=1e14,
        description="Largest model you expect to train, in parameters (e.g. 350M, 7B, 1.5e11). "
        "For a recommender, count the dense network, not the rows of its embedding tables "
        "(those are workload.sparse_embeddings).",
        json_schema_extra=_number_or_text(COUNT_TEXT),
    )

    _count = field_validator("parameters", mode="before")(parse_count)


class TrainingScale(Section):
    accelerators: int = Field(
        1,
        ge=0,
        le=1_000_000,
        description="Accelerators (GPUs or TPU chips) used for one training run.",
    )
    nodes: int = Field(1, ge=1, le=100_000, description="Machines used for one training run.")
    federated: StrictBool = Field(
        False,
        description="Trains across many clients' devices, or several organisations' sites "
        "(hospitals, banks), without collecting their data (federated learning).",
    )
    on_device: StrictBool = Field(
        False,
        description="Trains or fine-tunes on the end device itself (phone, browser, "
        "microcontroller), not only on servers.",
    )


class HardwarePlan(Section):
    training: list[Hardware] = Field(
        default_factory=lambda: [Hardware.nvidia_gpu],
        description="Hardware you train on.",
    )
    inference: list[Hardware] = Field(
        default_factory=lambda: [Hardware.nvidia_gpu],
        description="Hardware the model runs on in production or for evaluation.",
    )
    free_tpu_access: StrictBool = Field(
        False,
        description="TPUs at no cost to the project (TPU Research Cloud, credits, Kaggle or "
        "Colab TPUs).",
        json_schema_extra=situation("access the project has, not a plan"),
    )
    native_windows: StrictBool = Field(
        False,
        description="The GPU machines that train the model run native Windows, and neither "
        "Linux nor WSL2 is an option (a hospital's or a plant's Windows servers or "
        "workstations, say).",
        json_schema_extra=situation("the machines the team has, not a plan"),
    )


class Deployment(Section):
    targets: list[Target] = Field(
        default_factory=lambda: [Target.server],
        description="Where trained models must run (earth_engine: called from Google Earth "
        "Engine computations through ee.Model, the model hosted on Vertex AI).",
    )
    serving: Serving = Field(Serving.none, description="How models are served, if at all.")
    serving_stack: ServingStack = Field(
        ServingStack.none,
        description="Serving stack already running in production: TF Serving or TFX, NVIDIA "
        "Triton, vLLM, another, or none.",
        json_schema_extra=situation("the stack already in production"),
    )
    edge_hardware: list[EdgeHardware] = Field(
        default_factory=list,
        description="Accelerators on the edge or mobile devices: Coral Edge TPU, phone NPUs "
        "(Qualcomm, MediaTek, Pixel), Apple Neural Engine, NVIDIA Jetson, Intel NPU, Arm Ethos-U, "
        "or an FPGA (fpga_logic: the network itself compiled into FPGA or custom-chip (ASIC) logic "
        "by high-level synthesis, with hls4ml or FINN; fpga_dpu: an AI engine or DPU such as AMD "
        "Vitis AI), on a device or in a server.",
    )
    device_memory_mb: float = Field(
        0,
        ge=0,
        le=1e7,
        description="Memory for the model on the smallest target device, in MB (256KB, or 0.256, "
        "for a 256 KB microcontroller; KB is 1,000 bytes, KiB 1,024); 0 means no particular limit.",
        json_schema_extra=_number_or_text(SIZE_TEXT),
    )
    open_weights: StrictBool = Field(
        False,
        description="The trained weights are released publicly for a community to use and "
        "fine-tune.",
    )

    _memory = field_validator("device_memory_mb", mode="before")(parse_megabytes)


if TYPE_CHECKING:
    TeamExperience = Section
else:
    TeamExperience = per_framework_model(
        "TeamExperience",
        lambda spec: (
            Experience,
            Field(Experience.none, description=f"The team's {spec.long_name} experience."),
        ),
        base=Section,
    )


class Team(Section):
    size: int = Field(
        3,
        ge=1,
        le=100_000,
        description=(
            "People who will write model code. No bundled rule reads it (a team's size says "
            "who writes the code, not which framework fits; what the team knows does); your "
            "own rules may."
        ),
    )
    new_to_deep_learning: StrictBool = Field(
        False, description="True if most of the team is new to deep learning."
    )
    experience: TeamExperience = Field(
        default_factory=TeamExperience, description="Experience with each framework."
    )
    functional_programming: StrictBool = Field(
        False, description="At ease with functional programming (pure functions, no mutation)."
    )
    numpy: StrictBool = Field(True, description="Fluent in NumPy.")
    languages: list[Language] = Field(
        default_factory=list,
        description="Languages besides Python the model code must live with: written in "
        "(JavaScript), or run from (a C++ program, engine or device; a Swift or Kotlin app; a "
        "Java service or JVM batch job; Rust). A Python step inside a JVM platform, such as "
        "a PySpark job scoring with pandas UDFs, is Python, not Java. C++ or CUDA kernels "
        "written to extend the framework (custom operators) do not count: all three take "
        "them (PyTorch C++ extensions, JAX's FFI, TensorFlow custom ops).",
    )


class Ecosystem(Section):
    huggingface: StrictBool = Field(
        False, description="Needs Hugging Face Transformers models or training code."
    )
    pretrained_models: StrictBool = Field(
        False,
        description="Relies on pretrained model zoos (torchvision, timm, TF Hub, ...): picks "
        "from the many checkpoints they publish. One published model the project fine-tunes "
        "or extends is existing code (existing_code) in the framework it was released for.",
    )
    libraries: list[LibraryFamily] = Field(
        default_factory=list,
        description="Library families the project needs: vision, nlp, rl, probabilistic "
        "(Bayesian inference), graph (graph neural networks and machine-learned interatomic "
        "potentials: PyG, e3nn, MACE, NequIP).",
    )


class Priorities(Section):
    """How much each concern matters, 0 (not at all) to 5 (decisive); 3 is neutral."""

    prototyping_speed: int = Field(
        3, ge=0, le=5, description="Speed of trying ideas and debugging."
    )
    raw_performance: int = Field(3, ge=0, le=5, description="Training and inference speed.")
    production_maturity: int = Field(
        3, ge=0, le=5, description="Mature serving, deployment and MLOps."
    )
    ecosystem_breadth: int = Field(3, ge=0, le=5, description="Libraries, models and tutorials.")
    learning_curve: int = Field(3, ge=0, le=5, description="How easy the framework is to learn.")
    long_term_stability: int = Field(
        3, ge=0, le=5, description="Stable APIs, low migration cost, a safe long-term bet."
    )


class Workload(Section):
    model_family: ModelFamily = Field(
        ModelFamily.mlp,
        description="Kind of model you will train: the probes imitate it and the report's "
        "starter code follows it (a transformer gets a small language model, a CNN a small "
        "convolutional network; the others a small dense network), as it follows the targets "
        "and domains (an export for devices or the browser, speech on a device, tabular rows).",
        json_schema_extra=display_only(
            "no rule reads it; it shapes the model the probes time (a probe-aware rule sees "
            "it only through those measurements) and the starter code the report shows"
        ),
    )
    batch_size: int = Field(
        64,
        ge=1,
        le=65536,
        description="Typical training batch size.",
        json_schema_extra=display_only(
            "no rule reads it; it shapes the model the probes time, so a probe-aware rule "
            "sees it only through those measurements"
        ),
    )
    dtype: DType = Field(
        DType.float32,
        description="Training precision. No bundled rule reads it: the train-step and workload "
        "probes run in it, and the train-step rules score what they measure; your own rules may.",
    )
    per_example_gradients: StrictBool = Field(
        False, description="Needs per-example gradients (differential privacy, influence, ...)."
    )
    higher_order_derivatives: StrictBool = Field(
        False,
        description="Training needs derivatives of derivatives: Hessians, or a loss built from "
        "the model's gradient with respect to its inputs (forces from an energy, gradient "
        "penalties, physics-informed residuals).",
    )
    simulator: Simulator = Field(
        Simulator.none,
        description="Where environments or simulators run while the model trains (a simulator "
        "that only runs the trained model afterwards, such as molecular dynamics with a trained "
        "potential, is none): none; on CPUs (Gymnasium, MuJoCo); "
        "on the accelerator, written as array code that compiles and vectorises with the "
        "model into one training program (accelerator); or an existing accelerator simulator "
        "built on JAX (Brax, MJX, gymnax, JAX-MD), or a GPU simulation engine whose Python API "
        "hands its state to the policy as PyTorch tensors, beside the training loop (Isaac Gym "
        "and Isaac Lab, ManiSkill, Genesis, NVIDIA Sionna 2 for wireless links: "
        "accelerator_pytorch), or an existing accelerator simulator built on TensorFlow "
        "(NVIDIA Sionna before 2.0: accelerator_tensorflow). An engine that hands "
        "framework-neutral GPU arrays (DLPack, the CUDA array interface: HOOMD-blue, OpenMM, "
        "NVIDIA Warp) favours no framework: leave the answer unsaid.",
    )
    compiled_training_loop: StrictBool = Field(
        False,
        description="The whole training loop (many steps, or many runs or seeds at once) is "
        "compiled into one accelerator program (lax.scan, vmap over runs).",
    )
    differentiable_solver: StrictBool = Field(
        False,
        description="Gradients flow through a numerical solver (ODE/PDE solvers, physics "
        "simulation, root finding, optimisation layers).",
    )
    sparse_embeddings: StrictBool = Field(
        False,
        description="Large sparse embedding tables (recommenders, ads ranking: millions to "
        "billions of ids).",
        # round 96: a recommender team's 500M-id table was offered "drop it" as a plan
        json_schema_extra=situation("the ids the data has, not a plan"),
    )
