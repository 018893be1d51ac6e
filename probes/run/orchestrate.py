"""run: cache, thread plan, one worker per framework, interleaved rounds, cross-checks."""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from probes import catalog
from probes.env import folders, host, interpreter, reaper
from probes.env.load import ThreadPlan, plan_threads
from probes.measure import agreement
from probes.measure.calibrate import benchmark_index
from probes.records import Comparison, ProbeRecord, ProbeRun
from probes.run import cache, faults
from probes.run.environment import environment
from probes.run.framework import Job, Outcome, run_framework
from probes.run.launcher import LiveWorker, close_all
from probes.run.records import Progress, announce, safe, settled
from probes.run.rounds import RoundLog, run_rounds

WORKLOAD_KEYS = (
    "model_family",
    "batch_size",
    "dtype",
    "per_example_gradients",
    "higher_order_derivatives",
)


def run(
    level: str,
    *,
    refresh: bool = False,
    workload: Mapping[str, Any] | None = None,
    progress: Progress | None = None,
    frameworks: Iterable[str] | None = None,
    python: Iterable[str] | str | None = None,
) -> dict[str, Any]:
    """Measure (or reuse cached measurements) and return the JSON-ready run.

    ``python``: interpreter paths to run the workers in (each framework uses the first
    that has it); raises ``InterpreterError`` (a ValueError) when none of them can.
    """
    if level not in catalog.LEVELS:
        raise ValueError(
            f"unknown probe level {level!r}; expected one of {', '.join(catalog.LEVELS)}"
        )
    say = safe(progress)
    warnings: list[str] = []
    chosen = _choose(frameworks, warnings)
    hints = _workload(workload)
    paths = [python] if isinstance(python, str) else list(python or [])
    found, problems = interpreter.resolve(paths)
    warnings.extend(problems)
    assigned = interpreter.assign(found)
    versions = {fw: assigned[fw].frameworks.get(fw) for fw in catalog.FRAMEWORKS}
    key = cache.cache_key(
        level,
        chosen,
        {fw: versions[fw] for fw in chosen},
        hints,
        _interpreter_key(chosen, assigned),
    )
    path = cache.cache_path(key)
    injected = faults.from_env()
    if injected:  # a run with injected faults is a test of the handling, never a measurement
        warnings.append(
            f"${faults.FAULT_ENV} injects faults into this run, so it neither reuses nor "
            "updates the probe cache"
        )
    if not refresh and not injected:
        hit = cache.load(path, key)
        if hit is not None:
            result, created = hit
            age = cache.age_seconds(created)
            result["cache"] = {
                "used": True,
                "path": str(path),
                "created": created,
                "age_seconds": age,
            }
            say(
                f"probes: using cached measurements from {created} "
                f"({_age_words(age)} old; --refresh-probes measures again)"
            )
            return result
    # With a foreign interpreter (--python), whatever a worker or that interpreter leaves
    # running is stopped at the end, sessions of its own too (probes/env/reaper.py). Our own
    # interpreter runs only our workers, and a program that calls the probes as a library
    # keeps its own processes.
    sweep = reaper.reaped() if paths else contextlib.nullcontext([0])
    with folders.private_folder("advisor-probes-") as tmp, sweep as left:
        interpreter.stage(found, Path(tmp))
        probe_run = _measure(level, chosen, hints, versions, assigned, Path(tmp), say, warnings)
    if os.path.lexists(tmp):  # a worker left more there than could be removed in time
        say(f"probes: warning: could not remove the run's temporary folder {tmp}; delete it")
    result = probe_run.to_json()
    if left[0]:
        result["environment"]["warnings"].append(
            f"{left[0]} process(es) the workers started could not be stopped"
        )
    if injected:
        return result
    if all(p.status in ("ok", "skipped") for p in probe_run.probes):
        try:
            cache.save(
                path,
                key,
                {k: v for k, v in result.items() if k != "cache"},
                result["cache"]["created"],
            )
            result["cache"]["path"] = str(path)
        except OSError as exc:
            result["environment"]["warnings"].append(
                f"could not write the probe cache at {path}: {exc}"
            )
    else:
        try:  # an older run under the same key would otherwise answer the next run
            cache.discard(path)
            again = "the next run measures again"
        except cache.InOurWay as exc:  # no older run to remove; no run can be saved either
            again = f"no run can be cached under this key until it is cleared: {exc}"
        except OSError as exc:
            again = f"an older cached run could not be removed ({exc}): use --refresh-probes"
        result["environment"]["warnings"].append(
            f"some probes failed or timed out, so this run was not cached; {again}"
        )
    cap = catalog.probe_timeout_cap()
    timed_out = sum(p.status == "timeout" for p in probe_run.probes)
    if cap is not None and timed_out:  # the user's own cap, not the machine, may be why
        result["environment"]["warnings"].append(
            f"{timed_out} probe(s) timed out with ${catalog.TIMEOUT_ENV} capping every probe "
            f"at {cap:g} s; unset it to give them their own timeouts"
        )
    return result


def _measure(
    level: str,
    chosen: list[str],
    hints: dict[str, Any],
    versions: dict[str, str | None],
    assigned: dict[str, interpreter.Interpreter],
    workdir: Path,
    say: Progress,
    warnings: list[str],
) -> ProbeRun:
    started = time.monotonic()
    created = cache.now_iso()
    index_before = benchmark_index()
    load_before = host.load_average()
    plan = plan_threads()
    if plan.threads < plan.available:
        say(
            f"probes: other work keeps {plan.other_busy} CPU(s) busy; each framework runs "
            f"{plan.threads} thread(s)"
        )
    probes: list[ProbeRecord] = []
    fw_envs: dict[str, dict[str, Any]] = {}
    live: dict[str, LiveWorker] = {}
    kernels: dict[str, list[str]] = {}
    comparisons: list[Comparison] = []
    log = RoundLog()
    try:
        for framework in chosen:
            job = Job(framework, level, hints, assigned[framework], plan, workdir, say, serve=True)
            outcome = _run_one(job)
            probes.extend(outcome.records)
            if outcome.env:
                fw_envs[framework] = outcome.env
            if outcome.live is not None:
                live[framework], kernels[framework] = outcome.live, outcome.kernels
        index_mid = float(index_before["median"])
        comparisons, log = run_rounds(live, kernels, level, plan, index_mid, say)
    finally:
        close_all(list(live.values()))
    index_after = benchmark_index()
    warnings.extend(agreement.check_agreement(probes))
    agreement.add_share_of_best(probes)
    agreement.add_mfu(probes)
    extra = {"load": _load_block(plan, log, float(index_before["median"]))}
    env = environment(
        chosen,
        versions,
        fw_envs,
        probes,
        index_before,
        index_after,
        load_before,
        warnings,
        assigned,
        extra,
    )
    if log.reasons:
        env.warnings.append("the frameworks' speeds were not compared: " + "; ".join(log.reasons))
    return ProbeRun(
        level,
        chosen,
        probes,
        env,
        comparisons,
        round(time.monotonic() - started, 2),
        {"used": False, "path": None, "created": created, "age_seconds": None},
    )


def _run_one(job: Job) -> Outcome:
    try:
        return run_framework(job)
    except Exception as exc:  # a bug here must not cost the other frameworks
        records = [
            settled(p, job.framework, "failed", f"internal error: {exc!r}")
            for p in catalog.planned(job.framework, job.level)
        ]
        for record in records:
            announce(job.say, record)
        return Outcome(records=records)


def _load_block(plan: ThreadPlan, log: RoundLog, baseline: float) -> dict[str, Any]:
    return {**plan.to_json(), "comparison_rounds": log.to_json(baseline)}


def run_selected(
    framework: str,
    level: str,
    probes: Iterable[str],
    *,
    workload: Mapping[str, Any] | None = None,
    progress: Progress | None = None,
) -> list[dict[str, Any]]:
    """Run only some probes of one framework, uncached (for tests and scripts)."""
    with folders.private_folder("advisor-probes-") as tmp:
        job = Job(
            framework,
            level,
            _workload(workload),
            interpreter.current(),
            plan_threads(0.05),
            Path(tmp),
            safe(progress),
            only=set(probes),
        )
        return [r.to_json() for r in run_framework(job).records]


def _interpreter_key(
    chosen: list[str], assigned: dict[str, interpreter.Interpreter]
) -> dict[str, Any]:
    return {
        fw: {"path": assigned[fw].path, "python": assigned[fw].version, "numpy": assigned[fw].numpy}
        for fw in chosen
    }


def _choose(frameworks: Iterable[str] | None, warnings: list[str]) -> list[str]:
    if frameworks is None:
        return list(catalog.FRAMEWORKS)
    if isinstance(frameworks, str):
        frameworks = [frameworks]
    wanted = {str(f).strip().lower() for f in frameworks}
    unknown = sorted(wanted - set(catalog.FRAMEWORKS))
    if unknown:
        warnings.append(
            f"unknown framework(s) ignored: {', '.join(unknown)}; "
            f"the probes know {', '.join(catalog.FRAMEWORKS)}"
        )
    return [f for f in catalog.FRAMEWORKS if f in wanted]


def _workload(workload: Mapping[str, Any] | None) -> dict[str, Any]:
    if not workload:
        return {}
    out = {}
    for name in WORKLOAD_KEYS:
        value: Any = workload.get(name)
        if hasattr(value, "value"):  # an Enum
            value = value.value
        if isinstance(value, (str, int, float, bool)):
            out[name] = value
    return out


def _age_words(age: float | None) -> str:
    if age is None:
        return "unknown age"
    if age < 120:
        return f"{age:.0f} s"
    if age < 7200:
        return f"{age / 60:.0f} min"
    if age < 172800:
        return f"{age / 3600:.0f} h"
    return f"{age / 86400:.0f} days"
