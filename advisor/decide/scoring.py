"""The decision model's arithmetic, shared by the engine and the sensitivity analysis.

Rules read only what the profile says (:mod:`advisor.model.said`). MCDA in three stages:

1. **Screening.** A rule's veto excludes a framework whatever its scores.
2. **Decisive facts** (rules with ``tier: decisive``, and a venue where only one framework
   has a mature route in rules/data/routes.yaml) add decisive units ``d``.
3. **Soft preferences**: the prior plus ``weight(criterion) * effect`` of every other fired
   rule, a compensatory sum ``s``; a criterion's weight is the mean of the profile
   priorities mapped to it in pack.yaml, divided by 3 (3 is neutral, 0 switches it off).

They combine lexicographically in one number that keeps the 0-100 scale:
``raw = U * d + B * tanh(s / B)`` with ``2B < U`` (pack.yaml ``decision``), so any
difference in decisive units outranks any difference in soft points, and with equal
decisive units the soft points decide. The score shown is ``50 + 50 * tanh(raw / 30)``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from advisor.decide.rule_status import FIRED, SKIPPED, rule_status
from advisor.decide.rules import Rule, RuleSet
from advisor.frameworks import FRAMEWORKS
from advisor.model.rulepack import DecisionModel

SCORE_SCALE = 30.0


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
    answers: dict[str, float]  # soft points from the answers alone (the prior left out)

    def order(self) -> list[str]:
        return rank_order(self.raw, self.vetoes, self.support, self.answers)

    @property
    def winner(self) -> str:
        return self.order()[0]

    @property
    def nothing_fits(self) -> bool:
        """Every framework vetoed: no framework wins, whatever the order says."""
        return all(self.vetoes.get(fw) for fw in FRAMEWORKS)


def criterion_weights(ruleset: RuleSet, priorities: dict[str, Any]) -> dict[str, float]:
    """Weight of each criterion from the profile's priorities (pack.yaml mapping)."""
    weights = {}
    for crit in ruleset.meta.criteria:
        if crit.priorities:
            weights[crit.id] = sum(float(priorities[p]) for p in crit.priorities) / (
                3.0 * len(crit.priorities)
            )
        else:
            weights[crit.id] = 1.0
    return weights


def rank_order(
    raw: dict[str, float],
    vetoes: dict[str, list[str]],
    support: dict[str, int],
    answers: dict[str, float] | None = None,
) -> list[str]:
    """Deterministic order: allowed first, then raw score; at a tie what the answers alone
    gave (the prior levels a framework with one the answers put ahead, it cannot pass
    it), then supporting rules, then name."""
    said = answers or {}
    return sorted(
        FRAMEWORKS,
        key=lambda fw: (
            bool(vetoes.get(fw)),
            -round(raw[fw], 9),
            -round(said.get(fw, 0.0), 9),
            -support[fw],
            fw,
        ),
    )


def prior_points(ruleset: RuleSet) -> dict[str, float]:
    """What the advisor believes before any answer (pack.yaml ``prior``)."""
    prior = ruleset.meta.prior
    effects = dict(prior.effects.items()) if prior else {}
    return {fw: float(effects.get(fw, 0)) for fw in FRAMEWORKS}


def rule_effects(rule: Rule, ruleset: RuleSet) -> tuple[dict[str, float], dict[str, float]]:
    """(soft effects, decisive units) of a fired rule, its route included."""
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
    """Fire the rules on a flat context; decisive units and soft points per framework.

    A rule whose condition is unknown stands aside: as skipped when a measurement is
    missing, silently when the profile did not give an answer it needs.
    """
    return assemble(ruleset, [rule_status(rule, context) for rule in ruleset.rules], weights)


Effects = tuple[dict[str, float], dict[str, float]]


def assemble(
    ruleset: RuleSet,
    statuses: list[str | None],
    weights: dict[str, float],
    effects: list[Effects | None] | None = None,
) -> Evaluation:
    """The evaluation of the rules whose ``statuses`` (in rule order) are known;
    ``effects``: each rule's ``rule_effects``, when already computed (None: computed here)."""
    prior = prior_points(ruleset)
    soft = dict(prior)
    decisive = dict.fromkeys(FRAMEWORKS, 0.0)
    favoured: dict[str, list[str]] = {fw: [] for fw in FRAMEWORKS}
    support = dict.fromkeys(FRAMEWORKS, 0)
    vetoes: dict[str, list[str]] = {
        fw: [ruleset.unavailable[fw]] if fw in ruleset.unavailable else [] for fw in FRAMEWORKS
    }
    fired: list[Rule] = []
    facts: list[tuple[str, dict[str, float]]] = []  # decisive facts and their units
    skipped: list[Rule] = []
    for index, (rule, status) in enumerate(zip(ruleset.rules, statuses, strict=True)):
        if status == SKIPPED:
            skipped.append(rule)
        if status != FIRED:
            continue
        fired.append(rule)
        weight = weights[rule.criterion]
        known = effects[index] if effects is not None else None
        rule_soft, rule_decisive = known or rule_effects(rule, ruleset)
        for fw in FRAMEWORKS:
            soft[fw] += weight * rule_soft[fw]
            if rule_soft[fw] > 0:
                support[fw] += 1
            if rule_decisive[fw]:  # facts, not preferences: no priority switches them off
                decisive[fw] += rule_decisive[fw]
        if any(rule_decisive.values()):  # whom it favours: resolved once vetoes are known
            facts.append((rule.id, rule_decisive))
        for fw, reason in rule.veto.items():
            vetoes[fw].append(f"{rule.id}: {reason}")
    for rule_id, units in facts:
        for fw in _favoured_by(units, [fw for fw in FRAMEWORKS if not vetoes[fw]]):
            favoured[fw].append(rule_id)
    model = ruleset.meta.decision
    raw = {fw: combine(decisive[fw], soft[fw], model) for fw in FRAMEWORKS}
    answers = {fw: soft[fw] - prior[fw] for fw in FRAMEWORKS}
    return Evaluation(fired, skipped, raw, vetoes, support, soft, decisive, favoured, answers)


@dataclass
class Support:
    """What backs each framework once the decisive facts and vetoes that hold only by
    reading an unsaid answer at its default (``unsaid: true``, such as "the team stays")
    are told apart from those resting on what the profile said."""

    firm: dict[str, float]  # decisive units from rules resting on said answers only
    favourable_unsaid: dict[str, float]  # units for a framework that rest on unsaid answers
    against_unsaid: dict[str, float]  # units against it (negative) that rest on them
    assumed: dict[str, list[str]]  # unsaid answers whose default reading helps it
    only_assumed_vetoes: set[str]  # frameworks vetoed only by rules resting on them

    def backs(self, winner: str, vetoed: dict[str, bool], decisive: dict[str, float]) -> bool:
        """Whether what was said puts ``winner`` ahead of every rival a said answer has not
        ruled out (one vetoed only through unsaid answers counts as standing): its decisive
        units without the favourable ones resting on unsaid answers beat each such rival's
        without the ones against it resting on them."""
        ours = decisive[winner] - self.favourable_unsaid[winner]
        rivals = [
            fw
            for fw in FRAMEWORKS
            if fw != winner and not (vetoed[fw] and fw not in self.only_assumed_vetoes)
        ]
        return all(ours > decisive[fw] - self.against_unsaid[fw] for fw in rivals)


def _favoured_by(units: dict[str, float], standing: list[str]) -> list[str]:
    """The frameworks still standing that a decisive fact favours: those it leaves highest,
    when it sets some standing framework apart from another (a fact only about a framework
    ruled out, or giving all standing ones alike, favours none; alone, one given units)."""
    values = [units[fw] for fw in standing]
    if len(standing) == 1:
        return standing if values[0] > 0 else []
    top = max(values, default=0.0)
    return [fw for fw in standing if units[fw] == top] if values and top > min(values) else []


def firm_support(
    ev: Evaluation,
    ruleset: RuleSet,
    context: dict[str, Any],
    unasked: frozenset[str] = frozenset(),
) -> Support:
    """For the final decision only (the sensitivity loops never need it): which decisive
    units and vetoes rest on what the profile said, and the unsaid answers the others
    assume (a unit against the rivals helps the winner as much as one for it). An answer
    in ``unasked`` (the questionnaire would not ask it of this profile) is no such
    assumption for a rule that rests on answers the profile gave: nobody could give it;
    a rule that rests on nothing said is backed by nothing, unasked answers or not."""
    support = Support(
        firm=dict.fromkeys(FRAMEWORKS, 0.0),
        favourable_unsaid=dict.fromkeys(FRAMEWORKS, 0.0),
        against_unsaid=dict.fromkeys(FRAMEWORKS, 0.0),
        assumed={fw: [] for fw in FRAMEWORKS},
        only_assumed_vetoes=set(),
    )
    said_vetoes: set[str] = set()
    for rule in ev.fired:
        _, units = rule_effects(rule, ruleset)
        vetoed = {fw for fw, _ in rule.veto.items()}
        if not any(units.values()) and not vetoed:
            continue
        defaults = assumed_answers(rule, context)
        if unasked and rests_on_said(rule, context):
            defaults = [a for a in defaults if a not in unasked]
        if not defaults:
            for fw, unit in units.items():
                support.firm[fw] += unit
            said_vetoes |= vetoed
            continue
        support.only_assumed_vetoes |= vetoed
        for fw, unit in units.items():
            if unit > 0:
                support.favourable_unsaid[fw] += unit
            elif unit < 0:
                support.against_unsaid[fw] += unit
        for fw in FRAMEWORKS:
            helped = units[fw] > 0 or any(
                units[o] < 0 or o in vetoed for o in FRAMEWORKS if o != fw
            )
            if helped:
                support.assumed[fw] += [a for a in defaults if a not in support.assumed[fw]]
    support.only_assumed_vetoes -= said_vetoes
    return support


def rests_on_said(rule: Rule, context: dict[str, Any]) -> bool:
    """Whether a fired rule needs the answers the profile gave: with all of them made
    unknown (measured facts kept), it no longer holds. A said answer that is false in one
    branch of an ``any`` does not carry another branch that holds on unsaid answers."""
    assert rule.condition is not None
    said = [p for p in context if not p.startswith("facts.")]
    return rule.condition.evaluate({**context, **dict.fromkeys(said)}) is not True


def assumed_answers(rule: Rule, context: dict[str, Any]) -> list[str]:
    """The unsaid answers a fired rule needs at their defaults (``unsaid: true``) to fire,
    among those it requires (Condition.required_fields: not an exception under a ``not``
    beside other parts of an ``all``): each one that, made unknown, leaves the rule not
    true; or, when none does alone but all together do (two unsaid branches of an ``any``),
    all of them. Measured facts are no answer: a rule that rests on no said answer needs
    every unsaid one it reads."""
    assert rule.condition is not None
    required = {p for p in rule.condition.required_fields() if not p.startswith("facts.")}
    unsaid = sorted(required - context.keys())
    alone = [p for p in unsaid if rule.condition.evaluate({**context, p: None}) is not True]
    if alone:
        return alone
    if unsaid and rule.condition.evaluate({**context, **dict.fromkeys(unsaid)}) is not True:
        return unsaid
    if unsaid or required & context.keys():
        return []
    return sorted(p for p in rule.condition.fields() - context.keys() if not p.startswith("facts."))


def combine(decisive: float, soft: float, model: DecisionModel) -> float:
    """One raw number: decisive units first, the soft score bounded below half a unit."""
    return model.decisive_unit * decisive + model.soft_bound * math.tanh(soft / model.soft_bound)


def to_score(raw: float) -> float:
    """Map a raw score to 0-100 (50 is neutral). tanh never reaches 1, so a score that
    would round to 100 (or 0) is shown as 99.9 (or 0.1): a report never claims a perfect
    fit, or none at all, that the model does not compute."""
    return min(99.9, max(0.1, round(50.0 + 50.0 * math.tanh(raw / SCORE_SCALE), 1)))


def comparable_lead(
    ev: Evaluation, winner: str, rival: str | None, model: DecisionModel
) -> float | None:
    """When the winner and ``rival`` hold the same decisive units, those cancel: the
    winner's lead on the other answers, in the report's points with the shared units set
    aside (shown scores saturate near 100, or near 0 for facts against both, where 23 soft
    points read as 1.9). None when there is no rival or the decisive units differ or are
    none."""
    if rival is None:
        return None
    units = ev.decisive[winner]  # against every framework (a pack's negative facts) too
    if round(units, 9) == 0 or round(units, 9) != round(ev.decisive[rival], 9):
        return None
    shift = model.decisive_unit * units
    return round(to_score(ev.raw[winner] - shift) - to_score(ev.raw[rival] - shift), 1)


def decisive_conflict(favoured: dict[str, list[str]], winner: str) -> bool:
    """True when decisive facts pull different ways: one favours the winner, another a
    rival over it (facts that only tell two rivals apart pull against nothing chosen)."""
    for_winner = set(favoured.get(winner, []))
    return bool(for_winner) and any(
        rule_id not in for_winner for fw, ids in favoured.items() if fw != winner for rule_id in ids
    )


def confidence(
    model: DecisionModel,
    *,
    margin: float,
    win_p: float | None,
    tie: bool,
    all_vetoed: bool,
    thin: bool,
    conflict: bool,
    inconsistent: bool = False,
    backed: bool = True,
    assumed: tuple[str, ...] = (),
    weak_route: str | None = None,
    decisive_lead: bool = False,
) -> tuple[str, str | None]:
    """high / medium / low from the win probability, the margin and the profile's depth,
    and, when something capped a "high" at medium, why (else None).

    Decisive facts that pull different ways (``conflict``), answers that contradict
    each other (``inconsistent``, rules/data/consistency.yaml), or, when the model's
    ``high_needs_decisive`` is set, a verdict that no decisive fact or veto backs
    (``backed`` false: soft preferences alone, or a decisive fact that holds only through
    ``assumed``, answers the profile does not give) cap it at medium, and so does
    ``weak_route``: the winner's way to a place the model must run, when it is less mature
    than the model's ``high_needs_route``. ``medium_margin`` is in shown points, which
    saturate at 100: a lead in decisive units (``decisive_lead``) needs no such margin."""
    if tie or all_vetoed or thin:
        return "low", None
    if win_p is None:
        level = "high" if margin >= 15 else "medium" if margin >= model.high_margin else "low"
    elif win_p >= model.high_win_probability and margin >= model.high_margin:
        level = "high"
    elif win_p >= model.medium_win_probability and (margin >= model.medium_margin or decisive_lead):
        level = "medium"
    else:
        level = "low"
    if level != "high":
        return level, None
    if conflict:
        return "medium", "decisive facts favour different frameworks"
    if inconsistent:
        return "medium", "some answers contradict each other"
    if model.high_needs_decisive and not backed:
        if assumed:
            unsaid = ", ".join(assumed)
            return "medium", f"what backs it assumes answers the profile omits: {unsaid}"
        return "medium", "no decisive fact backs the verdict, only soft preferences"
    if weak_route:
        return "medium", weak_route
    return level, None


def lead_of(outcome: Evaluation, model: DecisionModel) -> dict[str, Any]:
    """How far the winner of an evaluation leads the next framework still standing,
    in the report's points (decisive facts both hold set aside: comparable_lead); whether
    decisive facts put it ahead; whether the lead is a near-tie (under the model's
    ``medium_margin`` and not decisive)."""
    order = outcome.order()
    winner = order[0]
    rival = next((fw for fw in order[1:] if not outcome.vetoes.get(fw)), None)
    if rival is None:
        return {"new_lead": None, "new_lead_decisive": False, "near_tie": False}
    even = comparable_lead(outcome, winner, rival, model)
    shown = round(to_score(outcome.raw[winner]) - to_score(outcome.raw[rival]), 1)
    lead = shown if even is None else even
    decisive = outcome.decisive[winner] > outcome.decisive[rival]
    return {
        "new_lead": lead,
        "new_lead_decisive": decisive,
        "near_tie": not decisive and lead < model.medium_margin,
    }
