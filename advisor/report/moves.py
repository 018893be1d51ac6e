"""Section 7's first part, for a team weighing a move or leaving its code's framework:
staying against moving, side by side, and what a move (or staying) would take."""

from __future__ import annotations

from typing import Any

from advisor.model.decision import Decision, MoveReason
from advisor.model.profile import Profile
from advisor.model.said import said_paths
from advisor.report.labels import name


def stay_or_move(decision: Decision, profile: Profile) -> dict[str, Any] | None:
    """What the template shows of ``decision.move``; None when there is none."""
    move = decision.move
    if move is None:
        return None
    stay, other = name(move.stay), name(move.move)
    score = {e.framework: e.score for e in decision.ranking}
    scores = f"{stay} scores {score[move.stay]:.1f} of 100 and {other} {score[move.move]:.1f}"
    if move.stay_vetoed:
        reasons = "; ".join(r.rstrip(".") for r in move.stay_vetoed)
        standing = f"Staying on {stay} is ruled out: {reasons}."
    else:
        side = "staying" if move.recommended == move.stay else "moving"
        standing = f"{scores}: {side} comes out ahead, by {move.lead:.1f} points."
    said = "existing_code_size" in said_paths(profile)
    size = profile.existing_code_size.value if said else ""
    # red-team round 94: a three-year production codebase read "moving comes out ahead" by
    # soft points that priced its port as a small prototype's
    cost = ""
    if profile.weighing_a_move and size == "large":
        cost = (
            "These points price the existing code as a small prototype's port, since the team "
            "is weighing a move; the profile says it is large, so the port of its models, "
            "their serving and their clients is a project of its own that the points leave out."
        )
    middle = (
        f"A third way: build the new work on {other} and keep the old models on {stay} until "
        "they are retired, at the price of two frameworks and two serving stacks to run."
        if not move.stay_vetoed
        else ""
    )
    return {
        "title": f"Staying on {stay} or moving to {other}",
        "standing": standing,
        "size": size,
        "cost": cost,
        "middle": middle,
        "for_staying": _lines(move.for_staying, move.stay, move.move),
        "for_moving": _lines(move.for_moving, move.move, move.stay),
        "stay": stay,
        "move": other,
        "steps": [s.model_dump() for s in move.steps],
        "stay_steps": [s.model_dump() for s in move.stay_steps],
    }


def _lines(reasons: list[MoveReason], side: str, other: str) -> list[dict[str, str]]:
    """Each reason as a rule id, its title and what it gives ``side`` over ``other``."""
    out = []
    for r in reasons:
        edge = (
            f"a decisive fact for {name(side)}"
            if r.decisive
            else f"{r.points:.1f} rule points more for {name(side)} than for {name(other)}"
        )
        out.append({"rule": r.rule, "title": r.title, "edge": edge})
    return out
