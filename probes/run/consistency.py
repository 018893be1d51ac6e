"""A cached run's figures agree with each other as a measured run's do.

``probes/run/trust.py`` checks a cached run's shape and ranges; these checks catch a
hand edit (or corruption that keeps the JSON valid) that would make the report contradict
itself: a comparison called significant whose interval crosses 1, or a matmul rate that
its own time per call does not give.
"""

from __future__ import annotations

import math
import statistics
from typing import Any

from probes.catalog import NOISE_THRESHOLD
from probes.measure.significance import SIGN_AGREEMENT

_ROUNDING = 1e-3  # a cached run's ratios and bounds are rounded to four digits


def comparison_agrees(comparison: dict[str, Any]) -> bool:
    """Whether the comparison says what a real one built from its own figures says (see
    probes/measure/significance.py): flags that are booleans, an interval in order with
    the ratio inside it, a ratio that is the median of its rounds, ``significant`` what the
    interval, threshold and rounds say, and ``decides`` what ``significant`` and
    ``distorted`` say. A hand-edited 'significant: true' beside an interval across 1 would
    have a rule score a difference the report calls noise."""
    flags = {k: comparison[k] for k in ("significant", "distorted", "decides") if k in comparison}
    if not all(isinstance(v, bool) for v in flags.values()):
        return False
    if not isinstance(comparison.get("verdict", "x"), str) or comparison.get("verdict") == "":
        return False
    significant, distorted = flags.get("significant", False), flags.get("distorted", False)
    if "decides" in flags and flags["decides"] != (significant and not distorted):
        return False
    ratio, interval = comparison.get("ratio"), comparison.get("interval")
    ratios = comparison.get("round_ratios", [])
    if ratio is None or interval is None or not ratios:
        return not significant  # nothing compared: never significant
    lo, hi = (float(v) for v in interval)
    slack = 1.0 + _ROUNDING
    if not (0 < lo <= hi and lo <= ratio * slack and ratio <= hi * slack):
        return False
    if abs(statistics.median(ratios) - ratio) > ratio * _ROUNDING:
        return False
    threshold = float(comparison.get("threshold", NOISE_THRESHOLD))
    upper, lower = 1.0 + threshold, 1.0 / (1.0 + threshold)
    above = sum(1 for r in ratios if r > 1.0) / len(ratios)
    agrees = (above if ratio >= 1.0 else 1.0 - above) >= SIGN_AGREEMENT
    surely_outside = lo > upper * slack or hi * slack < lower
    maybe_outside = lo * slack > upper or hi < lower * slack
    if significant:
        return maybe_outside and agrees
    return not (surely_outside and agrees)


def rate_matches_time(probe: dict[str, Any]) -> bool:
    """The matmul probe's rate and time come from the same timings (probes/suite/matmul.py:
    GFLOP/s = 2 n^3 / seconds / 1e9 per call; the medians of an even count differ a little),
    so a cached run whose two disagree by more than 2x was edited, not measured."""
    metrics, shape = probe["metrics"], probe.get("params", {}).get("shape")
    if probe["id"] != "matmul" or not {"gflops", "seconds"} <= metrics.keys():
        return True
    if not (isinstance(shape, list) and shape and _size(shape[0])):
        return True  # no size to check against (a run read back with its defaults)
    scale = _SECONDS.get(metrics["seconds"].get("unit", "s"))
    if scale is None:
        return False
    implied = 2.0 * float(shape[0]) ** 3 / 1e9 / (metrics["seconds"]["median"] * scale)
    return 0.5 <= metrics["gflops"]["median"] / implied <= 2.0


_SECONDS = {"s": 1.0, "ms": 1e-3}


def _size(value: Any) -> bool:
    """A matrix size a real run records: a finite positive number, not a boolean."""
    return (
        isinstance(value, (int, float))
        and not isinstance(value, bool)
        and math.isfinite(value)
        and 0 < value <= 1e6
    )
