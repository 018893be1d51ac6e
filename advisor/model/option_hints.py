"""'Did you mean ...?' for a choice that is not one of a field's options, and for a name (a
profile key, a condition's field path, a rule id) that names nothing.

One helper for profiles, rule conditions and the questionnaire, so a value gets the same
hint wherever it is written: a close spelling first ('tpuu' -> tpu), then the options the
value is a part of ('gpu' -> nvidia_gpu or amd_gpu; 'tf' -> tf1 or tf2_keras), then the
options whose explanation in the field's description names it (a framework's name -> the
options it explains; never an explanation that says "no <value>").
A loose spelling match ('gpu' -> 'cpu', 'tf2' -> 'tf1', 'nodes' for 'gpus') misleads more
than it helps, so the cutoff is high, and equally close candidates are all named.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Mapping
from typing import Any

CLOSE_SPELLING = 0.8
MOST_HINTS = 3
NEGATIONS = frozenset({"no", "not", "without", "non", "never", "nor"})


def closest(word: str, candidates: Iterable[str], typo: bool = False) -> list[str]:
    """The candidates spelt most like ``word`` (ratio >= CLOSE_SPELLING), all of them when
    several are equally close (PERF01 -> PERF001, PERF101 and PERF201), case-insensitive.
    With ``typo``, a name of four letters or more one slip away counts too ('sise' -> size):
    for names, not for values, where 'gpu' and 'cpu' are one slip apart and mean two things."""
    lower = word.lower()
    scored = [
        (difflib.SequenceMatcher(None, lower, c.lower()).ratio(), c)
        for c in dict.fromkeys(candidates)
    ]
    best = max((s for s, _ in scored), default=0.0)
    if best >= CLOSE_SPELLING:
        return [c for s, c in scored if s == best][:MOST_HINTS]
    if typo and len(lower) >= 4:
        return [c for _, c in scored if one_slip(lower, c.lower())][:MOST_HINTS]
    return []


def one_slip(a: str, b: str) -> bool:
    """True if ``a`` becomes ``b`` by one letter changed, added or dropped, or two swapped."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        swapped = len(diff) == 2 and diff[1] == diff[0] + 1
        return len(diff) == 1 or (swapped and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]])
    short, long = (a, b) if len(a) < len(b) else (b, a)
    return any(long[:i] + long[i + 1 :] == short for i in range(len(long)))


def names_affirmatively(text: str, word: str) -> bool:
    """True if ``text`` names ``word`` (or its singular) other than right after a negation
    ("numpy (no deep-learning framework)" does not name a deep-learning framework)."""
    lower = text.lower()
    stems = dict.fromkeys([word, word[:-1] if len(word) > 3 and word.endswith("s") else word])
    for stem in stems:
        for found in re.finditer(rf"(?<![\w-]){re.escape(stem)}s?(?![\w-])", lower):
            before = re.findall(r"[a-z]+", lower[max(0, found.start() - 40) : found.start()])
            if not NEGATIONS & set(before[-3:]):
                return True
    return False


def meant_options(value: Any, options: list[str], description: str = "") -> list[str]:
    """The options a user who wrote ``value`` most likely meant (none when no guess holds)."""
    word = str(value).strip()[:100]
    lower = word.lower()
    if not lower:
        return []
    same = [o for o in options if o.lower() == lower]  # 'PyTorch', 'ACCELERATOR'
    if same:
        return same
    starts = [o for o in options if o.lower().startswith(lower)]
    if len(starts) > 1:  # 'tf' -> tf1 or tf2_keras, not the closer spelling alone
        return starts[:MOST_HINTS]
    close = closest(lower, options)
    if close:
        return close
    parts = [o for o in options if lower in o.lower().split("_") and lower != o.lower()]
    if parts:
        return parts
    if len(lower) < 3 or not description:
        return []
    found = []
    for option in options:
        said = re.search(rf"(?<![\w-]){re.escape(option)} \(([^)]*)\)", description)
        if said and names_affirmatively(said.group(1), lower):
            found.append(option)
    return found


def did_you_mean(value: Any, options: list[str], description: str = "") -> str:
    """'; did you mean 'a' or 'b'?' for :func:`meant_options`, or ''."""
    return hint_text(meant_options(value, options, description))


def meant_names(
    name: Any, candidates: Iterable[str], descriptions: Mapping[str, str] | None = None
) -> list[str]:
    """The dotted names (profile keys, field paths, rule ids) a user who wrote ``name`` most
    likely meant: the same name in another case; a close spelling of its last part beside
    it ('team.sise' -> team.size); the same name in another section ('batch_size' ->
    workload.batch_size); a name beside it whose description names it ('training.gpus' ->
    training.accelerators, "Accelerators (GPUs or TPU chips)"). None when no guess holds."""
    text = str(name).strip()[:200]
    lower = text.lower()
    names = list(dict.fromkeys(candidates))
    if not lower:
        return []
    same = [c for c in names if c.lower() == lower]
    if same:
        return same
    parent, _, leaf = lower.rpartition(".")
    beside = {c.rpartition(".")[2]: c for c in names if c.lower().rpartition(".")[0] == parent}
    close = closest(leaf, beside, typo=True)
    if close:
        return [beside[c] for c in close]
    elsewhere = [c for c in names if c.lower().endswith("." + lower)]
    if not elsewhere and parent:
        elsewhere = [c for c in names if c.lower().rpartition(".")[2] == leaf]
    if elsewhere:
        return elsewhere[:MOST_HINTS]
    if len(leaf) < 3 or not descriptions:
        return []
    said = [c for c in beside.values() if names_affirmatively(descriptions.get(c, ""), leaf)]
    return said[:MOST_HINTS]


def hint_text(meant: list[str]) -> str:
    """'; did you mean 'a' or 'b'?' for a list of guesses, or ''."""
    return "; did you mean " + or_join([f"'{m}'" for m in meant]) + "?" if meant else ""


def or_join(items: list[str]) -> str:
    """'a', 'a or b', 'a, b or c'."""
    return " or ".join(items) if len(items) < 3 else ", ".join(items[:-1]) + " or " + items[-1]
