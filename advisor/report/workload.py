"""The report's view of the workload probe, the interleaved comparisons and the interpreters.

The workload probe runs the profile's model family, compiled, in each framework and reports
its model FLOP utilisation (MFU: the model's GFLOP/s over the machine's measured matmul
peak). The comparisons say whether a difference between two frameworks is measurable on
this machine, or whether the machine was too busy to tell.
"""

from __future__ import annotations

import math
from typing import Any

from advisor.frameworks import FRAMEWORKS
from advisor.model.measurements import Comparison, ProbeRun, decides, metric_value
from advisor.report.labels import and_join, metric_label, name, probe_label
from advisor.report.text import fmt_num
from probes.measure.significance import within_band

FAMILY_NAMES = {"mlp": "MLP", "cnn": "CNN", "rnn": "RNN", "transformer": "transformer"}
WIDE_SPREAD = 1.5  # MFUs further apart than this factor are quoted as a range


def _pct(value: float) -> str:
    """A share in percent, whole above 1% ('60'), one decimal below ('0.4')."""
    return f"{value:.0f}" if value >= 1 else f"{value:.1f}"


def workload(run: ProbeRun) -> dict[str, Any]:
    """MFU per framework (table and chart rows), the machine's peak, and one sentence."""
    index = run.ok_index()
    rows = []
    peak: dict[str, Any] = {}
    for fw in FRAMEWORKS:
        record = index.get(("workload", fw))
        mfu = metric_value(index, "workload", fw, "mfu")
        if record is None or mfu is None:
            continue
        params = record.get("params") or {}
        step = metric_value(index, "workload", fw, "step_ms")
        rate = metric_value(index, "workload", fw, "model_gflops")
        memory = metric_value(index, "workload", fw, "peak_memory_mb")
        compile_s = metric_value(index, "workload", fw, "compile_s")
        rows.append(
            {
                "framework": name(fw),
                "framework_id": fw,
                "compiled": bool(params.get("compiled")),
                "compiler": str(params.get("compiler") or ""),
                "dtype": str(params.get("dtype") or ""),
                "batch": params.get("batch"),
                "device": str(params.get("device") or ""),
                "step_ms": step["median"] if step else None,
                "model_gflops": rate["median"] if rate else None,
                "mfu": float(mfu["median"]),
                "mfu_percent": round(100.0 * float(mfu["median"]), 1),
                "peak_memory_mb": memory["median"] if memory else None,
                "compile_s": compile_s["median"] if compile_s else None,
                "note": str(params.get("note") or ""),
            }
        )
        if not peak and isinstance(params.get("machine_peak_gflops"), (int, float)):
            peak = {
                "gflops": float(params["machine_peak_gflops"]),
                "source": str(params.get("machine_peak_source") or ""),
                "model": FAMILY_NAMES.get(str(params.get("model")), str(params.get("model"))),
            }
    compared = [c for c in run.comparisons or [] if c.get("probe") == "workload"]
    return {
        "ran": bool(rows),
        "rows": rows,
        "peak": peak,
        "sentence": _sentence(rows, peak.get("model") or "model", compared) if rows else "",
    }


def _sentence(rows: list[dict[str, Any]], model: str, compared: list[Comparison]) -> str:
    """What the workload figures mean for the project, in one plain sentence."""
    fws = and_join([r["framework"] for r in rows])
    shares = [r["mfu_percent"] for r in rows]
    if len(rows) == 1:
        return (
            f"On this machine {fws} reaches {_pct(shares[0])}% of the matmul peak on your "
            f"{model}; no other framework was measured to compare it with."
        )
    if max(shares) > WIDE_SPREAD * max(min(shares), 1e-9):
        reach = f"reach between {_pct(min(shares))}% and {_pct(max(shares))}%"
    else:
        reach = f"reach about {_pct(sum(shares) / len(shares))}%"
    if any(c.get("distorted") for c in compared):
        return (
            f"On this machine {fws} {reach} of the matmul peak on your {model}, but the machine "
            "was too busy to compare them fairly: rerun on an idle machine before reading "
            "speed into these figures."
        )
    decisive = [c for c in compared if decides(c) and _ratio(c)]
    if not decisive:
        if not compared:
            return (
                f"On this machine {fws} {reach} of the matmul peak on your {model}; they were "
                "not compared in interleaved rounds, so treat small differences as noise."
            )
        return (
            f"On this machine {fws} {reach} of the matmul peak on your {model}; speed is not "
            "a reason to choose."
        )
    best = max(decisive, key=lambda c: abs(math.log(_ratio(c))))
    ratio = _ratio(best)
    faster, slower = (
        (best["numerator"], best["denominator"])
        if ratio > 1
        else (best["denominator"], best["numerator"])
    )
    share = {r["framework_id"]: r["mfu_percent"] for r in rows}
    return (
        f"On this machine {name(faster)} trains your {model} {fmt_num(max(ratio, 1 / ratio), 2)}x "
        f"faster than {name(slower)} ({_pct(share.get(faster, 0))}% against "
        f"{_pct(share.get(slower, 0))}% of the matmul peak); speed favours {name(faster)}."
    )


def _ratio(c: Comparison) -> float:
    value = c.get("ratio")
    return float(value) if isinstance(value, (int, float)) and value > 0 else 0.0


def _no_difference(c: Comparison) -> str:
    """'no measurable difference' when the interval lies within the threshold band, else
    'inconclusive': an interval that reaches past the band either way rules out neither a
    difference nor its absence (0.885-1.61 beside a 10% threshold is no evidence of parity)."""
    interval, threshold = c.get("interval"), c.get("threshold")
    if (
        isinstance(interval, list)
        and len(interval) == 2
        and all(isinstance(v, (int, float)) and v > 0 for v in interval)
        and isinstance(threshold, (int, float))
        and not within_band(float(interval[0]), float(interval[1]), float(threshold))
    ):
        return "inconclusive: the interval reaches past the threshold, so not scored"
    return "no measurable difference"


def comparisons(run: ProbeRun) -> list[dict[str, Any]]:
    """One row per interleaved comparison: the ratio, its interval and what it may decide."""
    rows = []
    for c in run.comparisons or []:
        interval = c.get("interval")
        if c.get("distorted"):
            outcome = f"distorted: {c.get('reason') or 'the machine was too busy'}"
        elif decides(c):
            outcome = "a measurable difference: rules may score it"
        else:
            outcome = _no_difference(c)
        rows.append(
            {
                "probe": probe_label(str(c.get("probe"))),
                "metric": metric_label(str(c.get("metric"))),
                "pair": f"{name(c.get('numerator'))} / {name(c.get('denominator'))}",
                "ratio": c.get("ratio"),
                "interval": (
                    f"{fmt_num(interval[0])}-{fmt_num(interval[1])}"
                    if isinstance(interval, list) and len(interval) == 2
                    else ""
                ),
                "rounds": c.get("rounds"),
                "decides": decides(c),
                "distorted": bool(c.get("distorted")),
                "outcome": outcome,
                "verdict": str(c.get("verdict") or ""),
            }
        )
    return rows


def interpreters(env: dict[str, Any]) -> list[dict[str, Any]]:
    """The Python interpreters the workers ran in, with the framework builds they hold."""
    rows = []
    for item in env.get("interpreters") or []:
        if not isinstance(item, dict):
            continue
        found = item.get("frameworks") or {}
        builds = and_join(
            [
                f"{name(fw)} {found.get(fw) or 'not installed'}"
                for fw in FRAMEWORKS
                if isinstance(found, dict)
            ]
        )
        rows.append(
            {
                "path": str(item.get("path") or ""),
                "version": _python_version(item),
                "numpy": str(item.get("numpy") or "not installed"),
                "frameworks": builds,
                "origin": "the advisor's own" if item.get("own") else "given with --python",
            }
        )
    return rows


def _python_version(item: dict[str, Any]) -> str:
    """'Python 3.11.7', with the implementation when it is not CPython."""
    impl = str(item.get("implementation") or "")
    text = f"Python {item.get('version') or 'unknown'}"
    return text if impl.lower() in ("", "cpython") else f"{text} ({impl})"


def load_text(env: dict[str, Any]) -> str:
    """The CPUs the probes had and the other work on them, in one line ('' if unknown)."""
    load = env.get("load")
    if not isinstance(load, dict) or not load.get("available_cpus"):
        return ""
    text = f"{load['available_cpus']} CPU(s) available"
    busy = load.get("other_busy_cpus")
    if isinstance(busy, (int, float)):
        text += f", other work kept {fmt_num(busy)} busy"
    if load.get("threads"):
        text += f"; each framework ran {load['threads']} thread(s)"
    pinned = load.get("pinned_cpus")
    if isinstance(pinned, list) and pinned:
        text += " on CPU " + ", ".join(str(p) for p in pinned)
    rounds = load.get("comparison_rounds")
    if isinstance(rounds, dict) and rounds.get("distorted"):
        text += "; the comparison rounds still found it too busy to compare the frameworks fairly"
    return text
