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
    """The environment as (item, value) rows, for a table; empty values are left out."""
    if not env:
        return []
    rows = [*_machine(env), *_frameworks(env), *_run(env)]
    return [{"item": item, "value": str(value)} for item, value in rows if value not in _EMPTY]


_EMPTY: tuple[Any, ...] = (None, "", [], {})
Row = tuple[str, Any]


def _machine(env: dict[str, Any]) -> list[Row]:
    """Operating system, Python, CPU, memory and accelerator."""
    rows: list[Row] = [("Operating system", env.get("os")), ("Python", env.get("python"))]
    cpu = env.get("cpu") or {}
    if isinstance(cpu, dict):
        cores = cpu.get("cores")
        logical = cpu.get("logical_cpus")
        count = f" ({cores} cores, {logical} logical CPUs)" if cores or logical else ""
        rows.append(("CPU", f"{cpu.get('model') or 'unknown'}{count}"))
        flags = cpu.get("flags") or []
        if isinstance(flags, list) and flags:
            shown = ", ".join(str(f) for f in flags[:24])
            more = f", and {len(flags) - 24} more" if len(flags) > 24 else ""
            rows.append(("CPU features", shown + more))
    if env.get("memory_gb") is not None:
        rows.append(("Memory", f"{fmt_num(env['memory_gb'])} GB"))
    accel = env.get("accelerator") or {}
    if isinstance(accel, dict) and accel:
        names = ", ".join(str(n) for n in accel.get("names") or [])
        kind = accel.get("kind") or "cpu"
        if kind == "cpu" or not accel.get("count"):
            rows.append(("Accelerator", "none (CPU only)"))
        else:
            label = HARDWARE_LABELS.get(kind, kind)
            shown = f"{accel['count']} x {label}" + (f" ({names})" if names else "")
            rows.append(("Accelerator", shown))
    return rows


def _frameworks(env: dict[str, Any]) -> list[Row]:
    """Each framework's version and the devices it saw, or "not installed"."""
    rows: list[Row] = []
    for fw, info in (env.get("frameworks") or {}).items():
        if not isinstance(info, dict):
            continue
        if not info.get("installed"):
            rows.append((name(fw), "not installed"))
            continue
        devices = info.get("devices")
        if isinstance(devices, list):
            devices_text = ", ".join(_device(d) for d in devices)
        else:
            devices_text = _plain(devices) if devices else ""
        version = f"{info.get('version') or 'unknown version'}"
        rows.append((name(fw), version + (f" on {devices_text}" if devices_text else "")))
    return rows


def _run(env: dict[str, Any]) -> list[Row]:
    """The load, threads, environment settings and benchmark index of the run."""
    rows: list[Row] = []
    load = env.get("load_average")
    if isinstance(load, (int, float)) and not isinstance(load, bool):
        rows.append(("Load average before probes", fmt_num(load)))
    rows.append(("CPUs and load during the probes", load_text(env)))
    threads = env.get("threads")
    rows.append(("Threads", _plain(threads) if threads not in (None, "", {}) else None))
    env_vars = env.get("env_vars") or {}
    if isinstance(env_vars, dict) and env_vars:
        settings = ", ".join(f"{k}={v}" for k, v in sorted(env_vars.items()))
        rows.append(("Environment variables", settings))
    index = env.get("benchmark_index")
    if isinstance(index, (int, float)) and not isinstance(index, bool):
        detail = env.get("benchmark_index_detail")
        unit = detail.get("unit") if isinstance(detail, dict) else None
        shown = f"{fmt_num(index)} {unit or 'loop iterations per ms'} (higher is faster)"
        rows.append(("Benchmark index", shown))
    elif index not in _EMPTY:
        rows.append(("Benchmark index", _plain(index)))
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
