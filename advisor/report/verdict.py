"""Section 1 of the report: where the profile came from, the verdict and the standing."""

from __future__ import annotations

import os
import re
import shlex
import unicodedata
from pathlib import Path
from typing import Any

from advisor.frameworks import DISPLAY_NAMES
from advisor.model.decision import Decision, NoFit
from advisor.model.terminal_text import INVISIBLE
from advisor.report.labels import and_join, name, ordinal
from advisor.report.text import fmt_num, fmt_pct


def source(
    path: str | None,
    level: str,
    rule_dirs: tuple[str, ...] = (),
    decision: Decision | None = None,
    python: tuple[str, ...] = (),
) -> dict[str, str]:
    """Where the profile came from, and the command that reproduces this report (with the
    options that change it: the rule packs, a point-in-time month, a seed other than 0 and
    the interpreters the probes ran in)."""
    example = _example_name(path)
    if example:
        label = f"bundled example '{example}'"
        origin = f"the {label}"
        command = f"advisor recommend --example {shell_word(example)}"
    elif path:
        label = str(path)
        origin = label
        command = f"advisor recommend {shell_word(str(path))}"
    else:
        label = "answers to the questionnaire"
        origin = "your answers to the questionnaire"
        command = "advisor ask -o profile.yaml && advisor recommend profile.yaml"
    command += "".join(f" --rules {shell_word(d)}" for d in rule_dirs)
    seed = ""
    if decision is not None and decision.sensitivity and decision.sensitivity.seed != 0:
        seed = f" --seed {decision.sensitivity.seed}"
    interpreters = "".join(f" --python {shell_word(p)}" for p in python)
    # measurements are of today's frameworks: the command that measures drops --as-of,
    # which takes --probes none only
    measure_command = f"{command}{seed}{interpreters} --probes quick"
    if decision is not None and decision.ruleset.point_in_time and decision.ruleset.as_of:
        command += f" --as-of {shell_word(decision.ruleset.as_of)}"
    command += seed
    if level != "none":  # --python needs probes, so only a measuring command carries it
        command += interpreters
    return {
        "label": label,
        "origin": origin,
        "command": f"{command} --probes {level}",
        "measure_command": measure_command,
        "probe_level": level,
    }


# Characters a report cannot show as they are: controls, format characters (bidi
# overrides, zero-width), surrogates (bytes of a name that is not UTF-8), private-use,
# unassigned, and line or paragraph separators.
_UNSHOWABLE = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}
# ...and what reports and terminals alter whatever its category (terminal_text.INVISIBLE:
# Hangul fillers, the grapheme joiner, variation selectors, the braille blank), and braces
_ALTERED = re.compile(f"[{INVISIBLE}{{}}]")


def shell_word(text: str) -> str:
    """``text`` as one shell word that names the same file when pasted into bash or zsh:
    shlex's quoting, or, for a name holding a character a report cannot show (which the
    report would drop or escape, leaving a command that names another file), ANSI-C
    quoting of its bytes (``$'p\\xff.yaml'``). Braces are written so too: an HTML report
    sets a zero-width space beside every brace of its data (SECURITY.md), which a copied
    command would carry. A path starting with ``-`` gets ``./``, so it is never an option."""
    if text.startswith("-"):
        text = "./" + text
    if not (_ALTERED.search(text) or any(unicodedata.category(ch) in _UNSHOWABLE for ch in text)):
        return shlex.quote(text)
    try:  # a name read from the system: its surrogates are its bytes
        raw = os.fsencode(text)
    except UnicodeError:
        raw = text.encode("utf-8", "surrogatepass")
    body = "".join(chr(b) if 0x20 <= b < 0x7F and b not in b"'\\{}" else f"\\x{b:02x}" for b in raw)
    return f"$'{body}'"


def _example_name(path: str | None) -> str | None:
    if not path:
        return None
    try:
        from advisor.resources import data_dir

        folder = data_dir("examples").resolve()
        resolved = Path(path).resolve()
    except (OSError, RuntimeError):  # a link loop: RuntimeError before Python 3.13
        return None
    return resolved.stem if resolved.parent == folder else None


def verdict(decision: Decision) -> str:
    """The one-sentence verdict."""
    rec = decision.recommendation
    sens = decision.sensitivity
    win = sens.win_probability.get(rec.framework) if sens and rec.framework else None
    odds = ""
    samples = f"{sens.samples if sens else 0:,}"
    if win is not None and win >= 1:
        odds = f", winning in all {samples} random perturbations of your priorities and answers"
    elif win is not None:
        odds = (
            f", winning in {fmt_pct(win)} of {samples} random perturbations of your "
            "priorities and answers"
        )
    capped = f"; not high because {rec.confidence_capped}" if rec.confidence_capped else ""
    if rec.all_vetoed:
        return _no_fit_sentence(decision.no_fit)
    if rec.runner_up is None:
        return (
            f"Build on {rec.name}: it is the only framework that meets every hard constraint "
            f"(score {fmt_num(rec.score)} of 100; confidence: {rec.confidence}{odds}{capped})."
        )
    if rec.tie_broken:
        return (
            f"Build on {rec.name}, but only just: it ties with {name(rec.runner_up)} at "
            f"{fmt_num(rec.score)} of 100 and wins only on the tie-break "
            f"(confidence: low{odds})."
        )
    ahead = f"{rec.margin:.1f} points ahead of {name(rec.runner_up)}"
    lead = decisive_lead(decision)
    if rec.margin is not None and rec.margin < 0.05:  # both near 100: the scale saturates
        level = f"level on the 0-100 scale with {name(rec.runner_up)} but ahead on"
        ahead = (
            f"{level} decisive facts ({lead[0]:g} against {lead[1]:g})"
            if lead
            else f"{level} the other answers"
        )
    return (
        f"Build on {rec.name}: it scores {fmt_num(rec.score)} of 100, {ahead} "
        f"(confidence: {rec.confidence}{odds}{capped})."
    )


def standing(decision: Decision) -> list[dict[str, Any]]:
    """The ranking with status words and win probabilities, best first."""
    rec = decision.recommendation
    win = decision.sensitivity.win_probability if decision.sensitivity else {}
    rows = []
    for position, entry in enumerate(decision.ranking, 1):
        fw = entry.framework
        if entry.vetoed:
            status = "ruled out"
        elif fw == rec.framework:
            status = "recommended"
        elif fw == rec.runner_up:
            status = "runner-up"
        else:
            status = ordinal(position)
        rows.append(
            {
                "framework": fw,
                "name": entry.name,
                "score": entry.score,
                "points": entry.soft,  # the breakdown's total; decisive units are shown beside it
                "supporting_rules": entry.supporting_rules,
                "status": status,
                "win_probability": win.get(fw),
                "veto_reasons": entry.veto_reasons,
            }
        )
    return rows


def _no_fit_sentence(no_fit: NoFit | None) -> str:
    """The verdict when nothing fits: no candidate, why, and what would let one fit."""
    items = no_fit.what_would_fit if no_fit else []
    why = "; ".join(
        f"{DISPLAY_NAMES[c.framework]} by {', '.join(c.vetoed_by)}"
        if c.vetoed_by
        else f"{DISPLAY_NAMES[c.framework]} not yet released"  # a point-in-time view's month
        for c in items
    )
    fix = next((c for c in items if c.change), None)
    if fix:
        # the same change may lift the vetoes on several: name each it lets fit
        names = and_join([DISPLAY_NAMES[fw] for fw in fix.lets_fit or [fix.framework]])
        hint = f"one change would let {names} fit: {fix.change}"
    else:
        hint = "no single change of an answer lifts every veto on any framework"
    return (
        "No candidate fits this profile: every framework is ruled out by a hard constraint "
        f"({why}); {hint}."
    )


def decisive_lead(decision: Decision) -> tuple[float, float] | None:
    """(winner's, runner-up's) decisive units when the winner holds more of them; None when
    they hold as many and the soft preferences decided (or there is no runner-up)."""
    rec = decision.recommendation
    units = {e.framework: e.decisive for e in decision.ranking}
    if rec.framework and rec.runner_up and units[rec.framework] > units[rec.runner_up]:
        return units[rec.framework], units[rec.runner_up]
    return None
