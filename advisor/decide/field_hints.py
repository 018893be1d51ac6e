"""'Did you mean' for a condition's field path that names nothing (rules, checks, questions)."""

from __future__ import annotations

import re

from advisor.model.option_hints import hint_text, meant_names
from advisor.model.paths import ALL_PATHS, DESCRIBED_PATHS, FACT_PATHS, PROFILE_PATHS


def field_hint(path: str) -> str:
    """ "Did you mean" for a path that names no field: the ratio the advisor keeps when the
    user wrote its inverse, else the shared guesses (display-only ones said to be so)."""
    inverse = _inverse_ratio(path)
    if inverse:
        return (
            f"; the advisor keeps this ratio one way only: '{inverse}', the inverse of what "
            "is written (a threshold of 1.2 the other way is lte: 0.83)"
        )
    meant = meant_names(path, DESCRIBED_PATHS, DESCRIBED_PATHS)
    suggestion = hint_text(meant)
    if any(m not in ALL_PATHS and m in PROFILE_PATHS for m in meant):
        suggestion += " (display only: no rule or question may read it)"
    return suggestion


def _inverse_ratio(path: str) -> str | None:
    """facts.<b>_over_<a>_<x> when ``path`` is facts.<a>_over_<b>_<x> and only that is kept."""
    found = re.fullmatch(r"facts\.([a-z0-9]+)_over_([a-z0-9]+)_(\w+)", path.lower())
    if not found:
        return None
    inverse = f"facts.{found[2]}_over_{found[1]}_{found[3]}"
    return inverse if inverse in FACT_PATHS else None
