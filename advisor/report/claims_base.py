"""The articles' figures and the thresholds by which the report judges their claims."""

from __future__ import annotations

import math
from typing import NamedTuple

from advisor.model.measurements import Metric, ProbeRecord, ProbeRun, metric_value
from advisor.report.labels import STATUS_TEXT, level_hint, name

Index = dict[tuple[str, str], ProbeRecord]

# --- The articles' own figures (CLAIMS.md, "The articles' experiments"). ---------------
ARTICLE_MATMUL_SECONDS = {"jax": 0.0059, "pytorch": 0.017}  # one call after 10 warm-ups
ARTICLE_MATMUL_WARMUPS = 10
ARTICLE_MATMUL_SIZE = 1000
MAX_MATMUL_SIZE = 1_000_000  # a side no matmul probe reaches; its cube stays finite
ARTICLE_GRAD_AT_2 = 7.0  # f(x) = x^2 + 3x + 5, f'(2) = 7
ARTICLE_GRAD_FRAMEWORKS = ("jax", "pytorch")  # "both frameworks": the claim is about these
ARTICLE_PERF_FACTOR = (4.0, 5.0)  # "4-5x faster in JAX"
ARTICLE_JIT_FRAMEWORKS = ("jax", "pytorch")  # the claim's examples: jax.jit, torch.compile

# --- How the report judges a claim (stated in the report itself). ----------------------
SEVERAL_TIMES = 3.0  # "several times faster" means at least this speed-up
CLEARLY_FASTER = 1.2  # below this a speed-up is too small to call faster
GRAD_TOLERANCE = 1e-4
MATMUL_HOLDS_RATIO = 2.0  # JAX at least this much faster counts as reproducing ~2.9x
PARITY_BAND = 1.10  # rates within 10% of each other count as the same speed


def missing_reason(run: ProbeRun, probe: str, fw: str) -> str:
    """Why a probe has no figure for a framework, in a few words."""
    if not run.probes:
        return "no probes ran"
    for p in run.probes:
        if p.get("id") == probe and p.get("framework") == fw:
            status = STATUS_TEXT.get(p.get("status", ""), p.get("status", ""))
            return f"{name(fw)} {status}" + (f" ({p['reason']})" if p.get("reason") else "")
    return f"the {probe} probe did not run for {name(fw)}{level_hint(probe)}"


def clearly_apart(a: Metric, b: Metric) -> bool:
    """True if two medians differ by more than half their IQRs combined."""
    gap = abs(float(a["median"]) - float(b["median"]))
    return gap > (float(a.get("iqr") or 0) + float(b.get("iqr") or 0)) / 2


def noise_note(run: ProbeRun, probe: str, frameworks: tuple[str, ...]) -> str:
    """A warning to append to a finding when its figures came from a noisy run."""
    noisy = bool(run.environment.get("noisy")) or any(
        p.get("noisy")
        for p in run.probes
        if p.get("id") == probe and p.get("framework") in frameworks
    )
    return (
        " The run was noisy, so confirm on an idle machine before relying on it." if noisy else ""
    )


def matmul_seconds(index: Index, fw: str) -> Metric | None:
    """Seconds per 1000x1000 matmul: the probe's own figure, or derived from GFLOP/s."""
    m = metric_value(index, "matmul", fw, "seconds")
    if m:
        return m
    rate = metric_value(index, "matmul", fw, "gflops")
    if not rate or rate["median"] <= 0:
        return None
    params = index[("matmul", fw)].get("params") or {}
    shape = params.get("shape")
    size = (
        params.get("n")
        or params.get("size")
        or (shape[0] if isinstance(shape, list) and shape else None)
        or ARTICLE_MATMUL_SIZE
    )
    # a foreign interpreter's worker (--python) writes any shape: ["abc"] or [1e300] had
    # stopped `recommend` with a traceback
    if isinstance(size, bool) or not isinstance(size, (int, float)):
        return None
    if not 0 < size <= MAX_MATMUL_SIZE:
        return None
    flops = 2.0 * float(size) ** 3
    median = flops / (rate["median"] * 1e9)
    iqr = median * float(rate.get("iqr") or 0) / rate["median"]
    if not (math.isfinite(median) and math.isfinite(iqr)):  # a rate of 5e-324 GFLOP/s
        return None
    return Metric(median=median, iqr=iqr, n=rate.get("n"), unit="s")


class Judged(NamedTuple):
    """A speed claim judged from interleaved rounds."""

    verdict: str
    ratio: float | None  # JAX's rate over PyTorch's
    words: str  # the comparison as the report's table states it
    significant: bool


def judged_by_rounds(run: ProbeRun, probe: str, metric: str, holds_at: float) -> Judged | None:
    """A speed claim judged from the interleaved comparison of JAX against PyTorch on one
    rate, as the report's comparison table judges it. None when the run has no comparison
    there (a run made before the probes compared in rounds): the claim then reads the two
    medians.

    A busy machine's comparison settles nothing ("not checked"); one without a measurable
    difference refutes a claim of ``holds_at`` times only when its interval stays below it.
    """
    c = run.comparison(probe, metric, "jax") if run.comparisons is not None else None
    if c is None:
        return None
    ratio, interval = c.get("ratio"), c.get("interval")
    words = c.get("verdict") or c.get("reason") or "no comparison"
    significant = bool(c.get("significant")) and not c.get("distorted")
    if ratio is None:
        return Judged("not checked", None, words, False)
    if interval and "interval" not in words:  # the probes' own words give it already
        words = f"95% interval {interval[0]:.2f}-{interval[1]:.2f}: {words}"
    if c.get("distorted"):
        verdict = "not checked"
    elif not significant:
        below = interval is not None and float(interval[1]) < holds_at
        verdict = "does not hold" if below else "not checked"
    elif ratio >= holds_at:
        verdict = "holds"
    else:
        verdict = "partly holds" if ratio > 1 else "does not hold"
    return Judged(verdict, ratio, words, significant)
