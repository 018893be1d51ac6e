"""The run's environment block: machine, frameworks, interpreters, load and the noise verdict."""

from __future__ import annotations

import platform
from typing import Any

from probes import catalog
from probes.env import host
from probes.env.interpreter import Interpreter
from probes.measure.agreement import accelerator
from probes.measure.calibrate import SLOW_INDEX
from probes.records import Environment, ProbeRecord

DRIFT_LIMIT = 0.15  # benchmark index change between before and after that flags drift


def environment(
    chosen: list[str],
    versions: dict[str, str | None],
    fw_envs: dict[str, dict[str, Any]],
    probes: list[ProbeRecord],
    before: dict[str, Any],
    after: dict[str, Any],
    load: float | None,
    warnings: list[str],
    interpreters: dict[str, Interpreter] | None = None,
    extra: dict[str, Any] | None = None,
) -> Environment:
    """Assemble the environment and add the machine's warnings to ``warnings``."""
    cpu = host.cpuinfo()
    frameworks: dict[str, Any] = {}
    threads: dict[str, Any] = {"available_cpus": cpu["available_cpus"]}
    for fw in catalog.FRAMEWORKS:
        info = fw_envs.get(fw, {})
        interp = (interpreters or {}).get(fw)
        installed = interp.has(fw) if interp is not None else host.is_installed(fw)
        frameworks[fw] = {
            "installed": installed,
            "version": info.get("version") or versions.get(fw),
            "devices": info.get("devices", []),
            "probed": fw in chosen,
            "build": info.get("build"),
            "import_s": round(float(info["import_s"]), 2) if "import_s" in info else None,
            "interpreter": interp.path if interp is not None else None,
            "worker_python": info.get("worker_python"),
        }
        if not installed and fw in chosen and fw in catalog.hidden_frameworks():
            warnings.append(
                f"{catalog.LABEL[fw]} is hidden by ${catalog.HIDE_ENV}, so it was not measured"
            )
        elif not installed and fw in chosen:
            warnings.append(
                f"{catalog.LABEL[fw]} is not installed, so it was not measured; install it "
                f"with: {catalog.INSTALL[fw]}"
            )
        if info.get("threads"):
            threads[fw] = info["threads"]
    noisy = _noise(probes, before, after, load, cpu["available_cpus"], warnings)
    data: dict[str, Any] = {
        "benchmark_index_detail": {
            "unit": "pure-Python loop iterations per ms",
            "before": before,
            "after": after,
            "slow_below": SLOW_INDEX,
        },
        "load_average": load,
    }
    if interpreters:
        seen: dict[str, dict[str, Any]] = {}
        for interp in interpreters.values():
            seen.setdefault(interp.path, interp.to_json())
        data["interpreters"] = list(seen.values())
    data.update(extra or {})
    return Environment(
        os=host.os_info()["platform"],
        python=f"{platform.python_version()} ({platform.python_implementation()})",
        cpu=cpu,
        memory_gb=host.memory_gb(),
        frameworks=frameworks,
        accelerator=accelerator(fw_envs),
        threads=threads,
        env_vars=host.env_vars(),
        benchmark_index=before["median"],
        noisy=noisy,
        warnings=warnings,
        extra=data,
    )


def _noise(
    probes: list[ProbeRecord],
    before: dict[str, Any],
    after: dict[str, Any],
    load: float | None,
    cpus: int,
    warnings: list[str],
) -> bool:
    """The machine's noise verdict (and its warnings)."""
    noisy = False
    if before["slow"]:
        warnings.append(
            f"this machine looks slow (benchmark index {before['median']:.0f} loop "
            f"iterations/ms, below {SLOW_INDEX:.0f}); its figures may not represent "
            "the hardware you will train on"
        )
    if before["noisy"] or after["noisy"]:
        noisy = True
        warnings.append(
            f"the benchmark index varied by {catalog.NOISE_THRESHOLD:.0%} or more "
            "between samples: the machine is busy or throttled, so small "
            "differences between frameworks are noise"
        )
    drift = abs(after["median"] - before["median"]) / before["median"] if before["median"] else 0
    if drift > DRIFT_LIMIT:
        noisy = True
        warnings.append(
            f"the machine's speed changed by {drift:.0%} during the probes "
            f"(benchmark index {before['median']:.0f} before, "
            f"{after['median']:.0f} after)"
        )
    if load is not None and load > 0.5 * cpus:
        warnings.append(
            f"the 1-minute load average was {load:.2f} on {cpus} CPU(s) before the "
            "probes: other work was running and may have slowed them"
        )
    timed = [p for p in probes if p.ok and catalog.BY_ID.get(p.id) and catalog.spec(p.id).timed]
    noisy_count = sum(1 for p in timed if p.noisy)
    if timed and noisy_count * 2 >= len(timed):
        noisy = True
        warnings.append(
            f"{noisy_count} of {len(timed)} timed probes stayed noisy "
            f"(IQR/median of {catalog.NOISE_THRESHOLD:.0%} or more)"
        )
    return noisy
