"""The project profile: the single source of truth for what a user can tell the advisor.

The questionnaire, the JSON Schema, the README's reference and the validation of rule
conditions all derive from these models. Every field has help text and a default, so
a partial profile is valid.
"""

from __future__ import annotations

import re
from enum import Enum
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from advisor.frameworks import per_framework_model
from advisor.model.field_guards import guard_field


class Choice(str, Enum):
    """A string enum whose members print as their value."""

    def __str__(self) -> str:
        return self.value


class Purpose(Choice):
    research = "research"
    production = "production"
    both = "both"


class Domain(Choice):
    vision = "vision"
    nlp = "nlp"
    speech = "speech"
    rl = "rl"
    scientific = "scientific"
    generative = "generative"
    tabular = "tabular"
    recommender = "recommender"


class Hardware(Choice):
    cpu = "cpu"
    nvidia_gpu = "nvidia_gpu"
    amd_gpu = "amd_gpu"
    tpu = "tpu"
    apple_silicon = "apple_silicon"


class Target(Choice):
    server = "server"
    mobile = "mobile"
    browser = "browser"
    microcontroller = "microcontroller"
    edge = "edge"
    batch = "batch"


class Serving(Choice):
    online_api = "online_api"
    llm_serving = "llm_serving"
    none = "none"


class Experience(Choice):
    none = "none"
    some = "some"
    expert = "expert"


class LibraryFamily(Choice):
    vision = "vision"
    nlp = "nlp"
    rl = "rl"
    probabilistic = "probabilistic"


class ExistingCode(Choice):
    pytorch = "pytorch"
    tf1 = "tf1"
    tf2_keras = "tf2_keras"
    jax = "jax"
    numpy = "numpy"


class Determinism(Choice):
    none = "none"
    preferred = "preferred"
    required = "required"


class ModelFamily(Choice):
    mlp = "mlp"
    cnn = "cnn"
    transformer = "transformer"
    rnn = "rnn"
    other = "other"


class DType(Choice):
    float32 = "float32"
    bfloat16 = "bfloat16"
    float16 = "float16"


class Section(BaseModel):
    """Base for every profile section: unknown keys are errors."""

    model_config = ConfigDict(extra="forbid", use_enum_values=False, validate_default=True)

    _guard = field_validator("*", mode="before")(guard_field)


_SUFFIX = {"k": 1e3, "m": 1e6, "b": 1e9, "g": 1e9, "t": 1e12}
# Linear: no two quantifiers can match the same digits (no catastrophic backtracking).
_COUNT = re.compile(
    r"\s*([0-9]+(?:\.[0-9]*)?|\.[0-9]+)(e[+-]?[0-9]+)?\s*(?:([kmbgt])\s*)?", re.IGNORECASE
)
MAX_COUNT_CHARS = 64


def parse_count(value: Any) -> Any:
    """Accept 7e9, '7e9', '7B', '350M', '1.5k' as parameter counts."""
    if isinstance(value, str):
        text = value.replace("_", "").replace(",", "")
        match = _COUNT.fullmatch(text) if len(text) <= MAX_COUNT_CHARS else None
        if not match:
            raise ValueError("expected a number such as 125000000, 350M, 7B or 1.5e11")
        number, exponent, suffix = match.groups()
        return float(number + (exponent or "")) * _SUFFIX.get((suffix or "").lower(), 1.0)
    return value


class Project(Section):
    name: str = Field("Unnamed project", max_length=200, description="A name for the report.")
    notes: str = Field("", max_length=4000, description="Free-text notes, shown in the report.")


class ModelScale(Section):
    parameters: float = Field(
        1e8,
        ge=1,
        le=1e14,
        description="Largest model you expect to train, in parameters (e.g. 350M, 7B, 1.5e11).",
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


class HardwarePlan(Section):
    training: list[Hardware] = Field(
        default_factory=lambda: [Hardware.nvidia_gpu],
        description="Hardware you train on.",
    )
    inference: list[Hardware] = Field(
        default_factory=lambda: [Hardware.nvidia_gpu],
        description="Hardware the model runs on in production or for evaluation.",
    )


class Deployment(Section):
    targets: list[Target] = Field(
        default_factory=lambda: [Target.server], description="Where trained models must run."
    )
    serving: Serving = Field(Serving.none, description="How models are served, if at all.")


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
    size: int = Field(3, ge=1, le=100_000, description="People who will write model code.")
    new_to_deep_learning: bool = Field(
        False, description="True if most of the team is new to deep learning."
    )
    experience: TeamExperience = Field(
        default_factory=TeamExperience, description="Experience with each framework."
    )
    functional_programming: bool = Field(
        False, description="At ease with functional programming (pure functions, no mutation)."
    )
    numpy: bool = Field(True, description="Fluent in NumPy.")


class Ecosystem(Section):
    huggingface: bool = Field(
        False, description="Needs Hugging Face Transformers models or training code."
    )
    pretrained_models: bool = Field(
        False, description="Relies on pretrained model zoos (torchvision, timm, TF Hub, ...)."
    )
    libraries: list[LibraryFamily] = Field(
        default_factory=list, description="Library families the project needs."
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
        ModelFamily.mlp, description="Kind of model the probes should imitate."
    )
    batch_size: int = Field(64, ge=1, le=65536, description="Typical training batch size.")
    dtype: DType = Field(DType.float32, description="Training precision.")
    per_example_gradients: bool = Field(
        False, description="Needs per-example gradients (differential privacy, influence, ...)."
    )
    higher_order_derivatives: bool = Field(
        False, description="Needs Hessians or other higher-order derivatives."
    )


class Profile(Section):
    """A project profile. Every field is optional; omitted fields take their default."""

    model_config = ConfigDict(
        extra="forbid",
        validate_default=True,
        title="Project profile",
        json_schema_extra={
            "$id": "https://github.com/framework-advisor/advisor/profile.schema.json"
        },
    )

    project: Project = Field(default_factory=Project, description="About the project.")
    purpose: Purpose = Field(Purpose.both, description="Research, production or both.")
    domains: list[Domain] = Field(default_factory=list, description="Application domains.")
    model: ModelScale = Field(default_factory=ModelScale, description="Model size.")
    training: TrainingScale = Field(default_factory=TrainingScale, description="Training scale.")
    hardware: HardwarePlan = Field(
        default_factory=HardwarePlan, description="Hardware for training and inference."
    )
    deployment: Deployment = Field(
        default_factory=Deployment, description="Deployment and serving."
    )
    team: Team = Field(default_factory=Team, description="The team.")
    ecosystem: Ecosystem = Field(default_factory=Ecosystem, description="Ecosystem needs.")
    existing_code: list[ExistingCode] = Field(
        default_factory=list, description="Code the project already has (empty for none)."
    )
    priorities: Priorities = Field(default_factory=Priorities, description="What matters most.")
    determinism: Determinism = Field(
        Determinism.none, description="Whether bit-for-bit reproducible training is needed."
    )
    workload: Workload = Field(default_factory=Workload, description="Hints for the probes.")
