"""The rules engine: profile + facts + rules -> a scored, explained Decision.

Rules read only what the profile says; vetoes screen, decisive facts rank before the
soft points, and a small documented prior says what the advisor believes before any
answer (the arithmetic is in :mod:`advisor.decide.scoring`). Ties are broken by what
the answers alone gave (the prior left out), by the number of supporting rules, then
alphabetically, and the Decision says so.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from advisor.decide.conditions import build_context
from advisor.decide.consistency import inconsistencies
from advisor.decide.dating import knowledge_month
from advisor.decide.field_readers import unread_answers
from advisor.decide.install import choose_setup, hedge_for
from advisor.decide.measured import machine_context
from advisor.decide.moves import move_choice
from advisor.decide.no_fit import explain_no_fit
from advisor.decide.routes import route_risks, weak_route
from advisor.decide.rules import Rule, RuleSet
from advisor.decide.scoring import (
    Evaluation,
    Support,
    comparable_lead,
    confidence,
    criterion_weights,
    decisive_conflict,
    evaluate,
    firm_support,
    rule_effects,
    to_score,
)
from advisor.decide.sensitivity import analyse
from advisor.decide.ties import against_the_shares, tie_sentence, tied_at_top
from advisor.frameworks import DISPLAY_NAMES, FRAMEWORKS
from advisor.model.decision import (
    Decision,
    FiredRule,
    RankEntry,
    Recommendation,
    Risk,
    RouteChoice,
    RulesetInfo,
    Sensitivity,
    SkippedRule,
)
from advisor.model.facts import Facts
from advisor.model.profile import Priorities, Profile
from advisor.model.said import said_paths, substantive, training_hardware


@dataclass(frozen=True)
class Scored:
    """The rules fired on one profile and its facts: the input of analyse and explain."""

    profile: Profile
    facts: Facts
    context: dict[str, Any]  # what the profile said, and the facts that may score
    weights: dict[str, float]
    evaluation: Evaluation
    said: frozenset[str]
    measurement_note: str | None


def score(profile: Profile, facts: Facts | None, ruleset: RuleSet) -> Scored:
    """Fire the rules on what a profile says and on the facts measured on its kind of machine."""
    facts = facts or Facts()
    said = said_paths(profile)
    context, note = machine_context(build_context(profile, facts, said))
    weights = criterion_weights(ruleset, profile.priorities.model_dump())
    evaluation = evaluate(ruleset, context, weights)
    return Scored(profile, facts, context, weights, evaluation, said, note)


def analyse_scored(
    scored: Scored, ruleset: RuleSet, *, seed: int = 0, changes: bool = True, **kw: Any
) -> Sensitivity:
    """What would change the verdict (the sensitivity analysis) for a scored profile;
    ``changes=False`` skips the search for changes and keeps the win probabilities;
    ``unasked`` (a keyword): fields the questionnaire would not ask of this profile."""
    ev, weights = scored.evaluation, scored.weights
    return analyse(
        scored.profile, scored.facts, ruleset, ev, weights, seed=seed, changes=changes, **kw
    )


def decide(
    profile: Profile,
    facts: Facts | None,
    ruleset: RuleSet,
    *,
    with_sensitivity: bool = True,
    seed: int = 0,
    verdict_only: bool = False,
    unasked: frozenset[str] = frozenset(),
) -> Decision:
    """Score the frameworks for a profile and explain the result (score, analyse, explain).
    ``verdict_only``: the same verdict and confidence (which read only the win
    probabilities), without searching what would change it, for batch evaluation; its
    sensitivity lists no changes and is not for a report. ``unasked``: the fields whose
    questions the questionnaire would not put to this profile (the pipeline's
    ``unasked_fields``); saying one is never offered as a change."""
    scored = score(profile, facts, ruleset)
    sensitivity = (
        analyse_scored(scored, ruleset, seed=seed, changes=not verdict_only, unasked=unasked)
        if with_sensitivity
        else None
    )
    return explain(scored, ruleset, sensitivity, unasked=unasked)


def explain(
    scored: Scored,
    ruleset: RuleSet,
    sensitivity: Sensitivity | None,
    *,
    unasked: frozenset[str] = frozenset(),
) -> Decision:
    """The Decision: ranking, fired rules, recommendation, breakdown and risks.
    ``unasked``: the fields the questionnaire would not ask of this profile; what backs
    the verdict may rest on them at their defaults (nobody could have given them)."""
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
            decisive=round(ev.decisive[fw], 4),
            soft=round(ev.soft[fw], 4),
        )
        for fw in order
    ]
    fired = [_fired(rule, weights, context, ruleset) for rule in ev.fired]
    fired.sort(key=lambda r: (-r.impact, r.id))
    answered = substantive(scored.said)
    support = firm_support(ev, ruleset, context, unasked)  # context: what the profile said
    # too thin: nothing fired, or a few answers and no decisive fact that rests on them (one
    # that holds only through an unsaid answer, read at its default, rests on none)
    # a priority left at its default (3, the neutral weight) says no more than leaving it
    # out, and an answer no rule in force reads (team.size) cannot move the verdict
    unread = unread_answers(answered, ruleset)
    telling = [a for a in answered if a not in unread and not _neutral_priority(a, context.get(a))]
    few = len(telling) < ruleset.meta.decision.thin_profile_answers
    thin = not ev.fired or (few and not any(support.firm.values()))
    # a ruled-out framework's decisive facts oppose nothing the user can still choose
    conflict = decisive_conflict(
        {fw: v for fw, v in ev.favoured.items() if not ev.vetoes[fw]}, ev.order()[0]
    )
    full_context = build_context(scored.profile, scored.facts)  # stack and install choices
    # an unsaid hardware.training is NVIDIA GPUs, or CPUs when no accelerators are used
    full_context["hardware.training"] = training_hardware(scored.profile)[0]
    clashes = [
        c.model_copy(update={"pack": ruleset.added.get(c.id)})
        for c in inconsistencies(ruleset.checks, scored.context)
    ]
    recommendation = _recommendation(
        ranking,
        ev,
        ruleset,
        full_context,
        sensitivity,
        thin=thin,
        conflict=conflict,
        inconsistent=bool(clashes),
        support=support,
        weak=weak_route(fired, order[0], ruleset.meta.decision.high_needs_route),
    )
    breakdown = {c.id: dict.fromkeys(FRAMEWORKS, 0.0) for c in ruleset.meta.criteria}
    for rule in fired:
        for fw, value in rule.weighted.items():
            breakdown[rule.criterion][fw] = round(breakdown[rule.criterion][fw] + value, 4)
    risks = [
        Risk(rule=r.id, framework=fw, text=text) for r in fired for fw, text in r.risks.items()
    ] + route_risks(fired)
    prior = ruleset.meta.prior
    own_rules = [r.id for r in ruleset.rules if r.id in ruleset.added]  # from --rules packs
    own_checks = [c.id for c in ruleset.checks if c.id in ruleset.added]
    no_fit = None
    if recommendation.all_vetoed:
        no_fit = explain_no_fit(scored.profile, scored.facts, ruleset, ev.vetoes)
    return Decision(
        no_fit=no_fit,
        move=move_choice(scored.profile, ranking, fired, ruleset, full_context),
        recommendation=recommendation,
        ranking=ranking,
        rules=fired,
        skipped_rules=[
            SkippedRule(
                id=r.id,
                title=r.title,
                reason=scored.measurement_note or _skip_reason(r, scored.facts),
            )
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
            as_of=ruleset.month,
            point_in_time=bool(ruleset.month and ruleset.month < knowledge_month()),
            packs=sorted({ruleset.added[i] for i in own_rules + own_checks}),
            pack_rules=len(own_rules),
            pack_checks=len(own_checks),
        ),
        probes_used=any(v is not None for k, v in context.items() if k.startswith("facts.")),
        answered=answered,
        telling_answers=len(telling),
        unread_answers=unread,
        thin_profile=thin,
        prior=(
            {"effects": dict(prior.effects.items()), "why": prior.why}
            if prior
            else {"effects": dict.fromkeys(FRAMEWORKS, 0), "why": ""}
        ),
        decisive_facts={fw: ids for fw, ids in ev.favoured.items() if ids},
        inconsistencies=clashes,
        decisive_conflict=conflict,
        measurement_note=scored.measurement_note,
    )


NOT_MEASURED = "needs a measurement from the probes (run with --probes quick or higher)"
NOT_IN_RUN = "needs a figure this run did not measure"
NOISY = "not scored: the measurements were too noisy (other work kept the machine busy)"


def _skip_reason(rule: Rule, facts: Facts) -> str:
    """Why a probe-aware rule stood aside: a comparison that did not decide, or no figure."""
    notes = facts.stand_aside
    fields = sorted(rule.condition.fields()) if rule.condition else []
    found = [notes[p[6:]] for p in fields if p.startswith("facts.") and p[6:] in notes]
    if found:
        return "; ".join(found)
    if facts.noisy and "facts.noisy" in fields:
        return NOISY
    return NOT_MEASURED if facts.installed is None else NOT_IN_RUN


def _neutral_priority(path: str, value: Any) -> bool:
    """Whether ``path`` is a priority answered with its default weight."""
    field = Priorities.model_fields.get(path.removeprefix("priorities."))
    return path.startswith("priorities.") and field is not None and value == field.default


def _fired(
    rule: Rule, weights: dict[str, float], context: dict[str, Any], ruleset: RuleSet
) -> FiredRule:
    weight = weights[rule.criterion]
    soft, decisive = rule_effects(rule, ruleset)
    weighted = {fw: round(weight * d, 4) for fw, d in soft.items() if d}
    units = {fw: d for fw, d in decisive.items() if d}
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
        routes = [RouteChoice(framework=fw, **venue.best(fw).model_dump()) for fw in FRAMEWORKS]
    return FiredRule(
        id=rule.id,
        title=rule.title,
        criterion=rule.criterion,
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
        pack=ruleset.added.get(rule.id),
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
    inconsistent: bool,
    support: Support,
    weak: str | None,
) -> Recommendation:
    first = ranking[0]
    second = ranking[1] if len(ranking) > 1 else None
    all_vetoed = first.vetoed
    runner_up = second if second and not second.vetoed else None
    # no rival standing: the report has no lead to quote (null), the confidence no doubt
    margin = round(first.score - runner_up.score, 1) if runner_up else None
    tied = tied_at_top(ranking, ev.raw) if runner_up else [first]
    tie = len(tied) > 1
    shares = sensitivity.win_probability if sensitivity else {}
    tie_note = (
        tie_sentence(tied, ev.answers) + against_the_shares(first, runner_up, shares)
        if tie and runner_up
        else None
    )
    # equal decisive facts cancel: the confidence reads the lead on the other answers
    rival = runner_up.framework if runner_up else None
    even = comparable_lead(ev, first.framework, rival, ruleset.meta.decision)
    win_p = sensitivity.win_probability.get(first.framework) if sensitivity else None
    level, capped = confidence(
        ruleset.meta.decision,
        margin=100.0 if margin is None else margin if even is None else even,
        win_p=win_p,
        tie=tie,
        all_vetoed=all_vetoed,
        thin=thin,
        conflict=conflict,
        inconsistent=inconsistent,
        # backed: decisive facts that rest on what was said put it ahead of its runner-up,
        # or no rival is left standing
        backed=support.backs(
            first.framework, {e.framework: e.vetoed for e in ranking}, ev.decisive
        ),
        assumed=tuple(support.assumed[first.framework]),
        weak_route=weak,
        decisive_lead=runner_up is not None
        and ev.decisive[first.framework] > ev.decisive[runner_up.framework],
    )
    setup = choose_setup(ruleset, first.framework, context, context["hardware.training"])
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
        lead_on_other_answers=even,
        confidence=level,
        confidence_capped=capped,
        tie_broken=tie,
        tied_with=[e.framework for e in tied[1:]],
        tie_note=tie_note,
        all_vetoed=all_vetoed,
        summary=summary,
        install=setup.install,
        install_elsewhere=setup.install_elsewhere,
        stack=setup.stack,
        starter=setup.starter.code,
        starter_note=setup.starter.note,
        hedge=hedge_for(ruleset, context),
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
        hedge=None,  # nothing is recommended, so no hedge between the frameworks ruled out
    )
