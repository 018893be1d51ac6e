"""The Decision and its parts: what the rules engine hands to the report.

``Decision.model_dump(mode="json")`` is the JSON output's contract part (see README).
"""

from __future__ import annotations

from datetime import date
from typing import Any

from pydantic import BaseModel, Field, computed_field

from advisor.model.rulepack import Evidence, InstallOption, StackItem


class RouteChoice(BaseModel):
    """A framework's best route to where the model must run (rules/data/routes.yaml)."""

    framework: str
    route: str
    maturity: str
    url: str
    checked: str
    note: str = ""


class FiredRule(BaseModel):
    id: str
    title: str
    criterion: str
    tier: str = "soft"
    weight: float
    effects: dict[str, int]
    weighted: dict[str, float]
    veto: dict[str, str]
    risks: dict[str, str]
    why: str
    evidence: list[Evidence]
    facts_used: dict[str, Any] = Field(default_factory=dict)
    impact: float
    routes: list[RouteChoice] = Field(default_factory=list)
    decisive: dict[str, float] = Field(default_factory=dict)
    pack: str | None = None  # the user's pack folder it came from (--rules); None: bundled


class SkippedRule(BaseModel):
    id: str
    title: str
    reason: str


class RankEntry(BaseModel):
    framework: str
    name: str
    score: float
    raw: float
    vetoed: bool
    veto_reasons: list[str]
    supporting_rules: int
    decisive: float = 0.0
    soft: float = 0.0


class Flip(BaseModel):
    path: str
    kind: str  # "priority" or "answer"
    category: str = "plan"  # "priority", "plan" (what the project will do) or "situation"
    from_value: Any
    to_value: Any
    description: str
    cost: float
    new_winner: str
    takes_on: bool = False  # a new requirement (added item, unsaid answer), not a change
    # how far the new winner would lead its runner-up, in the report's 0-100 points (null
    # when no rival would be left standing); whether a decisive fact would put it ahead; and
    # whether that lead would be a near-tie (under the decision model's medium_margin)
    new_lead: float | None = None
    new_lead_decisive: bool = False
    near_tie: bool = False
    # the current winner when the change itself rules it out (a veto: "migrating_away",
    # a target it cannot reach): the new winner then leads only because of that
    rules_out: str | None = None


class NotAsked(BaseModel):
    """An unsaid answer that would flip the verdict but is not offered: the questionnaire
    would not ask it of this profile."""

    path: str
    category: str  # "plan" or "situation" (Flip.category)
    new_winners: list[str]  # the frameworks its values would make win, in registry order


class Sensitivity(BaseModel):
    smallest_flip: Flip | None
    flips_by_framework: dict[str, Flip | None]
    # the same among the changes a project can decide (priorities and plans) ...
    decidable_flip: Flip | None = None
    decidable_by_framework: dict[str, Flip | None] = {}
    # ... and among changes to what is already so (the team, the code, the stack)
    situation_flips: dict[str, Flip | None] = {}
    candidates_tried: int
    ruled_out: int = 0  # flips not offered: they would make the answers contradict each other
    # the answers, unsaid, whose questions the questionnaire would not put to this profile
    # and that alone would flip the verdict: not offered, but named, each with what it
    # would make win
    not_asked_flips: list[NotAsked] = []
    win_probability: dict[str, float]
    samples: int
    seed: int
    method: str

    @computed_field  # type: ignore[prop-decorator]
    @property
    def not_asked(self) -> list[str]:
        """The paths of ``not_asked_flips`` (the JSON contract's list)."""
        return [n.path for n in self.not_asked_flips]


class InstallHint(BaseModel):
    """How to install the framework for a training device its chosen line does not serve:
    the pack's line for it (``command`` and ``note``), or, when no line serves it,
    ``command`` null and the note of the line that speaks of it (empty if none does)."""

    command: str | None
    note: str = ""


class Recommendation(BaseModel):
    """The verdict; framework, name, score and margin are null when nothing fits, and
    margin (points ahead of the runner-up) is null too when only one framework is left."""

    framework: str | None
    name: str | None
    score: float | None
    runner_up: str | None
    margin: float | None
    # when the winner and runner-up hold the same decisive facts: its lead on the other
    # answers, in the same points with those facts set aside (shown scores saturate near
    # 100); null otherwise. The confidence reads it instead of margin.
    lead_on_other_answers: float | None = None
    confidence: str
    confidence_capped: str | None = None  # why a "high" was capped at medium, else None
    tie_broken: bool
    tie_note: str | None
    tied_with: list[str] = []  # the other frameworks tied at the top, in rank order
    all_vetoed: bool
    summary: str
    install: InstallOption | None
    # each listed training device the install line does not serve -> how to install
    # for it (InstallHint)
    install_elsewhere: dict[str, InstallHint] = {}
    stack: list[StackItem]
    starter: str | None
    starter_note: str | None = None  # what the starter shows, when fitted to the profile
    hedge: str | None  # None when every framework is vetoed: nothing to hedge between


class FitChange(BaseModel):
    """What would let one framework fit when every framework is vetoed."""

    framework: str
    change: str | None  # one answer change that lifts every veto on it, if there is one
    path: str | None
    from_value: Any = None
    to_value: Any = None
    vetoed_by: list[str]  # ids of the rules that veto it now
    fields: list[str]  # the profile fields those rules test
    lets_fit: list[str] = Field(default_factory=list)  # every framework that change lets fit


class NoFit(BaseModel):
    """Why no candidate fits, and what would make one fit."""

    reasons: dict[str, list[str]]
    what_would_fit: list[FitChange]
    ruled_out: int = 0  # changes that would lift a veto but make the answers contradict


class Risk(BaseModel):
    """A caveat of a fired rule about one framework."""

    rule: str
    framework: str
    text: str


class RulesetInfo(BaseModel):
    name: str
    version: str
    rule_count: int
    as_of: str | None = None  # the month (YYYY-MM) whose knowledge answered
    point_in_time: bool = False  # True: an earlier month's knowledge (--as-of), not today's
    asked: bool = False  # True: the month was asked for (--as-of), even today's own
    packs: list[str] = Field(default_factory=list)  # the user's packs with rules in force
    pack_rules: int = 0  # how many rules in force came from them
    pack_checks: int = 0  # how many consistency checks in force came from them


class Inconsistency(BaseModel):
    """Answers that cannot all be true: a check of rules/data/consistency.yaml tripped."""

    id: str
    title: str
    message: str
    fields: list[str]
    until: str | None = None  # a dated check: the month the thing named became available
    pack: str | None = None  # the user's pack folder it came from (--rules); None: bundled
    checked: list[date] = Field(default_factory=list)  # when its evidence was last checked


class MoveReason(BaseModel):
    """A fired rule that favours one side of a stay-or-move choice, by how many points."""

    rule: str
    title: str
    points: float  # the side's weighted points less the other side's
    decisive: bool = False  # a decisive fact: it outranks any sum of soft points


class PortingAdvice(BaseModel):
    """One step of moving the team's code onto a framework (the pack's ``porting``)."""

    topic: str
    step: str
    url: str | None = None


class MoveChoice(BaseModel):
    """For a team weighing a move or leaving its code's framework: staying against moving.

    ``stay``: the best-ranked framework the team's code is in; ``move``: the best-ranked
    other framework still standing. ``for_staying``/``for_moving``: the fired rules that
    favour each side, by the points between the two; the steps port the code onto
    ``move`` (``stay_steps``: onto ``stay``'s current version, such as TF1 code onto TF2)."""

    stay: str
    move: str
    recommended: str  # stay or move
    lead: float  # the recommended side's score less the other's (0-100 scale)
    stay_vetoed: list[str] = Field(default_factory=list)
    for_staying: list[MoveReason] = Field(default_factory=list)
    for_moving: list[MoveReason] = Field(default_factory=list)
    steps: list[PortingAdvice] = Field(default_factory=list)
    stay_steps: list[PortingAdvice] = Field(default_factory=list)


class Decision(BaseModel):
    """The engine's whole answer: what the report and the JSON output are made from."""

    recommendation: Recommendation
    ranking: list[RankEntry]
    rules: list[FiredRule]
    skipped_rules: list[SkippedRule]
    breakdown: dict[str, dict[str, float]]
    weights: dict[str, float]
    measured_facts_moved: list[str]
    risks: list[Risk]
    sensitivity: Sensitivity | None
    ruleset: RulesetInfo
    probes_used: bool
    answered: list[str] = Field(default_factory=list)
    # answers that can move the verdict: those given, less priorities left at neutral (3)
    # and the answers no rule in force reads (``unread_answers``, such as team.size)
    telling_answers: int = 0
    unread_answers: list[str] = Field(default_factory=list)
    thin_profile: bool = False
    prior: dict[str, Any] = Field(default_factory=dict)
    decisive_facts: dict[str, list[str]] = Field(default_factory=dict)
    decisive_conflict: bool = False
    measurement_note: str | None = None
    no_fit: NoFit | None = None  # set when every framework is vetoed
    inconsistencies: list[Inconsistency] = Field(default_factory=list)  # answers that clash
    move: MoveChoice | None = None  # a team weighing a move or leaving its framework
