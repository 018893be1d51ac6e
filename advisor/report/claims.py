"""Section 6 of the report: the source articles' claims, rerun on this machine.

Each claim is judged "holds", "partly holds", "does not hold" or "not checked" by the
thresholds below, which the report states next to its findings.
"""

from __future__ import annotations

from typing import Any

from advisor.frameworks import FRAMEWORKS
from advisor.report.labels import STATUS_TEXT, and_join, metric_value, name, relative_spread
from advisor.report.text import fmt_num

# --- The articles' own figures (CLAIMS.md, "The articles' experiments"). ---------------
ARTICLE_MATMUL_SECONDS = {"jax": 0.0059, "pytorch": 0.017}  # one call after 10 warm-ups
ARTICLE_MATMUL_WARMUPS = 10
ARTICLE_MATMUL_SIZE = 1000
ARTICLE_GRAD_AT_2 = 7.0  # f(x) = x^2 + 3x + 5, f'(2) = 7
ARTICLE_PERF_FACTOR = (4.0, 5.0)  # "4-5x faster in JAX"

# --- How the report judges a claim (stated in the report itself). ----------------------
SEVERAL_TIMES = 3.0  # "several times faster" means at least this speed-up
CLEARLY_FASTER = 1.2  # below this a speed-up is too small to call faster
GRAD_TOLERANCE = 1e-4
MATMUL_HOLDS_RATIO = 2.0  # JAX at least this much faster counts as reproducing ~2.9x
PARITY_BAND = 1.10  # rates within 10% of each other count as the same speed


# --- The claims -------------------------------------------------------------


def _missing_reason(data: dict[str, Any], probe: str, fw: str) -> str:
    """Why a probe has no figure for a framework, in a few words."""
    if not data["probes"]:
        return "no probes ran"
    for p in data["probes"]:
        if p.get("id") == probe and p.get("framework") == fw:
            status = STATUS_TEXT.get(p.get("status", ""), p.get("status", ""))
            return f"{name(fw)} {status}" + (f" ({p['reason']})" if p.get("reason") else "")
    return f"the {probe} probe did not run for {name(fw)}{_level_hint(probe)}"


def _level_hint(probe: str) -> str:
    """Which probe level runs ``probe``, as a short parenthesis."""
    levels = {
        "matmul": "quick",
        "autodiff": "quick",
        "jit": "standard",
        "vmap": "standard",
        "train_step": "standard",
        "scale": "full",
    }
    level = levels.get(probe)
    return f" (it runs from --probes {level} up)" if level else ""


def _clearly_apart(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """True if two medians differ by more than half their IQRs combined."""
    gap = abs(float(a["median"]) - float(b["median"]))
    return gap > (float(a.get("iqr") or 0) + float(b.get("iqr") or 0)) / 2


def claims(data: dict[str, Any], index: dict[tuple[str, str], dict[str, Any]]) -> list[dict]:
    return [
        _claim_matmul(data, index),
        _claim_grad(data, index),
        _claim_jit(data, index),
        _claim_perf(data, index),
    ]


def _matmul_seconds(index: dict, fw: str) -> dict[str, Any] | None:
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
    flops = 2.0 * float(size) ** 3
    median = flops / (rate["median"] * 1e9)
    iqr = median * float(rate.get("iqr") or 0) / rate["median"]
    return {"median": median, "iqr": iqr, "n": rate.get("n"), "unit": "s"}


def _claim_matmul(data: dict[str, Any], index: dict) -> dict[str, Any]:
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
    measured = {fw: _matmul_seconds(index, fw) for fw in ("jax", "pytorch")}
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
            _missing_reason(data, "matmul", fw) for fw in ("jax", "pytorch") if not measured[fw]
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
    if not _clearly_apart(jax, torch) or 1 / PARITY_BAND < ratio < PARITY_BAND:
        gap = (
            "the gap is within their spread"
            if not _clearly_apart(jax, torch)
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
    claim["finding"] += _noise_note(data, "matmul", ("jax", "pytorch"))
    return claim


def _noise_note(data: dict[str, Any], probe: str, frameworks: tuple[str, ...]) -> str:
    """A warning to append to a finding when its figures came from a noisy run."""
    noisy = bool((data.get("environment") or {}).get("noisy")) or any(
        p.get("noisy")
        for p in data["probes"]
        if p.get("id") == probe and p.get("framework") in frameworks
    )
    return (
        " The run was noisy, so confirm on an idle machine before relying on it." if noisy else ""
    )


def _claim_grad(data: dict[str, Any], index: dict) -> dict[str, Any]:
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
    results = []
    for fw in FRAMEWORKS:
        m = metric_value(index, "autodiff", fw, "grad_at_2")
        if not m:
            continue
        second = metric_value(index, "autodiff", fw, "second_derivative")
        ok = abs(float(m["median"]) - ARTICLE_GRAD_AT_2) <= GRAD_TOLERANCE
        results.append(ok)
        claim["rows"].append(
            {
                "framework": name(fw),
                "grad_at_2": m["median"],
                "second_derivative": second["median"] if second else None,
                "ok": ok,
            }
        )
    if not results:
        claim["finding"] = "Not checked: " + _grad_missing(data) + "."
        claim["measured_short"] = "not measured"
        return claim
    claim["measured_short"] = ", ".join(
        f"{r['framework']} {r['grad_at_2']:g}" for r in claim["rows"]
    )
    if all(results):
        claim["verdict"] = "holds"
        frameworks = [r["framework"] for r in claim["rows"]]
        subject = and_join(frameworks) + (
            " both give"
            if len(frameworks) == 2
            else " gives"
            if len(frameworks) == 1
            else " all give"
        )
        claim["finding"] = f"Holds here: {subject} f'(2) = 7."
    else:
        claim["verdict"] = "does not hold"
        wrong = and_join(
            [f"{r['framework']} gave {r['grad_at_2']:g}" for r in claim["rows"] if not r["ok"]]
        )
        claim["finding"] = f"Does not hold here: {wrong}."
    return claim


def _grad_missing(data: dict[str, Any]) -> str:
    if not data["probes"]:
        return "no probes ran"
    return "the autodiff probe did not run" + _level_hint("autodiff")


def _claim_jit(data: dict[str, Any], index: dict) -> dict[str, Any]:
    claim: dict[str, Any] = {
        "id": "A-JIT",
        "title": "\u201cJIT makes code several times faster\u201d",
        "claim": "Compiling with JIT (jax.jit, torch.compile) makes code several times faster.",
        "article_short": "several times faster",
        "rows": [],
        "verdict": "not checked",
        "why": (
            f"We count at least {SEVERAL_TIMES:g}x as 'several times' and under "
            f"{CLEARLY_FASTER:g}x as no real gain. How much JIT helps depends on the code: it "
            "fuses chains of small element-wise operations and removes per-operation Python "
            "overhead, while one large matmul already runs as a single optimized kernel and "
            "gains little. The first call pays the compile time."
        ),
    }
    found = []
    for fw in FRAMEWORKS:
        m = metric_value(index, "jit", fw, "speedup")
        if not m:
            continue
        value = float(m["median"])
        verdict = (
            "holds"
            if value >= SEVERAL_TIMES
            else "partly holds"
            if value >= CLEARLY_FASTER
            else "does not hold"
        )
        compile_s = metric_value(index, "jit", fw, "compile_s")
        found.append(verdict)
        claim["rows"].append(
            {
                "framework": name(fw),
                "speedup": value,
                "iqr": m.get("iqr"),
                "n": m.get("n"),
                "compile_s": compile_s["median"] if compile_s else None,
                "verdict": verdict,
            }
        )
    if not found:
        reason = (
            "no probes ran"
            if not data["probes"]
            else ("the jit probe did not run" + _level_hint("jit"))
        )
        if data["probes"] and any(p.get("id") == "jit" for p in data["probes"]):
            reason = "; ".join(
                _missing_reason(data, "jit", p["framework"])
                for p in data["probes"]
                if p.get("id") == "jit"
            )
        claim["finding"] = f"Not checked: {reason}."
        claim["measured_short"] = "not measured"
        return claim
    claim["verdict"] = found[0] if all(v == found[0] for v in found) else "partly holds"
    parts = [f"{r['framework']} {r['speedup']:.1f}x" for r in claim["rows"]]
    claim["measured_short"] = ", ".join(parts) + " over eager"
    summary = {
        "holds": "Holds here",
        "partly holds": "Holds only in part here",
        "does not hold": "Does not hold here",
    }[claim["verdict"]]
    claim["finding"] = (
        f"{summary}: on the jit probe, compiled code beat eager by {and_join(parts)}."
    )
    return claim


def _claim_perf(data: dict[str, Any], index: dict) -> dict[str, Any]:
    low, high = ARTICLE_PERF_FACTOR
    claim: dict[str, Any] = {
        "id": "A-PERF",
        "title": "\u201c4-5x faster in JAX\u201d",
        "claim": f"JAX is {low:g}-{high:g}x faster than PyTorch.",
        "article_short": f"JAX {low:g}-{high:g}x faster than PyTorch",
        "rows": [],
        "verdict": "not checked",
        "why": (
            "Speed depends on the workload, the hardware and how carefully each side is "
            "compiled; the keras.io benchmarks (2024) found no backend fastest everywhere. A "
            "probe on this machine speaks for this machine only."
        ),
    }
    pairs = [
        ("train_step", "steps_per_s", "training steps per second"),
        ("matmul", "gflops", "float32 matmul rate"),
    ]
    verdicts = []
    for probe, metric, label in pairs:
        jax, torch = (
            metric_value(index, probe, "jax", metric),
            metric_value(index, probe, "pytorch", metric),
        )
        if not jax or not torch or not torch["median"]:
            continue
        ratio = float(jax["median"]) / float(torch["median"])
        if not _clearly_apart(jax, torch) or abs(ratio - 1) < CLEARLY_FASTER - 1:
            verdict = "does not hold"
        elif ratio >= low:
            verdict = "holds"
        elif ratio > 1:
            verdict = "partly holds"
        else:
            verdict = "does not hold"
        verdicts.append(verdict)
        claim["rows"].append(
            {
                "measure": label,
                "jax": jax["median"],
                "pytorch": torch["median"],
                "unit": jax.get("unit", ""),
                "ratio": ratio,
                "verdict": verdict,
            }
        )
    if not verdicts:
        reason = (
            "no probes ran"
            if not data["probes"]
            else ("it needs JAX and PyTorch figures from the same probe")
        )
        claim["finding"] = f"Not checked: {reason}."
        claim["measured_short"] = "not measured"
        return claim
    claim["verdict"] = verdicts[0] if all(v == verdicts[0] for v in verdicts) else "partly holds"
    parts = [f"{r['ratio']:.2f}x PyTorch's {r['measure']}" for r in claim["rows"]]
    claim["measured_short"] = "JAX/PyTorch " + ", ".join(
        f"{r['ratio']:.2f}x ({r['measure']})" for r in claim["rows"]
    )
    lead = {
        "holds": "Holds here",
        "partly holds": "Partly holds here",
        "does not hold": "Does not hold here",
    }[claim["verdict"]]
    claim["finding"] = (
        f"{lead}: JAX reaches {and_join(parts)} (above 1x means JAX is faster), where the "
        f"article says {low:g}-{high:g}x."
    )
    measured = {r["measure"] for r in claim["rows"]}
    used = [probe for probe, _metric_name, label in pairs if label in measured]
    for probe in used:
        note = _noise_note(data, probe, ("jax", "pytorch"))
        if note:
            claim["finding"] += note
            break
    return claim
