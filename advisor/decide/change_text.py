"""A single change of an answer, in words: what "what would change the verdict" and the
no-fit section say ("add 'tpu' to hardware.training", "purpose: research → both")."""

from __future__ import annotations

from typing import Any


def describe_change(path: str, old: Any, new: Any) -> str:
    """The change of ``path`` from ``old`` (None: not answered) to ``new``."""
    if old is None:
        return f"answer {path}: {_value(new)}"
    if isinstance(old, list) and isinstance(new, list):
        added = [v for v in new if v not in old]
        removed = [v for v in old if v not in new]
        if added:
            return f"add '{added[0]}' to {path}"
        return f"remove '{removed[0]}' from {path}"
    return f"{path}: {_value(old)} → {_value(new)}"


def _value(value: Any) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    if isinstance(value, float) and value >= 1e4:
        return f"{value:.3g}"
    return str(value).lower() if isinstance(value, bool) else str(value)
