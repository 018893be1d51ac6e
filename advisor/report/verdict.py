"""Section 1 of the report: the verdict and the standing (where the profile came from and
the command that reproduces the report: command.py)."""

from __future__ import annotations

from typing import Any

from advisor.frameworks import DISPLAY_NAMES
from advisor.model.decision import Decision, NoFit
from advisor.model.profile import Profile
from advisor.report.labels import and_join, name, ordinal
from advisor.report.text import fmt_num, fmt_pct


def verb(profile: Profile | None, framework: str | None) -> str:
    """The verdict's verb: "Build on", or, for a team that is weighing a move or leaving its
    code's framework, "Stay on" that framework or "Move to" another (red-team round 92: a
    ranking team asking whether to move was told to "Build on TensorFlow", which it had)."""
    if profile is None or not (profile.weighing_a_move or profile.migrating_away):
        return "Build on"
    current = {code.framework for code in profile.existing_code} - {None}
    if not current:
        return "Build on"
    return "Stay on" if framework in current else "Move to"


def verdict(decision: Decision, profile: Profile | None = None) -> str:
    """The one-sentence verdict."""
    rec = decision.recommendation
    build = verb(profile, rec.framework)
    sens = decision.sensitivity
    win = sens.win_probability.get(rec.framework) if sens and rec.framework else None
    odds = ""
    samples = f"{sens.samples if sens else 0:,}"
    if win is not None and win >= 1:
        odds = f", winning in all {samples} random perturbations of your priorities and answers"
    elif win is not None:
        odds = (
            f", winning in {fmt_pct(win)} of {samples} random perturbations of your "
            "priorities and answers"
        )
    capped = f"; not high because {rec.confidence_capped}" if rec.confidence_capped else ""
    if rec.all_vetoed:
        return _no_fit_sentence(decision.no_fit)
    if rec.runner_up is None:
        return (
            f"{build} {rec.name}: it is the only framework that meets every hard constraint "
            f"(score {fmt_num(rec.score)} of 100; confidence: {rec.confidence}{odds}{capped})."
        )
    if rec.tie_broken:
        tied = " and ".join(name(fw) for fw in rec.tied_with or [rec.runner_up])
        return (
            f"{build} {rec.name}, but only just: it ties with {tied} at "
            f"{fmt_num(rec.score)} of 100 and wins only on the tie-break "
            f"(confidence: low{odds})."
        )
    ahead = f"{rec.margin:.1f} points ahead of {name(rec.runner_up)}"
    if rec.lead_on_other_answers is not None:  # equal decisive facts: the scores saturate
        ahead += (
            f"; the decisive facts are level, and set aside they leave it "
            f"{rec.lead_on_other_answers:.1f} points ahead"
        )
    lead = decisive_lead(decision)
    if rec.margin is not None and rec.margin < 0.05:  # both near 100: the scale saturates
        level = f"level on the 0-100 scale with {name(rec.runner_up)}"
        decider = answers_level_decider(decision)
        if lead:
            ahead = f"{level} but ahead on decisive facts ({lead[0]:g} against {lead[1]:g})"
        elif decider:
            ahead = f"{level} and on the answers; {decider}"  # the prior is no answer
        else:
            ahead = f"{level} but ahead on the other answers"
    return (
        f"{build} {rec.name}: it scores {fmt_num(rec.score)} of 100, {ahead} "
        f"(confidence: {rec.confidence}{odds}{capped})."
    )


def standing(decision: Decision) -> list[dict[str, Any]]:
    """The ranking with status words and win probabilities, best first."""
    rec = decision.recommendation
    win = decision.sensitivity.win_probability if decision.sensitivity else {}
    rows = []
    for position, entry in enumerate(decision.ranking, 1):
        fw = entry.framework
        if entry.vetoed:
            status = "ruled out"
        elif fw == rec.framework:
            status = "recommended"
        elif fw == rec.runner_up:
            status = "runner-up"
        else:
            status = ordinal(position)
        rows.append(
            {
                "framework": fw,
                "name": entry.name,
                "score": entry.score,
                "points": entry.soft,  # the breakdown's total; decisive units are shown beside it
                "supporting_rules": entry.supporting_rules,
                "status": status,
                "win_probability": win.get(fw),
                "veto_reasons": entry.veto_reasons,
            }
        )
    return rows


def _no_fit_sentence(no_fit: NoFit | None) -> str:
    """The verdict when nothing fits: no candidate, why, and what would let one fit."""
    items = no_fit.what_would_fit if no_fit else []
    why = "; ".join(
        f"{DISPLAY_NAMES[c.framework]} by {', '.join(c.vetoed_by)}"
        if c.vetoed_by
        else f"{DISPLAY_NAMES[c.framework]} not yet released"  # a point-in-time view's month
        for c in items
    )
    fix = next((c for c in items if c.change), None)
    if fix:
        # the same change may lift the vetoes on several: name each it lets fit
        names = and_join([DISPLAY_NAMES[fw] for fw in fix.lets_fit or [fix.framework]])
        hint = f"one change would let {names} fit: {fix.change}"
    else:
        hint = "no single change of an answer lifts every veto on any framework"
    return (
        "No candidate fits this profile: every framework is ruled out by a hard constraint "
        f"({why}); {hint}."
    )


def decisive_lead(decision: Decision) -> tuple[float, float] | None:
    """(winner's, runner-up's) decisive units when the winner holds more of them; None when
    they hold as many and the soft preferences decided (or there is no runner-up)."""
    rec = decision.recommendation
    units = {e.framework: e.decisive for e in decision.ranking}
    if rec.framework and rec.runner_up and units[rec.framework] > units[rec.runner_up]:
        return units[rec.framework], units[rec.runner_up]
    return None


def moved_by_answers(decision: Decision) -> dict[str, float]:
    """Each framework's soft points less its prior: what the answers moved it by."""
    prior = decision.prior.get("effects") or {}
    return {e.framework: e.soft - float(prior.get(e.framework, 0)) for e in decision.ranking}


def level_decider(decision: Decision, moved: dict[str, float]) -> str | None:
    """What settles two frameworks the answers leave within a point: the tie-break when
    their scores tie (its note says how), the prior when it favours the winner and the
    answers do not; None when the answers themselves put the winner ahead."""
    rec = decision.recommendation
    if not rec.runner_up or not rec.framework:
        return None
    if rec.tie_broken:
        return "the tie-break settles them, as the note on the tie says"
    prior = decision.prior.get("effects") or {}
    edge = float(prior.get(rec.framework, 0)) - float(prior.get(rec.runner_up, 0))
    if edge > 0 and moved[rec.framework] <= moved[rec.runner_up]:
        return "the prior decides between them"
    return None


def answers_level_decider(decision: Decision) -> str | None:
    """What settles the winner and the runner-up when the answers leave them within a
    point (level_decider); None when they do not, or when the answers put the winner ahead."""
    rec = decision.recommendation
    if not rec.framework or not rec.runner_up:
        return None
    moved = moved_by_answers(decision)
    if abs(moved[rec.framework] - moved[rec.runner_up]) > 1.0:
        return None
    return level_decider(decision, moved)
