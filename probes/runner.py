"""run_probes: environment, cache, one subprocess per framework, cross-framework checks."""

from __future__ import annotations

import contextlib
import json
import os
import platform
import shutil
import tempfile
import time
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from probes import cache, compare, hostinfo
from probes.calibrate import SLOW_INDEX, benchmark_index
from probes.launcher import child_environment, run_attempt, worker_command
from probes.plan import (
    FRAMEWORKS,
    IMPORT_NAME,
    INSTALL,
    LEVEL_PROBES,
    LEVELS,
    OWN_PROCESS,
    SUPPORTED,
    import_timeout,
    timeout_for,
)

Progress = Callable[[str], None]
HEADLINE = {"matmul": "gflops", "jit": "speedup", "autodiff": "grad_at_2", "vmap": "speedup",
            "train_step": "steps_per_s", "scale": "efficiency"}
WORKLOAD_KEYS = ("model_family", "batch_size", "dtype", "per_example_gradients",
                 "higher_order_derivatives")
DRIFT_LIMIT = 0.15  # benchmark index change between before and after that flags drift
COMPILE_MARKER = "torch-compile-warm.json"


def run(level: str, *, refresh: bool = False, workload: Mapping[str, Any] | None = None,
        progress: Progress | None = None,
        frameworks: Iterable[str] | None = None) -> dict[str, Any]:
    """Measure (or reuse cached measurements) and return the JSON-ready run."""
    if level not in LEVELS:
        raise ValueError(f"unknown probe level {level!r}; expected one of {', '.join(LEVELS)}")
    say = _safe(progress)
    warnings: list[str] = []
    chosen = _choose(frameworks, warnings)
    hints = _workload(workload)
    versions = hostinfo.installed_versions()
    key = cache.cache_key(level, chosen, {fw: versions[fw] for fw in chosen}, hints)
    path = cache.cache_path(key)
    if not refresh:
        hit = cache.load(path, key)
        if hit is not None:
            result, created = hit
            age = cache.age_seconds(created)
            result["cache"] = {"used": True, "path": str(path), "created": created,
                               "age_seconds": age}
            say(f"probes: using cached measurements from {created} "
                f"({_age_words(age)} old; --refresh-probes measures again)")
            return result
    return _measure(level, chosen, hints, versions, key, path, say, warnings)


def _measure(level: str, chosen: list[str], hints: dict[str, Any],
             versions: dict[str, str | None], key: dict[str, Any], path: Path,
             say: Progress, warnings: list[str]) -> dict[str, Any]:
    started = time.monotonic()
    created = cache.now_iso()
    index_before = benchmark_index()
    load_before = hostinfo.load_average()
    probes: list[dict[str, Any]] = []
    fw_envs: dict[str, dict[str, Any]] = {}
    for framework in chosen:
        try:
            records, env = _run_framework(framework, level, hints, say)
        except Exception as exc:  # a bug here must not cost the other frameworks
            records = [_record(p, framework, "failed", f"internal error: {exc!r}")
                       for p in _planned(framework, level)]
            for record in records:
                _announce(say, record)
            env = {}
        probes.extend(records)
        if env:
            fw_envs[framework] = env
    index_after = benchmark_index()
    warnings.extend(compare.check_agreement(probes))
    compare.add_share_of_best(probes)
    environment = _environment(chosen, versions, fw_envs, probes, index_before, index_after,
                               load_before, warnings)
    result: dict[str, Any] = {
        "level": level,
        "frameworks": chosen,
        "probes": probes,
        "environment": environment,
        "wall_seconds": round(time.monotonic() - started, 2),
        "cache": {"used": False, "path": None, "created": created, "age_seconds": None},
    }
    if all(p["status"] in ("ok", "skipped") for p in probes):
        try:
            cache.save(path, key, {k: v for k, v in result.items() if k != "cache"}, created)
            result["cache"]["path"] = str(path)
        except OSError as exc:
            environment["warnings"].append(f"could not write the probe cache at {path}: {exc}")
    else:
        environment["warnings"].append(
            "some probes failed or timed out, so this run was not cached; the next run measures "
            "again"
        )
    return result


# -- one framework ------------------------------------------------------------------------

def _planned(framework: str, level: str) -> list[str]:
    return [p for p in LEVEL_PROBES[level] if p in SUPPORTED[framework]]


def run_selected(framework: str, level: str, probes: Iterable[str], *,
                 workload: Mapping[str, Any] | None = None,
                 progress: Progress | None = None) -> list[dict[str, Any]]:
    """Run only some probes of one framework, uncached (for tests and scripts)."""
    wanted = set(probes)
    records, _ = _run_framework(framework, level, _workload(workload), _safe(progress),
                                only=wanted)
    return records


def _run_framework(framework: str, level: str, hints: dict[str, Any], say: Progress,
                   only: set[str] | None = None) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    planned = [p for p in _planned(framework, level) if only is None or p in only]
    if not hostinfo.is_installed(framework):
        reason = (f"{framework} is not installed (no module '{IMPORT_NAME[framework]}' "
                  f"for {platform.python_implementation()} {platform.python_version()}); "
                  f"install it with: {INSTALL[framework]}")
        if framework in _hidden():
            reason = f"{framework} is hidden by $ADVISOR_PROBE_HIDE; {reason.split('; ', 1)[1]}"
        records = [_record(p, framework, "skipped", reason) for p in planned]
        for record in records:
            _announce(say, record)
        return records, {}
    options, extra_env, pre = _framework_options(framework, level, hints, planned)
    results: dict[str, dict[str, Any]] = dict(pre)
    for _probe_id, record in pre.items():
        _announce(say, record)
    env: dict[str, Any] = {}
    todo = [p for p in planned if p not in results]
    own = [p for p in todo if p in OWN_PROCESS.get(framework, frozenset())]
    groups = [[p for p in todo if p not in own]] + [[p] for p in own]
    for group in groups:
        if not group:
            continue
        group_env = dict(extra_env)
        if group == ["scale"] and framework == "jax":
            group_env.update(_jax_scale_env(options["scale_devices"]))
        found, group_info = _run_group(framework, group, level, hints, options, group_env, say)
        results.update(found)
        env = env or group_info
    if framework == "pytorch" and level == "full":
        _remember_compile(results.get("jit"), options)
    return [results[p] for p in planned if p in results], env


def _run_group(framework: str, probes: list[str], level: str, hints: dict[str, Any],
               options: dict[str, Any], extra_env: dict[str, str],
               say: Progress) -> tuple[dict[str, dict[str, Any]], dict[str, Any]]:
    """Run ``probes`` in a child; after a crash or a timeout, start a new child for the rest."""
    results: dict[str, dict[str, Any]] = {}
    env_info: dict[str, Any] = {}
    remaining = list(probes)

    def timeouts(probe: str | None) -> float:
        return import_timeout() if probe is None else timeout_for(probe, level)

    def on_result(probe: str, result: dict[str, Any]) -> None:
        if probe in remaining:
            record = _record(probe, framework, **_fields(result))
            results[probe] = record
            _announce(say, record)

    with tempfile.TemporaryDirectory(prefix="advisor-probes-") as tmp:
        attempt_no = 0
        while remaining:
            attempt_no += 1
            events = Path(tmp) / f"events-{attempt_no}.jsonl"
            events.touch(mode=0o600)
            command = worker_command(framework, remaining, level, events, hints, options)
            attempt = run_attempt(command, events, child_environment(extra_env), timeouts,
                                  on_result)
            env_info = env_info or (attempt.env or {})
            remaining = [p for p in remaining if p not in results]
            if not remaining:
                break
            status = "timeout" if attempt.timed_out else "failed"
            if attempt.import_error is not None:
                missing = bool(attempt.import_error.get("missing"))
                why = str(attempt.import_error.get("reason"))
                reason = (f"cannot import {IMPORT_NAME[framework]}: {why}; install it with: "
                          f"{INSTALL[framework]}" if missing else
                          f"importing {IMPORT_NAME[framework]} failed: {why}")
                for probe in remaining:
                    _settle(results, probe, framework, "skipped" if missing else "failed",
                            reason, say)
                break
            if attempt.env is None:  # died or hung while importing the framework
                reason = f"while importing {IMPORT_NAME[framework]}: {attempt.death()}"
                for probe in remaining:
                    _settle(results, probe, framework, status, reason, say)
                break
            victim = attempt.current if attempt.current in remaining else remaining[0]
            if attempt.current is None and attempt.done:
                reason = "the worker finished without running this probe"
            elif attempt.current is None:
                reason = f"the worker ended before this probe started: {attempt.death()}"
            else:
                reason = attempt.death()
            _settle(results, victim, framework, status, reason, say,
                    seconds=attempt.elapsed if attempt.current else 0.0)
            remaining.remove(victim)
    return results, env_info


def _settle(results: dict[str, dict[str, Any]], probe: str, framework: str, status: str,
            reason: str, say: Progress, seconds: float = 0.0) -> None:
    record = _record(probe, framework, status, reason, seconds=seconds)
    results[probe] = record
    _announce(say, record)


def _framework_options(framework: str, level: str, hints: dict[str, Any], planned: list[str]
                       ) -> tuple[dict[str, Any], dict[str, str], dict[str, dict[str, Any]]]:
    """Per-framework options, extra child environment, and records decided without a child."""
    options: dict[str, Any] = {}
    extra: dict[str, str] = {}
    pre: dict[str, dict[str, Any]] = {}
    available = hostinfo.available_cpus()
    options["scale_devices"] = max(2, min(4, available))
    if framework == "pytorch" and "jit" in planned:
        mode, inductor_dir = _compile_plan(level)
        options["torch_compile"] = mode
        if inductor_dir is not None:
            extra["TORCHINDUCTOR_CACHE_DIR"] = str(inductor_dir)
            options["inductor_dir"] = str(inductor_dir)
        if mode == "skip":
            pre["jit"] = _record(
                "jit", framework, "skipped",
                "torch.compile's compile cache is cold, and a first compile on CPU can take "
                "minutes; run `advisor probe --level full` once to measure it (that also warms "
                "the cache, so later standard runs include it)",
                params={"compile_cache": "cold"})
    return options, extra, pre


def _compile_plan(level: str) -> tuple[str, Path | None]:
    """('cold'|'warm'|'user'|'skip', TORCHINDUCTOR_CACHE_DIR for the child)."""
    user_dir = os.environ.get("TORCHINDUCTOR_CACHE_DIR")
    ours = cache.cache_dir() / "torchinductor"
    warm = _compile_is_warm(Path(user_dir) if user_dir else ours)
    if level == "full":
        if user_dir:
            return ("warm" if warm else "user"), None
        with contextlib.suppress(OSError):
            shutil.rmtree(ours, ignore_errors=True)
            cache.ensure_dir(ours.parent)
            return "cold", ours
        return "cold", Path(tempfile.mkdtemp(prefix="advisor-inductor-"))
    if warm:
        return "warm", (None if user_dir else ours)
    return "skip", None


def _compile_is_warm(inductor_dir: Path) -> bool:
    marker = cache.cache_dir() / COMPILE_MARKER
    try:
        data = json.loads(marker.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return (isinstance(data, dict) and data.get("torch") == hostinfo.framework_version("pytorch")
            and data.get("inductor_dir") == str(inductor_dir) and inductor_dir.is_dir())


def _remember_compile(record: dict[str, Any] | None, options: dict[str, Any]) -> None:
    """After a successful full-level torch.compile, note that its cache is warm."""
    if not record or record.get("status") != "ok":
        return
    inductor_dir = os.environ.get("TORCHINDUCTOR_CACHE_DIR") or options.get("inductor_dir")
    if not inductor_dir:
        return
    marker = cache.cache_dir() / COMPILE_MARKER
    text = json.dumps({"torch": hostinfo.framework_version("pytorch"),
                       "inductor_dir": str(inductor_dir), "created": cache.now_iso()})
    with contextlib.suppress(OSError):
        cache.ensure_dir(marker.parent)
        tmp = marker.with_name(f".{marker.name}.tmp")
        tmp.write_text(text, encoding="utf-8")
        os.chmod(tmp, 0o600)
        os.replace(tmp, marker)


def _jax_scale_env(devices: int) -> dict[str, str]:
    flags = os.environ.get("XLA_FLAGS", "")
    flag = f"--xla_force_host_platform_device_count={devices}"
    kept = " ".join(f for f in flags.split() if not f.startswith(
        "--xla_force_host_platform_device_count"))
    return {"XLA_FLAGS": f"{kept} {flag}".strip()}


# -- records and progress -----------------------------------------------------------------

def _record(probe: str, framework: str, status: str, reason: str | None = None, *,
            metrics: dict[str, Any] | None = None, params: dict[str, Any] | None = None,
            noisy: bool = False, seconds: float = 0.0, **extra: Any) -> dict[str, Any]:
    record = {"id": probe, "framework": framework, "status": status, "reason": reason,
              "metrics": metrics or {}, "params": params or {}, "noisy": bool(noisy),
              "seconds": round(float(seconds), 3)}
    record.update({k: v for k, v in extra.items() if k in ("check", "noisy_metrics")})
    return record


def _fields(result: dict[str, Any]) -> dict[str, Any]:
    status = result.get("status")
    if status not in ("ok", "skipped", "failed", "timeout"):
        status = "failed"
    raw = result.get("metrics") if isinstance(result.get("metrics"), dict) else {}
    metrics = {name: m for name, m in raw.items()  # a non-finite figure is not reported
               if isinstance(m, dict) and isinstance(m.get("median"), (int, float))}
    params = result.get("params") if isinstance(result.get("params"), dict) else {}
    fields: dict[str, Any] = {"status": status, "reason": result.get("reason"),
                              "metrics": metrics, "params": params,
                              "noisy": bool(result.get("noisy")),
                              "seconds": float(result.get("seconds") or 0.0)}
    for name in ("check", "noisy_metrics"):
        if name in result:
            fields[name] = result[name]
    return fields


def _announce(say: Progress, record: dict[str, Any]) -> None:
    head = f"{record['framework']} {record['id']}: {record['status']}"
    if record["status"] == "ok":
        name = HEADLINE.get(record["id"], "")
        m = record["metrics"].get(name)
        if m:
            head += f", {name} {m['median']:.4g} {m['unit']}"
        if record.get("noisy"):
            head += " (noisy)"
    elif record.get("reason"):
        head += f" ({_short(str(record['reason']))})"
    say(f"probe {head} [{record['seconds']:.1f} s]")


def _short(text: str, limit: int = 140) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _safe(progress: Progress | None) -> Progress:
    def say(message: str) -> None:
        if progress is None:
            return
        with contextlib.suppress(Exception):
            progress(message)

    return say


def _choose(frameworks: Iterable[str] | None, warnings: list[str]) -> list[str]:
    if frameworks is None:
        return list(FRAMEWORKS)
    if isinstance(frameworks, str):
        frameworks = [frameworks]
    wanted = {str(f).strip().lower() for f in frameworks}
    unknown = sorted(wanted - set(FRAMEWORKS))
    if unknown:
        warnings.append(f"unknown framework(s) ignored: {', '.join(unknown)}; "
                        f"the probes know {', '.join(FRAMEWORKS)}")
    return [f for f in FRAMEWORKS if f in wanted]


def _workload(workload: Mapping[str, Any] | None) -> dict[str, Any]:
    if not workload:
        return {}
    out = {}
    for name in WORKLOAD_KEYS:
        value = workload.get(name)
        if hasattr(value, "value"):  # an Enum
            value = value.value
        if isinstance(value, (str, int, float, bool)):
            out[name] = value
    return out


def _hidden() -> set[str]:
    from probes.plan import hidden_frameworks

    return hidden_frameworks()


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


# -- environment --------------------------------------------------------------------------

def _environment(chosen: list[str], versions: dict[str, str | None],
                 fw_envs: dict[str, dict[str, Any]], probes: list[dict[str, Any]],
                 before: dict[str, Any], after: dict[str, Any], load: float | None,
                 warnings: list[str]) -> dict[str, Any]:
    cpu = hostinfo.cpuinfo()
    frameworks = {}
    threads: dict[str, Any] = {"available_cpus": cpu["available_cpus"]}
    for fw in FRAMEWORKS:
        info = fw_envs.get(fw, {})
        installed = hostinfo.is_installed(fw)
        frameworks[fw] = {
            "installed": installed,
            "version": info.get("version") or versions.get(fw),
            "devices": info.get("devices", []),
            "probed": fw in chosen,
            "build": info.get("build"),
            "import_s": round(float(info["import_s"]), 2) if "import_s" in info else None,
        }
        if not installed and fw in chosen:
            warnings.append(f"{fw} is not installed, so it was not measured; install it with: "
                            f"{INSTALL[fw]}")
        if info.get("threads"):
            threads[fw] = info["threads"]
    noisy = False
    if before["slow"]:
        warnings.append(f"this machine looks slow (benchmark index {before['median']:.0f} loop "
                        f"iterations/ms, below {SLOW_INDEX:.0f}); its figures may not represent "
                        "the hardware you will train on")
    if before["noisy"] or after["noisy"]:
        noisy = True
        warnings.append("the benchmark index varied by 10% or more between samples: the machine "
                        "is busy or throttled, so small differences between frameworks are noise")
    drift = abs(after["median"] - before["median"]) / before["median"] if before["median"] else 0
    if drift > DRIFT_LIMIT:
        noisy = True
        warnings.append(f"the machine's speed changed by {drift:.0%} during the probes "
                        f"(benchmark index {before['median']:.0f} before, "
                        f"{after['median']:.0f} after)")
    cpus = cpu["available_cpus"]
    if load is not None and load > 0.5 * cpus:
        warnings.append(f"the 1-minute load average was {load:.2f} on {cpus} CPU(s) before the "
                        "probes: other work was running and may have slowed them")
    timed = [p for p in probes if p["status"] == "ok" and p["id"] not in ("autodiff",)]
    noisy_count = sum(1 for p in timed if p.get("noisy"))
    if timed and noisy_count * 2 >= len(timed):
        noisy = True
        warnings.append(f"{noisy_count} of {len(timed)} timed probes stayed noisy "
                        "(IQR/median of 10% or more)")
    return {
        "os": hostinfo.os_info()["platform"],
        "python": f"{platform.python_version()} ({platform.python_implementation()})",
        "cpu": cpu,
        "memory_gb": hostinfo.memory_gb(),
        "frameworks": frameworks,
        "accelerator": compare.accelerator(fw_envs),
        "threads": threads,
        "env_vars": hostinfo.env_vars(),
        "benchmark_index": before["median"],
        "benchmark_index_detail": {"unit": "pure-Python loop iterations per ms",
                                   "before": before, "after": after,
                                   "slow_below": SLOW_INDEX},
        "load_average": load,
        "noisy": noisy,
        "warnings": warnings,
    }
