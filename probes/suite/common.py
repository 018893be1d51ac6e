"""What every probe shares in the worker: its context, result shapes and the Recorder."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from probes.catalog import Budget
from probes.measure.stats import Metric
from probes.measure.timing import Timing

# A probe's own sizes live in its module (matmul.py, jit.py); these are shared.
DEFAULT_BATCH = 64
MAX_CPU_BATCH = 512  # larger workload batches are capped on CPU to keep the probe short


@dataclass
class Kernel:
    """One call a probe leaves behind, to be timed again in interleaved comparison rounds."""

    call: Callable[[], Any]
    sync: Callable[[Any], Any]
    block: int = 1


@dataclass
class Context:
    """What a probe needs to know about the run."""

    level: str
    budget: Budget
    workload: dict[str, Any] = field(default_factory=dict)
    options: dict[str, Any] = field(default_factory=dict)
    kernels: dict[str, Kernel] = field(default_factory=dict)  # kept for interleaved rounds

    @property
    def standard(self) -> bool:
        return self.level in ("standard", "full")


def ok(
    metrics: dict[str, Metric],
    params: dict[str, Any],
    *,
    noisy: list[str] | None = None,
    check: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """A successful probe result."""
    result: dict[str, Any] = {
        "status": "ok",
        "reason": None,
        "metrics": metrics,
        "params": params,
        "noisy": bool(noisy),
        "noisy_metrics": sorted(noisy or []),
    }
    if check is not None:
        result["check"] = check
    return result


def failed(
    reason: str, metrics: dict[str, Metric] | None = None, params: dict[str, Any] | None = None
) -> dict[str, Any]:
    """A probe that ran but whose result is wrong or unusable."""
    return {
        "status": "failed",
        "reason": reason,
        "metrics": metrics or {},
        "params": params or {},
        "noisy": False,
    }


def skipped(reason: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
    return {
        "status": "skipped",
        "reason": reason,
        "metrics": {},
        "params": params or {},
        "noisy": False,
    }


class Recorder:
    """Collects the metrics of one probe and remembers which were noisy."""

    def __init__(self) -> None:
        self.metrics: dict[str, Metric] = {}
        self.noisy: list[str] = []
        self.blocks: dict[str, int] = {}

    def time(self, name: str, timing: Timing, scale: float = 1.0, unit: str = "s") -> Metric:
        m = timing.seconds(unit=unit, scale=scale)
        return self._add(name, m, timing)

    def rate(self, name: str, timing: Timing, work: float, unit: str) -> Metric:
        return self._add(name, timing.rate(work, unit), timing)

    def put(self, name: str, m: Metric, noisy: bool = False) -> Metric:
        self.metrics[name] = m
        if noisy:
            self.noisy.append(name)
        return m

    def train_step(
        self, t: Timing, *, size: int, family: str, dtype_name: str, initial_loss: float
    ) -> dict[str, Any]:
        """Record a training step's timings; return the cross-framework loss check."""
        self.time("step_ms", t, 1e3, "ms")
        self.rate("steps_per_s", t, 1.0, "steps/s")
        self.rate("examples_per_s", t, float(size), "examples/s")
        rtol = 1e-3 if dtype_name == "float32" else 3e-2
        return {
            "name": f"{family} initial loss",
            "values": [initial_loss],
            "scale": 1.0,
            "rtol": rtol,
        }

    def _add(self, name: str, m: Metric, timing: Timing) -> Metric:
        self.blocks[name] = timing.block
        return self.put(name, m, timing.noisy)


def cpu_threads_available() -> int:
    """CPUs this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def batch_size(ctx: Context, on_accelerator: bool) -> tuple[int, int]:
    """(batch used, batch requested) from the workload hints."""
    requested = int(ctx.workload.get("batch_size") or DEFAULT_BATCH)
    used = requested if on_accelerator else min(requested, MAX_CPU_BATCH)
    return max(1, used), requested


def workload_dtype(ctx: Context) -> str:
    dtype = str(ctx.workload.get("dtype") or "float32")
    return dtype if dtype in ("float32", "bfloat16", "float16") else "float32"


def model_family(ctx: Context) -> str:
    family = str(ctx.workload.get("model_family") or "mlp")
    return family if family in ("mlp", "cnn", "transformer", "rnn") else "mlp"


def max_rss_bytes() -> float | None:
    """Peak resident memory of this process in bytes (None where unknown)."""
    try:
        import resource
    except ImportError:  # Windows
        return None
    import sys

    kib = float(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
    return kib if sys.platform == "darwin" else kib * 1024.0  # macOS reports bytes
