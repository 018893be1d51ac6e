"""The pipeline, one explicit step each, data flowing one way:

    load (profile, rules) -> measure (probes) -> facts -> decide (score the rules)
    -> analyse (what would change the verdict) -> report (what to say) -> render (md/html/json)

Only ``measure`` touches the probes package (each framework runs in its own subprocess);
with level ``none`` no framework is imported.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from advisor.decide.engine import Scored, analyse_scored, explain, score
from advisor.decide.rules import RuleSet, load_ruleset
from advisor.frameworks import FRAMEWORKS, missing_hint
from advisor.model.decision import Decision, Sensitivity
from advisor.model.errors import InputError
from advisor.model.facts import Facts
from advisor.model.measurements import ProbeRun, facts_from_probes
from advisor.model.profile import Profile
from advisor.report.render import render_data, report_data

Progress = Callable[[str], None]


def load_rules(rule_dirs: list[Path]) -> RuleSet:
    """Step 1: the core rule pack plus the user's (validated before any probe runs; the
    bundled pack's own fixtures run in `rules check` and its tests, a user's pack's here)."""
    return load_ruleset(rule_dirs, core_examples=False)


def measure(
    level: str,
    profile: Profile | None,
    *,
    refresh: bool = False,
    progress: Progress | None = None,
    frameworks: list[str] | None = None,
    python: list[str] | None = None,
) -> dict[str, Any] | None:
    """Step 2: run the probes at ``level``; None for 'none' (nothing imported).

    ``python``: interpreters (the project's environments) to run the workers in. One that
    cannot run them is an InputError (exit 2). When no framework could be measured, each
    missing one gets a line on ``progress`` saying how to install it or where to point.
    """
    if level == "none":
        return None
    from probes.api import InterpreterError, run_probes

    workload = profile.workload.model_dump(mode="json") if profile else None
    for fresh in (refresh, True):  # a cached run no report can be made from: measure again
        try:
            run: dict[str, Any] = run_probes(
                level,
                refresh=fresh,
                workload=workload,
                progress=progress,
                frameworks=frameworks,
                python=python or None,
            )
        except InterpreterError as exc:
            raise InputError(str(exc)) from None
        if fresh or not (run.get("cache") or {}).get("used") or readable(run, profile, level):
            break
        if progress is not None:
            progress("probes: the cached measurements cannot be read back; measuring again")
    if progress is not None:
        for line in missing_frameworks(run, frameworks, python):
            progress(line)
    return run


def readable(run: dict[str, Any], profile: Profile | None, level: str) -> bool:
    """Whether every report can be made from a cached ``run``: the last check on a cache
    file, which is input (probes/run/trust.py checks its shape first). One that cannot is
    measured again, never a traceback (SECURITY.md)."""
    from advisor.model.terminal_text import json_document
    from advisor.report.render import render_template

    try:
        render_template("probe.md.j2", run)
        json_document(run)
        if profile is not None:
            probe_run, measured = facts(run)
            core = load_ruleset()
            decision = explain(decide(profile, measured, core), core, None)
            data = report_data(decision, profile, probe_run, probe_level=level)
            for fmt in ("markdown", "html", "json"):
                render_data(data, fmt=fmt)
    except Exception:  # any failure on untrusted data means: do not use it
        return False
    return True


def missing_frameworks(
    run: dict[str, Any], asked: list[str] | None = None, python: list[str] | None = None
) -> list[str]:
    """One hint per framework asked for, when none of them could be measured at all."""
    found = (run.get("environment") or {}).get("frameworks") or {}
    wanted = [fw for fw in FRAMEWORKS if not asked or fw in asked]
    installed = [fw for fw in wanted if (found.get(fw) or {}).get("installed")]
    return [] if installed else [missing_hint(fw, python) for fw in wanted]


def probe_settings() -> tuple[dict[str, tuple[float, float]], str]:
    """The probes' numeric environment settings with their ranges, and the hide setting."""
    from probes.catalog import ENV_RANGES, HIDE_ENV

    return dict(ENV_RANGES), HIDE_ENV


def facts(run: dict[str, Any] | None) -> tuple[ProbeRun, Facts]:
    """Step 3: the probe run read once, and the facts the rules compare against."""
    probe_run = ProbeRun.from_dict(run)
    return probe_run, facts_from_probes(probe_run)


def decide(profile: Profile, measured: Facts, ruleset: RuleSet) -> Scored:
    """Step 4: fire the rules and add up their weighted effects."""
    return score(profile, measured, ruleset)


def unasked_fields(profile: Profile) -> frozenset[str]:
    """The fields the bundled questionnaire would not ask about this profile (a question's
    ``when``: a team new to deep learning is not asked to compile its training loop)."""
    from advisor.questionnaire.loader import load_questions

    return load_questions().unasked(profile)


def analyse(
    scored: Scored,
    ruleset: RuleSet,
    *,
    seed: int = 0,
    unasked: frozenset[str] | None = None,
) -> Sensitivity:
    """Step 5: the smallest changes that flip the verdict, and the win probabilities; a
    change is never to answer a question the questionnaire would not put to the profile
    (``unasked``, computed from the profile when not given)."""
    if unasked is None:
        unasked = unasked_fields(scored.profile)
    return analyse_scored(scored, ruleset, seed=seed, unasked=unasked)


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
    progress: Progress | None = None,
    python: list[str] | None = None,
    as_of: str | None = None,
) -> str:
    """Everything `advisor recommend` does, returning the rendered report; ``as_of``
    (YYYY-MM) answers with the knowledge that held in that month (RuleSet.at)."""
    ruleset = load_rules(rule_dirs)
    if as_of is not None:
        ruleset = ruleset.at(as_of)
        if len(ruleset.unavailable) == len(ruleset.meta.frameworks):
            first = min(i.released.month for i in ruleset.meta.frameworks.values() if i.released)
            raise InputError(
                f"{as_of} is before any candidate framework was released (the first: {first})",
                field="--as-of",
            )
    run = measure(probes, profile, refresh=refresh, progress=progress, python=python)
    probe_run, measured = facts(run)
    scored = decide(profile, measured, ruleset)
    unasked = unasked_fields(scored.profile)
    sensitivity = analyse(scored, ruleset, seed=seed, unasked=unasked)
    decision: Decision = explain(scored, ruleset, sensitivity, unasked=unasked)
    if as_of is not None:
        info = decision.ruleset.model_copy(update={"asked": True})
        decision = decision.model_copy(update={"ruleset": info})
    data = report_data(
        decision,
        profile,
        probe_run,
        profile_path=profile_path,
        probe_level=probes,
        rule_dirs=tuple(str(d) for d in rule_dirs),
        python=tuple(python or ()),
    )
    return render_data(data, fmt=fmt, template=template)
