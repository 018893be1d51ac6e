"""Win probabilities: seeded Monte-Carlo over the priorities, the answers a user is least
sure of and the rules' soft effects (the method is described in advisor.decide.sensitivity)."""

from __future__ import annotations

import random
from typing import Any

from advisor.decide.reuse import Evaluator
from advisor.decide.rules import RuleSet
from advisor.decide.scoring import (
    Evaluation,
    combine,
    criterion_weights,
    prior_points,
    rank_order,
    rule_effects,
)
from advisor.frameworks import FRAMEWORKS

SAMPLES = 2000
NOISE_SD = 1.0
ANSWER_SHARE = 0.5
EFFECT_SD = 1.5  # soft points: the rules' integer effects are judgements, not measurements


def _rows(ruleset: RuleSet, ev: Evaluation) -> dict[str, dict[str, float]]:
    """Unweighted soft effects per criterion for the rules an evaluation fired."""
    rows: dict[str, dict[str, float]] = {}
    for rule in ev.fired:
        row = rows.setdefault(rule.criterion, dict.fromkeys(FRAMEWORKS, 0.0))
        soft, _ = rule_effects(rule, ruleset)
        for fw in FRAMEWORKS:
            row[fw] += soft[fw]
    return rows


def win_probabilities(
    ruleset: RuleSet,
    current: Evaluation,
    variants: list[dict[str, Any]],
    priorities: dict[str, Any],
    *,
    seed: int = 0,
) -> dict[str, float]:
    """Share of perturbed samples each framework wins (seeded, deterministic)."""
    weights = criterion_weights(ruleset, priorities)
    scenarios = [(current, _rows(ruleset, current))]
    fast = Evaluator(ruleset)
    for context in variants:
        ev = fast.evaluate(context, weights)
        scenarios.append((ev, _rows(ruleset, ev)))
    base_soft = prior_points(ruleset)
    model = ruleset.meta.decision
    rng = random.Random(seed)
    names = list(priorities)
    wins = dict.fromkeys(FRAMEWORKS, 0)
    criteria = [(c.id, c.priorities) for c in ruleset.meta.criteria]
    for _ in range(SAMPLES):
        sample = {
            n: min(5.0, max(0.0, float(priorities[n]) + rng.gauss(0.0, NOISE_SD))) for n in names
        }
        pick = 0
        if len(scenarios) > 1 and rng.random() < ANSWER_SHARE:
            pick = rng.randrange(1, len(scenarios))
        ev, rows = scenarios[pick]
        soft = dict(base_soft)
        for cid, prios in criteria:
            row = rows.get(cid)
            if not row:
                continue
            weight = sum(sample[p] for p in prios) / (3.0 * len(prios)) if prios else 1.0
            for fw in FRAMEWORKS:
                soft[fw] += weight * row[fw]
        raw = {
            fw: combine(ev.decisive[fw], soft[fw] + rng.gauss(0.0, EFFECT_SD), model)
            for fw in FRAMEWORKS
        }
        if not ev.nothing_fits:  # a sample where every framework is vetoed: no one wins
            wins[rank_order(raw, ev.vetoes, ev.support)[0]] += 1
    return {fw: round(wins[fw] / SAMPLES, 4) for fw in FRAMEWORKS}
