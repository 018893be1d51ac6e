"""Section 8 of the report: risks of the choice and caveats of the analysis."""

from __future__ import annotations

from typing import Any

from advisor.model.decision import Decision
from advisor.model.measurements import ProbeRun
from advisor.report.labels import STATUS_TEXT, and_join, name


def risks(decision: Decision, run: ProbeRun) -> dict[str, Any]:
    """The fired rules' risks for the winner and the runner-up, and the caveats."""
    rec = decision.recommendation
    chosen = [r.model_dump() for r in decision.risks if r.framework == rec.framework]
    runner = [r.model_dump() for r in decision.risks if r.framework == rec.runner_up]
    caveats = []
    if rec.all_vetoed:
        caveats.append(
            "Every framework is ruled out by at least one hard constraint; the ranking only "
            "says which one breaks the fewest."
        )
    if rec.tie_broken and rec.tie_note:
        caveats.append(rec.tie_note)
    if not run.probes:
        caveats.append(
            "Nothing was measured on this machine (--probes none): the verdict rests on the "
            "profile and the rules alone" + _stood_aside(len(decision.skipped_rules))
        )
    else:
        for p in run.probes:
            if p.get("status") in ("failed", "timeout"):
                caveats.append(
                    f"The {p['id']} probe {STATUS_TEXT[p['status']]} for {name(p['framework'])}, "
                    "so rules that need that figure stood aside."
                )
        if run.environment.get("noisy"):
            caveats.append(
                "The machine was noisy while measuring; small measured gaps may be noise."
            )
    superseded = sorted(
        {r.id for r in decision.rules if any(e.status == "superseded" for e in r.evidence)}
    )
    if superseded:
        which = (
            f"Rule {superseded[0]} rests"
            if len(superseded) == 1
            else (f"Rules {and_join(superseded)} rest")
        )
        caveats.append(
            f"{which} partly on superseded evidence; the reasons under Why show what replaced it."
        )
    return {"chosen": chosen, "runner_up": runner, "caveats": caveats}


def _stood_aside(count: int) -> str:
    if not count:
        return "."
    if count == 1:
        return ", and 1 rule that needs a measurement stood aside."
    return f", and {count} rules that need measurements stood aside."
