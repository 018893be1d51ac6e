"""Robust summaries of replicate samples: median, interquartile range, n."""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Sequence
from typing import Any

Metric = dict[str, Any]


def quartiles(samples: Sequence[float]) -> tuple[float, float, float]:
    """(q1, median, q3) with linear interpolation; a single sample has zero spread."""
    data = sorted(float(x) for x in samples)
    if not data:
        raise ValueError("no samples")
    if len(data) == 1:
        return data[0], data[0], data[0]
    q1, q2, q3 = statistics.quantiles(data, n=4, method="inclusive")
    return q1, q2, q3


def rel_iqr(samples: Sequence[float]) -> float:
    """IQR divided by the median (inf when the median is zero)."""
    q1, q2, q3 = quartiles(samples)
    return (q3 - q1) / abs(q2) if q2 else math.inf


def round_sig(value: float, digits: int = 5) -> float:
    """Round to ``digits`` significant digits (keeps JSON readable, not more precise than real)."""
    if value == 0 or not math.isfinite(value):
        return float(value)
    return float(f"{value:.{digits}g}")


def metric(samples: Sequence[float], unit: str) -> Metric:
    """The contract's ``{median, iqr, n, unit}`` for a list of samples."""
    q1, q2, q3 = quartiles(samples)
    return {"median": round_sig(q2), "iqr": round_sig(q3 - q1), "n": len(samples), "unit": unit}


def exact(value: float, unit: str) -> Metric:
    """A single computed value (not a timing): n=1, no spread."""
    return {"median": float(value), "iqr": 0.0, "n": 1, "unit": unit}


def single(value: float, unit: str) -> Metric:
    """One measured duration or count (n=1, so no spread), rounded like the others."""
    return {"median": round_sig(float(value)), "iqr": 0.0, "n": 1, "unit": unit}


def ratio(numerator: Metric, denominator: Metric, unit: str) -> Metric:
    """numerator/denominator of two medians; the IQR is propagated in relative terms."""
    num, den = float(numerator["median"]), float(denominator["median"])
    value = num / den if den else math.inf
    rel = math.hypot(_rel(numerator), _rel(denominator))
    n = min(int(numerator["n"]), int(denominator["n"]))
    return {"median": round_sig(value), "iqr": round_sig(abs(value) * rel), "n": n, "unit": unit}


def bootstrap_median(
    values: Sequence[float], *, confidence: float = 0.95, resamples: int = 2000, seed: int = 0
) -> tuple[float, float]:
    """A percentile bootstrap interval of the median of ``values`` (seeded: repeatable)."""
    data = [float(v) for v in values]
    if len(data) < 2:
        return (data[0], data[0]) if data else (math.nan, math.nan)
    rng = random.Random(seed)
    medians = sorted(statistics.median(rng.choices(data, k=len(data))) for _ in range(resamples))
    tail = (1.0 - confidence) / 2
    lo = medians[int(tail * (resamples - 1))]
    hi = medians[round((1.0 - tail) * (resamples - 1))]
    return lo, hi


def _rel(m: Metric) -> float:
    median = float(m["median"])
    return float(m["iqr"]) / abs(median) if median else 0.0
