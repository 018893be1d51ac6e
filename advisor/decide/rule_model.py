"""The Rule model: one criterion from the sources, as data, with its parsed condition.

Validated field by field on load (:mod:`advisor.decide.rules` reads the files and parses
each ``when``); ``why`` is what a report says of the rule, ``scope`` what only its page says.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import ConfigDict, Field, ValidationInfo, field_validator, model_validator

from advisor.decide.conditions import Condition
from advisor.decide.item_labels import RULE_ID
from advisor.io.validation import register_model
from advisor.model.rulepack import (
    CRITERION_ID,
    Effects,
    Evidence,
    Holds,
    Risks,
    RuleExamples,
    Strict,
    Vetoes,
)


class Rule(Strict):
    """One criterion from the sources, as data."""

    model_config = ConfigDict(extra="forbid", frozen=True, arbitrary_types_allowed=True)

    id: str = Field(pattern=RULE_ID)
    title: str = Field(min_length=5)
    criterion: str = Field(pattern=CRITERION_ID)
    tier: Literal["soft", "decisive"] = Field(
        "soft",
        description="decisive: a fact that settles the choice in practice; its effects count "
        "in decisive units (1 = one such fact), ranked before every soft preference.",
    )
    route: str | None = Field(
        None,
        description="A venue of rules/data/routes.yaml: the rule scores each framework by its "
        "best route there (added to `effects`).",
    )
    when: Any = None
    effects: Effects = Field(default_factory=Effects)
    veto: Vetoes = Field(default_factory=Vetoes)
    risks: Risks = Field(default_factory=Risks)
    why: str = Field(min_length=10)
    scope: str | None = Field(
        None,
        description="Where the rule stands aside and which rule weighs that situation "
        "instead: shown on the rule's page (`advisor rules show`), never in a report, whose "
        "'why' speaks only to the profile at hand.",
    )
    evidence: list[Evidence] = Field(min_length=1)
    holds: Holds | None = Field(
        None, description="When the claim held, if not always (point-in-time views only)."
    )
    examples: RuleExamples
    condition: Condition | None = Field(None, exclude=True)

    @field_validator("why", "scope")
    @classmethod
    def _one_line(cls, value: str | None, info: ValidationInfo) -> str | None:
        if value is not None and "\n" in value.strip():
            raise ValueError(f"'{info.field_name}' must be one line")
        return value.strip() if value is not None else None

    @model_validator(mode="after")
    def _check(self) -> Rule:
        if not any(v for _, v in self.effects.items()) and not self.veto.items() and not self.route:
            raise ValueError("a rule needs at least one non-zero effect or a veto (or a route)")
        if self.tier == "decisive" and any(abs(v) > 2 for _, v in self.effects.items()):
            raise ValueError("a decisive rule's effects count decisive units: -2..2")
        if all(e.status == "superseded" for e in self.evidence):
            raise ValueError(
                "evidence: a rule needs at least one current claim, not only superseded ones"
            )
        return self

    @property
    def uses_facts(self) -> bool:
        return bool(self.condition and any(f.startswith("facts.") for f in self.condition.fields()))


register_model(Rule)
