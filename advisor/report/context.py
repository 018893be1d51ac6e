"""What the report says, derived from the typed Decision, the profile and the probe run.

The Markdown and HTML templates, a user's ``--template`` and ``--format json`` all read
the same derived content (under the ``report`` key), so the three formats cannot say
different things. Each section is built by its own module; everything they return is
plain text and numbers (escaping happens in the templates' filters). Nothing here reads
a clock or imports a framework, so a ``--probes none`` report is reproducible.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from advisor.io.profile_writer import profile_yaml
from advisor.model.decision import Decision
from advisor.model.measurements import ProbeRun
from advisor.model.profile import Profile
from advisor.model.said import said_paths
from advisor.report import (
    changes,
    claims,
    command,
    environment,
    measurements,
    risks,
    verdict,
    why,
    workload,
)
from advisor.report.basis import basis
from advisor.report.labels import HARDWARE_LABELS


@dataclass(frozen=True)
class ReportInput:
    """Everything a report section may read."""

    decision: Decision
    profile: Profile
    run: ProbeRun
    profile_path: str | None = None
    probe_level: str = "none"
    rule_dirs: tuple[str, ...] = ()  # the --rules packs the decision used
    python: tuple[str, ...] = ()  # the --python interpreters the probes ran in


def build_report(inp: ReportInput) -> dict[str, Any]:
    """Everything the report says, section by section, as plain data."""
    rec = inp.decision.recommendation
    return {
        "source": command.source(
            inp.profile_path, inp.probe_level, inp.rule_dirs, inp.decision, inp.python
        ),
        "verdict": verdict.verdict(inp.decision),
        "standing": verdict.standing(inp.decision),
        "why": why.why(inp.decision),
        "breakdown": why.breakdown(inp.decision),
        "measurements": measurements.measurements(inp.run, inp.decision, inp.probe_level),
        "workload": workload.workload(inp.run),
        "comparisons": workload.comparisons(inp.run),
        "interpreters": workload.interpreters(inp.run.environment),
        "claims": claims.claims(inp.run),
        "changes": changes.changes(inp.decision),
        "risks": risks.risks(inp.decision, inp.run, inp.profile),
        "profile_yaml": profile_yaml(inp.profile, style="annotated"),
        "environment": environment.environment(inp.run.environment),
        "probe_method": environment.probe_method(inp.run),
        "training_hardware": _training_hardware(inp.profile),
        "install_for": _install_for(rec.install, inp.profile),
        # the hedge is for a contested verdict, not for one only capped below high
        "show_hedge": bool(rec.hedge)
        and rec.confidence in ("low", "medium")
        and not rec.confidence_capped,
        "basis": basis(inp.decision),
    }


def _training_hardware(profile: Profile) -> str:
    """The training hardware the install line is for, saying so when it is the default."""
    named = ", ".join(HARDWARE_LABELS.get(h.value, h.value) for h in profile.hardware.training)
    if "hardware.training" in said_paths(profile):
        return named
    return f"{named}; assumed, since the profile does not set hardware.training"


def _install_for(install: Any, profile: Profile) -> str:
    """Empty when the install line serves all the training hardware; otherwise the words
    saying which hardware it serves and which it does not (a line is chosen by its `when`,
    which may follow other answers, such as an FPGA target or existing Keras code)."""
    listed = [h.value for h in profile.hardware.training]
    if install is None:
        return ""
    if not listed:
        return "(the profile lists no training hardware)"
    served = {"cpu"} | (_hardware_read(install.when) if install.when is not None else set())
    unserved = [h for h in listed if h not in served]
    if not unserved:
        return ""
    missing = _labels(unserved)
    if install.when is None:
        return (
            f"(its default build: the advisor has no install line of this framework for "
            f"{missing}, so check that hardware's own instructions)"
        )
    also = [h for h in listed if h in served and h != "cpu"]
    if also:
        return (
            f"for {_labels(also)} (not for {missing}, also among your training hardware: "
            "install for it by its own instructions)"
        )
    return (
        f"(this line follows other answers and is not for {missing}, your training "
        "hardware: check that hardware's own instructions)"
    )


def _labels(values: list[str]) -> str:
    return ", ".join(HARDWARE_LABELS.get(v, v) for v in values)


def _hardware_read(when: Any) -> set[str]:
    """The training hardware a raw `when` asks for (negated parts left out)."""
    if isinstance(when, list):
        return set().union(*(_hardware_read(part) for part in when))
    if not isinstance(when, dict):
        return set()
    if when.get("field") == "hardware.training":
        values = [
            v
            for k, v in when.items()
            if k in ("contains", "contains_any", "contains_all", "in", "eq")
        ]
        flat = [x for v in values for x in (v if isinstance(v, list) else [v])]
        return {str(x) for x in flat}
    return _hardware_read(when.get("all", [])) | _hardware_read(when.get("any", []))
