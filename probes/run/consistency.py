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

from probes.catalog import LEVELS, NOISE_THRESHOLD, planned
from probes.measure.significance import SIGN_AGREEMENT, clears, sign_agreement, verdict_text

_ROUNDING = 1e-3  # a cached run's ratios and bounds are rounded to four digits


def comparison_agrees(comparison: dict[str, Any]) -> bool:
    """Whether the comparison says what a real one built from its own figures says (see
    probes/measure/significance.py): flags that are booleans, as many rounds as round
    ratios, ``distorted`` exactly when a reason is given, an interval in order with the
    ratio inside it, a ratio that is the median of its rounds, ``significant`` what the
    interval, threshold and rounds say, ``decides`` what ``significant`` and ``distorted``
    say, and the verdict the words those figures give. A hand-edited 'significant: true'
    beside an interval across 1 would have a rule score a difference the report calls noise."""
    flags = {k: comparison[k] for k in ("significant", "distorted", "decides") if k in comparison}
    if not all(isinstance(v, bool) for v in flags.values()):
        return False
    significant, distorted = flags.get("significant", False), flags.get("distorted", False)
    if "decides" in flags and flags["decides"] != (significant and not distorted):
        return False
    ratios = comparison.get("round_ratios", [])
    if "rounds" in comparison and comparison["rounds"] != len(ratios):
        return False
    reason = comparison.get("reason")
    if "distorted" in flags and distorted != (reason is not None):
        return False
    if not _figures_agree(comparison, significant, ratios):
        return False
    if "verdict" not in comparison:
        return True
    interval = comparison.get("interval")
    words = verdict_text(
        str(comparison.get("numerator")),
        str(comparison.get("denominator")),
        str(comparison.get("metric")),
        comparison.get("ratio"),
        (float(interval[0]), float(interval[1])) if interval else None,
        float(comparison.get("threshold", NOISE_THRESHOLD)),
        significant,
        reason if distorted and isinstance(reason, str) else None,
    )
    return comparison["verdict"] == words


def _figures_agree(comparison: dict[str, Any], significant: bool, ratios: list[Any]) -> bool:
    """The ratio, interval and rounds agree with each other and with ``significant``."""
    ratio, interval = comparison.get("ratio"), comparison.get("interval")
    if ratio is None or interval is None or not ratios:
        return not significant and ratio is None and interval is None and not ratios
    lo, hi = (float(v) for v in interval)
    slack = 1.0 + _ROUNDING
    if not (0 < lo <= hi and lo <= ratio * slack and ratio <= hi * slack):
        return False
    if abs(statistics.median(ratios) - ratio) > ratio * _ROUNDING:
        return False
    threshold = float(comparison.get("threshold", NOISE_THRESHOLD))
    agrees = sign_agreement(ratios, ratio) >= SIGN_AGREEMENT
    if significant:  # within the rounding, either way
        return clears(lo * slack, hi / slack, threshold) and agrees
    return not (clears(lo / slack, hi * slack, threshold) and agrees)


def rate_matches_time(probe: dict[str, Any]) -> bool:
    """The matmul probe's rate and time come from the same timings (probes/suite/matmul.py:
    GFLOP/s = 2 n^3 / seconds / 1e9 per call). The two medians differ only where the middle
    calls of an even count differ (a busy machine can make that several times), so a cached
    run whose two disagree by more than 10x was edited, not measured."""
    metrics, shape = probe["metrics"], probe.get("params", {}).get("shape")
    if probe["id"] != "matmul" or not {"gflops", "seconds"} <= metrics.keys():
        return True
    if not (isinstance(shape, list) and shape and _size(shape[0])):
        return True  # no size to check against (a run read back with its defaults)
    scale = _SECONDS.get(metrics["seconds"].get("unit", "s"))
    if scale is None:
        return False
    seconds = metrics["seconds"]["median"] * scale
    work = 2.0 * float(shape[0]) ** 3 / 1e9
    if not (seconds > 0 and work > 0 and math.isfinite(work / seconds)):
        return False
    return 0.1 <= metrics["gflops"]["median"] / (work / seconds) <= 10.0


_SECONDS = {"s": 1.0, "ms": 1e-3}


def _size(value: Any) -> bool:
    """A matrix size a real run records: a finite positive number, not a boolean."""
    return (
        isinstance(value, (int, float))
        and not isinstance(value, bool)
        and math.isfinite(value)
        and 1 <= value <= 1e6
    )


def comparisons_match_run(run: dict[str, Any]) -> bool:
    """Each comparison belongs to its run: it divides two different frameworks of the run,
    neither of them one the run found not installed, for a probe the run holds, and it is
    distorted, for the same reasons, exactly when the run's own log of the comparison
    rounds says the machine was too busy (every comparison shares the rounds' verdict,
    probes/run/rounds.py). A hand edit had shown "JAX / PyTorch 3.00, rules may score it"
    beside "JAX: not installed" and "too busy to compare"."""
    frameworks = run.get("frameworks")  # absent from a hand-made run: nothing to hold it to
    environment = run.get("environment", {})
    found = environment.get("frameworks", {})
    probes = {p.get("id") for p in run.get("probes", [])}
    rounds = (environment.get("load") or {}).get("comparison_rounds")
    for comparison in run.get("comparisons", []):
        pair = (comparison["numerator"], comparison["denominator"])
        if pair[0] == pair[1] or (frameworks is not None and not set(pair) <= set(frameworks)):
            return False
        if any(isinstance(found.get(f), dict) and found[f].get("installed") is False for f in pair):
            return False
        if comparison["probe"] not in probes:
            return False
        if isinstance(rounds, dict) and isinstance(rounds.get("distorted"), bool):
            reasons = rounds.get("reasons")
            if not (isinstance(reasons, list) and all(isinstance(r, str) for r in reasons)):
                return False
            expected = "; ".join(reasons) if rounds["distorted"] else None
            if bool(comparison.get("distorted")) != rounds["distorted"]:
                return False
            if comparison.get("reason") != expected:
                return False
    return True


def probes_match_run(run: dict[str, Any]) -> bool:
    """Each probe record belongs to its run, as a measured run's do (probes/run/framework.py
    keeps one record per probe the catalog plans for the framework at the run's level): no
    probe and framework twice, a probe the catalog plans for that framework at that level, a
    framework of the run, and no figures for one the run found not installed. A hand edit had
    shown two float32 rates for JAX (72 and 361 GFLOP/s, the verdict's claims taking the
    second), TensorFlow's figures beside "installed: no", and a training step in a quick run."""
    level, frameworks = run.get("level"), run.get("frameworks")
    found = run.get("environment", {}).get("frameworks", {})
    seen: set[tuple[str, str]] = set()
    for probe in run.get("probes", []):
        pair = (probe["id"], probe["framework"])
        if pair in seen or (frameworks is not None and pair[1] not in frameworks):
            return False
        seen.add(pair)
        if level is not None and (level not in LEVELS or pair[0] not in planned(pair[1], level)):
            return False
        entry = found.get(pair[1])
        if probe["status"] == "ok" and isinstance(entry, dict) and entry.get("installed") is False:
            return False
    return True
