"""'Did you mean' for a condition's field path that names nothing (rules, checks, questions)."""

from __future__ import annotations

import re

from advisor.model.option_hints import closest, hint_text, meant_names
from advisor.model.paths import ALL_PATHS, FACT_PATHS, PROFILE_PATHS


def field_hint(path: str) -> str:
    """ "Did you mean" for a path that names no field: the ratio the advisor keeps when the
    user wrote its inverse, else the shared guesses (display-only ones said to be so)."""
    inverse = _inverse_ratio(path)
    if inverse:
        return (
            f"; the advisor keeps this ratio one way only: '{inverse}', the inverse of what "
            "is written: turn the comparison round and invert the number (gte: 1.2 becomes "
            "lte: 0.83, lt: 0.8 becomes gt: 1.25)"
        )
    meant = meant_names(path, [*PROFILE_PATHS, *FACT_PATHS])
    shown = [
        f"{m}' (display only: no rule or question may read it)'"
        if m not in ALL_PATHS and m in PROFILE_PATHS
        else m
        for m in meant
    ]
    return hint_text(shown).replace(")''", ")")


def _inverse_ratio(path: str) -> str | None:
    """facts.<b>_over_<a>_<x> when ``path`` is facts.<a>_over_<b>_<x> and only that is kept."""
    found = re.fullmatch(r"facts\.([a-z0-9]+)_over_([a-z0-9]+)_(\w+)", path.lower())
    if not found:
        return None
    inverse = f"facts.{found[2]}_over_{found[1]}_{found[3]}"
    return inverse if inverse in FACT_PATHS else None


COMBINATORS = ("all", "any", "not", "field")
# words other languages use for an operator or combinator: the one that means the same
SAME_MEANING = {
    "and": "all", "or": "any", "nin": "not_in", "notin": "not_in", "neq": "ne",
    "==": "eq", "!=": "ne", "<": "lt", "<=": "lte", ">": "gt", ">=": "gte", "le": "lte",
    "ge": "gte", "min": "gte", "max": "lte", "in_list": "in", "has": "contains",
    "includes": "contains",
}  # fmt: skip


def word_hint(word: str, words: tuple[str, ...]) -> list[str]:
    """The operator or combinator ``word`` means: its synonym, or a slip of one word only
    (never its opposite: 'not_contains' gets no hint, whose meaning 'not' gives; 'get' is as
    near gt as gte, 'an' as near any as and: no guess)."""
    lower = word.strip().lower()[:50]
    same = SAME_MEANING.get(lower)
    if same in words:
        return [same]
    known = [*words, *(w for w, m in SAME_MEANING.items() if m in words)]
    meant = {SAME_MEANING.get(w, w) for w in closest(lower, known)}
    return list(meant) if len(meant) == 1 else []
