"""The Jinja options and globals every report environment shares (bundled and sandboxed)."""

from __future__ import annotations

from typing import Any

from jinja2 import StrictUndefined

from advisor.frameworks import DISPLAY_NAMES, FRAMEWORKS
from advisor.report.charts import CHART_GLOBALS
from advisor.report.text import html_text


def _html_finalize(value: Any) -> Any:
    """Autoescape every expression, and encode braces so '{{' never reaches the page."""
    return html_text("" if value is None else value)


def report_globals() -> dict[str, Any]:
    """Names every report template may use."""
    return {
        **CHART_GLOBALS,
        "FRAMEWORKS": FRAMEWORKS,
        "DISPLAY_NAMES": DISPLAY_NAMES,
    }


def options(html: bool) -> dict[str, Any]:
    """The Jinja options every report environment shares."""
    return {
        "undefined": StrictUndefined,
        "autoescape": html,
        "finalize": _html_finalize if html else None,
        "keep_trailing_newline": True,
        "trim_blocks": True,
        "lstrip_blocks": True,
    }
