"""What the verdict rests on: the prior, the profile's depth, decisive facts and routes.

For the report's lines under the verdict: what the advisor believes before any answer,
whether the profile says enough to decide, which decisive facts (and whether they
conflict) and which export routes the verdict rests on, and whether measurements were
scored.
"""

from __future__ import annotations

from typing import Any

from advisor.frameworks import FRAMEWORKS
from advisor.model.decision import Decision, FiredRule, Inconsistency
from advisor.report.labels import and_join, name
from advisor.report.text import MINUS
from advisor.report.verdict import (
    answers_level_decider,
    decisive_lead,
    level_decider,
    moved_by_answers,
)


def basis(decision: Decision) -> dict[str, Any]:
    """Plain sentences and route rows for the report."""
    return {
        "prior": _prior(decision.prior),
        "thin": _thin(decision),
        "point_in_time": _point_in_time(decision),
        "inconsistent": [_inconsistent(c, decision) for c in decision.inconsistencies],
        "inconsistent_heading": _inconsistent_heading(decision),
        "decisive": _decisive(decision),
        "routes": _routes(decision.rules),
        "measurement_note": decision.measurement_note,
    }


def _inconsistent(check: Inconsistency, decision: Decision) -> str:
    fields = ", ".join(check.fields) + (f"; from your pack {check.pack}" if check.pack else "")
    if check.until and decision.ruleset.point_in_time and decision.ruleset.as_of:
        return f"{check.message}: not yet in {decision.ruleset.as_of} ({check.id}: {fields})"
    return f"{check.message} ({check.id}: {fields})"


def _inconsistent_heading(decision: Decision) -> str:
    month = decision.ruleset.as_of if decision.ruleset.point_in_time else None
    if month and any(c.until for c in decision.inconsistencies):
        return f"Some answers do not fit together, or name what did not exist yet in {month}."
    return "Some answers do not fit together."


def _signed(fw: str, value: float) -> str:
    return f"{name(fw)} {'+' if value >= 0 else MINUS}{abs(value):g}"


def _prior(prior: dict[str, Any]) -> str:
    effects = {fw: v for fw, v in (prior.get("effects") or {}).items() if v}
    if not effects:
        return "Before any answer the advisor favours no framework."
    points = ", ".join(_signed(fw, v) for fw, v in effects.items())
    why = prior.get("why") or ""
    return f"Before any answer the advisor gives {points} (its prior).{' ' + why if why else ''}"


def _point_in_time(decision: Decision) -> str | None:
    info = decision.ruleset
    if not info.point_in_time:
        return None
    return (
        f"A point-in-time answer: only the rules, export routes, prior and framework releases "
        f"that held in {info.as_of} were scored; claims that began later are left out. The "
        "rules' reasons, their evidence, the stack and the names of the routes that still hold "
        "(LiteRT was TensorFlow Lite until September 2024) are written as of today, and advantages "
        "that held then but have ended are in the pack only where they were written down "
        "(docs/history/), so read this as a review of a past choice, not as advice for today "
        "(drop --as-of for that)."
    )


def _thin(decision: Decision) -> str | None:
    if not decision.thin_profile:
        return None
    count = decision.telling_answers  # the count the thin rule reads: no neutral priority
    given = "no answers" if not count else "1 answer" if count == 1 else f"{count} answers"
    top = decision.ranking[:2]
    moved = moved_by_answers(decision)
    standing = [e for e in decision.ranking if not e.vetoed]
    those = "that answer" if count == 1 else "those answers"
    if len(top) == 2 and top[0].decisive > top[1].decisive:  # a fact on unsaid answers
        so = "the lead rests on a decisive fact that holds only through answers it leaves out"
    elif max((abs(moved[e.framework]) for e in standing), default=0.0) <= 1.0:
        # no framework a point from where it began
        has_prior = any(float(v) for v in (decision.prior.get("effects") or {}).values())
        so = "the scores are close to the prior" if has_prior else "the scores are close to level"
    elif (
        len(top) == 2
        and abs(moved[top[0].framework] - moved[top[1].framework]) <= 1.0
        and (decider := level_decider(decision, moved))
    ):
        leave = "leaves" if count == 1 else "leave"
        so = f"{those} {leave} the top two level and {decider}"
    else:
        so = f"the lead rests on {those} alone"
    unread = decision.unread_answers  # given, but no rule in force reads them
    neutral = len(decision.answered) - count - len(unread)
    word = "priority" if neutral == 1 else "priorities"
    asides = [f"{neutral} {word} left at neutral"] if neutral else []
    if unread:
        asides.append(f"{and_join(list(unread))}, which no rule reads")
    aside = f" (and {', and '.join(asides)})" if asides else ""
    return (
        f"The profile is too thin to decide: {given} given{aside}, so {so}. Say where the "
        "models train and run, what the team knows and what code exists: advisor ask walks "
        "through it."
    )


def _decisive(decision: Decision) -> list[str]:
    titles = {r.id: r.title for r in decision.rules}
    lines = [
        f"{name(fw)}: " + "; ".join(f"{titles.get(rid, rid)} ({rid})" for rid in ids)
        for fw in FRAMEWORKS
        if (ids := decision.decisive_facts.get(fw))
    ]
    if decision.decisive_conflict:
        lines.append(_conflict_sentence(decision))
    return lines


def _conflict_sentence(decision: Decision) -> str:
    """Say what settled decisive facts that pull different ways: more of them on one side,
    or, when the leaders hold as many, the soft preferences."""
    rec = decision.recommendation
    lead = decisive_lead(decision)
    out = [e for e in decision.ranking if e.vetoed and e.decisive > 0]
    among = ""
    if out:  # a vetoed framework's decisive facts count for nothing: say so, not 'more'
        ruled = " and ".join(e.name for e in out)
        whose = "is ruled out whatever its" if len(out) == 1 else "are ruled out whatever their"
        among = f"{ruled} {whose} facts; "
        among += "among the frameworks left, "
    if lead:
        return (
            f"These decisive facts pull different ways; {among}{rec.name} has more of them "
            f"({lead[0]:g} against {lead[1]:g} for {name(rec.runner_up)}), so it leads, "
            "and the confidence is at most medium."
        )
    if decider := answers_level_decider(decision):
        decide = f"the answers leave them level and {decider}"
    else:
        decide = "the soft preferences decide between them"
    return (
        f"These decisive facts pull different ways; {among}{decide}, and the confidence is "
        "at most medium."
    )


def _routes(rules: list[FiredRule]) -> list[dict[str, Any]]:
    return [
        {
            "rule": rule.id,
            "venue": rule.title,
            "framework": name(route.framework),
            "route": route.route,
            "maturity": route.maturity,
            "url": route.url,
            "checked": route.checked,
        }
        for rule in rules
        for route in rule.routes
    ]
