"""Section 7 of the report: what would change the verdict."""

from __future__ import annotations

from typing import Any

from advisor.frameworks import FRAMEWORKS
from advisor.model.decision import Decision, Flip, Sensitivity
from advisor.model.profile import model_field
from advisor.report.labels import name
from advisor.report.text import fmt_num


def flip_text(flip: Flip | None) -> str | None:
    """A flip as an instruction: 'set the priority ...', 'change ... from ... to ...'."""
    if not flip:
        return None
    if flip.kind == "priority":
        field = flip.path.split(".", 1)[-1].replace("_", " ")
        return f"set the priority '{field}' from {flip.from_value} to {flip.to_value}"
    old, new = flip.from_value, flip.to_value
    if flip.category == "situation":
        return _if_it_were(flip.path, old, new)
    if old is None:
        return f"answer {flip.path}: {_answer(new)} (the profile does not say yet)"
    if isinstance(old, list) or isinstance(new, list):
        return str(flip.description)  # "add 'x' to ..." / "remove 'x' from ..."
    return f"change {flip.path} from {_answer(old)} to {_answer(new)}"


def lead_text(flip: Flip | None) -> str:
    """How the new winner would win: 'on a decisive fact', 'by 4.2 points', 'by only 0.3
    points (a near-tie)'; empty when no rival would be left standing. A change that rules
    the current winner out says so: the new winner leads only because of it."""
    if not flip:
        return ""
    lead = _margin_text(flip)
    if flip.rules_out:
        because = f"only because the change rules {name(flip.rules_out)} out"
        return f"{lead}, {because}" if lead else because
    return lead


def _margin_text(flip: Flip) -> str:
    if flip.new_lead is None:
        return ""
    if flip.new_lead_decisive:
        return "on a decisive fact"
    if flip.new_lead < 0.1:  # the shown scores round to the same: a tie-break decides
        return "by less than 0.1 points (a near-tie)"
    points = f"{flip.new_lead:.1f} points"  # one decimal, as the report quotes margins
    return f"by only {points} (a near-tie)" if flip.near_tie else f"by {points}"


def _if_it_were(path: str, old: Any, new: Any) -> str:
    """A change of what is already so, as a condition: 'if existing_code included ...'."""
    if isinstance(old, list) and isinstance(new, list):
        added = [v for v in new if v not in old]
        if added:
            return f"if {path} included '{added[0]}'"
        removed = [v for v in old if v not in new]
        return f"if {path} did not include '{removed[0]}'"
    if isinstance(new, list):  # a list the profile did not give, said instead of its default
        return f"if {path} were {_answer(new)} (the profile does not say)"
    if old is None:
        return f"if {path} were {_answer(new)} (the profile does not say)"
    return f"if {path} were {_answer(new)}, not {_answer(old)}"


def field_meanings(flips: list[Flip | None]) -> list[dict[str, str]]:
    """What each answer named by the shown flips means, from the Profile model's help text,
    in the order the flips name them (priorities are named in words already)."""
    seen: dict[str, str] = {}
    for flip in flips:
        if flip and flip.kind != "priority" and flip.path not in seen:
            seen[flip.path] = model_field(flip.path)[1].description or ""
    return [{"path": path, "meaning": meaning} for path, meaning in seen.items() if meaning]


def _answer(value: Any) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(_answer(v) for v in value) + "]"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return fmt_num(value)
    return str(value)


def changes(decision: Decision) -> dict[str, Any]:
    """The smallest flip, one flip per other framework, and the win probabilities."""
    sens = decision.sensitivity
    rec = decision.recommendation
    if not sens or rec.all_vetoed:  # nothing fits: the no-fit section says what would
        return {"available": False}
    smallest = sens.decidable_flip
    situation = sens.situation_flips
    by_fw = [
        {
            "framework": fw,
            "name": name(fw),
            "change": flip_text(flip),
            "lead": lead_text(flip),
            "cost": flip.cost if flip else None,
            "kind": flip.kind if flip else None,
            "situation_change": flip_text(situation.get(fw)),
            "situation_lead": lead_text(situation.get(fw)),
            # no change offered, but an answer the questionnaire does not ask would do it
            "held_back": _held_back(sens, fw, "plan"),
            "situation_held_back": _held_back(sens, fw, "situation"),
        }
        for fw, flip in sens.decidable_by_framework.items()
    ]
    by_fw.sort(key=lambda r: FRAMEWORKS.index(r["framework"]))
    win = sens.win_probability
    ordered = sorted(win.items(), key=lambda item: (-item[1], FRAMEWORKS.index(item[0])))
    percents = _percents_summing_to_100([p for _, p in ordered])
    wins = [
        {"framework": fw, "name": name(fw), "p": p, "percent": pct}
        for (fw, p), pct in zip(ordered, percents, strict=True)
    ]
    return {
        "available": True,
        "smallest": {
            "change": flip_text(smallest),
            "new_winner": name(smallest.new_winner),
            "lead": lead_text(smallest),
            "near_tie": smallest.near_tie,
            "cost": smallest.cost,
            "kind": smallest.kind,
            "takes_on": smallest.takes_on,
            # a change of the situation costs less: this one is the smallest of the plans'
            "situation_cheaper": (sens.smallest_flip or smallest).cost < smallest.cost,
        }
        if smallest
        else None,
        "by_framework": by_fw,
        "any_situation": any(situation.values()),
        "fields": field_meanings(
            [smallest, *sens.decidable_by_framework.values(), *situation.values()]
        ),
        "win": wins,
        "win_recommended": win.get(rec.framework) if rec.framework else None,
        "samples": sens.samples,
        "seed": sens.seed,
        "method": sens.method,
        "candidates_tried": sens.candidates_tried,
        "ruled_out": sens.ruled_out,
        "ruled_out_text": _ruled_out(sens.ruled_out, _clash(decision), shown=smallest is not None),
        "not_asked": sens.not_asked,
        "held_back_count": sens.ruled_out + len(sens.not_asked),
        "not_asked_text": _not_asked(sens),
        "clash": _clash(decision),
    }


def _clash(decision: Decision) -> str:
    """Why a change is not offered: what it would do to the answers."""
    info = decision.ruleset
    device = "add a device that cannot run a model of this size"  # said_context, size checks
    if info.point_in_time and info.as_of:
        return f"contradict each other, {device}, or name what did not exist yet in {info.as_of}"
    return f"contradict each other or {device}"


def _ruled_out(count: int, clash: str, *, shown: bool) -> str | None:
    """The flips not offered because they would make the answers contradict each other."""
    if not count:
        return None
    where = "(checks in rules/data/consistency.yaml)"
    other, also = ("other ", "also ") if shown else ("", "")
    if count == 1:
        return (
            f"One {other}single change would {also}flip the verdict but is not offered: it "
            f"would make the answers {clash} {where}."
        )
    return (
        f"{count} {other}single changes would {also}flip the verdict but are not offered: "
        f"each would make the answers {clash} {where}."
    )


def _held_back(sens: Sensitivity, framework: str, category: str) -> bool:
    """Whether an unasked answer of this category (plan or situation) would make the
    framework win."""
    return any(n.category == category and framework in n.new_winners for n in sens.not_asked_flips)


def _not_asked(sens: Sensitivity) -> str | None:
    """The unsaid answers that would flip the verdict but are not offered: the
    questionnaire does not ask them of this profile; each with what it would make win."""
    items = sens.not_asked_flips
    if not items:
        return None
    named = [
        f"{n.path} ({' or '.join(name(fw) for fw in n.new_winners)} would then win)" for n in items
    ]
    names = named[0] if len(named) == 1 else ", ".join(named[:-1]) + " or " + named[-1]
    which, it = ("that answer is", "it") if len(items) == 1 else ("those answers are", "them")
    return (
        f"Answering {names}, which the profile does not say, would also flip the verdict, but "
        f"{which} not offered: the questionnaire does not ask {it} of a profile like this "
        "one (each question's when condition in advisor/questionnaire/questions.yaml)."
    )


def _percents_summing_to_100(shares: list[float]) -> list[float]:
    """Shares (summing to 1) as percentages to one decimal that add up to exactly 100
    (largest remainder), so a chart never shows 99.7 + 0.4."""
    tenths = [share * 1000 for share in shares]
    floors = [int(t) for t in tenths]
    missing = round(sum(tenths)) - sum(floors)
    by_remainder = sorted(range(len(tenths)), key=lambda i: floors[i] - tenths[i])
    for i in by_remainder[: max(missing, 0)]:
        floors[i] += 1
    return [f / 10 for f in floors]
