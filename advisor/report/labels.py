"""Labels and small helpers shared by the report's sections."""

from __future__ import annotations

from functools import cache
from types import ModuleType
from typing import Any

from advisor.frameworks import display_name

TOP_RULES = 8  # rules shown in full under "Why"; the rest go in a compact table
NOISY_SPREAD = 0.10  # IQR above this share of the median marks a figure as noisy

METRIC_LABELS = {
    "gflops": "float32 rate",
    "gflops_bf16": "bfloat16 rate",
    "seconds": "time per call",
    "share_of_best": "share of best rate",
    "eager_ms": "eager time per call",
    "compiled_ms": "compiled time per call",
    "speedup": "speed-up",
    "compile_s": "first compile",
    "grad_at_2": "f'(2)",
    "second_derivative": "f''(2)",
    "mlp_grad_ms": "MLP gradient time",
    "vmap_ms": "per-example gradients, vmap",
    "loop_ms": "per-example gradients, loop",
    "steps_per_s": "training steps per second",
    "efficiency": "scaling efficiency",
    "devices": "devices",
    "step_ms": "time per training step",
    "examples_per_s": "examples per second",
    "model_gflops": "model FLOP rate",
    "peak_gflops": "matmul peak (this framework)",
    "peak_memory_mb": "peak memory",
    "mfu": "model FLOP utilisation",
}
HARDWARE_LABELS = {
    "cpu": "CPU",
    "nvidia_gpu": "NVIDIA GPU",
    "amd_gpu": "AMD GPU",
    "tpu": "TPU",
    "apple_silicon": "Apple silicon",
    "aws_trainium": "AWS Trainium",
    "aws_inferentia": "AWS Inferentia",
    "intel_gaudi": "Intel Gaudi",
}
STATUS_TEXT = {
    "ok": "ok",
    "skipped": "skipped",
    "failed": "failed",
    "timeout": "timed out",
}
ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")

name = display_name  # the sections' short name for "display name of a framework id"


@cache
def _catalog() -> ModuleType:
    """probes.catalog (standard library only), imported when a report names a probe."""
    import probes.catalog

    return probes.catalog


def probe_label(probe: str) -> str:
    """The catalog's name of a probe ('Matrix multiply'); the id for an unknown probe."""
    found = _catalog().BY_ID.get(probe)
    return found.label if found else probe


def probe_rank(probe: str) -> int:
    """The probe's place in the catalog (the order the report lists them in)."""
    ids = [p.id for p in _catalog().PROBES]
    return ids.index(probe) if probe in ids else len(ids)


def level_hint(probe: str) -> str:
    """Which probe level runs ``probe``, as a short parenthesis."""
    found = _catalog().BY_ID.get(probe)
    return f" (it runs from --probes {found.level} up)" if found else ""


def ordinal(position: int) -> str:
    """1 -> 'first', 3 -> 'third'; '9th' beyond the words."""
    return ORDINALS[position - 1] if 1 <= position <= len(ORDINALS) else f"{position}th"


def metric_label(metric: str) -> str:
    """A reader's name for a metric, e.g. gflops_n256 -> 'float32 rate, n=256'."""
    if metric in METRIC_LABELS:
        return METRIC_LABELS[metric]
    if metric.startswith("gflops_n") and metric[8:].isdigit():
        return f"float32 rate, {metric[8:]}x{metric[8:]}"
    return metric.replace("_", " ")


def criterion_label(cid: str) -> str:
    """'team_style' -> 'Team style'."""
    return cid.replace("_", " ").capitalize()


def relative_spread(m: Any) -> float | None:
    """IQR as a share of the median (None when either is missing)."""
    median, iqr = m.get("median"), m.get("iqr")
    if not isinstance(iqr, (int, float)) or not median:
        return None
    return abs(float(iqr) / float(median))


def and_join(items: list[str]) -> str:
    """'a', 'a and b', 'a, b and c'."""
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]
