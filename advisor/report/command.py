"""Where a report came from, and the command that reproduces it (section 1's header)."""

from __future__ import annotations

import os
import re
import shlex
import unicodedata
from pathlib import Path

from advisor.model.decision import Decision
from advisor.model.terminal_text import INVISIBLE


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
    saved = ""  # the questionnaire's answers: where the command finds them
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
        # round 97: "advisor ask -o profile.yaml" meant answering every question again; the
        # appendix holds the answers as a profile that reruns as it is
        command = "advisor recommend profile.yaml"
        saved = "  # profile.yaml: the profile in the appendix, saved as a file"
    command += "".join(f" --rules {shell_word(d)}" for d in rule_dirs)
    seed = ""
    if decision is not None and decision.sensitivity and decision.sensitivity.seed != 0:
        seed = f" --seed {decision.sensitivity.seed}"
    interpreters = "".join(f" --python {shell_word(p)}" for p in python)
    # measurements are of today's frameworks: the command that measures drops --as-of,
    # which takes --probes none only
    measure_command = f"{command}{seed}{interpreters} --probes quick{saved}"
    if decision is not None and decision.ruleset.point_in_time and decision.ruleset.as_of:
        command += f" --as-of {shell_word(decision.ruleset.as_of)}"
    command += seed
    if level != "none":  # --python needs probes, so only a measuring command carries it
        command += interpreters
    return {
        "label": label,
        "origin": origin,
        "command": f"{command} --probes {level}{saved}",
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
