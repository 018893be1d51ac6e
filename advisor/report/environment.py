"""Section 9 of the report (appendix): the machine's environment and each probe's method."""

from __future__ import annotations

from typing import Any

from advisor.frameworks import FRAMEWORKS
from advisor.model.measurements import ProbeRun
from advisor.report.labels import HARDWARE_LABELS, STATUS_TEXT, name
from advisor.report.measurements import probe_sort_key
from advisor.report.text import fmt_num
from advisor.report.workload import load_text


def environment(env: dict[str, Any]) -> list[dict[str, str]]:
    """The environment as (item, value) rows, for a table."""
    if not env:
        return []
    rows: list[dict[str, str]] = []

    def add(item: str, value: Any) -> None:
        if value not in (None, "", [], {}):
            rows.append({"item": item, "value": str(value)})

    add("Operating system", env.get("os"))
    add("Python", env.get("python"))
    cpu = env.get("cpu") or {}
    if isinstance(cpu, dict):
        cores = cpu.get("cores")
        logical = cpu.get("logical_cpus")
        count = f" ({cores} cores, {logical} logical CPUs)" if cores or logical else ""
        add("CPU", f"{cpu.get('model') or 'unknown'}{count}")
        flags = cpu.get("flags") or []
        if isinstance(flags, list) and flags:
            shown = ", ".join(str(f) for f in flags[:24])
            add(
                "CPU features", shown + (f", and {len(flags) - 24} more" if len(flags) > 24 else "")
            )
    if env.get("memory_gb") is not None:
        add("Memory", f"{fmt_num(env['memory_gb'])} GB")
    accel = env.get("accelerator") or {}
    if isinstance(accel, dict) and accel:
        names = ", ".join(str(n) for n in accel.get("names") or [])
        kind = accel.get("kind") or "cpu"
        if kind == "cpu" or not accel.get("count"):
            add("Accelerator", "none (CPU only)")
        else:
            label = HARDWARE_LABELS.get(kind, kind)
            add("Accelerator", f"{accel['count']} x {label}" + (f" ({names})" if names else ""))
    for fw, info in (env.get("frameworks") or {}).items():
        if not isinstance(info, dict):
            continue
        if info.get("installed"):
            devices = info.get("devices")
            if isinstance(devices, list):
                devices_text = ", ".join(_device(d) for d in devices)
            else:
                devices_text = _plain(devices) if devices else ""
            add(
                name(fw),
                f"{info.get('version') or 'unknown version'}"
                + (f" on {devices_text}" if devices_text else ""),
            )
        else:
            add(name(fw), "not installed")
    load = env.get("load_average")
    if isinstance(load, (int, float)) and not isinstance(load, bool):
        add("Load average before probes", fmt_num(load))
    add("CPUs and load during the probes", load_text(env))
    threads = env.get("threads")
    add("Threads", _plain(threads) if threads not in (None, "", {}) else None)
    env_vars = env.get("env_vars") or {}
    if isinstance(env_vars, dict) and env_vars:
        add("Environment variables", ", ".join(f"{k}={v}" for k, v in sorted(env_vars.items())))
    index = env.get("benchmark_index")
    if isinstance(index, (int, float)) and not isinstance(index, bool):
        detail = env.get("benchmark_index_detail")
        unit = detail.get("unit") if isinstance(detail, dict) else None
        add(
            "Benchmark index",
            f"{fmt_num(index)} {unit or 'loop iterations per ms'} (higher is faster)",
        )
    elif index not in (None, "", {}):
        add("Benchmark index", _plain(index))
    return rows


def _device(device: Any) -> str:
    """A device record as its name (or kind)."""
    if isinstance(device, dict):
        return str(device.get("name") or device.get("kind") or _plain(device))
    return str(device)


def _plain(value: Any) -> str:
    """Nested data as short text: 'a 1, b (c 2, d 3)'; lists joined with commas."""
    if isinstance(value, dict):
        parts = []
        for k, v in value.items():
            label = name(k) if k in FRAMEWORKS else str(k).replace("_", " ")
            inner = _plain(v)
            parts.append(f"{label} ({inner})" if isinstance(v, dict) else f"{label} {inner}")
        return ", ".join(parts)
    if isinstance(value, (list, tuple)):
        return ", ".join(_plain(v) for v in value)
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return fmt_num(value)
    if value == "":
        return "(empty)"
    return str(value)


def probe_method(run: ProbeRun) -> list[dict[str, str]]:
    """Each probe's parameters, one row per probe and framework that ran."""
    rows = []
    for p in sorted(run.probes, key=probe_sort_key):
        params = p.get("params") or {}
        text = ", ".join(
            f"{k}={_param(v)}" for k, v in params.items() if v not in (None, "", [], {})
        )
        seconds = p.get("seconds")
        rows.append(
            {
                "probe": p.get("id", "?"),
                "framework": name(p.get("framework")),
                "status": STATUS_TEXT.get(p.get("status", ""), str(p.get("status"))),
                "params": text,
                "seconds": fmt_num(seconds) if isinstance(seconds, (int, float)) else "",
            }
        )
    return rows


def _param(value: Any) -> str:
    if isinstance(value, (list, tuple)):
        if len(value) == 2 and all(isinstance(v, int) for v in value):
            return f"{value[0]}x{value[1]}"  # a shape
        return "[" + ", ".join(_param(v) for v in value) + "]"
    if isinstance(value, dict):
        return "(" + _plain(value) + ")"
    if isinstance(value, float):
        return fmt_num(value)
    return str(value)
