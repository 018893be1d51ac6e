"""The project profile: the single source of truth for what a user can tell the advisor.

The questionnaire, the JSON Schema, the README's reference and the validation of rule
conditions all derive from these models. Every field has help text and a default, so
a partial profile is valid. The sections (team, deployment, workload, ...) are in
:mod:`advisor.model.profile_sections`; a new field goes there, in its section.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, StrictBool
from pydantic.fields import FieldInfo

from advisor.model.choices import (  # noqa: F401  (re-exported: the profile's vocabulary)
    MAX_COUNT_CHARS,
    Choice,
    CodeSize,
    Determinism,
    Domain,
    DType,
    EdgeHardware,
    ExistingCode,
    Experience,
    Hardware,
    Language,
    LibraryFamily,
    ModelFamily,
    Purpose,
    Serving,
    ServingStack,
    Simulator,
    Target,
    parse_count,
    parse_megabytes,
)
from advisor.model.profile_sections import (  # noqa: F401  (re-exported)
    COUNT_TEXT,
    DISPLAY_ONLY,
    FRAMING,
    SITUATION,
    SIZE_TEXT,
    Deployment,
    Ecosystem,
    HardwarePlan,
    ModelScale,
    Priorities,
    Project,
    Section,
    Team,
    TrainingScale,
    Workload,
    display_only,
    framing,
    situation,
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
    domains: list[Domain] = Field(
        default_factory=list,
        description="Application domains: vision (images and video); nlp (text and natural "
        "language); speech (speech and other audio: music, bioacoustics, sound events); rl "
        "(reinforcement learning); scientific (scientific computing, simulation, "
        "physics-informed models); generative (diffusion, GANs, LLMs); tabular; recommender; "
        "time_series (forecasting and other time series: demand, energy, finance, sensors).",
    )
    model: ModelScale = Field(default_factory=ModelScale, description="Model size.")
    training: TrainingScale = Field(default_factory=TrainingScale, description="Training scale.")
    hardware: HardwarePlan = Field(
        default_factory=HardwarePlan, description="Hardware for training and inference."
    )
    deployment: Deployment = Field(
        default_factory=Deployment, description="Deployment and serving."
    )
    team: Team = Field(
        default_factory=Team,
        description="The team.",
        json_schema_extra=situation("who is on the team and what they know"),
    )
    ecosystem: Ecosystem = Field(default_factory=Ecosystem, description="Ecosystem needs.")
    existing_code: list[ExistingCode] = Field(
        default_factory=list,
        description="Code the project already has or must build on (empty for none): its own, "
        "the shared training and serving stack of its organisation that it must plug into (a "
        "company-wide ML platform, a lab's internal training framework), or one published model "
        "it fine-tunes or extends, in the framework its code and weights were released for. "
        "The team's earlier, separate projects that the new code will not extend or call count "
        "as experience (team.experience), not here: "
        "pytorch; tf1 "
        "(TensorFlow 1 graphs and sessions, tf.compat.v1); tf2_keras (TensorFlow 2 or Keras, "
        "and TensorFlow code whose version you do not know); jax; numpy (NumPy or SciPy "
        "numerical code, no deep-learning framework, that the model's code will take over or "
        "call: not a pandas, scikit-learn or Spark pipeline that only prepares the data the "
        "model reads, which feeds whichever is chosen); other (another deep-learning "
        "framework, such as MXNet, Caffe, Theano, Chainer or PaddlePaddle: no candidate gets "
        "credit for it, since it "
        "must be ported whichever is chosen).",
        json_schema_extra=situation("code that already exists"),
    )
    existing_code_size: CodeSize = Field(
        CodeSize.small,
        description="How much existing code: small (scripts, a prototype) or large (a "
        "production codebase or many models, with the team that maintains it, or an "
        "organisation's shared ML platform).",
        json_schema_extra=situation("code that already exists"),
    )
    migrating_away: StrictBool = Field(
        False,
        description="The team has decided to leave the framework its existing code is written "
        "in for another framework (upgrading within one framework, such as TF1 code to TF2, "
        "is not leaving it).",
        json_schema_extra=framing("the team's decision to leave, which the advice serves"),
    )
    weighing_a_move: StrictBool = Field(
        False,
        description="The team has not decided whether to keep its existing code's framework "
        "and wants the advice to weigh a move: the code then counts as a cost of switching "
        "(as much as a small prototype), not as a settled choice.",
        json_schema_extra=framing("the question the team asks: whether to move"),
    )
    priorities: Priorities = Field(default_factory=Priorities, description="What matters most.")
    determinism: Determinism = Field(
        Determinism.none, description="Whether bit-for-bit reproducible training is needed."
    )
    workload: Workload = Field(default_factory=Workload, description="Hints for the probes.")


def model_field(path: str) -> tuple[type[BaseModel], FieldInfo]:
    """The model that declares a dotted profile path, and that field's info."""
    model: type[BaseModel] = Profile
    *parents, leaf = path.split(".")
    for part in parents:
        annotation = model.model_fields[part].annotation
        assert isinstance(annotation, type) and issubclass(annotation, BaseModel)
        model = annotation
    return model, model.model_fields[leaf]


def field_bounds(info: FieldInfo) -> tuple[Any, Any]:
    """A numeric field's (ge, le) bounds from its metadata (None where unbounded)."""
    low = high = None
    for item in info.metadata:
        low = getattr(item, "ge", low)
        high = getattr(item, "le", high)
    return low, high
