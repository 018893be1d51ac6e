"""'Did you mean ...?' for a choice that is not one of a field's options.

One helper for profiles, rule conditions and the questionnaire, so a value gets the same
hint wherever it is written: a close spelling first ('tpuu' -> tpu), then the options the
value is a part of ('gpu' -> nvidia_gpu or amd_gpu), then the options whose explanation in
the field's description names it (a framework's name -> the options it explains).
A loose spelling match ('gpu' -> 'cpu', 'tf2' -> 'tf1') misleads more than it helps, so
the cutoff is high.
"""

from __future__ import annotations

import difflib
import re
from typing import Any

CLOSE_SPELLING = 0.8


def meant_options(value: Any, options: list[str], description: str = "") -> list[str]:
    """The options a user who wrote ``value`` most likely meant (none when no guess holds)."""
    word = str(value).strip()[:100]
    lower = word.lower()
    if not lower:
        return []
    same = [o for o in options if o.lower() == lower]  # 'PyTorch', 'ACCELERATOR'
    if same:
        return same
    by_lower = {o.lower(): o for o in options}
    close = difflib.get_close_matches(lower, list(by_lower), n=1, cutoff=CLOSE_SPELLING)
    if close:
        return [by_lower[close[0]]]
    parts = [o for o in options if lower in o.lower().split("_") and lower != o.lower()]
    if parts:
        return parts
    if len(lower) < 3 or not description:
        return []
    found = []
    for option in options:
        said = re.search(rf"(?<![\w-]){re.escape(option)} \(([^)]*)\)", description)
        if said and re.search(rf"(?<!\w){re.escape(lower)}(?!\w)", said.group(1).lower()):
            found.append(option)
    return found


def did_you_mean(value: Any, options: list[str], description: str = "") -> str:
    """'; did you mean 'a' or 'b'?' for :func:`meant_options`, or ''."""
    meant = meant_options(value, options, description)
    return "; did you mean " + " or ".join(f"'{m}'" for m in meant) + "?" if meant else ""
