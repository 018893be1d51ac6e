"""'Did you mean ...?' for a choice that is not one of a field's options, and for a name (a
profile key, a condition's field path or operator, a question's key, a rule id) that names
nothing: one helper for profiles, rule packs, the questionnaire and `rules show`, so a
value gets the same hint wherever it is written.

A hint that names another thing misleads more than no hint, so a guess must be a slip of
the same words: the same numbers ('float64' is not 'float16'), the same short words
('amd_cpu' is not 'amd_gpu', 'edge_cpu' is not 'edge_tpu'), the same negation ('not_contains' is
not 'contains'), and each longer word at most a slip away ('experiance' -> 'experience').
Then: the options the value starts ('tf' -> tf1 or tf2_keras) or is a word of ('gpu' ->
nvidia_gpu or amd_gpu), and the options whose explanation names it affirmatively (never
"numpy (no deep-learning framework)" for 'deep-learning').
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable
from typing import Any

CLOSE_SPELLING = 0.8
MOST_HINTS = 3
NEGATIONS = frozenset({"no", "not", "non", "none", "nin", "nor", "without", "never", "exclude"})
# written onto a word: 'notrequired', 'nonmobile', 'uncontains', 'ngt', 'nand', 'xor'
JOINED_NEGATIONS = frozenset({"not", "non", "no", "un", "n", "x", "none", "dis", "in"})
_SEPARATORS = re.compile(r"[._\-\s]+")


def _words(text: str) -> list[str]:
    return [w for w in _SEPARATORS.split(text.lower()) if w]


def slip(a: str, b: str) -> str | None:
    """How ``a`` becomes ``b`` by one slip: 'change', 'add', 'drop' or 'swap' (None if not)."""
    if a == b or abs(len(a) - len(b)) > 1:
        return None
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        if len(diff) == 1:
            return "change"
        swapped = len(diff) == 2 and diff[1] == diff[0] + 1
        return "swap" if swapped and (a[diff[0]], a[diff[1]]) == (b[diff[1]], b[diff[0]]) else None
    short, long = (a, b) if len(a) < len(b) else (b, a)
    if any(long[:i] + long[i + 1 :] == short for i in range(len(long))):
        return "add" if len(a) > len(b) else "drop"
    return None


def same_thing(written: str, candidate: str) -> bool:
    """Could ``written`` be a slip in writing ``candidate``, rather than another thing?"""
    a, b = _words(written), _words(candidate)
    if not a or not b or bool(NEGATIONS & set(a)) != bool(NEGATIONS & set(b)):
        return False
    joined, meant = "".join(a), "".join(b)
    for short, long in ((meant, joined), (joined, meant)):  # 'notrequired', 'containsnot'
        if long != short and short in long and long.replace(short, "", 1) in JOINED_NEGATIONS:
            return False
    if re.sub(r"\D", "", written) != re.sub(r"\D", "", candidate):  # 64 is not 16
        return False
    if len(a) != len(b):  # 'batchsize' for 'batch_size'
        return joined == meant
    for x, y in zip(a, b, strict=True):
        if x == y:
            continue
        kind = slip(x, y)
        if min(len(x), len(y)) <= 3:  # cpu/gpu, jax/tpu: one letter is another word
            if kind not in ("add", "drop"):
                return False
        elif not kind and difflib.SequenceMatcher(None, x, y).ratio() < CLOSE_SPELLING:
            return False
    return True


def closest(word: str, candidates: Iterable[str]) -> list[str]:
    """The candidates ``word`` is most likely a slip for (see :func:`same_thing`), all of
    the equally close ones, case-insensitive."""
    lower = word.lower()
    scored = [
        (difflib.SequenceMatcher(None, lower, c.lower()).ratio(), c)
        for c in dict.fromkeys(candidates)
        if same_thing(lower, c)
    ]
    best = max((s for s, _ in scored), default=0.0)
    return [c for s, c in scored if s == best][:MOST_HINTS] if scored else []


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
    lower = str(value).strip()[:100].lower()
    if not lower:
        return []
    same = [o for o in options if o.lower() == lower]  # 'PyTorch', 'ACCELERATOR'
    if same:
        return same
    starts = [o for o in options if o.lower().startswith(lower)]
    if len(starts) > 1:  # 'tf' -> tf1 or tf2_keras, not the closer spelling alone
        return starts[:MOST_HINTS]
    if starts and len(lower) >= 3 and starts[0][len(lower)].isalpha():  # 'prod' -> production
        return starts
    close = closest(lower, options)
    if close:
        return close
    parts = [o for o in options if lower in _words(o) and lower != o.lower()]
    if parts:
        return parts[:MOST_HINTS]
    if len(lower) < 3 or not description:
        return []
    found = []
    for option in options:
        said = re.search(rf"(?<![\w-]){re.escape(option)} \(([^)]*)\)", description)
        if said and names_affirmatively(said.group(1), lower):
            found.append(option)
    return found[:MOST_HINTS]


def did_you_mean(value: Any, options: list[str], description: str = "") -> str:
    """'; did you mean 'a' or 'b'?' for :func:`meant_options`, or ''."""
    return hint_text(meant_options(value, options, description))


def meant_names(name: Any, candidates: Iterable[str]) -> list[str]:
    """The dotted names (profile keys, field paths) a user who wrote ``name`` most likely
    meant, as full paths: a slip of a name beside it ('team.sise' -> team.size); a name
    beside it that it starts ('workload.model' -> workload.model_family); a slip anywhere in
    the path ('team.experiance.pytorch'); a top-level name that is one field's own name in a
    section ('batch_size' -> workload.batch_size). A field whose description mentions the
    word, or of which it is an option, is no guess: 'hardware: {tpu: ..}' may mean
    training or inference hardware or free TPU access, 'workload: {cpu: ..}' a simulator."""
    lower = str(name).strip()[:200].lower()
    names = list(dict.fromkeys(candidates))
    if not lower:
        return []
    same = [c for c in names if c.lower() == lower]
    if same:
        return same
    parent, _, leaf = lower.rpartition(".")
    beside = {c.rpartition(".")[2]: c for c in names if c.lower().rpartition(".")[0] == parent}
    guesses = [beside[c] for c in closest(leaf, beside)]
    if not guesses and len(leaf) >= 3:
        guesses = [c for leaf_name, c in beside.items() if leaf_name.lower().startswith(leaf)]
    if not guesses and parent:
        guesses = closest(lower, names)
    if not guesses and not parent and (len(leaf) >= 5 or "_" in leaf):  # 'size' says too little
        elsewhere = [c for c in names if c.lower().endswith("." + lower)]
        guesses = elsewhere if len(elsewhere) == 1 else []
    return guesses[:MOST_HINTS]


def meant_ids(written: str, ids: Iterable[str]) -> tuple[list[str], str | None]:
    """The rule ids a user who wrote ``written`` most likely meant ('perf1' -> PERF001;
    'HW0008' -> HW008), and the id prefix when too many are one slip away to name."""
    found = re.fullmatch(r"([A-Za-z]+)[-_ ]?(\d+)", written.strip()[:50])  # HW-001 too
    if not found:
        return [], None
    prefix, digits = found[1].upper(), found[2]
    numbered = {i: i[len(prefix) :] for i in ids if re.fullmatch(re.escape(prefix) + r"\d+", i)}
    same = [i for i, n in numbered.items() if int(n) == int(digits)]
    if same:
        return same, None
    # a digit dropped, doubled or two swapped; a digit changed is another number (DET4: no)
    near = [
        i
        for i, n in numbered.items()
        if slip(digits.lstrip("0") or "0", n.lstrip("0") or "0") in ("add", "drop", "swap")
    ]
    if len(near) > MOST_HINTS:
        return [], prefix
    return near, None


def hint_text(meant: list[str]) -> str:
    """'; did you mean 'a' or 'b'?' for a list of guesses, or ''."""
    return "; did you mean " + or_join([f"'{m}'" for m in meant]) + "?" if meant else ""


def or_join(items: list[str]) -> str:
    """'a', 'a or b', 'a, b or c'."""
    return " or ".join(items) if len(items) < 3 else ", ".join(items[:-1]) + " or " + items[-1]
