"""Across frameworks: do the numbers agree, and how does each rate compare with the best?"""

from __future__ import annotations

from typing import Any

from probes.plan import FRAMEWORKS
from probes.stats import round_sig

ACCELERATOR_ORDER = ("tpu", "nvidia_gpu", "amd_gpu", "apple_silicon")


def check_agreement(probes: list[dict[str, Any]]) -> list[str]:
    """Compare each ok probe's ``check`` values with the first framework's; return warnings.

    A probe whose values disagree gets ``check.agrees = False``: its speed is not
    comparable with the others' (they did not compute the same thing).
    """
    warnings = []
    by_id: dict[str, list[dict[str, Any]]] = {}
    for probe in probes:
        if probe.get("status") == "ok" and isinstance(probe.get("check"), dict):
            by_id.setdefault(probe["id"], []).append(probe)
    for probe_id, group in by_id.items():
        group.sort(key=lambda p: FRAMEWORKS.index(p["framework"]))
        reference = group[0]
        ref_check = reference["check"]
        ref_check.update(agrees=True, reference=reference["framework"], max_rel_diff=0.0)
        for probe in group[1:]:
            check = probe["check"]
            diff = _max_rel_diff(check, ref_check)
            rtol = max(float(check.get("rtol", 1e-3)), float(ref_check.get("rtol", 1e-3)))
            agrees = diff is not None and diff <= rtol
            check.update(agrees=agrees, reference=reference["framework"],
                         max_rel_diff=round_sig(diff, 3) if diff is not None else None)
            if not agrees:
                warnings.append(
                    f"{probe_id}: {probe['framework']} and {reference['framework']} computed "
                    f"different results ({check.get('name')}; relative difference {diff}); "
                    "their speeds are not compared"
                )
    return warnings


def _max_rel_diff(check: dict[str, Any], ref: dict[str, Any]) -> float | None:
    values, ref_values = check.get("values"), ref.get("values")
    if not isinstance(values, list) or not isinstance(ref_values, list):
        return None
    if len(values) != len(ref_values) or not values:
        return None
    scale = max(float(check.get("scale", 0.0)), float(ref.get("scale", 0.0)), 1e-12)
    worst = 0.0
    for a, b in zip(values, ref_values, strict=True):
        if not isinstance(a, (int, float)) or not isinstance(b, (int, float)):
            return None
        worst = max(worst, abs(a - b) / max(abs(b), scale))
    return worst


def add_share_of_best(probes: list[dict[str, Any]]) -> None:
    """matmul: this framework's fp32 rate over the best fp32 rate measured here."""
    rated = [p for p in probes if p.get("id") == "matmul" and p.get("status") == "ok"
             and "gflops" in p.get("metrics", {})
             and (p.get("check") or {}).get("agrees", True)]
    if not rated:
        return
    best = max(float(p["metrics"]["gflops"]["median"]) for p in rated)
    if best <= 0:
        return
    for probe in rated:
        g = probe["metrics"]["gflops"]
        probe["metrics"]["share_of_best"] = {
            "median": round_sig(float(g["median"]) / best, 4),
            "iqr": round_sig(float(g["iqr"]) / best, 3),
            "n": int(g["n"]),
            "unit": "ratio",
        }


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
