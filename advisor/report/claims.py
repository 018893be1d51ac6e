"""Section 6 of the report: the source articles' claims, rerun on this machine.

Each claim is judged "holds", "partly holds", "does not hold" or "not checked" by the
thresholds below, which the report states next to its findings.
"""

from __future__ import annotations

from typing import Any

from advisor.frameworks import FRAMEWORKS
from advisor.model.measurements import ProbeRun, metric_value
from advisor.report.claims_base import (
    ARTICLE_GRAD_AT_2,
    ARTICLE_GRAD_FRAMEWORKS,
    ARTICLE_MATMUL_SECONDS,
    ARTICLE_MATMUL_SIZE,
    ARTICLE_MATMUL_WARMUPS,
    GRAD_TOLERANCE,
    MATMUL_HOLDS_RATIO,
    PARITY_BAND,
    Index,
    Judged,
    clearly_apart,
    judged_by_rounds,
    level_hint,
    matmul_seconds,
    missing_reason,
    noise_note,
)
from advisor.report.claims_speed import claim_jit, claim_perf
from advisor.report.labels import and_join, name, relative_spread
from advisor.report.text import fmt_num


def claims(run: ProbeRun) -> list[dict[str, Any]]:
    """Each of the articles' claims, judged on this machine's measurements."""
    index = run.ok_index()
    return [
        claim_matmul(run, index),
        claim_grad(run, index),
        claim_jit(run, index),
        claim_perf(run, index),
    ]


def claim_matmul(run: ProbeRun, index: Index) -> dict[str, Any]:
    article = ARTICLE_MATMUL_SECONDS
    article_ratio = article["pytorch"] / article["jax"]
    claim: dict[str, Any] = {
        "id": "A-MATMUL",
        "title": f"The {ARTICLE_MATMUL_SIZE}x{ARTICLE_MATMUL_SIZE} matmul experiment",
        "claim": (
            f"JAX multiplies two {ARTICLE_MATMUL_SIZE}x{ARTICLE_MATMUL_SIZE} float32 matrices in "
            f"{article['jax']} s and PyTorch in {article['pytorch']} s, so JAX is about "
            f"{article_ratio:.1f}x faster (one timed call each, after "
            f"{ARTICLE_MATMUL_WARMUPS} warm-up calls)."
        ),
        "article_short": (
            f"JAX {article['jax']} s, PyTorch {article['pytorch']} s: JAX {article_ratio:.1f}x "
            "faster (one call each)"
        ),
        "rows": [],
        "verdict": "not checked",
    }
    measured = {fw: matmul_seconds(index, fw) for fw in ("jax", "pytorch")}
    for fw in ("jax", "pytorch"):
        m = measured[fw]
        rate = metric_value(index, "matmul", fw, "gflops")
        params = (index.get(("matmul", fw)) or {}).get("params") or {}
        claim["rows"].append(
            {
                "framework": name(fw),
                "article_s": article[fw],
                "median_s": m["median"] if m else None,
                "iqr_s": m.get("iqr") if m else None,
                "n": m.get("n") if m else None,
                "gflops": rate["median"] if rate else None,
                "spread": relative_spread(m) if m else None,
                "size": params.get("n") or params.get("size"),
            }
        )
    jax, torch = measured["jax"], measured["pytorch"]
    claim["why"] = (
        "The article timed one call of each. A single timed call mostly measures noise: the "
        "scheduler, clock-frequency changes, caches and, for JAX, asynchronous dispatch (a "
        "timer that does not wait for the result measures only the dispatch). Our figures are "
        "medians of many calls, with the IQR as the spread, and the article's hardware is not "
        "yours, so compare the ratio, not the seconds."
    )
    if not jax or not torch:
        missing = [
            missing_reason(run, "matmul", fw) for fw in ("jax", "pytorch") if not measured[fw]
        ]
        claim["finding"] = "Not checked: " + "; ".join(dict.fromkeys(missing)) + "."
        claim["measured_short"] = "not measured"
        return claim
    ratio = torch["median"] / jax["median"]
    times = f"JAX {fmt_num(jax['median'])} s, PyTorch {fmt_num(torch['median'])} s"
    claim["measured_short"] = f"{times} (medians)"
    spread = max(relative_spread(jax) or 0.0, relative_spread(torch) or 0.0)
    if spread:
        claim["why"] += (
            f" Here the middle half of the calls still spread over {spread * 100:.0f}% of the "
            "median."
        )
    rounds = judged_by_rounds(run, "matmul", "gflops", MATMUL_HOLDS_RATIO)
    if rounds is not None:  # the same interleaved comparison the report's table shows
        return _matmul_by_rounds(claim, rounds, times, article_ratio)
    if not clearly_apart(jax, torch) or 1 / PARITY_BAND < ratio < PARITY_BAND:
        gap = (
            "the gap is within their spread"
            if not clearly_apart(jax, torch)
            else f"{max(ratio, 1 / ratio):.2f}x apart, within {PARITY_BAND - 1:.0%}"
        )
        claim["verdict"] = "does not hold"
        claim["finding"] = (
            f"Does not hold here: the two take about the same time ({times}; {gap}), so "
            f"the article's {article_ratio:.1f}x gap does not appear."
        )
        claim["why"] += (
            " Both libraries hand a float32 matmul to an optimized kernel, so on the same "
            "hardware they tend to run at the same speed."
        )
    elif ratio >= MATMUL_HOLDS_RATIO:
        claim["verdict"] = "holds"
        claim["finding"] = (
            f"Holds here: JAX is {ratio:.1f}x faster ({times}), in line with the article's "
            f"{article_ratio:.1f}x."
        )
    elif ratio > 1:
        claim["verdict"] = "partly holds"
        claim["finding"] = (
            f"Partly holds here: JAX is faster, but by {ratio:.2f}x, not the article's "
            f"{article_ratio:.1f}x ({times})."
        )
    else:
        claim["verdict"] = "does not hold"
        claim["finding"] = (
            f"Does not hold here: PyTorch is {1 / ratio:.2f}x faster, the opposite of the "
            f"article ({times})."
        )
    claim["ratio"] = ratio
    claim["finding"] += noise_note(run, "matmul", ("jax", "pytorch"))
    return claim


def claim_grad(run: ProbeRun, index: Index) -> dict[str, Any]:
    claim: dict[str, Any] = {
        "id": "A-GRAD",
        "title": "The f'(2) = 7 check",
        "claim": (
            "For f(x) = x\u00b2 + 3x + 5, automatic differentiation in both frameworks gives "
            f"f'(2) = {ARTICLE_GRAD_AT_2:g}."
        ),
        "article_short": f"f'(2) = {ARTICLE_GRAD_AT_2:g} in both frameworks",
        "rows": [],
        "verdict": "not checked",
        "why": (
            "This is exact arithmetic, not a timing: f'(x) = 2x + 3, so any correct autodiff "
            "gives 7, and f''(x) = 2. A wrong value points to a broken install."
        ),
    }
    checked: dict[str, bool] = {}
    for fw in FRAMEWORKS:
        m = metric_value(index, "autodiff", fw, "grad_at_2")
        if not m:
            continue
        second = metric_value(index, "autodiff", fw, "second_derivative")
        checked[fw] = abs(float(m["median"]) - ARTICLE_GRAD_AT_2) <= GRAD_TOLERANCE
        claim["rows"].append(
            {
                "framework": name(fw),
                "grad_at_2": m["median"],
                "second_derivative": second["median"] if second else None,
                "ok": checked[fw],
            }
        )
    if not checked:
        claim["finding"] = "Not checked: " + grad_missing(run) + "."
        claim["measured_short"] = "not measured"
        return claim
    claim["measured_short"] = ", ".join(
        f"{r['framework']} {r['grad_at_2']:g}" for r in claim["rows"]
    )
    gave = {r["framework"]: r["grad_at_2"] for r in claim["rows"]}
    pair = ARTICLE_GRAD_FRAMEWORKS
    wrong = [fw for fw in pair if checked.get(fw) is False]
    unchecked = [fw for fw in pair if fw not in checked]
    others = and_join(
        [
            f"{name(fw)} gave {gave[name(fw)]:g}"
            + ("" if ok else ", not 7: check its installation")
            for fw, ok in checked.items()
            if fw not in pair
        ]
    )
    if wrong:
        claim["verdict"] = "does not hold"
        said = and_join([f"{name(fw)} gave {gave[name(fw)]:g}" for fw in wrong])
        claim["finding"] = f"Does not hold here: {said}."
    elif unchecked:  # the claim is about both: one alone checks half of it
        right = and_join([name(fw) for fw in pair if checked.get(fw)])
        claim["finding"] = (
            f"Not checked: the claim is about {and_join([name(fw) for fw in pair])} both; "
            + (f"{right} gives f'(2) = 7, but " if right else "")
            + "; ".join(missing_reason(run, "autodiff", fw) for fw in unchecked)
            + "."
        )
    else:
        claim["verdict"] = "holds"
        claim["finding"] = f"Holds here: {and_join([name(fw) for fw in pair])} both give f'(2) = 7."
    if others:
        claim["finding"] += f" Beside them, {others}."
    return claim


def grad_missing(run: ProbeRun) -> str:
    if not run.probes:
        return "no probes ran"
    return "the autodiff probe did not run" + level_hint("autodiff")


def _matmul_by_rounds(
    claim: dict[str, Any], rounds: Judged, times: str, article: float
) -> dict[str, Any]:
    """The matmul claim judged from interleaved rounds, the medians ``times`` beside."""
    verdict, ratio, words, significant = rounds
    claim["verdict"] = verdict
    claim["ratio"] = ratio
    claim["measured_short"] = (  # the figure the verdict reads; the medians are in the table
        f"JAX/PyTorch {ratio:.2f}x (interleaved rounds)"
        if ratio is not None
        else f"interleaved rounds failed; medians {times}"
    )
    if verdict == "not checked":
        claim["finding"] = (
            "Cannot tell here: the interleaved comparison of the two settles nothing ("
            + (f"JAX/PyTorch {ratio:.2f}x, " if ratio is not None else "")
            + f"{words}); the medians were {times}."
        )
    elif verdict == "holds":
        claim["finding"] = (
            f"Holds here: in interleaved rounds JAX multiplied {ratio:.1f}x as fast as PyTorch "
            f"({words}), in line with the article's {article:.1f}x."
        )
    elif verdict == "partly holds":
        claim["finding"] = (
            f"Partly holds here: in interleaved rounds JAX is faster, but by {ratio:.2f}x "
            f"({words}), not the article's {article:.1f}x."
        )
    elif significant and ratio is not None and ratio < 1:
        claim["finding"] = (
            f"Does not hold here: in interleaved rounds PyTorch is {1 / ratio:.2f}x faster "
            f"({words}), the opposite of the article."
        )
    else:
        claim["finding"] = (
            f"Does not hold here: interleaved rounds find no difference of the article's size "
            f"(JAX/PyTorch {ratio:.2f}x, {words}; medians {times}), so its {article:.1f}x gap "
            "does not appear."
        )
    return claim
