"""The rules engine: profile + facts + rules -> a scored, explained Decision.

Rules read only what the profile says (:mod:`advisor.said`). Vetoes screen first;
decisive facts then rank before soft preferences, which are the prior plus
``weight(criterion) * effect`` of each fired rule, a criterion's weight being the mean
of its priorities / 3 (3 is neutral, 0 switches it off). :mod:`advisor.scoring` holds
the arithmetic. Ties are broken by the number of supporting rules, then alphabetically,
and the Decision says so.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from advisor.conditions import build_context
from advisor.decision import (  # noqa: F401  (re-exported)
    Decision,
    FiredRule,
    Flip,
    RankEntry,
    Recommendation,
    RouteChoice,
    Sensitivity,
    SkippedRule,
)
from advisor.facts import Facts
from advisor.frameworks import DISPLAY_NAMES, FRAMEWORKS
from advisor.measured import machine_context
from advisor.profile import Profile
from advisor.rules import Rule, RuleSet
from advisor.said import said_paths, substantive
from advisor.scoring import combine, confidence, decisive_conflict, to_score


@dataclass
class Evaluation:
    """The fast core shared by decide() and the sensitivity analysis."""

    fired: list[Rule]
    skipped: list[Rule]
    raw: dict[str, float]
    vetoes: dict[str, list[str]]
    support: dict[str, int]
    soft: dict[str, float]
    decisive: dict[str, float]
    favoured: dict[str, list[str]]  # framework -> decisive facts (rule ids) for it

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


def rule_effects(rule: Rule, ruleset: RuleSet) -> tuple[dict[str, float], dict[str, float]]:
    """(soft effects, decisive units) of a fired rule, routes included."""
    soft = {fw: float(d) for fw, d in rule.effects.items()}
    decisive = dict.fromkeys(FRAMEWORKS, 0.0)
    if rule.tier == "decisive":
        soft, decisive = dict.fromkeys(FRAMEWORKS, 0.0), soft
    if rule.route and ruleset.routes is not None:
        for fw, points in ruleset.routes.effects(rule.route).items():
            soft[fw] += points
        sole = ruleset.routes.sole_runtime(rule.route)
        if sole:
            decisive[sole] += 1.0
    return soft, decisive


def evaluate(ruleset: RuleSet, context: dict[str, Any], weights: dict[str, float]) -> Evaluation:
    """Fire the rules on a flat context; decisive units and soft points per framework."""
    prior = ruleset.meta.prior
    soft = {fw: float(prior.effects.model_dump()[fw]) if prior else 0.0 for fw in FRAMEWORKS}
    decisive = dict.fromkeys(FRAMEWORKS, 0.0)
    favoured: dict[str, list[str]] = {fw: [] for fw in FRAMEWORKS}
    support = dict.fromkeys(FRAMEWORKS, 0)
    vetoes: dict[str, list[str]] = {fw: [] for fw in FRAMEWORKS}
    fired: list[Rule] = []
    skipped: list[Rule] = []
    for rule in ruleset.rules:
        assert rule.condition is not None
        result = rule.condition.evaluate(context)
        if result is None:
            if any(context.get(f) is None for f in rule.condition.fields() if f[:6] == "facts."):
                skipped.append(rule)
            continue  # otherwise it needs an answer the profile did not give
        if not result:
            continue
        fired.append(rule)
        weight = weights[rule.criterion.value]
        rule_soft, rule_decisive = rule_effects(rule, ruleset)
        for fw in FRAMEWORKS:
            soft[fw] += weight * rule_soft[fw]
            if rule_soft[fw] > 0:
                support[fw] += 1
            if weight > 0 and rule_decisive[fw]:
                decisive[fw] += rule_decisive[fw]
                if rule_decisive[fw] > 0:
                    favoured[fw].append(rule.id)
        for fw, reason in rule.veto.items():
            vetoes[fw].append(f"{rule.id}: {reason}")
    model = ruleset.meta.decision
    raw = {fw: combine(decisive[fw], soft[fw], model) for fw in FRAMEWORKS}
    return Evaluation(fired, skipped, raw, vetoes, support, soft, decisive, favoured)


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
    said = said_paths(profile)
    context, measurement_note = machine_context(build_context(profile, facts, said))
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
            decisive=round(ev.decisive[fw], 4),
            soft=round(ev.soft[fw], 4),
        )
        for fw in order
    ]
    fired = [_fired(rule, weights, context, ruleset) for rule in ev.fired]
    fired.sort(key=lambda r: (-r.impact, r.id))
    answered = substantive(said)
    thin = len(answered) < ruleset.meta.decision.thin_profile_answers or not ev.fired
    sensitivity = None
    if with_sensitivity:
        from advisor.sensitivity import analyse

        sensitivity = analyse(profile, facts, ruleset, ev, weights, seed=seed)
    conflict = decisive_conflict(ev.favoured)
    full_context = build_context(profile, facts)
    recommendation = _recommendation(
        ranking, ev, ruleset, full_context, sensitivity, thin=thin, conflict=conflict
    )
    breakdown = {c.id.value: dict.fromkeys(FRAMEWORKS, 0.0) for c in ruleset.meta.criteria}
    for rule in fired:
        for fw, value in rule.weighted.items():
            breakdown[rule.criterion][fw] = round(breakdown[rule.criterion][fw] + value, 4)
    risks = [
        {"rule": r.id, "framework": fw, "text": text} for r in fired for fw, text in r.risks.items()
    ]
    skip_reason = measurement_note or (
        "needs a measurement from the probes (run with --probes quick or higher)"
    )
    prior = ruleset.meta.prior
    return Decision(
        recommendation=recommendation,
        ranking=ranking,
        rules=fired,
        skipped_rules=[SkippedRule(id=r.id, title=r.title, reason=skip_reason) for r in ev.skipped],
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
        answered=answered,
        thin_profile=thin,
        prior=(
            {"effects": dict(prior.effects.items()), "why": prior.why}
            if prior
            else {"effects": dict.fromkeys(FRAMEWORKS, 0), "why": ""}
        ),
        decisive_facts={fw: ids for fw, ids in ev.favoured.items() if ids},
        decisive_conflict=conflict,
        measurement_note=measurement_note,
    )


def _fired(
    rule: Rule, weights: dict[str, float], context: dict[str, Any], ruleset: RuleSet
) -> FiredRule:
    weight = weights[rule.criterion.value]
    soft, decisive = rule_effects(rule, ruleset)
    weighted = {fw: round(weight * d, 4) for fw, d in soft.items() if d}
    units = {fw: d for fw, d in decisive.items() if d and weight > 0}
    facts_used = {
        path: context.get(path)
        for path in sorted(rule.condition.fields() if rule.condition else ())
        if path.startswith("facts.")
    }
    unit = ruleset.meta.decision.decisive_unit
    impact = max(
        [abs(v) for v in weighted.values()]
        + [abs(v) * unit for v in units.values()]
        + [100.0 if rule.veto.items() else 0.0]
    )
    routes = []
    if rule.route and ruleset.routes is not None:
        venue = ruleset.routes.venues[rule.route]
        for fw in FRAMEWORKS:
            best = venue.best(fw)
            routes.append(RouteChoice(framework=fw, **best.model_dump()))
    return FiredRule(
        id=rule.id,
        title=rule.title,
        criterion=rule.criterion.value,
        tier=rule.tier,
        weight=round(weight, 4),
        effects={fw: round(d) for fw, d in soft.items() if d},
        weighted=weighted,
        veto=dict(rule.veto.items()),
        risks=dict(rule.risks.items()),
        why=rule.why,
        evidence=rule.evidence,
        facts_used=facts_used,
        impact=round(impact, 4),
        routes=routes,
        decisive=units,
    )


def _recommendation(
    ranking: list[RankEntry],
    ev: Evaluation,
    ruleset: RuleSet,
    context: dict[str, Any],
    sensitivity: Sensitivity | None,
    *,
    thin: bool,
    conflict: bool,
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
    level = confidence(
        ruleset.meta.decision,
        margin=margin,
        win_p=win_p,
        tie=tie,
        all_vetoed=all_vetoed,
        thin=thin,
        conflict=conflict,
    )
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
        summary = (
            f"No framework meets every hard constraint; {first.name} scores best "
            "but is vetoed too (see Why)."
        )
    else:
        summary = f"Build on {first.name}."
    return Recommendation(
        framework=first.framework,
        name=first.name,
        score=first.score,
        runner_up=runner_up.framework if runner_up else None,
        margin=margin,
        confidence=level,
        tie_broken=tie,
        tie_note=tie_note,
        all_vetoed=all_vetoed,
        summary=summary,
        install=install,
        stack=stack,
        starter=info.starter,
        hedge=ruleset.meta.hedge,
    )
