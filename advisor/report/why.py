"""Sections 3 and 4 of the report: the rules that fired, and the score breakdown."""

from __future__ import annotations

from typing import Any

from advisor.frameworks import FRAMEWORKS
from advisor.model.decision import Decision
from advisor.report.knowledge import package_release
from advisor.report.labels import TOP_RULES, criterion_label, name
from advisor.report.text import MINUS, fmt_num


def _effects_text(weighted: dict[str, float], decisive: dict[str, float] | None = None) -> str:
    """'decisive: TensorFlow +1; points: PyTorch −5.0, ...': units and soft points apart."""
    units = [
        f"{name(fw)} {'+' if v > 0 else MINUS}{abs(v):g}" for fw, v in (decisive or {}).items() if v
    ]
    points = [
        f"{name(fw)} {'+' if v > 0 else MINUS}{abs(v):.1f}"
        for fw in FRAMEWORKS
        if (v := weighted.get(fw))
    ]
    if units and points:
        return f"decisive: {', '.join(units)}; points: {', '.join(points)}"
    return f"decisive: {', '.join(units)}" if units else ", ".join(points)


def why(decision: Decision) -> dict[str, Any]:
    """Vetoes, the rules that moved the scores most, and the rest."""
    vetoes: list[dict[str, str | None]] = []
    scored = []
    for rule in decision.rules:
        for fw, reason in rule.veto.items():
            vetoes.append({"framework": fw, "name": name(fw), "rule": rule.id, "reason": reason})
        if not any(rule.weighted.values()) and not rule.decisive:
            continue  # a veto only, or a criterion its priority switched off (weight 0)
        evidence = [
            {
                **ev.model_dump(mode="json"),
                "superseded": ev.status == "superseded",
                "package": package_release(ev.ref),
                # a user's pack may cite a source of its own: no claim of docs/sources.md
                "unverified": ev.ref is None,
            }
            for ev in rule.evidence
        ]
        scored.append(
            {
                "id": rule.id,
                "title": rule.title,
                "criterion": criterion_label(rule.criterion),
                "why": rule.why,
                "effects": _effects_text(rule.weighted, rule.decisive),
                "impact": rule.impact,
                "evidence": evidence,
                "facts_used": [
                    {"fact": k, "value": _fact_value(v)} for k, v in rule.facts_used.items()
                ],
                "measured": bool(rule.facts_used),
                "pack": rule.pack,
            }
        )
    fired = {r.id for r in decision.rules}
    for entry in decision.ranking:  # vetoes that are no rule's: a framework not yet released
        for reason in entry.veto_reasons:
            if reason.partition(": ")[0] not in fired:
                fw = entry.framework
                vetoes.append({"framework": fw, "name": name(fw), "rule": None, "reason": reason})
    return {
        "vetoes": vetoes,
        "top": scored[:TOP_RULES],
        "more": scored[TOP_RULES:],
        "fired": len(decision.rules),
        "total": decision.ruleset.rule_count,
        "skipped": [s.model_dump(mode="json") for s in decision.skipped_rules],
    }


def _fact_value(value: Any) -> str:
    """A measured fact as text: numbers rounded, lists joined."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (int, float)):
        return fmt_num(value)
    if isinstance(value, (list, tuple)):
        return ", ".join(name(str(v)) for v in value) or "none"
    return "not measured" if value is None else str(value)


def breakdown(decision: Decision) -> dict[str, Any]:
    """Weighted points per criterion and framework, and the totals."""
    rows = []
    for cid, per in decision.breakdown.items():
        rows.append(
            {
                "criterion": criterion_label(cid),
                "id": cid,
                "weight": decision.weights.get(cid, 1.0),
                "points": {fw: per.get(fw, 0.0) for fw in FRAMEWORKS},
                "moved": any(per.get(fw) for fw in FRAMEWORKS),
            }
        )
    prior = decision.prior.get("effects") or {}
    if any(prior.values()):
        rows.insert(
            0,
            {
                "criterion": "Prior (before any answer)",
                "id": "prior",
                "weight": 1.0,
                "points": {fw: float(prior.get(fw, 0)) for fw in FRAMEWORKS},
                "moved": True,
            },
        )
    ranking = decision.ranking
    decisive = {e.framework: e.decisive for e in ranking}
    return {
        "rows": rows,
        "decisive": decisive if any(decisive.values()) else None,
        "moved": [r for r in rows if r["moved"]],
        # a criterion whose rules fired with no points (a veto, a decisive fact, a weight of
        # 0) is not one where "no rule fired"
        "unmoved": [
            r["criterion"]
            for r in rows
            if not r["moved"] and r["id"] not in {rule.criterion for rule in decision.rules}
        ],
        "totals": {e.framework: e.soft for e in ranking},
        "scores": {e.framework: e.score for e in ranking},
        "order": [e.framework for e in ranking],
    }
