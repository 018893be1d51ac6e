"""Labels and small helpers shared by the report's sections."""

from __future__ import annotations

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
}
PROBE_LABELS = {
    "matmul": "Matrix multiply",
    "jit": "JIT compile",
    "autodiff": "Autodiff",
    "vmap": "Vectorized gradients",
    "train_step": "Training step",
    "scale": "Multi-device scaling",
}
PROBE_ORDER = list(PROBE_LABELS)
HARDWARE_LABELS = {
    "cpu": "CPU",
    "nvidia_gpu": "NVIDIA GPU",
    "amd_gpu": "AMD GPU",
    "tpu": "TPU",
    "apple_silicon": "Apple silicon",
}
STATUS_TEXT = {
    "ok": "ok",
    "skipped": "skipped",
    "failed": "failed",
    "timeout": "timed out",
}
ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")

name = display_name  # the sections' short name for "display name of a framework id"


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
