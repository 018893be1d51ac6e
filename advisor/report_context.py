"""Derive what the report says from the Decision and the probe run, as plain data.

The Markdown and HTML templates, a user's ``--template`` and ``--format json`` all read
the same derived content (under the ``report`` key), so the three formats cannot say
different things. Everything here is plain text and numbers: escaping for Markdown or
HTML happens in the templates' filters. Nothing here reads a clock or imports a
framework, so a ``--probes none`` report is byte-for-byte reproducible.
"""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from typing import Any

from advisor.frameworks import FRAMEWORKS
from advisor.markdown_text import fmt_num, fmt_pct
from advisor.profile import Profile
from advisor.report_claims import claims
from advisor.report_common import (
    HARDWARE_LABELS,
    NOISY_SPREAD,
    PROBE_LABELS,
    PROBE_ORDER,
    STATUS_TEXT,
    TOP_RULES,
    and_join,
    criterion_label,
    metric_label,
    metric_value,
    name,
    probe_index,
    relative_spread,
)


def build_report(data: dict[str, Any]) -> dict[str, Any]:
    """Everything the report says, derived from ``render.report_data``'s output."""
    rec = data["recommendation"]
    ok_probes = probe_index(data["probes"])
    return {
        "source": _source(data),
        "verdict": _verdict(data),
        "standing": _standing(data),
        "why": _why(data),
        "breakdown": _breakdown(data),
        "measurements": _measurements(data, ok_probes),
        "claims": claims(data, ok_probes),
        "changes": _changes(data),
        "risks": _risks(data),
        "profile_yaml": profile_yaml(data["profile"]),
        "environment": _environment(data.get("environment") or {}),
        "probe_method": _probe_method(data),
        "training_hardware": ", ".join(
            HARDWARE_LABELS.get(h, h) for h in data["profile"]["hardware"]["training"]
        ),
        "show_hedge": bool(rec["hedge"]) and rec["confidence"] in ("low", "medium"),
    }


# --- 1. Verdict --------------------------------------------------------------------------


def _source(data: dict[str, Any]) -> dict[str, str]:
    """Where the profile came from, and the command that reproduces this report."""
    path = data.get("profile_path")
    level = data.get("probe_level", "none")
    example = _example_name(path)
    if example:
        label = f"bundled example '{example}'"
        origin = f"the {label}"
        command = f"advisor recommend --example {shlex.quote(example)}"
    elif path:
        label = str(path)
        origin = label
        command = f"advisor recommend {shlex.quote(str(path))}"
    else:
        label = "answers to the questionnaire"
        origin = "your answers to the questionnaire"
        command = "advisor ask -o profile.yaml && advisor recommend profile.yaml"
    return {
        "label": label,
        "origin": origin,
        "command": f"{command} --probes {level}",
        "measure_command": f"{command} --probes quick",
        "probe_level": level,
    }


def _example_name(path: str | None) -> str | None:
    if not path:
        return None
    try:
        from advisor.resources import data_dir

        folder = data_dir("examples").resolve()
        resolved = Path(path).resolve()
    except (OSError, FileNotFoundError):
        return None
    return resolved.stem if resolved.parent == folder else None


def _verdict(data: dict[str, Any]) -> str:
    """The one-sentence verdict."""
    rec = data["recommendation"]
    sens = data.get("sensitivity") or {}
    win = (sens.get("win_probability") or {}).get(rec["framework"])
    odds = ""
    samples = f"{sens.get('samples', 0):,}"
    if win is not None and win >= 1:
        odds = f", winning in all {samples} random re-weightings of your priorities"
    elif win is not None:
        odds = f", winning in {fmt_pct(win)} of {samples} random re-weightings of your priorities"
    if rec["all_vetoed"]:
        from advisor.no_fit import no_fit_sentence

        return no_fit_sentence(data.get("no_fit"))
    if rec["runner_up"] is None:
        return (
            f"Build on {rec['name']}: it is the only framework that meets every hard constraint "
            f"(score {fmt_num(rec['score'])} of 100; confidence: {rec['confidence']}{odds})."
        )
    if rec["tie_broken"]:
        return (
            f"Build on {rec['name']}, but only just: it ties with {name(rec['runner_up'])} at "
            f"{fmt_num(rec['score'])} of 100 and wins only on the tie-break "
            f"(confidence: low{odds})."
        )
    return (
        f"Build on {rec['name']}: it scores {fmt_num(rec['score'])} of 100, "
        f"{rec['margin']:.1f} points ahead of {name(rec['runner_up'])} "
        f"(confidence: {rec['confidence']}{odds})."
    )


def _standing(data: dict[str, Any]) -> list[dict[str, Any]]:
    """The ranking with status words and win probabilities, best first."""
    rec = data["recommendation"]
    win = ((data.get("sensitivity") or {}).get("win_probability")) or {}
    rows = []
    for entry in data["ranking"]:
        fw = entry["framework"]
        if entry["vetoed"]:
            status = "ruled out"
        elif fw == rec["framework"]:
            status = "recommended"
        elif fw == rec["runner_up"]:
            status = "runner-up"
        else:
            status = "third"
        rows.append(
            {
                "framework": fw,
                "name": entry["name"],
                "score": entry["score"],
                "points": entry["raw"],
                "supporting_rules": entry["supporting_rules"],
                "status": status,
                "win_probability": win.get(fw),
                "veto_reasons": entry["veto_reasons"],
            }
        )
    return rows


# --- 3. Why ------------------------------------------------------------------------------


def _effects_text(weighted: dict[str, float]) -> str:
    parts = []
    for fw in FRAMEWORKS:
        value = weighted.get(fw)
        if value:
            sign = "+" if value > 0 else "\u2212"
            parts.append(f"{name(fw)} {sign}{abs(value):.1f}")
    return ", ".join(parts)


def _why(data: dict[str, Any]) -> dict[str, Any]:
    """Vetoes, the rules that moved the scores most, and the rest."""
    vetoes = []
    scored = []
    for rule in data["rules"]:
        for fw, reason in rule["veto"].items():
            vetoes.append({"framework": fw, "name": name(fw), "rule": rule["id"], "reason": reason})
        if not rule["weighted"]:
            continue
        evidence = [
            {**ev, "superseded": ev.get("status") == "superseded"} for ev in rule["evidence"]
        ]
        scored.append(
            {
                "id": rule["id"],
                "title": rule["title"],
                "criterion": criterion_label(rule["criterion"]),
                "why": rule["why"],
                "effects": _effects_text(rule["weighted"]),
                "impact": rule["impact"],
                "evidence": evidence,
                "facts_used": [
                    {"fact": k, "value": _fact_value(v)} for k, v in rule["facts_used"].items()
                ],
                "measured": bool(rule["facts_used"]),
            }
        )
    return {
        "vetoes": vetoes,
        "top": scored[:TOP_RULES],
        "more": scored[TOP_RULES:],
        "fired": len(data["rules"]),
        "total": (data.get("ruleset") or {}).get("rule_count"),
        "skipped": data.get("skipped_rules", []),
    }


def _fact_value(value: Any) -> str:
    """A measured fact as text: numbers rounded, lists joined."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (int, float)):
        return fmt_num(value)
    if isinstance(value, (list, tuple)):
        return ", ".join(name(str(v)) for v in value) or "none"
    return "not measured" if value is None else str(value)


# --- 4. Score breakdown ------------------------------------------------------------------


def _breakdown(data: dict[str, Any]) -> dict[str, Any]:
    rows = []
    for cid, per in data["breakdown"].items():
        rows.append(
            {
                "criterion": criterion_label(cid),
                "id": cid,
                "weight": data["weights"].get(cid, 1.0),
                "points": {fw: per.get(fw, 0.0) for fw in FRAMEWORKS},
                "moved": any(per.get(fw) for fw in FRAMEWORKS),
            }
        )
    totals = {e["framework"]: e["raw"] for e in data["ranking"]}
    scores = {e["framework"]: e["score"] for e in data["ranking"]}
    order = [e["framework"] for e in data["ranking"]]
    return {
        "rows": rows,
        "moved": [r for r in rows if r["moved"]],
        "unmoved": [r["criterion"] for r in rows if not r["moved"]],
        "totals": totals,
        "scores": scores,
        "order": order,
    }


# --- 5. Measurements ---------------------------------------------------------------------


def _probe_sort_key(p: dict[str, Any]) -> tuple[int, int, str]:
    pid = p.get("id", "")
    order = PROBE_ORDER.index(pid) if pid in PROBE_ORDER else len(PROBE_ORDER)
    fw = p.get("framework", "")
    return (order, FRAMEWORKS.index(fw) if fw in FRAMEWORKS else 9, pid)


def _measurements(data: dict[str, Any], index: dict[tuple[str, str], dict[str, Any]]) -> dict:
    probes = sorted(data["probes"], key=_probe_sort_key)
    env = data.get("environment") or {}
    rows = []
    warnings: list[str] = []
    noisy: dict[str, list[str]] = {}
    for p in probes:
        status = p.get("status", "failed")
        if status != "ok":
            rows.append(
                {
                    "probe": p.get("id", "?"),
                    "probe_label": PROBE_LABELS.get(p.get("id", ""), p.get("id", "?")),
                    "framework": name(p.get("framework")),
                    "metric": STATUS_TEXT.get(status, status),
                    "median": None,
                    "iqr": None,
                    "spread": None,
                    "n": None,
                    "unit": "",
                    "note": p.get("reason") or "",
                    "ok": False,
                }
            )
            if status in ("failed", "timeout"):
                warnings.append(
                    f"The {p.get('id')} probe {STATUS_TEXT[status]} for {name(p.get('framework'))}"
                    + (f": {p['reason']}" if p.get("reason") else ".")
                )
            continue
        for metric, m in (p.get("metrics") or {}).items():
            if metric == "share_of_best" or not isinstance(m, dict):
                continue  # the matmul table below computes shares across frameworks
            spread = relative_spread(m)
            rows.append(
                {
                    "probe": p["id"],
                    "probe_label": PROBE_LABELS.get(p["id"], p["id"]),
                    "framework": name(p["framework"]),
                    "metric": metric_label(metric),
                    "metric_id": metric,
                    "median": m.get("median"),
                    "iqr": m.get("iqr"),
                    "spread": spread,
                    "n": m.get("n"),
                    "unit": m.get("unit", ""),
                    "note": "noisy" if spread is not None and spread > NOISY_SPREAD else "",
                    "ok": True,
                }
            )
        if p.get("noisy"):
            noisy.setdefault(p["id"], []).append(name(p["framework"]))
    if noisy:
        which = "; ".join(f"the {pid} probe for {and_join(fws)}" for pid, fws in noisy.items())
        warnings.insert(
            0,
            f"Noisy figures from {which}: their repeated timings spread widely, so treat "
            "them as rough.",
        )
    env_warnings = [_sentence(w) for w in env.get("warnings") or []]
    if env.get("noisy") and not env_warnings:
        warnings.append(
            "The machine was busy or unsteady while measuring (other processes, frequency "
            "scaling or a shared VM); rerun on an idle machine before trusting small differences."
        )
    warnings.extend(env_warnings)
    cache = data.get("probe_cache")
    return {
        "ran": bool(probes),
        "level": data.get("probe_level", "none"),
        "rows": rows,
        "compile": _compile_rows(index),
        "matmul": _matmul_shares(index),
        "warnings": warnings,
        "cache": cache,
        "moved": data.get("measured_facts_moved", []),
        "skipped_rules": data.get("skipped_rules", []),
    }


def _sentence(text: Any) -> str:
    """Capitalise the first letter and end with a full stop."""
    value = str(text).strip()
    if not value:
        return value
    value = value[0].upper() + value[1:]
    return value if value[-1] in ".!?" else value + "."


def _compile_rows(index: dict[tuple[str, str], dict[str, Any]]) -> list[dict[str, Any]]:
    """JIT compile latency per framework, and after how many calls it pays for itself."""
    rows = []
    for fw in FRAMEWORKS:
        compile_s = metric_value(index, "jit", fw, "compile_s")
        if not compile_s:
            continue
        eager = metric_value(index, "jit", fw, "eager_ms")
        compiled = metric_value(index, "jit", fw, "compiled_ms")
        speedup = metric_value(index, "jit", fw, "speedup")
        break_even = None
        if eager and compiled and eager["median"] > compiled["median"]:
            saved_s = (eager["median"] - compiled["median"]) / 1000.0
            break_even = compile_s["median"] / saved_s
        rows.append(
            {
                "framework": name(fw),
                "compile_s": compile_s["median"],
                "compile_iqr": compile_s.get("iqr"),
                "speedup": speedup["median"] if speedup else None,
                "break_even_calls": break_even,
            }
        )
    return rows


def _matmul_shares(index: dict[tuple[str, str], dict[str, Any]]) -> dict[str, Any]:
    """Every matmul rate metric, per framework, as a share of the best for that metric."""
    names: list[str] = []
    for (pid, _fw), p in index.items():
        if pid == "matmul":
            for metric in p.get("metrics") or {}:
                if metric.startswith("gflops") and metric not in names:
                    names.append(metric)
    names.sort(key=lambda m: (m != "gflops", m != "gflops_bf16", m))
    rows = []
    for metric in names:
        values = {fw: metric_value(index, "matmul", fw, metric) for fw in FRAMEWORKS}
        present = {fw: m for fw, m in values.items() if m}
        if not present:
            continue
        best = max(m["median"] for m in present.values())
        for fw, m in present.items():
            rows.append(
                {
                    "metric": metric_label(metric),
                    "framework": name(fw),
                    "gflops": m["median"],
                    "iqr": m.get("iqr"),
                    "share": m["median"] / best if best > 0 else None,
                    "best": m["median"] == best,
                }
            )
    chart = [
        {"framework": name(fw), "gflops": m["median"]}
        for fw in FRAMEWORKS
        if (m := metric_value(index, "matmul", fw, "gflops"))
    ]
    return {"rows": rows, "chart": chart}


# --- 7. What would change the verdict -----------------------------------------------------


def _flip_text(flip: dict[str, Any] | None) -> str | None:
    if not flip:
        return None
    if flip["kind"] == "priority":
        field = flip["path"].split(".", 1)[-1].replace("_", " ")
        return f"set the priority '{field}' from {flip['from_value']} to {flip['to_value']}"
    old, new = flip["from_value"], flip["to_value"]
    if isinstance(old, list) or isinstance(new, list):
        return str(flip["description"])  # "add 'x' to ..." / "remove 'x' from ..."
    return f"change {flip['path']} from {_answer(old)} to {_answer(new)}"


def _answer(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return fmt_num(value)
    return str(value)


def _changes(data: dict[str, Any]) -> dict[str, Any]:
    sens = data.get("sensitivity")
    rec = data["recommendation"]
    if not sens:
        return {"available": False}
    smallest = sens.get("smallest_flip")
    by_fw = []
    for fw, flip in (sens.get("flips_by_framework") or {}).items():
        by_fw.append(
            {
                "framework": fw,
                "name": name(fw),
                "change": _flip_text(flip),
                "cost": flip["cost"] if flip else None,
                "kind": flip["kind"] if flip else None,
            }
        )
    by_fw.sort(key=lambda r: FRAMEWORKS.index(r["framework"]))
    win = sens.get("win_probability") or {}
    wins = sorted(
        (
            {"framework": fw, "name": name(fw), "p": p, "percent": round(p * 100, 1)}
            for fw, p in win.items()
        ),
        key=lambda r: (-r["p"], FRAMEWORKS.index(r["framework"])),
    )
    return {
        "available": True,
        "smallest": {
            "change": _flip_text(smallest),
            "new_winner": name(smallest["new_winner"]),
            "cost": smallest["cost"],
            "kind": smallest["kind"],
        }
        if smallest
        else None,
        "by_framework": by_fw,
        "win": wins,
        "win_recommended": win.get(rec["framework"]),
        "samples": sens.get("samples"),
        "seed": sens.get("seed"),
        "method": sens.get("method", ""),
        "candidates_tried": sens.get("candidates_tried"),
    }


# --- 8. Risks and caveats -----------------------------------------------------------------


def _risks(data: dict[str, Any]) -> dict[str, Any]:
    rec = data["recommendation"]
    chosen = [r for r in data["risks"] if r["framework"] == rec["framework"]]
    runner = [r for r in data["risks"] if r["framework"] == rec["runner_up"]]
    caveats = []
    if rec["all_vetoed"]:
        caveats.append(
            "Every framework is ruled out by at least one hard constraint; the ranking only "
            "says which one breaks the fewest."
        )
    if rec["tie_broken"] and rec["tie_note"]:
        caveats.append(rec["tie_note"])
    if not data["probes"]:
        caveats.append(
            "Nothing was measured on this machine (--probes none): the verdict rests on the "
            "profile and the rules alone" + _stood_aside(len(data.get("skipped_rules") or []))
        )
    else:
        for p in data["probes"]:
            if p.get("status") in ("failed", "timeout"):
                caveats.append(
                    f"The {p['id']} probe {STATUS_TEXT[p['status']]} for {name(p['framework'])}, "
                    "so rules that need that figure stood aside."
                )
        if (data.get("environment") or {}).get("noisy"):
            caveats.append(
                "The machine was noisy while measuring; small measured gaps may be noise."
            )
    superseded = sorted(
        {
            r["id"]
            for r in data["rules"]
            if any(e.get("status") == "superseded" for e in r["evidence"])
        }
    )
    if superseded:
        which = (
            f"Rule {superseded[0]} rests"
            if len(superseded) == 1
            else (f"Rules {and_join(superseded)} rest")
        )
        caveats.append(f"{which} partly on superseded evidence; section 3 shows what replaced it.")
    return {"chosen": chosen, "runner_up": runner, "caveats": caveats}


def _stood_aside(count: int) -> str:
    if not count:
        return "."
    if count == 1:
        return ", and 1 rule that needs a measurement stood aside."
    return f", and {count} rules that need measurements stood aside."


# --- 9. Appendix --------------------------------------------------------------------------


def _yaml_scalar(value: Any) -> str:
    """A YAML flow value (JSON is valid YAML). In strings, line separators and braces are
    escaped as \\uXXXX, which YAML reads back, so no template engine sees '{{' or '{%'."""
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_yaml_scalar(v) for v in value) + "]"
    if isinstance(value, dict):
        items = (f"{_yaml_scalar(str(k))}: {_yaml_scalar(v)}" for k, v in value.items())
        return "{" + ", ".join(items) + "}"
    text = json.dumps(value, ensure_ascii=False)
    if isinstance(value, str):
        for ch in ("\u2028", "\u2029", "\u0085", "{", "}"):
            text = text.replace(ch, f"\\u{ord(ch):04x}")
    return text


def profile_yaml(profile: dict[str, Any]) -> str:
    """The profile as YAML, every value filled in, with '# default' where it is the default."""
    defaults = Profile().model_dump(mode="json")
    lines: list[str] = []

    def walk(node: dict[str, Any], default: dict[str, Any] | None, indent: str) -> None:
        for key, value in node.items():
            dflt = (default or {}).get(key) if isinstance(default, dict) else None
            if isinstance(value, dict):
                lines.append(f"{indent}{key}:")
                walk(value, dflt if isinstance(dflt, dict) else None, indent + "  ")
            else:
                mark = (
                    "  # default"
                    if default is not None and key in default and dflt == value
                    else ""
                )
                lines.append(f"{indent}{key}: {_yaml_scalar(value)}{mark}")

    walk(profile, defaults, "")
    return "\n".join(lines)


def _environment(env: dict[str, Any]) -> list[dict[str, str]]:
    """The environment as (item, value) rows, for a table."""
    if not env:
        return []
    rows: list[dict[str, str]] = []

    def add(item: str, value: Any) -> None:
        if value not in (None, "", [], {}):
            rows.append({"item": item, "value": str(value)})

    add("Operating system", env.get("os"))
    add("Python", env.get("python"))
    cpu = env.get("cpu") or {}
    if isinstance(cpu, dict):
        cores = cpu.get("cores")
        logical = cpu.get("logical_cpus")
        count = f" ({cores} cores, {logical} logical CPUs)" if cores or logical else ""
        add("CPU", f"{cpu.get('model') or 'unknown'}{count}")
        flags = cpu.get("flags") or []
        if isinstance(flags, list) and flags:
            shown = ", ".join(str(f) for f in flags[:24])
            add(
                "CPU features", shown + (f", and {len(flags) - 24} more" if len(flags) > 24 else "")
            )
    if env.get("memory_gb") is not None:
        add("Memory", f"{fmt_num(env['memory_gb'])} GB")
    accel = env.get("accelerator") or {}
    if isinstance(accel, dict) and accel:
        names = ", ".join(str(n) for n in accel.get("names") or [])
        kind = accel.get("kind") or "cpu"
        if kind == "cpu" or not accel.get("count"):
            add("Accelerator", "none (CPU only)")
        else:
            label = HARDWARE_LABELS.get(kind, kind)
            add("Accelerator", f"{accel['count']} x {label}" + (f" ({names})" if names else ""))
    for fw, info in (env.get("frameworks") or {}).items():
        if not isinstance(info, dict):
            continue
        if info.get("installed"):
            devices = info.get("devices")
            if isinstance(devices, list):
                devices_text = ", ".join(_device(d) for d in devices)
            else:
                devices_text = _plain(devices) if devices else ""
            add(
                name(fw),
                f"{info.get('version') or 'unknown version'}"
                + (f" on {devices_text}" if devices_text else ""),
            )
        else:
            add(name(fw), "not installed")
    load = env.get("load_average")
    if isinstance(load, (int, float)) and not isinstance(load, bool):
        add("Load average before probes", fmt_num(load))
    threads = env.get("threads")
    add("Threads", _plain(threads) if threads not in (None, "", {}) else None)
    env_vars = env.get("env_vars") or {}
    if isinstance(env_vars, dict) and env_vars:
        add("Environment variables", ", ".join(f"{k}={v}" for k, v in sorted(env_vars.items())))
    index = env.get("benchmark_index")
    if isinstance(index, (int, float)) and not isinstance(index, bool):
        detail = env.get("benchmark_index_detail")
        unit = detail.get("unit") if isinstance(detail, dict) else None
        add(
            "Benchmark index",
            f"{fmt_num(index)} {unit or 'loop iterations per ms'} (higher is faster)",
        )
    elif index not in (None, "", {}):
        add("Benchmark index", _plain(index))
    return rows


def _device(device: Any) -> str:
    """A device record as its name (or kind)."""
    if isinstance(device, dict):
        return str(device.get("name") or device.get("kind") or _plain(device))
    return str(device)


def _plain(value: Any) -> str:
    """Nested data as short text: 'a 1, b (c 2, d 3)'; lists joined with commas."""
    if isinstance(value, dict):
        parts = []
        for k, v in value.items():
            label = name(k) if k in FRAMEWORKS else str(k).replace("_", " ")
            inner = _plain(v)
            parts.append(f"{label} ({inner})" if isinstance(v, dict) else f"{label} {inner}")
        return ", ".join(parts)
    if isinstance(value, (list, tuple)):
        return ", ".join(_plain(v) for v in value)
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return fmt_num(value)
    if value == "":
        return "(empty)"
    return str(value)


def _probe_method(data: dict[str, Any]) -> list[dict[str, str]]:
    """Each probe's parameters, one row per probe and framework that ran."""
    rows = []
    for p in sorted(data["probes"], key=_probe_sort_key):
        params = p.get("params") or {}
        text = ", ".join(
            f"{k}={_param(v)}" for k, v in params.items() if v not in (None, "", [], {})
        )
        seconds = p.get("seconds")
        rows.append(
            {
                "probe": p.get("id", "?"),
                "framework": name(p.get("framework")),
                "status": STATUS_TEXT.get(p.get("status", ""), str(p.get("status"))),
                "params": text,
                "seconds": fmt_num(seconds) if isinstance(seconds, (int, float)) else "",
            }
        )
    return rows


def _param(value: Any) -> str:
    if isinstance(value, (list, tuple)):
        if len(value) == 2 and all(isinstance(v, int) for v in value):
            return f"{value[0]}x{value[1]}"  # a shape
        return "[" + ", ".join(_param(v) for v in value) + "]"
    if isinstance(value, dict):
        return "(" + _plain(value) + ")"
    if isinstance(value, float):
        return fmt_num(value)
    return str(value)
