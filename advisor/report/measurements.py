"""Section 5 of the report: the measurements on this machine."""

from __future__ import annotations

import re
from typing import Any

from advisor.decide.citations import load_snapshot
from advisor.frameworks import FRAMEWORKS, REGISTRY
from advisor.model.decision import Decision
from advisor.model.measurements import ProbeRecord, ProbeRun, metric_value
from advisor.report.labels import (
    NOISY_SPREAD,
    STATUS_TEXT,
    and_join,
    metric_label,
    name,
    probe_label,
    probe_rank,
    relative_spread,
)

Index = dict[tuple[str, str], ProbeRecord]


def probe_sort_key(p: ProbeRecord) -> tuple[int, int, str]:
    """Probes in the report's order, then frameworks in the registry's order."""
    pid = p.get("id", "")
    order = probe_rank(pid)
    fw = p.get("framework", "")
    return (order, FRAMEWORKS.index(fw) if fw in FRAMEWORKS else len(FRAMEWORKS), pid)


def measurements(run: ProbeRun, decision: Decision, level: str) -> dict[str, Any]:
    """The measurement rows, compile costs, matmul shares and warnings."""
    probes = sorted(run.probes, key=probe_sort_key)
    rows = []
    warnings: list[str] = []
    noisy: dict[str, list[str]] = {}
    for p in probes:
        status = p.get("status", "failed")
        if status != "ok":
            rows.append(_failed_row(p, status))
            if status in ("failed", "timeout"):
                warnings.append(
                    f"The {p.get('id')} probe {STATUS_TEXT[status]} for {name(p.get('framework'))}"
                    + (f": {p['reason']}" if p.get("reason") else ".")
                )
            continue
        rows.extend(_metric_rows(p))
        if p.get("noisy"):
            noisy.setdefault(p["id"], []).append(name(p["framework"]))
    if noisy:
        which = "; ".join(f"the {pid} probe for {and_join(fws)}" for pid, fws in noisy.items())
        warnings.insert(
            0,
            f"Noisy figures from {which}: their repeated timings spread widely, so treat "
            "them as rough.",
        )
    env = run.environment
    env_warnings = [_sentence(w) for w in env.get("warnings") or []]
    if env.get("noisy") and not env_warnings:
        warnings.append(
            "The machine was busy or unsteady while measuring (other processes, frequency "
            "scaling or a shared VM); rerun on an idle machine before trusting small differences."
        )
    warnings.extend(env_warnings)
    index = run.ok_index()
    measured = {fw for _, fw in index}  # a framework none of whose probes ran gets no note
    warnings.extend(_older_than_latest(env, measured))
    return {
        "ran": bool(probes),
        "level": level,
        "rows": rows,
        "compile": _compile_rows(index),
        "matmul": _matmul_shares(index),
        "warnings": warnings,
        "cache": run.cache,
        "moved": decision.measured_facts_moved,
        "skipped_rules": [s.model_dump(mode="json") for s in decision.skipped_rules],
    }


def _older_than_latest(env: dict[str, Any], measured: set[str]) -> list[str]:
    """A note for each framework in ``measured`` (those with a probe that ran ok) whose
    release is older than the newest one in the bundled PyPI snapshot, the one section 2's
    unpinned install line gets: its figures may differ."""
    snapshot = load_snapshot()
    notes = []
    for spec in REGISTRY:
        info = (env.get("frameworks") or {}).get(spec.id)
        if spec.id not in measured or not isinstance(info, dict):
            continue
        version = info.get("version")
        latest = next((r for d in spec.distributions if (r := snapshot.get(d))), None)
        if not isinstance(version, str) or latest is None or not _older(version, latest.version):
            continue
        notes.append(
            f"{spec.display} was measured at {version}; the newest release in the advisor's "
            f"PyPI snapshot of {snapshot.snapshot} is {latest.version} ({latest.released}), "
            "which an unpinned install (section 2) gets: its figures may differ from these."
        )
    return notes


_RELEASE = re.compile(r"[0-9]{1,9}(?:\.[0-9]{1,9}){0,9}")  # ASCII digits only: int() reads them


def _older(measured: str, latest: str) -> bool:
    """Whether release ``measured`` (``2.13.0+cpu``) is before ``latest`` (``2.15.0``);
    False when either is not plain numbers (a nightly, an unknown version)."""
    parts = []
    for text in (measured.split("+")[0], latest):
        if not _RELEASE.fullmatch(text):
            return False
        parts.append([int(n) for n in text.split(".")])
    width = max(len(p) for p in parts)  # 2.13 is 2.13.0, not before it
    mine, newest = (tuple(p + [0] * (width - len(p))) for p in parts)
    return mine < newest


def _failed_row(p: ProbeRecord, status: str) -> dict[str, Any]:
    return {
        "probe": p.get("id", "?"),
        "probe_label": probe_label(p.get("id", "?")),
        "framework": name(p.get("framework")),
        "metric": STATUS_TEXT.get(status, status),
        "median": None,
        "iqr": None,
        "spread": None,
        "n": None,
        "unit": "",
        "note": p.get("reason") or "",
        "ok": False,
    }


def _metric_rows(p: ProbeRecord) -> list[dict[str, Any]]:
    rows = []
    for metric, m in (p.get("metrics") or {}).items():
        if metric == "share_of_best" or not isinstance(m, dict):
            continue  # the matmul table below computes shares across frameworks
        spread = relative_spread(m)
        rows.append(
            {
                "probe": p["id"],
                "probe_label": probe_label(p["id"]),
                "framework": name(p["framework"]),
                "metric": metric_label(metric),
                "metric_id": metric,
                "median": m.get("median"),
                "iqr": m.get("iqr"),
                "spread": spread,
                "n": m.get("n"),
                "unit": m.get("unit", ""),
                "note": "noisy" if spread is not None and spread > NOISY_SPREAD else "",
                "ok": True,
            }
        )
    return rows


def _sentence(text: Any) -> str:
    """Capitalise the first letter and end with a full stop."""
    value = str(text).strip()
    if not value:
        return value
    value = value[0].upper() + value[1:]
    return value if value[-1] in ".!?" else value + "."


def _compile_rows(index: Index) -> list[dict[str, Any]]:
    """JIT compile latency per framework, and after how many calls it pays for itself."""
    rows = []
    for fw in FRAMEWORKS:
        compile_s = metric_value(index, "jit", fw, "compile_s")
        if not compile_s:
            continue
        eager = metric_value(index, "jit", fw, "eager_ms")
        compiled = metric_value(index, "jit", fw, "compiled_ms")
        speedup = metric_value(index, "jit", fw, "speedup")
        break_even = None
        if eager and compiled and eager["median"] > compiled["median"]:
            saved_s = (eager["median"] - compiled["median"]) / 1000.0
            break_even = compile_s["median"] / saved_s
        rows.append(
            {
                "framework": name(fw),
                "compile_s": compile_s["median"],
                "compile_iqr": compile_s.get("iqr"),
                "speedup": speedup["median"] if speedup else None,
                "break_even_calls": break_even,
            }
        )
    return rows


def _matmul_shares(index: Index) -> dict[str, Any]:
    """Every matmul rate metric, per framework, as a share of the best for that metric."""
    names: list[str] = []
    for (pid, _fw), p in index.items():
        if pid == "matmul":
            for metric in p.get("metrics") or {}:
                if metric.startswith("gflops") and metric not in names:
                    names.append(metric)
    names.sort(key=lambda m: (m != "gflops", m != "gflops_bf16", m))
    rows = []
    for metric in names:
        values = {fw: metric_value(index, "matmul", fw, metric) for fw in FRAMEWORKS}
        present = {fw: m for fw, m in values.items() if m}
        if not present:
            continue
        best = max(m["median"] for m in present.values())
        for fw, m in present.items():
            rows.append(
                {
                    "metric": metric_label(metric),
                    "framework": name(fw),
                    "gflops": m["median"],
                    "iqr": m.get("iqr"),
                    "share": m["median"] / best if best > 0 else None,
                    "best": m["median"] == best,
                }
            )
    rates = {fw: metric_value(index, "matmul", fw, "gflops") for fw in FRAMEWORKS}
    chart = [{"framework": name(fw), "gflops": m["median"]} for fw, m in rates.items() if m]
    return {"rows": rows, "chart": chart}
