"""The rule pack's data models: criteria, evidence, per-framework effects, pack metadata.

The per-framework models (effects, vetoes, risks) derive from the framework registry;
``PackMeta`` checks that pack.yaml describes exactly the registered frameworks. The
rules themselves (with their parsed conditions) are loaded by :mod:`advisor.decide.rules`.
"""

from __future__ import annotations

import itertools
import re
from datetime import date
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from advisor.frameworks import FRAMEWORKS, FrameworkSpec, per_framework_model
from advisor.model.choices import Hardware
from advisor.model.field_guards import guard_field
from advisor.model.profile import Priorities

CRITERION_ID = r"^[a-z][a-z0-9_]*$"  # criteria are data: pack.yaml lists them

PRIORITY_NAMES = tuple(Priorities.model_fields)
MONTH = r"^(19|20)[0-9]{2}-(0[1-9]|1[0-2])$"  # YYYY-MM: the grain of a point-in-time view
MONTH_RE = re.compile(MONTH)


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    _guard = field_validator("*", mode="before")(guard_field)


class Evidence(Strict):
    """One checkable source for a rule."""

    title: str = Field(min_length=3)
    source: str = Field(min_length=2, description="Publisher or project.")
    year: int = Field(ge=1990, le=2100)
    url: str | None = Field(None, pattern=r"^https?://\S+$")
    claim: str = Field(min_length=10, description="What the source says, in one sentence.")
    status: Literal["current", "superseded"] = "current"
    superseded_by: str | None = Field(
        None, description="For a superseded claim: what replaced it and when."
    )
    checked: date | None = Field(None, description="When the claim was last checked at its source.")
    ref: str | None = Field(
        None,
        pattern=r"^([ACFR]-[A-Z0-9-]+|A[0-9]|R[1-7]|PKG:[a-z0-9._-]+)$",
        description="Claim id in docs/sources.md, or PKG:name for rules/data/package_health.yaml.",
    )

    @field_validator("checked", mode="before")
    @classmethod
    def _checked_is_a_day(cls, value: Any) -> Any:
        """A day written as YYYY-MM-DD; a number is not read as seconds since 1970."""
        number = isinstance(value, (int, float)) and not isinstance(value, bool)
        if number or (isinstance(value, str) and not _DAY.fullmatch(value.strip())):
            raise ValueError("write the day as YYYY-MM-DD")
        return value

    @model_validator(mode="after")
    def _superseded_has_note(self) -> Evidence:
        if self.status == "superseded" and not self.superseded_by:
            raise ValueError("a superseded claim needs 'superseded_by' saying what replaced it")
        if self.checked is not None and self.checked.year < self.year:
            # a claim cannot be compared with a source that did not exist yet; a report
            # would say "knowledge as of 0001-01-01"
            raise ValueError(f"checked ({self.checked}) is before the source's year ({self.year})")
        return self


class DatedSource(Strict):
    """A checkable source for a date: the release, deprecation or survey that fixes it."""

    title: str = Field(min_length=3)
    url: str = Field(pattern=r"^https?://\S+$")
    year: int = Field(ge=1990, le=2100)


_DAY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
_FULL_DATE = re.compile(r"[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}")


def _month_text(value: Any) -> Any:
    """A month, not a day: a full date (a date object, or the text 2020-01-01) is refused."""
    if isinstance(value, date) or (isinstance(value, str) and _FULL_DATE.fullmatch(value)):
        raise ValueError("write the month as a quoted 'YYYY-MM' (a month, not a day)")
    return value


class Period(Strict):
    """Months a claim held: ``since`` the first (None: as soon as its frameworks existed),
    ``until`` the first it no longer held (None: it still holds)."""

    since: str | None = Field(None, pattern=MONTH)
    until: str | None = Field(None, pattern=MONTH)

    _months = field_validator("since", "until", mode="before")(_month_text)

    @model_validator(mode="after")
    def _ordered(self) -> Period:
        if self.since and self.until and self.until <= self.since:
            raise ValueError("'until' must be after 'since'")
        return self

    def covers(self, month: str) -> bool:
        """Whether the claim held in ``month`` (YYYY-MM)."""
        if not MONTH_RE.match(month):
            raise ValueError(f"a month is YYYY-MM, not {month!r}")
        return (self.since is None or self.since <= month) and (
            self.until is None or month < self.until
        )


class Holds(Period):
    """When a rule's (or the prior's) claim and the direction of its scores held.

    The advisor answers for the pack's date; these months let the decision benchmark ask
    what the same knowledge said when a past choice was made (RuleSet.at).
    """

    basis: str = Field(min_length=10, description="The dated event(s) that fix the period.")
    source: DatedSource

    @model_validator(mode="after")
    def _a_period(self) -> Holds:
        if self.since is None and self.until is None:
            raise ValueError("give 'since' or 'until' (a claim that always held needs no 'holds')")
        return self


class Released(Strict):
    """A framework's first public release usable by outside teams."""

    month: str = Field(pattern=MONTH)
    source: DatedSource


class PerFrameworkEffect(Strict):
    """Base of the per-framework rule models: one field per registered framework."""

    def items(self) -> list[tuple[str, Any]]:
        """(framework, value) in registry order; falsy values left out except for effects."""
        return [(fw, getattr(self, fw)) for fw in FRAMEWORKS if getattr(self, fw)]


class EffectsBase(PerFrameworkEffect):
    def items(self) -> list[tuple[str, Any]]:
        """(framework, score change) for every framework, zeros included."""
        return [(fw, getattr(self, fw)) for fw in FRAMEWORKS]


def _reason(spec: FrameworkSpec) -> tuple[Any, Any]:
    return (str | None, Field(None, min_length=10))


if TYPE_CHECKING:
    Effects = EffectsBase
    Vetoes = PerFrameworkEffect
    Risks = PerFrameworkEffect
else:
    Effects = per_framework_model(
        "Effects",
        lambda spec: (int, Field(0, ge=-5, le=5)),
        base=EffectsBase,
        doc="Score changes per framework, -5..5.",
    )
    Vetoes = per_framework_model(
        "Vetoes",
        _reason,
        base=PerFrameworkEffect,
        doc="Hard constraints: a framework excluded, with the reason.",
    )
    Risks = per_framework_model(
        "Risks",
        _reason,
        base=PerFrameworkEffect,
        doc="Caveats shown when the rule fires and that framework is recommended.",
    )


MAX_RULE_EXAMPLES = 16  # per list: the bundled rules use at most 4


class RuleExamples(Strict):
    """semgrep-style fixtures: profiles that must fire the rule, and ones that must not."""

    fire: list[dict[str, Any]] = Field(min_length=1, max_length=MAX_RULE_EXAMPLES)
    ok: list[dict[str, Any]] = Field(min_length=1, max_length=MAX_RULE_EXAMPLES)


class CriterionInfo(Strict):
    """Metadata of one criterion in pack.yaml."""

    id: str = Field(pattern=CRITERION_ID)
    claim_id: str = Field(pattern=r"^C-[A-Z]+$")
    prefix: str = Field(pattern=r"^[A-Z]{2,5}$")
    title: str
    priorities: list[str] = Field(default_factory=list)
    description: str = ""

    @field_validator("priorities")
    @classmethod
    def _known_priorities(cls, value: list[str]) -> list[str]:
        for name in value:
            if name not in PRIORITY_NAMES:
                raise ValueError(f"unknown priority '{name}' (one of {', '.join(PRIORITY_NAMES)})")
        return value


# pip requirements, space-separated: names, extras, version bounds; nothing a shell runs
_REQUIREMENT = r"[A-Za-z0-9][A-Za-z0-9._-]*(\[[A-Za-z0-9._,-]+\])?(,?[<>=!~]=?[A-Za-z0-9.*+-]+)*"
PIP_SPECS = rf"^{_REQUIREMENT}( {_REQUIREMENT})*$"


class StackItem(Strict):
    name: str
    role: str
    url: str | None = Field(None, pattern=r"^https?://\S+$")
    note: str = ""
    when: Any = None
    # what `pip install` adds beside the framework's own line (empty: part of the
    # framework, or it needs an environment of its own)
    pip: str = Field("", max_length=200, pattern=PIP_SPECS + "|^$")


class InstallOption(Strict):
    command: str
    note: str = ""
    when: Any = None
    # the training hardware this line (with its note) installs for; every build also runs
    # on CPUs. Unset in a pack: the hardware its `when` asks for.
    serves: list[Hardware] | None = None


class StarterOption(Strict):
    """Starter code for the profiles its ``when`` fits; ``note`` says what it shows."""

    code: str = Field(min_length=1)
    note: str = ""
    when: Any = None


class PortingStep(Strict):
    """One step of moving existing code onto this framework, shown in the report's
    stay-or-move part to a team weighing a move whose profile its ``when`` fits."""

    topic: str = Field(min_length=3, max_length=40)  # "Model code", "Weights", "Serving"...
    step: str = Field(min_length=20)
    url: str | None = Field(None, pattern=r"^https?://\S+$")
    when: Any = None


class FrameworkInfo(Strict):
    name: str
    summary: str
    install: list[InstallOption] = Field(min_length=1)
    stack: list[StackItem] = Field(min_length=1)
    # the first option whose `when` fits is shown; one code text is one option for all
    starter: list[StarterOption] = Field(min_length=1)
    released: Released | None = None
    # every step whose `when` fits is shown, in this order
    porting: list[PortingStep] = Field(default_factory=list)

    @field_validator("starter", mode="before")
    @classmethod
    def _one_text_is_one_option(cls, value: Any) -> Any:
        return [{"code": value}] if isinstance(value, str) else value

    @model_validator(mode="after")
    def _a_starter_for_every_profile(self) -> FrameworkInfo:
        if self.starter[-1].when is not None:
            raise ValueError("the last starter option must have no 'when': every profile needs one")
        return self


class Prior(Strict):
    """What the advisor believes before any answer: one small, documented term."""

    effects: Effects
    why: str = Field(min_length=10)
    evidence: list[Evidence] = Field(min_length=1)
    holds: Holds | None = None


class DecisionModel(Strict):
    """The constants of the decision model (see advisor/decide/scoring.py)."""

    decisive_unit: float = Field(60.0, gt=0)
    soft_bound: float = Field(29.0, gt=0)
    thin_profile_answers: int = Field(3, ge=0)
    high_win_probability: float = Field(0.9, ge=0, le=1)
    high_margin: float = Field(8.0, ge=0)
    medium_win_probability: float = Field(0.65, ge=0, le=1)
    medium_margin: float = Field(0.0, ge=0)  # points ahead a "medium" needs as well
    high_needs_decisive: bool = True  # 'high' only with a decisive fact (or a veto) behind it
    # 'high' only when the winner's best route to each place the model must run is at
    # least this mature (rules/data/routes.yaml); None: routes do not cap the confidence
    high_needs_route: Literal["native", "mature", "beta", "experimental"] | None = "beta"

    @model_validator(mode="after")
    def _lexicographic(self) -> DecisionModel:
        if 2 * self.soft_bound >= self.decisive_unit:
            raise ValueError(
                "soft_bound must be below half a decisive unit, so no pile of soft "
                "preferences outvotes one decisive fact"
            )
        return self


class PackMeta(Strict):
    ruleset: str
    version: str
    criteria: list[CriterionInfo]
    # Frameworks not described here are described in their own file (framework:
    # in rules/<id>.yaml); advisor/decide/framework_files.py checks that each is, once.
    frameworks: dict[str, FrameworkInfo] = Field(default_factory=dict)
    hedge: str = ""
    hedge_unless: Any = Field(
        None,
        description="A condition over the profile under which the hedge is left out: what it "
        "cannot hedge (a condition in the rules' language; none: always shown).",
    )
    prior: Prior | None = None
    earlier_priors: list[Prior] = Field(
        default_factory=list,
        description="Priors that held before `prior` and have ended (each with holds.until); "
        "point-in-time views use the one in force (RuleSet.at).",
    )
    decision: DecisionModel = Field(default_factory=DecisionModel)

    @model_validator(mode="after")
    def _complete(self) -> PackMeta:
        ids = [c.id for c in self.criteria]
        if not ids or len(ids) != len(set(ids)):
            raise ValueError("criteria must list each criterion once")
        prefixes = [c.prefix for c in self.criteria]
        if len(prefixes) != len(set(prefixes)):
            raise ValueError("each criterion needs its own rule id prefix")
        periods = [p.holds for p in self.earlier_priors]
        if any(h is None or h.until is None for h in periods):
            raise ValueError("each of earlier_priors needs holds with an 'until': it has ended")
        if self.prior and self.earlier_priors:
            if self.prior.holds is None or self.prior.holds.since is None:
                raise ValueError("with earlier_priors, the prior needs holds.since")
            periods.append(self.prior.holds)
        ordered = sorted((h.since or "", h.until or "9999-99") for h in periods if h)
        if any(b[0] < a[1] for a, b in itertools.pairwise(ordered)):
            raise ValueError("the periods of prior and earlier_priors must not overlap")
        return self

    def at(self, month: str) -> PackMeta:
        """This metadata as of ``month``: the prior in force then (or none)."""
        held = [
            p
            for p in (self.prior, *self.earlier_priors)
            if p is not None and (p.holds is None or p.holds.covers(month))
        ]
        return self.model_copy(update={"prior": held[0] if held else None})
