"""Replicate timing after torch.utils.benchmark's ``blocked_autorange`` and JAX's guide.

Warm up first; size a block of calls so that timer overhead is negligible; call the
synchronising function after every call (``block_until_ready`` for JAX,
``torch.cuda.synchronize`` on a GPU) before the clock stops; take blocks until the
IQR/median is under the target or the time cap is reached. Framework-neutral: the
caller passes the call and the sync.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from probes.catalog import NOISE_THRESHOLD, Budget
from probes.measure.stats import Metric, metric, quartiles, rel_iqr

MIN_BLOCK_SECONDS = 1e-3  # a block is at least this long ...
OVERHEAD_FACTOR = 1e4  # ... and at least this many times the timer's own overhead
MAX_REPS = 10_000


@dataclass
class Timing:
    """Seconds per call, one sample per block."""

    per_call: list[float]
    block: int
    overhead: float
    warmup_calls: int
    capped: bool = False
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def median(self) -> float:
        return quartiles(self.per_call)[1]

    @property
    def noisy(self) -> bool:
        return rel_iqr(self.per_call) >= NOISE_THRESHOLD

    def seconds(self, unit: str = "s", scale: float = 1.0) -> Metric:
        """Time per call as a metric (``scale`` 1e3 with unit 'ms' for milliseconds)."""
        return metric([t * scale for t in self.per_call], unit)

    def rate(self, work: float, unit: str) -> Metric:
        """``work`` per second (for example GFLOP per call / seconds per call)."""
        return metric([work / t for t in self.per_call if t > 0], unit)


def timer_overhead(samples: int = 21) -> float:
    """Median cost of reading the clock twice."""
    clock = time.perf_counter
    costs = []
    for _ in range(samples):
        t0 = clock()
        costs.append(clock() - t0)
    return sorted(costs)[len(costs) // 2]


def measure(call: Callable[[], Any], sync: Callable[[Any], Any], budget: Budget) -> Timing:
    """Time ``sync(call())`` per the method above; returns per-call seconds."""
    clock = time.perf_counter

    def run_block(count: int) -> float:
        start = clock()
        for _ in range(count):
            sync(call())
        return clock() - start

    # Warm-up: at least two calls (caches, lazy initialisation, allocator), then until warm.
    warm_start = clock()
    warmup_calls = 0
    while warmup_calls < 2 or (clock() - warm_start < budget.warmup_time and warmup_calls < 50):
        run_block(1)
        warmup_calls += 1

    overhead = timer_overhead()
    target_block = max(MIN_BLOCK_SECONDS, overhead * OVERHEAD_FACTOR)
    count = 1
    first = run_block(1)
    if first < target_block:
        count = max(1, math.ceil(target_block / max(first, 1e-9)))

    samples: list[float] = []
    start = clock()
    capped = False
    while True:
        samples.append(run_block(count) / count)
        elapsed = clock() - start
        if len(samples) >= MAX_REPS:
            capped = True
            break
        if elapsed >= budget.max_time and (len(samples) >= 3 or elapsed >= 2 * budget.max_time):
            capped = rel_iqr(samples) >= budget.target_rel_iqr
            break
        steady = len(samples) >= budget.min_reps and rel_iqr(samples) < budget.target_rel_iqr
        if elapsed >= budget.min_time and steady:
            break
    return Timing(
        per_call=samples, block=count, overhead=overhead, warmup_calls=warmup_calls, capped=capped
    )


def fixed_blocks(run_block: Callable[[int], float], count: int, reps: int) -> list[float]:
    """Per-call seconds of ``reps`` blocks of ``count`` calls (for lock-step distributed runs)."""
    return [run_block(count) / count for _ in range(reps)]


def samples_noisy(samples: Sequence[float]) -> bool:
    """True when IQR/median is at or above the noise threshold."""
    return rel_iqr(samples) >= NOISE_THRESHOLD


def window(
    call: Callable[[], Any], sync: Callable[[Any], Any], seconds: float, block: int
) -> list[float]:
    """Per-call seconds of blocks of ``block`` calls, taken for about ``seconds`` (one round).

    Used for interleaved comparisons: the caller sizes the block once, then every round
    of every framework takes blocks for the same wall time.
    """
    clock = time.perf_counter
    samples: list[float] = []
    end = clock() + seconds
    while not samples or clock() < end:
        start = clock()
        for _ in range(block):
            sync(call())
        samples.append((clock() - start) / block)
    return samples


def block_size(call: Callable[[], Any], sync: Callable[[Any], Any]) -> int:
    """Calls per block so that one block lasts at least MIN_BLOCK_SECONDS (after a warm-up)."""
    clock = time.perf_counter
    for _ in range(2):
        sync(call())
    start = clock()
    sync(call())
    first = clock() - start
    target = max(MIN_BLOCK_SECONDS, timer_overhead() * OVERHEAD_FACTOR)
    return max(1, math.ceil(target / max(first, 1e-9)))
