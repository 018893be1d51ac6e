"""What the report says, derived from the typed Decision, the profile and the probe run.

The Markdown and HTML templates, a user's ``--template`` and ``--format json`` all read
the same derived content (under the ``report`` key), so the three formats cannot say
different things. Each section is built by its own module; everything they return is
plain text and numbers (escaping happens in the templates' filters). Nothing here reads
a clock or imports a framework, so a ``--probes none`` report is reproducible.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from advisor.io.profile_writer import profile_yaml
from advisor.model.decision import Decision, Recommendation
from advisor.model.measurements import ProbeRun
from advisor.model.profile import Profile
from advisor.model.said import training_hardware
from advisor.report import (
    changes,
    claims,
    command,
    environment,
    measurements,
    moves,
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
        "verdict": verdict.verdict(inp.decision, inp.profile),
        "standing": verdict.standing(inp.decision),
        "why": why.why(inp.decision),
        "breakdown": why.breakdown(inp.decision),
        "measurements": measurements.measurements(inp.run, inp.decision, inp.probe_level),
        "workload": workload.workload(inp.run),
        "comparisons": workload.comparisons(inp.run),
        "interpreters": workload.interpreters(inp.run.environment),
        "claims": claims.claims(inp.run),
        "changes": changes.changes(inp.decision),
        "stay_or_move": moves.stay_or_move(inp.decision, inp.profile),
        "risks": risks.risks(inp.decision, inp.run, inp.profile),
        "profile_yaml": profile_yaml(inp.profile, style="annotated"),
        "environment": environment.environment(inp.run.environment),
        "probe_method": environment.probe_method(inp.run),
        "training_hardware": _training_hardware(inp.profile),
        # measurements score only on the kind of machine the project trains on
        "trains_on_accelerators": bool(set(training_hardware(inp.profile)[0]) - {"cpu"}),
        "install_for": _install_for(rec, inp.profile),
        "install_elsewhere": _install_elsewhere(rec),
        "companion_install": companion_install(rec),
        # the hedge is for a contested verdict, not for one only capped below high
        "show_hedge": bool(rec.hedge)
        and rec.confidence in ("low", "medium")
        and not rec.confidence_capped,
        "basis": basis(inp.decision),
    }


def _training_hardware(profile: Profile) -> str:
    """The training hardware the install line is for, saying so when it is assumed."""
    devices, how = training_hardware(profile)
    named = _labels(devices)
    unset = "since the profile does not set hardware.training"
    if how == "accelerators":
        return f"{named}; assumed from training.accelerators: 0, {unset}"
    if how == "default":
        return f"{named}; assumed, {unset}"
    return named


def _install_for(rec: Recommendation, profile: Profile) -> str:
    """Empty when the install line serves all the training hardware; otherwise the words
    saying which hardware it serves and which it does not (``install_elsewhere`` then
    gives the framework's line for each of those, or says it has none)."""
    devices, _ = training_hardware(profile)
    if rec.install is None:
        return ""
    if not devices:
        return "(the profile lists no training hardware)"
    missing = [d for d in devices if d in rec.install_elsewhere]
    if not missing:
        return ""
    also = [d for d in devices if d not in rec.install_elsewhere and d != "cpu"]
    if also:
        not_for = f"not for {_labels(missing)}, also among your training hardware"
        return f"for {_labels(also)} ({not_for}: see below)"
    return f"for CPU (not for {_labels(missing)}, your training hardware: see below)"


def _install_elsewhere(rec: Recommendation) -> list[dict[str, Any]]:
    """For each training device the install line does not serve: the framework's line
    that does, or a sentence saying the advisor has none, with the pack's note on it."""
    out = []
    for device, hint in rec.install_elsewhere.items():
        label = _labels([device])
        text = (
            f"For {label}:"
            if hint.command
            else f"The advisor has no install line of {rec.name} for {label}."
        )
        out.append({"hardware": device, "text": text, "command": hint.command, "note": hint.note})
    return out


_PLAIN = re.compile(r"^[A-Za-z0-9._-]+$")  # a requirement the shell reads as it is


def companion_install(rec: Recommendation) -> str:
    """One pip line for the companion libraries shown that install beside the framework
    (a stack item's ``pip``), each requirement once, quoted when the shell would read it;
    empty when none does."""
    specs: list[str] = []
    for item in rec.stack:
        for spec in item.pip.split():
            if spec not in specs:
                specs.append(spec)
    if not specs:
        return ""
    return "pip install " + " ".join(s if _PLAIN.match(s) else f'"{s}"' for s in specs)


def _labels(values: list[str]) -> str:
    return ", ".join(HARDWARE_LABELS.get(v, v) for v in values)
