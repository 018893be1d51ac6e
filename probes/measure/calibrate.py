"""A Lighthouse-style benchmark index: how fast this machine runs a fixed Python loop.

Lighthouse times a small fixed workload and reports iterations per second, so that
a reader can tell a slow or busy machine from a slow framework. Here the workload is
a pure-Python integer loop (no NumPy, no framework), timed in the parent, before and
after the probes.
"""

from __future__ import annotations

import time

from probes.catalog import NOISE_THRESHOLD
from probes.measure.stats import quartiles, rel_iqr, round_sig

LOOP = 50_000  # iterations per sample (a few ms)
SAMPLES = 15
SLOW_INDEX = 5_000.0  # below this many loop iterations per ms the machine is judged slow


def _loop(count: int) -> int:
    acc = 0
    for i in range(count):
        acc = (acc + i * i) % 1_000_003
    return acc


def benchmark_index(samples: int = SAMPLES) -> dict[str, float | int | bool]:
    """Loop iterations per millisecond: median, IQR, n and whether it looked noisy."""
    _loop(LOOP)  # warm-up
    rates = []
    for _ in range(samples):
        start = time.perf_counter()
        _loop(LOOP)
        rates.append(LOOP / ((time.perf_counter() - start) * 1e3))
    q1, median, q3 = quartiles(rates)
    spread = rel_iqr(rates)
    return {
        "median": round_sig(median, 4),
        "iqr": round_sig(q3 - q1, 3),
        "n": len(rates),
        "noisy": spread >= NOISE_THRESHOLD,
        "slow": median < SLOW_INDEX,
    }


def calibration_rate(loops: int = 20_000) -> float:
    """One short sample of the loop (a few ms): iterations per ms, for checks between rounds."""
    start = time.perf_counter()
    _loop(loops)
    return loops / ((time.perf_counter() - start) * 1e3)
