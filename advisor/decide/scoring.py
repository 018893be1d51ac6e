"""The fast scoring core shared by the engine and the sensitivity analysis.

A fired rule adds ``weight(criterion) * effect`` to a framework's raw score; a
criterion's weight is the mean of the profile priorities mapped to it in pack.yaml,
divided by 3. Raw scores map to 0-100 with ``50 + 50 * tanh(raw / 30)``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from advisor.decide.rules import Rule, RuleSet
from advisor.frameworks import FRAMEWORKS

SCORE_SCALE = 30.0


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
            weights[crit.id] = sum(float(priorities[p]) for p in crit.priorities) / (
                3.0 * len(crit.priorities)
            )
        else:
            weights[crit.id] = 1.0
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
        weight = weights[rule.criterion]
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
