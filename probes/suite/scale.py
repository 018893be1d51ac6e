"""scale: a data-parallel step over every local device, through each framework's own engine."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from importlib import import_module
from typing import Any

from probes.catalog import FRAMEWORK_SPECS
from probes.measure.stats import exact, metric, ratio
from probes.measure.timing import samples_noisy
from probes.suite.backend import Backend
from probes.suite.common import Context, skipped


def run(b: Backend, ctx: Context) -> dict[str, Any]:
    """Data-parallel scaling through the framework's own engine (its catalog `scale` module)."""
    module = next((f.scale for f in FRAMEWORK_SPECS if f.id == b.name), None)
    if module is None:
        return skipped(f"the scale probe does not run on {b.name}")
    run_local: Callable[[Context, Backend], dict[str, Any]] = import_module(module).run_local
    return run_local(ctx, b)


def scaling_metrics(
    alone: Sequence[float], together: Sequence[float], devices: int, batch: int
) -> tuple[dict[str, Any], list[str]]:
    """Weak-scaling metrics from per-step seconds alone and with all devices; noisy names."""
    step_1 = metric([t * 1e3 for t in alone], "ms")
    step_n = metric([t * 1e3 for t in together], "ms")
    metrics = {
        "efficiency": ratio(step_1, step_n, "ratio"),
        "devices": exact(devices, "devices"),
        "step_ms_1": step_1,
        "step_ms_n": step_n,
        "examples_per_s_n": metric([devices * batch / t for t in together], "examples/s"),
    }
    noisy = [
        name for name, s in (("step_ms_1", alone), ("step_ms_n", together)) if samples_noisy(s)
    ]
    return metrics, noisy
