"""The probe run as the advisor reads it: the one module that knows its keys.

``probes.run_probes`` returns a JSON-shaped dict (``{"probes": [...], "environment":
{...}, "cache": {...}}``). Here it becomes a :class:`ProbeRun` (typed views over the same
records, which stay byte-for-byte what the probes wrote, for the JSON report) and the
:class:`~advisor.model.facts.Facts` the rules read. When the probes package ships typed
records, only this module changes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, TypedDict

from advisor.frameworks import FRAMEWORKS, REFERENCE
from advisor.model.facts import Facts, PerFramework, ratio_facts


class Metric(TypedDict, total=False):
    """One measured figure: the median of n repeats and its spread."""

    median: float
    iqr: float
    n: int | None
    unit: str


class ProbeRecord(TypedDict, total=False):
    """One probe on one framework, as the probes package reports it."""

    id: str
    framework: str
    status: str  # ok, skipped, failed, timeout
    reason: str | None
    metrics: dict[str, Metric]
    params: dict[str, Any]
    noisy: bool
    seconds: float


@dataclass(frozen=True)
class ProbeRun:
    """A probe run: its records, the machine's environment and the cache information."""

    probes: list[ProbeRecord] = field(default_factory=list)
    environment: dict[str, Any] = field(default_factory=dict)
    cache: dict[str, Any] | None = None

    @classmethod
    def from_dict(cls, run: dict[str, Any] | None) -> ProbeRun:
        """Read ``probes.run_probes``'s dict (None: nothing was measured)."""
        run = run or {}
        return cls(run.get("probes", []), run.get("environment", {}), run.get("cache"))

    def ok_index(self) -> dict[tuple[str, str], ProbeRecord]:
        """(probe id, framework) -> the record, for probes that ran ok."""
        return {(p["id"], p["framework"]): p for p in self.probes if p.get("status") == "ok"}


def metric_value(
    index: dict[tuple[str, str], ProbeRecord], probe: str, framework: str, metric: str
) -> Metric | None:
    """The metric of an ok probe, if it has a numeric median."""
    record = index.get((probe, framework))
    if not record:
        return None
    found = (record.get("metrics") or {}).get(metric)
    if isinstance(found, dict) and isinstance(found.get("median"), (int, float)):
        return found
    return None


# fact field: (probe id, metric name)
METRIC_FACTS = {
    "matmul_gflops": ("matmul", "gflops"),
    "matmul_bf16_gflops": ("matmul", "gflops_bf16"),
    "jit_speedup": ("jit", "speedup"),
    "compile_seconds": ("jit", "compile_s"),
    "vmap_speedup": ("vmap", "speedup"),
    "train_steps_per_second": ("train_step", "steps_per_s"),
    "scaling_efficiency": ("scale", "efficiency"),
}
ACCELERATORS = ("tpu", "nvidia_gpu", "amd_gpu", "apple_silicon", "cpu")


def facts_from_probes(run: dict[str, Any] | ProbeRun | None) -> Facts:
    """Derive Facts from a probe run (all None when nothing ran)."""
    if not isinstance(run, ProbeRun):
        run = ProbeRun.from_dict(run)
    if not run.probes:
        return Facts()
    index = run.ok_index()
    values: dict[str, Any] = {}
    for fact, (probe_id, metric) in METRIC_FACTS.items():
        per = {}
        for fw in FRAMEWORKS:
            found = metric_value(index, probe_id, fw, metric)
            if found is not None:
                per[fw] = float(found["median"])
        values[fact] = PerFramework(**per)
    statuses = [(p["framework"], p.get("status")) for p in run.probes]
    values["installed"] = [
        f for f in FRAMEWORKS if any(fw == f and s != "skipped" for fw, s in statuses)
    ]
    values["failed"] = [
        f for f in FRAMEWORKS if any(fw == f and s in ("failed", "timeout") for fw, s in statuses)
    ]
    env = run.environment
    accel = env.get("accelerator") or {}
    kind = accel.get("kind") if isinstance(accel, dict) else None
    values["accelerator"] = kind if kind in ACCELERATORS else "cpu"
    values["accelerator_count"] = int(accel.get("count", 0)) if isinstance(accel, dict) else 0
    values["noisy"] = bool(env.get("noisy", False))
    for name, (fact, fw) in ratio_facts().items():
        numerator = getattr(values[fact], fw)
        denominator = getattr(values[fact], REFERENCE)
        if numerator and denominator:
            values[name] = numerator / denominator
    return Facts(**values)
