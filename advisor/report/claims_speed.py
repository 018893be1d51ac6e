"""The articles' speed claims: 'JIT makes code several times faster', '4-5x faster in JAX'."""

from __future__ import annotations

from typing import Any

from advisor.frameworks import FRAMEWORKS
from advisor.model.measurements import ProbeRun, metric_value
from advisor.report.claims_base import (
    ARTICLE_JIT_FRAMEWORKS,
    ARTICLE_PERF_FACTOR,
    CLEARLY_FASTER,
    SEVERAL_TIMES,
    Index,
    clearly_apart,
    judged_by_rounds,
    level_hint,
    missing_reason,
    noise_note,
)
from advisor.report.labels import and_join, name


def claim_jit(run: ProbeRun, index: Index) -> dict[str, Any]:
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
            "no probes ran" if not run.probes else ("the jit probe did not run" + level_hint("jit"))
        )
        if run.probes and any(p.get("id") == "jit" for p in run.probes):
            reason = "; ".join(
                missing_reason(run, "jit", p["framework"])
                for p in run.probes
                if p.get("id") == "jit"
            )
        claim["finding"] = f"Not checked: {reason}."
        claim["measured_short"] = "not measured"
        return claim
    # judged on the frameworks the claim names (jax.jit, torch.compile) when either was timed
    names = {name(f) for f in ARTICLE_JIT_FRAMEWORKS}
    named = [r for r in claim["rows"] if r["framework"] in names]
    judged = [r["verdict"] for r in named] or found
    claim["verdict"] = judged[0] if all(v == judged[0] for v in judged) else "partly holds"
    claim["measured_short"] = (
        ", ".join(f"{r['framework']} {r['speedup']:.1f}x" for r in claim["rows"]) + " over eager"
    )
    summary = {
        "holds": "Holds here",
        "partly holds": "Holds only in part here",
        "does not hold": "Does not hold here",
    }[claim["verdict"]]
    parts = [
        f"{r['framework']} {r['speedup']:.1f}x as fast as eager"
        if r["speedup"] >= 1
        else f"{r['framework']} slower than eager ({r['speedup']:.1f}x)"
        for r in claim["rows"]
    ]
    claim["finding"] = f"{summary}: on the jit probe, compiled code ran {and_join(parts)}."
    if named and len(named) < len(claim["rows"]):
        claim["finding"] += f" The verdict reads {and_join([r['framework'] for r in named])}."
    claim["finding"] += noise_note(run, "jit", tuple(FRAMEWORKS))
    measured = {r["framework"] for r in claim["rows"]}
    unmeasured = [  # the article names jax.jit and torch.compile: say which was not timed
        missing_reason(run, "jit", fw) for fw in ARTICLE_JIT_FRAMEWORKS if name(fw) not in measured
    ]
    if unmeasured:
        claim["finding"] += " Not measured: " + "; ".join(unmeasured) + "."
    return claim


def claim_perf(run: ProbeRun, index: Index) -> dict[str, Any]:
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
        rounds = judged_by_rounds(run, probe, metric, low)  # as the comparison table says
        compared, source = None, "medians"
        if rounds is not None and rounds.ratio is None:  # the rounds failed: medians only
            verdict, compared = "not checked", f"by the medians of separate runs; {rounds.words}"
        elif rounds is not None and rounds.ratio is not None:
            verdict, ratio, source = rounds.verdict, rounds.ratio, "interleaved rounds"
            compared = f"in interleaved rounds ({rounds.words})"
        elif not clearly_apart(jax, torch) or abs(ratio - 1) < CLEARLY_FASTER - 1:
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
                "compared": compared,
                "source": source,  # where the ratio comes from; jax and pytorch are medians
                "verdict": verdict,
            }
        )
    if not verdicts:
        reason = (
            "no probes ran"
            if not run.probes
            else ("it needs JAX and PyTorch figures from the same probe")
        )
        claim["finding"] = f"Not checked: {reason}."
        claim["measured_short"] = "not measured"
        return claim
    decided = [v for v in verdicts if v != "not checked"]  # a busy machine settles nothing
    claim["verdict"] = (
        "not checked"
        if not decided
        else decided[0]
        if all(v == decided[0] for v in decided)
        else "partly holds"
    )
    parts = [
        f"{r['ratio']:.2f}x PyTorch's {r['measure']}"
        + (f" {r['compared']}" if r["compared"] else "")
        for r in claim["rows"]
    ]
    claim["measured_short"] = "JAX/PyTorch " + ", ".join(
        f"{r['ratio']:.2f}x ({r['measure']}, {r['source']})" for r in claim["rows"]
    )
    lead = {
        "holds": "Holds here",
        "partly holds": "Partly holds here",
        "does not hold": "Does not hold here",
        "not checked": "Cannot tell here",
    }[claim["verdict"]]
    claim["finding"] = (
        f"{lead}: JAX reaches {and_join(parts)} (above 1x means JAX is faster), where the "
        f"article says {low:g}-{high:g}x."
    )
    measured = {r["measure"] for r in claim["rows"]}
    used = [probe for probe, _metric_name, label in pairs if label in measured]
    for probe in used:
        note = noise_note(run, probe, ("jax", "pytorch"))
        if note:
            claim["finding"] += note
            break
    return claim
