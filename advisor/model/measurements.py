"""The probe run as the advisor reads it: the one module that knows its keys.

``probes.run_probes`` returns a JSON-shaped dict (``{"probes": [...], "environment":
{...}, "cache": {...}}``). Here it becomes a :class:`ProbeRun` (typed views over the same
records, which stay byte-for-byte what the probes wrote, for the JSON report) and the
:class:`~advisor.model.facts.Facts` the rules read. When the probes package ships typed
records, only this module changes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, TypedDict, cast

from advisor.frameworks import DISPLAY_NAMES, FRAMEWORKS, REFERENCE
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


class Comparison(TypedDict, total=False):
    """Two frameworks compared on one rate in interleaved rounds (probes.records.Comparison)."""

    probe: str
    metric: str
    numerator: str
    denominator: str
    ratio: float | None
    interval: list[float] | None
    rounds: int
    significant: bool
    distorted: bool
    reason: str | None
    verdict: str
    decides: bool


def decides(c: Comparison) -> bool:
    """May a rule score this comparison? (The wire format's ``decides``; older: recomputed.)"""
    if "decides" in c:
        return bool(c["decides"])
    return bool(c.get("significant")) and not c.get("distorted")


@dataclass(frozen=True)
class ProbeRun:
    """A probe run: records, the machine's environment, the cache, the comparisons.

    ``comparisons`` is None for runs made before the probes compared frameworks in
    interleaved rounds (old caches, old fixtures): their ratio facts divide the medians.
    """

    probes: list[ProbeRecord] = field(default_factory=list)
    environment: dict[str, Any] = field(default_factory=dict)
    cache: dict[str, Any] | None = None
    comparisons: list[Comparison] | None = None

    @classmethod
    def from_dict(cls, run: dict[str, Any] | None) -> ProbeRun:
        """Read ``probes.run_probes``'s dict (None: nothing was measured)."""
        run = run or {}
        raw = run.get("comparisons")
        compared: list[Comparison] | None = None
        if isinstance(raw, list):
            compared = [cast(Comparison, c) for c in raw if isinstance(c, dict)]
        return cls(run.get("probes", []), run.get("environment", {}), run.get("cache"), compared)

    def comparison(self, probe: str, metric: str, numerator: str) -> Comparison | None:
        """The comparison of ``numerator`` against the reference framework on one rate."""
        wanted = (probe, metric, numerator, REFERENCE)
        for c in self.comparisons or []:
            if (
                c.get("probe"),
                c.get("metric"),
                c.get("numerator"),
                c.get("denominator"),
            ) == wanted:
                return c
        return None

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
    "workload_steps_per_second": ("workload", "steps_per_s"),
    "workload_mfu": ("workload", "mfu"),
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
    # a crash or an error says the installation is broken; a timeout beside probes that
    # finished says only that this machine (or a short ADVISOR_PROBE_TIMEOUT) is slow, so
    # timeouts count only when none of the framework's probes finished (a hang)
    values["failed"] = [
        f
        for f in FRAMEWORKS
        if any(fw == f and s == "failed" for fw, s in statuses)
        or (
            any(fw == f and s == "timeout" for fw, s in statuses)
            and not any(fw == f and s == "ok" for fw, s in statuses)
        )
    ]
    env = run.environment
    accel = env.get("accelerator") or {}
    kind = accel.get("kind") if isinstance(accel, dict) else None
    values["accelerator"] = kind if kind in ACCELERATORS else "cpu"
    values["accelerator_count"] = int(accel.get("count", 0)) if isinstance(accel, dict) else 0
    values["noisy"] = machine_too_busy(env, bool(run.comparisons))
    stand_aside: dict[str, str] = {}
    compared = {(c.get("probe"), c.get("metric")) for c in run.comparisons or []}
    for name, (fact, fw) in ratio_facts().items():
        numerator = getattr(values[fact], fw)
        denominator = getattr(values[fact], REFERENCE)
        if not (numerator and denominator):
            continue
        probe_id, metric = METRIC_FACTS[fact]
        if (probe_id, metric) not in compared:  # an older run, or a rate not compared in rounds
            if run.comparisons and not clear_of_noise(index, probe_id, metric, fw):
                stand_aside[name] = (
                    f"{DISPLAY_NAMES.get(fw, fw)}/{DISPLAY_NAMES[REFERENCE]} {probe_id} "
                    f"({metric}): no measurable difference (the medians' spreads overlap the "
                    f"+/-{NOISE_BAND:.0%} band)"
                )
                continue
            values[name] = numerator / denominator
            continue
        c = run.comparison(probe_id, metric, fw)
        ratio = c.get("ratio") if c is not None else None
        if c is not None and decides(c) and isinstance(ratio, (int, float)):
            values[name] = float(ratio)
        else:
            stand_aside[name] = comparison_text(c, probe_id, fw, metric)
    facts = Facts(**values)
    facts._stand_aside = stand_aside
    return facts


NOISE_BAND = 0.10  # as probes.catalog.NOISE_THRESHOLD: a difference smaller than this is noise


def machine_too_busy(env: dict[str, Any], compared_in_rounds: bool) -> bool:
    """Was the machine too busy to judge? For a run compared in interleaved rounds this is the
    rounds' distortion check (load and a calibration kernel, issue 13); the benchmark index's
    sample-to-sample spread is only a warning there, since it flickers on an idle machine.
    Older runs keep their overall noise verdict."""
    rounds = ((env.get("load") or {}).get("comparison_rounds") or {}) if compared_in_rounds else {}
    if isinstance(rounds, dict) and "distorted" in rounds:
        return bool(rounds["distorted"])
    return bool(env.get("noisy", False))


def clear_of_noise(
    index: dict[tuple[str, str], ProbeRecord], probe: str, metric: str, framework: str
) -> bool:
    """For a rate not compared in rounds: does its ratio to the reference stay outside
    1 +/- NOISE_BAND even at the pessimistic ends of both interquartile ranges?"""
    num = metric_value(index, probe, framework, metric)
    den = metric_value(index, probe, REFERENCE, metric)
    if num is None or den is None:
        return False
    n, dn = float(num["median"]), float(num.get("iqr") or 0.0) / 2
    d, dd = float(den["median"]), float(den.get("iqr") or 0.0) / 2
    if d - dd <= 0 or n <= 0:
        return False
    low, high = (n - dn) / (d + dd), (n + dn) / (d - dd)
    return high < 1 - NOISE_BAND or low > 1 + NOISE_BAND


def comparison_text(c: Comparison | None, probe_id: str, framework: str, metric: str) -> str:
    """'JAX/PyTorch train_step (steps_per_s): no measurable difference (...)', for a rule
    that stood aside."""
    pair = (
        f"{DISPLAY_NAMES.get(framework, framework)}/{DISPLAY_NAMES[REFERENCE]} {probe_id} "
        f"({metric})"
    )
    if c is None:
        return f"{pair}: not compared in interleaved rounds"
    return f"{pair}: {c.get('verdict') or c.get('reason') or 'no decisive comparison'}"
