"""How old the knowledge behind a report is: the as-of date and the staleness warning.

The as-of date is the oldest ``checked`` date of the evidence the fired rules and tripped
consistency checks cite; the snapshot date is that of the package-health snapshot
(rules/data/package_health.yaml).
Both come from data, so a report is reproducible; only the warning compares them with
``today``, which the caller passes in.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from advisor.decide.citations import load_snapshot
from advisor.model.decision import Decision

STALE_AFTER_DAYS = 365  # the report warns when its knowledge is older than a year


def knowledge(decision: Decision, today: date) -> dict[str, Any]:
    """``{as_of, unchecked_rules, snapshot_date, stale_warning}``: the JSON ``knowledge`` key."""
    dates = [e.checked for r in decision.rules for e in r.evidence if e.checked is not None]
    dates += [day for c in decision.inconsistencies for day in c.checked]  # they cap confidence
    as_of = min(dates) if dates else None
    # a user's pack may cite evidence it never checked: no date speaks for those rules
    unchecked = sorted({r.id for r in decision.rules if any(e.checked is None for e in r.evidence)})
    snapshot = load_snapshot().snapshot
    behind = "the rules that fired" + (
        " and checks that tripped" if any(c.checked for c in decision.inconsistencies) else ""
    )
    old = [
        (what, day)
        for what, day in (
            (f"the evidence behind {behind} was last checked", as_of),
            ("the package-health snapshot (PyPI releases) dates from", snapshot),
        )
        if day is not None and _stale(day, today)
    ]
    warning = None
    if old:
        parts = "; ".join(f"{what} {day} ({(today - day).days} days ago)" for what, day in old)
        warning = (
            f"This report's knowledge is more than a year old: {parts}. Facts about the "
            f"frameworks may have changed since; {_remedy(decision, today, snapshot)}."
        )
    return {
        "as_of": as_of.isoformat() if as_of else None,
        "unchecked_rules": unchecked,
        "snapshot_date": snapshot.isoformat(),
        "stale_warning": warning,
    }


def _stale(day: date | None, today: date) -> bool:
    """Whether a date is more than STALE_AFTER_DAYS before ``today``."""
    return day is not None and (today - day).days > STALE_AFTER_DAYS


def _remedy(decision: Decision, today: date, snapshot: date) -> str:
    """What makes the warning go: refreshing the user's own pack rules whose evidence is over
    a year old (each named), updating the advisor when its own evidence or snapshot is."""

    def stale(day: date | None) -> bool:
        return _stale(day, today)

    checks = {
        f"{c.id} ({c.pack})"
        for c in decision.inconsistencies
        if c.pack and any(map(stale, c.checked))
    }
    own = checks | {
        f"{r.id} ({r.pack})"
        for r in decision.rules
        if r.pack and any(stale(e.checked) for e in r.evidence)
    }
    bundled = [e.checked for r in decision.rules if not r.pack for e in r.evidence]
    bundled += [day for c in decision.inconsistencies if not c.pack for day in c.checked]
    ours = stale(snapshot) or any(stale(day) for day in bundled)
    kinds = " and ".join(k for k, ids in (("rules", own - checks), ("checks", own & checks)) if ids)
    steps = [f"refresh the evidence of your own {kinds} {', '.join(sorted(own))}"] if own else []
    steps += ["update advisor"] if ours or not own else []
    return ", ".join([*steps, "or see docs/updating-knowledge.md"])


def package_release(ref: str | None) -> str | None:
    """For ``ref: PKG:name``, the snapshot's 'latest VERSION (DATE, per PyPI snapshot of ...)'."""
    if ref is None or not ref.startswith("PKG:"):
        return None
    return load_snapshot().release_text(ref[4:])
