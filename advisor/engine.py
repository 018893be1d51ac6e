"""The rules engine: profile + facts + rules -> a scored, explained Decision.

Scoring: each fired rule adds ``weight(criterion) * effect`` to a framework's raw
score, where a criterion's weight is the mean of the profile priorities mapped to it
in pack.yaml, divided by 3 (3 is neutral, 0 switches the criterion off). Raw scores
map to 0-100 with ``50 + 50 * tanh(raw / 30)``: monotone and independent per
framework. Vetoes exclude a framework whatever its score. Ties are broken by the
number of supporting rules, then alphabetically, and the Decision says so.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, Field

from advisor.conditions import build_context
from advisor.facts import Facts
from advisor.frameworks import DISPLAY_NAMES, FRAMEWORKS
from advisor.no_fit import NoFit, explain_no_fit
from advisor.profile import Profile
from advisor.rules import Evidence, InstallOption, Rule, RuleSet, StackItem

SCORE_SCALE = 30.0


class FiredRule(BaseModel):
    id: str
    title: str
    criterion: str
    weight: float
    effects: dict[str, int]
    weighted: dict[str, float]
    veto: dict[str, str]
    risks: dict[str, str]
    why: str
    evidence: list[Evidence]
    facts_used: dict[str, Any] = Field(default_factory=dict)
    impact: float


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


class Flip(BaseModel):
    path: str
    kind: str  # "priority" or "answer"
    from_value: Any
    to_value: Any
    description: str
    cost: float
    new_winner: str


class Sensitivity(BaseModel):
    smallest_flip: Flip | None
    flips_by_framework: dict[str, Flip | None]
    candidates_tried: int
    win_probability: dict[str, float]
    samples: int
    seed: int
    method: str


class Recommendation(BaseModel):
    """The verdict; framework, name, score and margin are null when nothing fits."""

    framework: str | None
    name: str | None
    score: float | None
    runner_up: str | None
    margin: float | None
    confidence: str
    tie_broken: bool
    tie_note: str | None
    all_vetoed: bool
    summary: str
    install: InstallOption | None
    stack: list[StackItem]
    starter: str | None
    hedge: str


class Decision(BaseModel):
    recommendation: Recommendation
    ranking: list[RankEntry]
    rules: list[FiredRule]
    skipped_rules: list[SkippedRule]
    breakdown: dict[str, dict[str, float]]
    weights: dict[str, float]
    measured_facts_moved: list[str]
    risks: list[dict[str, str]]
    sensitivity: Sensitivity | None
    ruleset: dict[str, Any]
    probes_used: bool
    no_fit: NoFit | None = None  # set when every framework is vetoed


@dataclass
class Evaluation:
    """The fast core shared by decide() and the sensitivity analysis."""

    fired: list[Rule]
    skipped: list[Rule]
    raw: dict[str, float]
    vetoes: dict[str, list[str]]
    support: dict[str, int]

    def order(self) -> list[str]:
        return rank_order(self.raw, self.vetoes, self.support)

    @property
    def winner(self) -> str:
        return self.order()[0]


def criterion_weights(ruleset: RuleSet, priorities: dict[str, Any]) -> dict[str, float]:
    """Weight of each criterion from the profile's priorities (pack.yaml mapping)."""
    weights = {}
    for crit in ruleset.meta.criteria:
        if crit.priorities:
            weights[crit.id.value] = sum(float(priorities[p]) for p in crit.priorities) / (
                3.0 * len(crit.priorities)
            )
        else:
            weights[crit.id.value] = 1.0
    return weights


def rank_order(
    raw: dict[str, float], vetoes: dict[str, list[str]], support: dict[str, int]
) -> list[str]:
    """Deterministic order: allowed first, then raw score, supporting rules, name."""
    return sorted(
        FRAMEWORKS,
        key=lambda fw: (bool(vetoes.get(fw)), -round(raw[fw], 9), -support[fw], fw),
    )


def evaluate(ruleset: RuleSet, context: dict[str, Any], weights: dict[str, float]) -> Evaluation:
    """Fire the rules on a flat context and add up their weighted effects."""
    raw = dict.fromkeys(FRAMEWORKS, 0.0)
    support = dict.fromkeys(FRAMEWORKS, 0)
    vetoes: dict[str, list[str]] = {fw: [] for fw in FRAMEWORKS}
    fired: list[Rule] = []
    skipped: list[Rule] = []
    for rule in ruleset.rules:
        assert rule.condition is not None
        result = rule.condition.evaluate(context)
        if result is None:
            skipped.append(rule)
            continue
        if not result:
            continue
        fired.append(rule)
        weight = weights[rule.criterion.value]
        for fw, delta in rule.effects.items():
            raw[fw] += weight * delta
            if delta > 0:
                support[fw] += 1
        for fw, reason in rule.veto.items():
            vetoes[fw].append(f"{rule.id}: {reason}")
    return Evaluation(fired, skipped, raw, vetoes, support)


def to_score(raw: float) -> float:
    """Map a raw score to 0-100 (50 is neutral)."""
    return round(50.0 + 50.0 * math.tanh(raw / SCORE_SCALE), 1)


def decide(
    profile: Profile,
    facts: Facts | None,
    ruleset: RuleSet,
    *,
    with_sensitivity: bool = True,
    seed: int = 0,
) -> Decision:
    """Score the three frameworks for a profile and explain the result."""
    facts = facts or Facts()
    context = build_context(profile, facts)
    weights = criterion_weights(ruleset, profile.priorities.model_dump())
    ev = evaluate(ruleset, context, weights)
    order = ev.order()
    ranking = [
        RankEntry(
            framework=fw,
            name=DISPLAY_NAMES[fw],
            score=to_score(ev.raw[fw]),
            raw=round(ev.raw[fw], 4),
            vetoed=bool(ev.vetoes[fw]),
            veto_reasons=ev.vetoes[fw],
            supporting_rules=ev.support[fw],
        )
        for fw in order
    ]
    fired = [_fired(rule, weights, context) for rule in ev.fired]
    fired.sort(key=lambda r: (-r.impact, r.id))
    sensitivity = None
    if with_sensitivity:
        from advisor.sensitivity import analyse

        sensitivity = analyse(profile, facts, ruleset, ev, weights, seed=seed)
    recommendation = _recommendation(ranking, ev, ruleset, context, sensitivity)
    breakdown = {c.id.value: dict.fromkeys(FRAMEWORKS, 0.0) for c in ruleset.meta.criteria}
    for rule in fired:
        for fw, value in rule.weighted.items():
            breakdown[rule.criterion][fw] = round(breakdown[rule.criterion][fw] + value, 4)
    risks = [
        {"rule": r.id, "framework": fw, "text": text} for r in fired for fw, text in r.risks.items()
    ]
    no_fit = None
    if recommendation.all_vetoed:
        no_fit = explain_no_fit(profile, facts, ruleset, ev.vetoes)
    return Decision(
        no_fit=no_fit,
        recommendation=recommendation,
        ranking=ranking,
        rules=fired,
        skipped_rules=[
            SkippedRule(
                id=r.id,
                title=r.title,
                reason="needs a measurement from the probes (run with --probes quick or higher)",
            )
            for r in ev.skipped
        ],
        breakdown=breakdown,
        weights={k: round(v, 4) for k, v in weights.items()},
        measured_facts_moved=sorted({r.id for r in fired if r.facts_used}),
        risks=risks,
        sensitivity=sensitivity,
        ruleset={
            "name": ruleset.meta.ruleset,
            "version": ruleset.meta.version,
            "rule_count": len(ruleset.rules),
        },
        probes_used=any(v is not None for k, v in context.items() if k.startswith("facts.")),
    )


def _fired(rule: Rule, weights: dict[str, float], context: dict[str, Any]) -> FiredRule:
    weight = weights[rule.criterion.value]
    weighted = {fw: round(weight * d, 4) for fw, d in rule.effects.items() if d}
    facts_used = {
        path: context.get(path)
        for path in sorted(rule.condition.fields() if rule.condition else ())
        if path.startswith("facts.")
    }
    impact = max([abs(v) for v in weighted.values()] + [100.0 if rule.veto.items() else 0.0])
    return FiredRule(
        id=rule.id,
        title=rule.title,
        criterion=rule.criterion.value,
        weight=round(weight, 4),
        effects={fw: d for fw, d in rule.effects.items() if d},
        weighted=weighted,
        veto=dict(rule.veto.items()),
        risks=dict(rule.risks.items()),
        why=rule.why,
        evidence=rule.evidence,
        facts_used=facts_used,
        impact=round(impact, 4),
    )


def _recommendation(
    ranking: list[RankEntry],
    ev: Evaluation,
    ruleset: RuleSet,
    context: dict[str, Any],
    sensitivity: Sensitivity | None,
) -> Recommendation:
    first = ranking[0]
    second = ranking[1] if len(ranking) > 1 else None
    all_vetoed = first.vetoed
    runner_up = second if second and not second.vetoed else None
    margin = round(first.score - runner_up.score, 1) if runner_up else 100.0
    tie = bool(
        runner_up and round(ev.raw[first.framework], 9) == round(ev.raw[runner_up.framework], 9)
    )
    tie_note = None
    if tie and runner_up:
        tie_note = (
            f"{first.name} and {runner_up.name} scored the same; the tie was broken by the number "
            f"of supporting rules ({first.supporting_rules} vs {runner_up.supporting_rules}), "
            "then alphabetically."
        )
    win_p = sensitivity.win_probability.get(first.framework) if sensitivity else None
    confidence = _confidence(margin, win_p, tie, all_vetoed)
    info = ruleset.meta.frameworks[first.framework]
    stack = [
        item
        for i, item in enumerate(info.stack)
        if ruleset.conditions[(first.framework, "stack", i)].evaluate(context) is True
    ]
    install = next(
        (
            opt
            for i, opt in enumerate(info.install)
            if ruleset.conditions[(first.framework, "install", i)].evaluate(context) is True
        ),
        None,
    )
    if all_vetoed:
        return _nothing_fits(ruleset)
    else:
        summary = f"Build on {first.name}."
    return Recommendation(
        framework=first.framework,
        name=first.name,
        score=first.score,
        runner_up=runner_up.framework if runner_up else None,
        margin=margin,
        confidence=confidence,
        tie_broken=tie,
        tie_note=tie_note,
        all_vetoed=all_vetoed,
        summary=summary,
        install=install,
        stack=stack,
        starter=info.starter,
        hedge=ruleset.meta.hedge,
    )


def _nothing_fits(ruleset: RuleSet) -> Recommendation:
    """No candidate: every framework is vetoed, so nothing is recommended."""
    return Recommendation(
        framework=None,
        name=None,
        score=None,
        runner_up=None,
        margin=None,
        confidence="none",
        tie_broken=False,
        tie_note=None,
        all_vetoed=True,
        summary="No candidate fits: every framework is vetoed by a hard constraint (see no_fit).",
        install=None,
        stack=[],
        starter=None,
        hedge=ruleset.meta.hedge,
    )


def _confidence(margin: float, win_p: float | None, tie: bool, all_vetoed: bool) -> str:
    """high / medium / low from the Monte-Carlo win probability (or the margin alone)."""
    if tie or all_vetoed:
        return "low"
    if win_p is None:
        return "high" if margin >= 15 else "medium" if margin >= 5 else "low"
    if win_p >= 0.9 and margin >= 5:
        return "high"
    if win_p >= 0.65:
        return "medium"
    return "low"
