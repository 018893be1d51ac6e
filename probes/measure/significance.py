"""A comparison of two frameworks from interleaved rounds: ratio, interval, significance."""

from __future__ import annotations

import statistics

from probes.catalog import NOISE_THRESHOLD
from probes.measure.stats import bootstrap_median, round_sig
from probes.records import Comparison

CONFIDENCE = 0.95
SIGN_AGREEMENT = 0.8  # share of rounds that must fall on the same side of 1.0


def compare(
    probe: str,
    metric: str,
    unit: str,
    numerator: str,
    denominator: str,
    numerator_seconds: list[float],
    denominator_seconds: list[float],
    *,
    distortion: str | None,
    threads: int | None,
    threshold: float = NOISE_THRESHOLD,
) -> Comparison:
    """Compare per-call times taken in the same rounds (round i of each, back to back).

    The rate ratio of round i is denominator time / numerator time; the comparison's ratio
    is the median over rounds, with a seeded bootstrap interval of that median. It is
    significant when the interval lies wholly outside [1/(1+threshold), 1+threshold] and
    at least 80% of the rounds agree in sign.
    """
    pairs = [
        (d / n)
        for n, d in zip(numerator_seconds, denominator_seconds, strict=False)
        if n > 0 and d > 0
    ]
    if not pairs:
        return Comparison(
            probe,
            metric,
            unit,
            numerator,
            denominator,
            None,
            None,
            CONFIDENCE,
            0,
            [],
            None,
            threshold,
            False,
            distortion is not None,
            distortion,
            verdict_text(numerator, denominator, metric, None, None, threshold, False, None),
            threads,
        )
    ratio = round_sig(statistics.median(pairs), 4)
    lo, hi = (round_sig(v, 4) for v in bootstrap_median(pairs, confidence=CONFIDENCE))
    agreement = sign_agreement(pairs, ratio)
    significant = clears(lo, hi, threshold) and agreement >= SIGN_AGREEMENT
    verdict = verdict_text(
        numerator, denominator, metric, ratio, (lo, hi), threshold, significant, distortion
    )
    return Comparison(
        probe=probe,
        metric=metric,
        unit=unit,
        numerator=numerator,
        denominator=denominator,
        ratio=ratio,
        interval=(lo, hi),
        confidence=CONFIDENCE,
        rounds=len(pairs),
        round_ratios=[round_sig(r, 4) for r in pairs],
        sign_agreement=round(agreement, 3),
        threshold=threshold,
        significant=significant,
        distorted=distortion is not None,
        reason=distortion,
        verdict=verdict,
        threads=threads,
    )


def verdict_text(
    numerator: str,
    denominator: str,
    metric: str,
    ratio: float | None,
    interval: tuple[float, float] | None,
    threshold: float,
    significant: bool,
    distortion: str | None,
) -> str:
    """The comparison's verdict in words, from its stored (rounded) figures: a cached run's
    verdict is checked against this (probes/run/consistency.py)."""
    if ratio is None or interval is None:
        return "not compared: no rounds completed"
    if distortion is not None:
        return f"not compared: {distortion}"
    lo, hi = (_bound(x, threshold) for x in interval)
    if significant:
        return (
            f"{numerator} reaches {ratio:.2f}x {denominator}'s {metric} "
            f"({CONFIDENCE:.0%} interval {lo}-{hi})"
        )
    figures = (
        f"({numerator}/{denominator} {ratio:.2f}, "
        f"{CONFIDENCE:.0%} interval {lo}-{hi}, threshold +/-{threshold:.0%})"
    )
    if not within_band(*interval, threshold):  # rules out neither a difference nor parity
        return f"inconclusive {figures}: the interval reaches past the threshold"
    return f"no measurable difference {figures}"


def _bound(value: float, threshold: float) -> str:
    """An interval bound in words: two decimals, or as many more (up to four) as it takes
    not to print it on the other side of the band's edge it lies beside (1.1003 as "1.10"
    would read as inside a +/-10% band it reaches past)."""
    edges = (1.0 / (1.0 + threshold), 1.0 + threshold)
    for places in (2, 3, 4):
        shown = f"{value:.{places}f}"
        if all(
            (float(shown) > e) == (value > e) and (float(shown) < e) == (value < e) for e in edges
        ):
            return shown
    return shown


def sign_agreement(ratios: list[float], ratio: float) -> float:
    """The share of rounds on the same side of 1.0 as the median ``ratio``."""
    above = sum(1 for r in ratios if r > 1.0) / len(ratios)
    return above if ratio >= 1.0 else 1.0 - above


def within_band(lo: float, hi: float, threshold: float) -> bool:
    """Whether the interval lo-hi lies wholly inside [1/(1+threshold), 1+threshold]: only
    then does it show no measurable difference (0.88-1.61 beside 10% shows nothing)."""
    return lo >= 1.0 / (1.0 + threshold) and hi <= 1.0 + threshold


def clears(lo: float, hi: float, threshold: float) -> bool:
    """Whether the interval lo-hi lies wholly outside [1/(1+threshold), 1+threshold]."""
    return lo > 1.0 + threshold or hi < 1.0 / (1.0 + threshold)
