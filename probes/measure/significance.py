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
            "not compared: no rounds completed",
            threads,
        )
    ratio = statistics.median(pairs)
    lo, hi = bootstrap_median(pairs, confidence=CONFIDENCE)
    above = sum(1 for r in pairs if r > 1.0) / len(pairs)
    agreement = above if ratio >= 1.0 else 1.0 - above
    upper, lower = 1.0 + threshold, 1.0 / (1.0 + threshold)
    significant = (lo > upper or hi < lower) and agreement >= SIGN_AGREEMENT
    if distortion is not None:
        verdict = f"not compared: {distortion}"
    elif significant:
        verdict = (
            f"{numerator} reaches {ratio:.2f}x {denominator}'s {metric} "
            f"({CONFIDENCE:.0%} interval {lo:.2f}-{hi:.2f})"
        )
    else:
        verdict = (
            f"no measurable difference ({numerator}/{denominator} {ratio:.2f}, "
            f"{CONFIDENCE:.0%} interval {lo:.2f}-{hi:.2f}, threshold +/-{threshold:.0%})"
        )
    return Comparison(
        probe=probe,
        metric=metric,
        unit=unit,
        numerator=numerator,
        denominator=denominator,
        ratio=round_sig(ratio, 4),
        interval=(round_sig(lo, 4), round_sig(hi, 4)),
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
