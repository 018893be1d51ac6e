"""Section 8 of the report: risks of the choice and caveats of the analysis."""

from __future__ import annotations

from typing import Any

from advisor.model.decision import Decision
from advisor.model.measurements import ProbeRun
from advisor.model.profile import Profile
from advisor.model.said import said_paths
from advisor.report.labels import STATUS_TEXT, and_join, name

FLOAT32_BYTES = 4  # a weight's size before quantization
INT8_BYTES = 1
FLOAT16_BYTES = 2


def risks(decision: Decision, run: ProbeRun, profile: Profile | None = None) -> dict[str, Any]:
    """The fired rules' risks for the winner and the runner-up (with the rules that scored
    each down), the team's experience gap, and the caveats (with the device memory budget
    checked against the model's size when the profile gives both)."""
    rec = decision.recommendation
    chosen = _once(
        [r.model_dump() for r in decision.risks if r.framework == rec.framework]
        + counted_against(decision, rec.framework)
    )
    runner = _once(
        [r.model_dump() for r in decision.risks if r.framework == rec.runner_up]
        + counted_against(decision, rec.runner_up)
    )
    caveats = []
    budget = memory_budget(profile) if profile is not None else None
    if rec.all_vetoed:
        caveats.append(
            "Every framework is ruled out by at least one hard constraint; the ranking only "
            "says which one breaks the fewest."
        )
    if rec.tie_broken and rec.tie_note:
        caveats.append(rec.tie_note)
    if not run.probes:
        caveats.append(
            "Nothing was measured on this machine (--probes none): the verdict rests on the "
            "profile and the rules alone" + _stood_aside(len(decision.skipped_rules))
        )
    else:
        for p in run.probes:
            if p.get("status") in ("failed", "timeout"):
                caveats.append(
                    f"The {p['id']} probe {STATUS_TEXT[p['status']]} for {name(p['framework'])}, "
                    "so rules that need that figure stood aside."
                )
        if run.environment.get("noisy"):
            caveats.append(
                "The machine was noisy while measuring; small measured gaps may be noise."
            )
    superseded = sorted(
        {r.id for r in decision.rules if any(e.status == "superseded" for e in r.evidence)}
    )
    if superseded:
        which = (
            f"Rule {superseded[0]} rests"
            if len(superseded) == 1
            else (f"Rules {and_join(superseded)} rest")
        )
        caveats.append(
            f"{which} partly on superseded evidence; the reasons under Why show what replaced it."
        )
    project = [budget] if budget else []
    gap = experience_gap(profile, rec.framework) if profile is not None else None
    team = [gap] if gap else []
    return {
        "chosen": chosen,
        "team": team,
        "runner_up": runner,
        "project": project,
        "caveats": caveats,
    }


def counted_against(decision: Decision, framework: str | None) -> list[dict[str, Any]]:
    """Each fired rule that scored ``framework`` down and states no risk of its own for it, as
    a risk: what counted against the framework is what to watch if it is chosen anyway
    (red-team round 92: a TensorFlow verdict with LEG006 at -3.3 said "No rule flagged a
    specific risk of TensorFlow")."""
    if framework is None:
        return []
    stated = {(r.rule, r.framework) for r in decision.risks}
    return [
        {
            "rule": rule.id,
            "framework": framework,
            "text": f"{rule.title} ({rule.weighted[framework]:+.1f} points for "
            f"{name(framework)}): {rule.why}",
        }
        for rule in decision.rules
        if rule.weighted.get(framework, 0) < 0 and (rule.id, framework) not in stated
    ]


def experience_gap(profile: Profile, framework: str | None) -> str | None:
    """A caveat when the team's stated experience lies in other frameworks than the one
    recommended (red-team round 92: a PyTorch team was told to build on TensorFlow and the
    risks never said it would have to learn it)."""
    if framework is None:
        return None
    said = said_paths(profile)
    known = {
        fw: level
        for fw, level in profile.team.experience.model_dump(mode="json").items()
        if f"team.experience.{fw}" in said and level != "none"
    }
    if not known or framework in known:
        return None
    others = and_join([f"{name(fw)} ({level})" for fw, level in known.items()])
    return (
        f"The team's stated experience is in {others}, not in {name(framework)}: plan time "
        f"for the team to learn {name(framework)} before the project depends on it."
    )


def _quantizers(profile: Profile) -> str:
    """The quantization tools of the places the model must run (red-team round 93: a phone
    and Neural Engine app was sent to ONNX Runtime, in none of its stacks)."""
    targets = {t.value for t in profile.deployment.targets}
    edge = {e.value for e in profile.deployment.edge_hardware}
    tools = []
    if "apple_neural_engine" in edge:
        tools.append("coremltools.optimize for Core ML")
    if targets & {"mobile", "edge", "microcontroller"}:
        tools.append("LiteRT's or ExecuTorch's quantization for the other devices")
    if "browser" in targets:
        tools.append("the browser runtime's converter (LiteRT.js, TF.js or ONNX Runtime Web)")
    if not tools:
        return "the runtime's own tools"
    if len(tools) == 1:
        return tools[0].removesuffix(" for the other devices")
    return and_join(tools)


def _bytes(megabytes: float) -> str:
    """A size in KB below 1 MB, else in MB."""
    return f"{_sig(megabytes * 1000)} KB" if megabytes < 1 else f"{_sig(megabytes)} MB"


def memory_budget(profile: Profile) -> str | None:
    """A warning when the model's weights, as float32, exceed the device memory budget."""
    said = said_paths(profile)
    budget = profile.deployment.device_memory_mb
    if not budget or not {"model.parameters", "deployment.device_memory_mb"} <= said:
        return None
    params = profile.model.parameters
    full, small = params * FLOAT32_BYTES / 1e6, params * INT8_BYTES / 1e6
    if "microcontroller" in {t.value for t in profile.deployment.targets}:
        # review round 95: a firmware lead could not tell RAM from flash in the question, and
        # the weights live in flash there while the activations take the RAM
        return (
            f"On a microcontroller the weights sit in flash (about {_bytes(small)} as int8) "
            "and the activations in RAM (the tensor arena): check both against the part's "
            f"datasheet, with the {_bytes(budget)} given (deployment.device_memory_mb) as "
            "whichever of the two it is."
        )
    if full <= budget:
        return None
    size = f"{_sig(params / 1e6)}M" if params < 1e9 else f"{_sig(params / 1e9)}B"
    text = (
        f"The model's {size} parameters take about {_sig(full)} MB as float32 weights, "
        f"more than the {_sig(budget)} MB the device has for it (deployment."
        "device_memory_mb), before activations and the runtime: "
    )
    half = params * FLOAT16_BYTES / 1e6
    if half <= budget:
        return text + (
            f"float16 weights (about {_sig(half)} MB) fit it, or int8 (about {_sig(small)} MB) "
            f"with {_quantizers(profile)}; check the accuracy after either, and the "
            "activations, which the budget must hold too (process large inputs in tiles)."
        )
    if small <= budget:
        return text + (
            f"float16 alone (about {_sig(half)} MB) does not fit, so plan for int8 "
            f"quantization (about {_sig(small)} MB) with {_quantizers(profile)}, and check "
            "the accuracy after it."
        )
    return text + (
        f"even int8 (about {_sig(small)} MB) does not fit, so the model itself must "
        "shrink (a smaller architecture, pruning or distillation)."
    )


def _sig(value: float) -> str:
    """Three significant digits, with thousands separators: 60, 0.256, 2,400,000."""
    rounded = float(f"{value:.3g}")
    return f"{round(rounded):,}" if rounded >= 1000 else f"{value:.3g}"


def _once(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each risk text once, under the first rule that gives it (rules that share a fact
    share its risk)."""
    seen: set[str] = set()
    out = []
    for risk in items:
        if risk["text"] not in seen:
            seen.add(risk["text"])
            out.append(risk)
    return out


def _stood_aside(count: int) -> str:
    if not count:
        return "."
    if count == 1:
        return ", and 1 rule that needs a measurement stood aside."
    return f", and {count} rules that need measurements stood aside."
