"""Across frameworks: do the results agree, and how does each rate compare with the best?"""

from __future__ import annotations

import math
from typing import Any

from probes.catalog import FRAMEWORKS
from probes.measure.stats import round_sig
from probes.records import Metric, ProbeRecord

ACCELERATOR_ORDER = ("tpu", "nvidia_gpu", "amd_gpu", "apple_silicon")
PEAK_METRICS = {
    "float32": ("gflops", "gflops_n256", "gflops_n512", "gflops_n2000"),
    "bfloat16": ("gflops_bf16",),
}


def check_agreement(probes: list[ProbeRecord]) -> list[str]:
    """Compare each ok probe's ``check`` values with the first framework's; return warnings.

    A probe whose values disagree gets ``check.agrees = False``: its speed is not
    comparable with the others' (they did not compute the same thing).
    """
    warnings = []
    by_id: dict[str, list[ProbeRecord]] = {}
    for probe in probes:
        if probe.ok and probe.check is not None:
            by_id.setdefault(probe.id, []).append(probe)
    for probe_id, group in by_id.items():
        group.sort(key=lambda p: FRAMEWORKS.index(p.framework))
        reference = group[0]
        ref_check = reference.check or {}
        ref_check.update(agrees=True, reference=reference.framework, max_rel_diff=0.0)
        for probe in group[1:]:
            check = probe.check or {}
            diff = _max_rel_diff(check, ref_check)
            rtol = max(_figure(check.get("rtol"), 1e-3), _figure(ref_check.get("rtol"), 1e-3))
            agrees = diff is not None and diff <= rtol
            check.update(
                agrees=agrees,
                reference=reference.framework,
                max_rel_diff=round_sig(diff, 3) if diff is not None else None,
            )
            if not agrees:
                warnings.append(
                    f"{probe_id}: {probe.framework} and {reference.framework} computed "
                    f"different results ({check.get('name')}; relative difference {diff}); "
                    "their speeds are not compared"
                )
    return warnings


def agrees(probe: ProbeRecord) -> bool:
    return probe.ok and bool((probe.check or {}).get("agrees", True))


def _max_rel_diff(check: dict[str, Any], ref: dict[str, Any]) -> float | None:
    values, ref_values = check.get("values"), ref.get("values")
    if not isinstance(values, list) or not isinstance(ref_values, list):
        return None
    if len(values) != len(ref_values) or not values:
        return None
    scale = max(_figure(check.get("scale"), 0.0), _figure(ref.get("scale"), 0.0), 1e-12)
    worst = 0.0
    for a, b in zip(values, ref_values, strict=True):
        if not isinstance(a, (int, float)) or not isinstance(b, (int, float)):
            return None
        worst = max(worst, abs(a - b) / max(abs(b), scale))
    return worst


def _figure(value: Any, default: float) -> float:
    """A check's scale or tolerance: a finite number, else ``default`` (a worker writes a
    NaN it computed as null, and a foreign one writes what it likes)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return default
    try:
        number = float(value)
    except OverflowError:
        return default
    return number if math.isfinite(number) else default


def add_share_of_best(probes: list[ProbeRecord]) -> None:
    """matmul: this framework's fp32 rate over the best fp32 rate measured here."""
    rated = [p for p in probes if p.id == "matmul" and agrees(p) and "gflops" in p.metrics]
    if not rated:
        return
    best = max(p.metrics["gflops"].median for p in rated)
    if best <= 0:
        return
    for probe in rated:
        share = _share(probe.metrics["gflops"], best, 4)
        if share is not None:
            probe.metrics["share_of_best"] = share


def add_mfu(probes: list[ProbeRecord]) -> None:
    """workload: achieved model GFLOP/s over the machine's matmul peak in the same dtype.

    The peak is the best matmul rate any framework reached in this run in that dtype
    (the workload probe's own large matmul, and the matmul probe's rates), so MFU is the
    share of what this machine demonstrably can do.
    """
    for probe in probes:
        if probe.id != "workload" or not probe.ok or "model_gflops" not in probe.metrics:
            continue
        dtype = str(probe.params.get("dtype", "float32"))
        candidates: list[tuple[float, str]] = []
        for other in probes:
            if other.id == "workload" and other.ok and other.params.get("dtype") == dtype:
                value = other.median("peak_gflops")
                if value:
                    candidates.append((value, f"{other.framework} workload peak matmul"))
            if other.id == "matmul" and other.ok:
                for name in PEAK_METRICS.get(dtype, ()):
                    value = other.median(name)
                    if value:
                        candidates.append((value, f"{other.framework} matmul {name}"))
        if not candidates:
            continue
        peak, source = max(candidates)
        mfu = _share(probe.metrics["model_gflops"], peak, 4)
        if mfu is None:
            continue
        probe.metrics["mfu"] = mfu
        probe.params["machine_peak_gflops"] = round_sig(peak, 5)
        probe.params["machine_peak_source"] = source


def _share(metric: Metric, whole: float, digits: int) -> Metric | None:
    """``metric`` over ``whole`` as a ratio, or None when it is not a finite number: a worker
    run by a foreign interpreter (--python) may report a rate of 5e-324, and a rate of up
    to 1e15 over it had made an MFU of inf (a traceback in `recommend`, `Infinity` in JSON)."""
    median, iqr = metric.median / whole, metric.iqr / whole
    if not (math.isfinite(median) and math.isfinite(iqr)):
        return None
    return Metric(round_sig(median, digits), round_sig(iqr, 3), metric.n, "ratio")


def accelerator(framework_envs: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """The best accelerator any framework saw: kind, count and names."""
    seen: dict[str, list[str]] = {}
    for info in framework_envs.values():
        kinds: dict[str, list[str]] = {}
        for device in info.get("devices") or []:
            if isinstance(device, dict):
                kinds.setdefault(str(device.get("kind")), []).append(str(device.get("name")))
        for kind, names in kinds.items():
            if len(names) > len(seen.get(kind, [])):
                seen[kind] = names
    for kind in ACCELERATOR_ORDER:
        if seen.get(kind):
            return {"kind": kind, "count": len(seen[kind]), "names": seen[kind]}
    return {"kind": "cpu", "count": 0, "names": []}
