"""Charts as text: Mermaid blocks for Markdown, and bar widths for the HTML report.

Mermaid's ``xychart-beta`` and ``pie`` render on GitHub and GitLab and stay readable as
text elsewhere. Labels pass through :func:`mermaid_label`, so no quote, bracket or
markup character from the data can break out of the chart definition.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from advisor.report.text import mermaid_label


def _number(value: float) -> str:
    """A plain Mermaid number (no exponent, no separators)."""
    x = float(value)
    if not math.isfinite(x):
        return "0"
    return f"{x:.2f}".rstrip("0").rstrip(".") or "0"


def nice_max(values: Sequence[float]) -> float:
    """A round axis maximum a little above the largest value."""
    top = max((float(v) for v in values), default=0.0)
    if top <= 0:
        return 1.0
    magnitude = 10 ** math.floor(math.log10(top))
    for step in (1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10):
        if step * magnitude >= top * 1.05:
            return round(step * magnitude, 12)
    return 10 * magnitude


def mermaid_bar(
    title: str,
    labels: Sequence[str],
    values: Sequence[float],
    y_label: str,
    y_max: float | None = None,
) -> str:
    """A Mermaid ``xychart-beta`` bar chart in a fenced block."""
    top = y_max if y_max is not None else nice_max(values)
    lines = [
        "```mermaid",
        "xychart-beta",
        f"    title {mermaid_label(title)}",
        "    x-axis [" + ", ".join(mermaid_label(label) for label in labels) + "]",
        f"    y-axis {mermaid_label(y_label)} 0 --> {_number(top)}",
        "    bar [" + ", ".join(_number(v) for v in values) + "]",
        "```",
    ]
    return "\n".join(lines)


def mermaid_pie(title: str, labels: Sequence[str], values: Sequence[float]) -> str:
    """A Mermaid ``pie`` chart in a fenced block; zero slices are left out."""
    lines = ["```mermaid", "pie showData", f"    title {mermaid_label(title)[1:-1]}"]
    for label, value in zip(labels, values, strict=True):
        if float(value) > 0:
            lines.append(f"    {mermaid_label(label)} : {_number(value)}")
    lines.append("```")
    return "\n".join(lines)


def bar_percent(value: float, top: float) -> float:
    """Width of an HTML bar, 0-100, for ``value`` on a scale ending at ``top``."""
    if top <= 0:
        return 0.0
    return round(max(0.0, min(100.0, 100.0 * float(value) / float(top))), 1)


CHART_GLOBALS = {
    "mermaid_bar": mermaid_bar,
    "mermaid_pie": mermaid_pie,
    "nice_max": nice_max,
    "bar_percent": bar_percent,
}
