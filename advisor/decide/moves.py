"""Staying against moving, for a team weighing a move or leaving its code's framework.

The verdict says "Stay on X" or "Move to Y" (advisor/report/verdict.py); this module says
why, side against side: the fired rules that favour staying on the best-ranked framework
the team's code is in, those that favour moving to the best-ranked other framework, and
the pack's porting steps (each framework's ``porting`` list in rules/pack.yaml) for the
code the team has. Red-team round 92: a ranking team weighing a move was told only "Stay
on TensorFlow", with nothing on what a move would gain, cost or take.
"""

from __future__ import annotations

from typing import Any

from advisor.decide.rules import RuleSet
from advisor.model.decision import (
    FiredRule,
    MoveChoice,
    MoveReason,
    PortingAdvice,
    RankEntry,
)
from advisor.model.profile import Profile


def move_choice(
    profile: Profile,
    ranking: list[RankEntry],
    fired: list[FiredRule],
    ruleset: RuleSet,
    context: dict[str, Any],
) -> MoveChoice | None:
    """Staying against moving, or None when the team is not weighing a move or leaving, its
    code is in no candidate framework, or every other framework is ruled out."""
    if not (profile.weighing_a_move or profile.migrating_away):
        return None
    current = {code.framework for code in profile.existing_code} - {None}
    stay = next((e for e in ranking if e.framework in current), None)
    move = next((e for e in ranking if e.framework not in current and not e.vetoed), None)
    if stay is None or move is None:
        return None
    staying = not stay.vetoed and ranking.index(stay) < ranking.index(move)
    return MoveChoice(
        stay=stay.framework,
        move=move.framework,
        recommended=stay.framework if staying else move.framework,
        lead=round(abs(stay.score - move.score), 1),
        stay_vetoed=stay.veto_reasons if stay.vetoed else [],
        for_staying=_reasons(fired, stay.framework, move.framework),
        for_moving=_reasons(fired, move.framework, stay.framework),
        steps=porting_steps(ruleset, move.framework, context),
        stay_steps=porting_steps(ruleset, stay.framework, context),
    )


def _reasons(fired: list[FiredRule], side: str, other: str) -> list[MoveReason]:
    """The fired rules that favour ``side`` over ``other``: decisive facts first, then by
    the weighted points between the two, largest first."""
    out = []
    for rule in fired:
        decisive = rule.decisive.get(side, 0) - rule.decisive.get(other, 0)
        points = rule.weighted.get(side, 0.0) - rule.weighted.get(other, 0.0)
        if decisive > 0 or (decisive == 0 and points > 0):
            out.append(
                MoveReason(
                    rule=rule.id, title=rule.title, points=round(points, 1), decisive=decisive > 0
                )
            )
    return sorted(out, key=lambda r: (not r.decisive, -r.points, r.rule))


def porting_steps(ruleset: RuleSet, framework: str, context: dict[str, Any]) -> list[PortingAdvice]:
    """The framework's porting steps whose `when` holds for this profile, in pack order."""
    info = ruleset.meta.frameworks.get(framework)
    if info is None:
        return []
    return [
        PortingAdvice(topic=step.topic, step=step.step, url=step.url)
        for i, step in enumerate(info.porting)
        if ruleset.conditions[(framework, "porting", i)].evaluate(context) is True
    ]
