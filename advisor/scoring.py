"""The decision model's arithmetic: decisive facts first, soft preferences bounded.

MCDA in three stages:

1. **Screening.** A rule's veto excludes a framework whatever its scores.
2. **Decisive facts** (rules with ``tier: decisive``, and a venue with one mature
   runtime in rules/data/routes.yaml) add decisive units ``d``.
3. **Soft preferences**: the prior plus ``weight(criterion) * effect`` of every other
   fired rule, a compensatory sum ``s``.

The two are combined lexicographically in one number that keeps the 0-100 scale:
``raw = U * d + B * tanh(s / B)`` with ``2B < U`` (pack.yaml ``decision``), so any
difference in decisive units outranks any difference in soft score, and within the same
decisive units the soft score decides. The score shown is ``50 + 50 * tanh(raw / 30)``.
"""

from __future__ import annotations

import math

from advisor.frameworks import FRAMEWORKS
from advisor.rule_schema import DecisionModel

SCORE_SCALE = 30.0


def combine(decisive: float, soft: float, model: DecisionModel) -> float:
    """One raw number: decisive units first, the soft score bounded below half a unit."""
    return model.decisive_unit * decisive + model.soft_bound * math.tanh(soft / model.soft_bound)


def to_score(raw: float) -> float:
    """Map a raw score to 0-100 (50 is neutral)."""
    return round(50.0 + 50.0 * math.tanh(raw / SCORE_SCALE), 1)


def decisive_conflict(favoured: dict[str, list[str]]) -> bool:
    """True when decisive facts favour more than one framework."""
    return sum(1 for fw in FRAMEWORKS if favoured.get(fw)) > 1


def confidence(
    model: DecisionModel,
    *,
    margin: float,
    win_p: float | None,
    tie: bool,
    all_vetoed: bool,
    thin: bool,
    conflict: bool,
) -> str:
    """high / medium / low from the win probability, the margin and the profile's depth."""
    if tie or all_vetoed or thin:
        return "low"
    if win_p is None:
        level = "high" if margin >= 15 else "medium" if margin >= model.high_margin else "low"
    elif win_p >= model.high_win_probability and margin >= model.high_margin:
        level = "high"
    elif win_p >= model.medium_win_probability:
        level = "medium"
    else:
        level = "low"
    if conflict and level == "high":
        return "medium"
    return level
