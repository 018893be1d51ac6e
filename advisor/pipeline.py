"""One pipeline, data flowing one way: profile + probe facts -> rules -> Decision -> report."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from advisor.decide.engine import decide
from advisor.decide.rules import load_ruleset
from advisor.model.measurements import facts_from_probes
from advisor.model.profile import Profile


def gather_probes(
    level: str, profile: Profile | None, *, refresh: bool = False
) -> dict[str, Any] | None:
    """Run the probes (each framework in its own subprocess); None for level 'none'."""
    if level == "none":
        return None
    from probes import run_probes

    workload = profile.workload.model_dump(mode="json") if profile else None
    return run_probes(level, refresh=refresh, workload=workload, progress=_progress)


def _progress(message: str) -> None:
    click.echo(f"advisor: {message}", err=True)


def run_pipeline(
    profile: Profile,
    *,
    profile_path: str | None,
    probes: str,
    refresh: bool,
    rule_dirs: list[Path],
    fmt: str,
    template: str | None,
    seed: int = 0,
) -> str:
    """Everything `advisor recommend` does, returning the rendered report."""
    from advisor.report.render import render_report

    ruleset = load_ruleset(rule_dirs)  # validate rules before spending time on probes
    probe_run = gather_probes(probes, profile, refresh=refresh)
    facts = facts_from_probes(probe_run)
    decision = decide(profile, facts, ruleset, seed=seed)
    return render_report(
        decision,
        profile,
        probe_run,
        fmt=fmt,
        template=template,
        profile_path=profile_path,
        probe_level=probes,
    )
