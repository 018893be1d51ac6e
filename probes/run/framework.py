"""One framework's probes: plan its workers, run them, retry after a crash, keep one alive."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from probes import catalog
from probes.env.interpreter import Interpreter
from probes.env.load import ThreadPlan
from probes.records import ProbeRecord
from probes.run import compile_cache
from probes.run.launcher import LiveWorker, child_environment, run_attempt, worker_command
from probes.run.records import Progress, announce, from_worker, settled


@dataclass
class Job:
    """Everything a framework's workers need to know."""

    framework: str
    level: str
    hints: dict[str, Any]
    interpreter: Interpreter
    plan: ThreadPlan
    workdir: Path
    say: Progress
    serve: bool = False  # keep the main worker alive for comparison rounds
    only: set[str] | None = None


@dataclass
class Outcome:
    """Records, the framework's environment, and the live worker (if any) with its kernels."""

    records: list[ProbeRecord] = field(default_factory=list)
    env: dict[str, Any] = field(default_factory=dict)
    live: LiveWorker | None = None
    kernels: list[str] = field(default_factory=list)


def run_framework(job: Job) -> Outcome:
    fw = job.framework
    planned = [p for p in catalog.planned(fw, job.level) if job.only is None or p in job.only]
    if not job.interpreter.has(fw):
        reason = _missing_reason(fw, job.interpreter)
        records = [settled(p, fw, "skipped", reason) for p in planned]
        for record in records:
            announce(job.say, record)
        return Outcome(records=records)
    options, extra_env, results = _options(job, planned)
    for record in results.values():
        announce(job.say, record)
    outcome = Outcome()
    todo = [p for p in planned if p not in results]
    own = [p for p in todo if fw in catalog.spec(p).own_process]
    groups = [[p for p in todo if p not in own]] + [[p] for p in own]
    try:
        for index, group in enumerate(groups):
            if not group:
                continue
            group_env = dict(extra_env)
            if group == ["scale"] and fw == "jax":
                group_env.update(_jax_scale_env(options["scale_devices"]))
            serve = job.serve and index == 0
            found, info, live, kernels = _run_group(job, group, options, group_env, serve)
            results.update(found)
            outcome.env = outcome.env or info
            if live is not None:
                outcome.live, outcome.kernels = live, kernels
        if fw == "pytorch" and job.level == "full":
            compile_cache.remember(results.get("jit"), options.get("inductor_dir"))
        if fw == "pytorch":
            compile_cache.remember_workload(results.get("workload"), job.hints)
    finally:  # a throw-away Inductor folder goes even when a group failed or timed out
        compile_cache.discard(options.get("inductor_dir"))
    outcome.records = [results[p] for p in planned if p in results]
    return outcome


_MODULE = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,63}")


def _install_hint(fw: str, import_error: dict[str, Any]) -> str:
    """What to install when a worker could not import ``fw``: the framework, or the module
    it found missing when that is another one (torch's wheels do not bring NumPy, which the
    probes need)."""
    module = import_error.get("module")
    top = module.split(".")[0] if isinstance(module, str) else ""
    if not _MODULE.fullmatch(top) or top == catalog.IMPORT_NAME[fw]:
        return f"install it with: {catalog.INSTALL[fw]}"
    if top == "numpy":
        return "the probes need NumPy; install it with: pip install numpy"
    return f"install the package that provides '{top}'"


def _missing_reason(fw: str, interpreter: Interpreter) -> str:
    where = "" if interpreter.own else f" in {interpreter.path}"
    reason = (
        f"{fw} is not installed (no module '{catalog.IMPORT_NAME[fw]}' for "
        f"{interpreter.implementation} {interpreter.version}{where}); "
        f"install it with: {catalog.INSTALL[fw]}"
    )
    if fw in catalog.hidden_frameworks():
        reason = f"{fw} is hidden by $ADVISOR_PROBE_HIDE; {reason.split('; ', 1)[1]}"
    return reason


def _run_group(
    job: Job, probes: list[str], options: dict[str, Any], extra_env: dict[str, str], serve: bool
) -> tuple[dict[str, ProbeRecord], dict[str, Any], LiveWorker | None, list[str]]:
    """Run ``probes`` in a child; after a crash or a timeout, start a new child for the rest."""
    fw = job.framework
    results: dict[str, ProbeRecord] = {}
    env_info: dict[str, Any] = {}
    remaining = list(probes)

    def timeouts(probe: str | None) -> float:
        return catalog.IMPORT_TIMEOUT if probe is None else catalog.timeout_for(probe, job.level)

    def on_result(probe: str, result: dict[str, Any]) -> None:
        if probe in remaining:
            results[probe] = from_worker(probe, fw, result)
            announce(job.say, results[probe])

    env = child_environment(
        {**job.plan.worker_env(os.environ), **extra_env}, job.interpreter.package_root
    )
    attempt_no = 0
    while remaining:
        attempt_no += 1
        events = job.workdir / f"{fw}-{probes[0]}-{attempt_no}.jsonl"
        events.touch(mode=0o600)
        command = worker_command(
            fw,
            remaining,
            job.level,
            events,
            job.hints,
            options,
            python=job.interpreter.path,
            threads=job.plan.worker_threads,
            cpus=",".join(str(c) for c in job.plan.cpus),
            serve=serve,
        )
        attempt = run_attempt(
            command,
            events,
            env,
            timeouts,
            on_result,
            keep_alive=serve,
            probes=remaining,
            # never the user's folder: `-m` puts the working folder first on sys.path, so a
            # json.py there (a downloaded rule pack's, say) would run in the worker
            cwd=job.interpreter.package_root or str(events.parent),
        )
        env_info = env_info or (attempt.env or {})
        remaining = [p for p in remaining if p not in results]
        if attempt.live is not None:
            if not remaining:
                return results, env_info, attempt.live, attempt.kernels
            attempt.live.close()
        if not remaining:
            break
        status = "timeout" if attempt.timed_out else "failed"
        if attempt.import_error is not None:
            missing = bool(attempt.import_error.get("missing"))
            why = str(attempt.import_error.get("reason"))
            name = catalog.IMPORT_NAME[fw]
            reason = (
                f"cannot import {name}: {why}; {_install_hint(fw, attempt.import_error)}"
                if missing
                else f"importing {name} failed: {why}"
            )
            for probe in remaining:
                results[probe] = settled(probe, fw, "skipped" if missing else "failed", reason)
                announce(job.say, results[probe])
            break
        if attempt.env is None:  # died or hung while importing the framework
            reason = f"while importing {catalog.IMPORT_NAME[fw]}: {attempt.death()}"
            for probe in remaining:
                results[probe] = settled(probe, fw, status, reason)
                announce(job.say, results[probe])
            break
        victim = attempt.current if attempt.current in remaining else remaining[0]
        if attempt.current is None and attempt.done:
            reason = "the worker finished without running this probe"
        elif attempt.current is None:
            reason = f"the worker ended before this probe started: {attempt.death()}"
        else:
            reason = attempt.death()
        results[victim] = settled(
            victim, fw, status, reason, seconds=attempt.elapsed if attempt.current else 0.0
        )
        announce(job.say, results[victim])
        remaining.remove(victim)
    return results, env_info, None, []


def _options(
    job: Job, planned: list[str]
) -> tuple[dict[str, Any], dict[str, str], dict[str, ProbeRecord]]:
    """Per-framework options, extra child environment, and records decided without a child."""
    options: dict[str, Any] = {"scale_devices": max(2, min(4, job.plan.available))}
    extra: dict[str, str] = {}
    pre: dict[str, ProbeRecord] = {}
    if job.framework == "pytorch" and ({"jit", "workload"} & set(planned)):
        mode, inductor_dir = compile_cache.plan(job.level)
        options["compile_mode"] = mode
        options["compile_skip_reason"] = compile_cache.SKIP_REASON
        if inductor_dir is not None:
            extra["TORCHINDUCTOR_CACHE_DIR"] = str(inductor_dir)
            options["inductor_dir"] = str(inductor_dir)
        options["workload_compile"] = compile_cache.workload_compiles(job.level, job.hints)
        options["workload_skip_reason"] = (
            "torch.compile's cache is cold for this workload: measured eager this time (a first "
            "compile on CPU takes minutes); `advisor probe --level full` compiles it and warms "
            "the cache, so later standard runs compile it too"
        )
        if mode == "skip" and "jit" in planned:
            pre["jit"] = settled(
                "jit",
                job.framework,
                "skipped",
                compile_cache.SKIP_REASON,
                params={"compile_cache": "cold"},
            )
    return options, extra, pre


def _jax_scale_env(devices: int) -> dict[str, str]:
    flags = os.environ.get("XLA_FLAGS", "")
    flag = f"--xla_force_host_platform_device_count={devices}"
    kept = " ".join(
        f for f in flags.split() if not f.startswith("--xla_force_host_platform_device_count")
    )
    return {"XLA_FLAGS": f"{kept} {flag}".strip()}
