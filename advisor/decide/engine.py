"""The rules engine: profile + facts + rules -> a scored, explained Decision.

Scoring: each fired rule adds ``weight(criterion) * effect`` to a framework's raw
score, where a criterion's weight is the mean of the profile priorities mapped to it
in pack.yaml, divided by 3 (3 is neutral, 0 switches the criterion off). Raw scores
map to 0-100 with ``50 + 50 * tanh(raw / 30)``: monotone and independent per
framework. Vetoes exclude a framework whatever its score. Ties are broken by the
number of supporting rules, then alphabetically, and the Decision says so.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from advisor.decide.conditions import build_context
from advisor.decide.no_fit import explain_no_fit
from advisor.decide.rules import Rule, RuleSet
from advisor.decide.scoring import Evaluation, criterion_weights, evaluate, to_score
from advisor.decide.sensitivity import analyse
from advisor.frameworks import DISPLAY_NAMES, FRAMEWORKS
from advisor.model.decision import (
    Decision,
    FiredRule,
    RankEntry,
    Recommendation,
    Risk,
    RulesetInfo,
    Sensitivity,
    SkippedRule,
)
from advisor.model.facts import Facts
from advisor.model.profile import Profile


@dataclass(frozen=True)
class Scored:
    """The rules fired on one profile and its facts: the input of analyse and explain."""

    profile: Profile
    facts: Facts
    context: dict[str, Any]
    weights: dict[str, float]
    evaluation: Evaluation


def score(profile: Profile, facts: Facts | None, ruleset: RuleSet) -> Scored:
    """Fire the rules on a profile and its measured facts."""
    facts = facts or Facts()
    context = build_context(profile, facts)
    weights = criterion_weights(ruleset, profile.priorities.model_dump())
    return Scored(profile, facts, context, weights, evaluate(ruleset, context, weights))


def analyse_scored(scored: Scored, ruleset: RuleSet, *, seed: int = 0) -> Sensitivity:
    """What would change the verdict (the sensitivity analysis) for a scored profile."""
    return analyse(
        scored.profile, scored.facts, ruleset, scored.evaluation, scored.weights, seed=seed
    )


def decide(
    profile: Profile,
    facts: Facts | None,
    ruleset: RuleSet,
    *,
    with_sensitivity: bool = True,
    seed: int = 0,
) -> Decision:
    """Score the frameworks for a profile and explain the result (score, analyse, explain)."""
    scored = score(profile, facts, ruleset)
    sensitivity = analyse_scored(scored, ruleset, seed=seed) if with_sensitivity else None
    return explain(scored, ruleset, sensitivity)


def explain(scored: Scored, ruleset: RuleSet, sensitivity: Sensitivity | None) -> Decision:
    """The Decision: ranking, fired rules, recommendation, breakdown and risks."""
    ev, context, weights = scored.evaluation, scored.context, scored.weights
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
    recommendation = _recommendation(ranking, ev, ruleset, context, sensitivity)
    breakdown = {c.id: dict.fromkeys(FRAMEWORKS, 0.0) for c in ruleset.meta.criteria}
    for rule in fired:
        for fw, value in rule.weighted.items():
            breakdown[rule.criterion][fw] = round(breakdown[rule.criterion][fw] + value, 4)
    risks = [
        Risk(rule=r.id, framework=fw, text=text) for r in fired for fw, text in r.risks.items()
    ]
    no_fit = None
    if recommendation.all_vetoed:
        no_fit = explain_no_fit(scored.profile, scored.facts, ruleset, ev.vetoes)
    return Decision(
        no_fit=no_fit,
        recommendation=recommendation,
        ranking=ranking,
        rules=fired,
        skipped_rules=[
            SkippedRule(id=r.id, title=r.title, reason=_skip_reason(r, scored.facts))
            for r in ev.skipped
        ],
        breakdown=breakdown,
        weights={k: round(v, 4) for k, v in weights.items()},
        measured_facts_moved=sorted({r.id for r in fired if r.facts_used}),
        risks=risks,
        sensitivity=sensitivity,
        ruleset=RulesetInfo(
            name=ruleset.meta.ruleset,
            version=ruleset.meta.version,
            rule_count=len(ruleset.rules),
        ),
        probes_used=any(v is not None for k, v in context.items() if k.startswith("facts.")),
    )


NOT_MEASURED = "needs a measurement from the probes (run with --probes quick or higher)"
NOT_IN_RUN = "needs a figure this run did not measure"


def _skip_reason(rule: Rule, facts: Facts) -> str:
    """Why a probe-aware rule stood aside: a comparison that did not decide, or no figure."""
    notes = facts.stand_aside
    fields = sorted(rule.condition.fields()) if rule.condition else []
    found = [notes[p[6:]] for p in fields if p.startswith("facts.") and p[6:] in notes]
    if found:
        return "; ".join(found)
    return NOT_MEASURED if facts.installed is None else NOT_IN_RUN


def _fired(rule: Rule, weights: dict[str, float], context: dict[str, Any]) -> FiredRule:
    weight = weights[rule.criterion]
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
        criterion=rule.criterion,
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
