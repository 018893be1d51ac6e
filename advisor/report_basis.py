"""What the verdict rests on: the prior, the profile's depth, decisive facts and routes.

Derived from the Decision's JSON form, for the report's "Basis" lines: what the advisor
believes before any answer, whether the profile says enough to decide, which decisive
facts (and whether they conflict) and which export routes the verdict rests on, and
whether measurements were scored.
"""

from __future__ import annotations

from typing import Any

from advisor.frameworks import FRAMEWORKS
from advisor.report_common import name

MINUS = "\u2212"


def basis(data: dict[str, Any]) -> dict[str, Any]:
    """Plain sentences and route rows for the report."""
    return {
        "prior": _prior(data.get("prior") or {}),
        "thin": _thin(data),
        "decisive": _decisive(data),
        "routes": _routes(data.get("rules") or []),
        "measurement_note": data.get("measurement_note"),
    }


def _signed(fw: str, value: float) -> str:
    return f"{name(fw)} {'+' if value >= 0 else MINUS}{abs(value):g}"


def _prior(prior: dict[str, Any]) -> str:
    effects = {fw: v for fw, v in (prior.get("effects") or {}).items() if v}
    if not effects:
        return "Before any answer the advisor favours no framework."
    points = ", ".join(_signed(fw, v) for fw, v in effects.items())
    return f"Before any answer the advisor believes {points} point(s): {prior.get('why', '')}"


def _thin(data: dict[str, Any]) -> str | None:
    if not data.get("thin_profile"):
        return None
    given = len(data.get("answered") or [])
    return (
        f"The profile is too thin to decide: {given} answer(s) given, so the scores are "
        "close to the prior. Say where the models train and run, what the team knows and "
        "what code exists: advisor ask walks through it."
    )


def _decisive(data: dict[str, Any]) -> list[str]:
    favoured = data.get("decisive_facts") or {}
    titles = {r["id"]: r["title"] for r in data.get("rules") or []}
    lines = [
        f"{name(fw)}: " + "; ".join(f"{titles.get(rid, rid)} ({rid})" for rid in ids)
        for fw in FRAMEWORKS
        if (ids := favoured.get(fw))
    ]
    if data.get("decisive_conflict"):
        lines.append(
            "These decisive facts pull different ways, so the soft preferences decide between "
            "them and the confidence is capped at medium."
        )
    return lines


def _routes(rules: list[dict[str, Any]]) -> list[dict[str, Any]]:
    rows = []
    for rule in rules:
        for route in rule.get("routes") or []:
            rows.append(
                {
                    "rule": rule["id"],
                    "venue": rule["title"],
                    "framework": name(route["framework"]),
                    "route": route["route"],
                    "maturity": route["maturity"],
                    "url": route["url"],
                    "checked": route["checked"],
                }
            )
    return rows
