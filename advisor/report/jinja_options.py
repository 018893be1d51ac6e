"""The Jinja options and globals every report environment shares (bundled and sandboxed)."""

from __future__ import annotations

import re
from typing import Any

from jinja2 import StrictUndefined

from advisor.frameworks import DISPLAY_NAMES, FRAMEWORKS
from advisor.model.errors import InputError
from advisor.report.charts import CHART_GLOBALS
from advisor.report.text import html_text

_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")


def _no_address(value: Any) -> Any:
    """A value a template prints, without the memory address Python writes in the text of a
    method, a generator or another object ('<built-in method items of dict object at 0x..>'),
    which would weaken address-space randomisation; text and numbers pass unchanged."""
    if value is None or isinstance(value, (str, int, float)):
        return value
    text = str(value)
    return _ADDRESS.sub("", text) if " at 0x" in text else value


def _html_finalize(value: Any) -> Any:
    """Autoescape every expression, and encode braces so '{{' never reaches the page."""
    value = _no_address(value)
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
        "finalize": _html_finalize if html else _no_address,
        "keep_trailing_newline": True,
        "trim_blocks": True,
        "lstrip_blocks": True,
    }


# Jinja2 3.1.5 and older let ``|attr("format")`` reach str.format outside the sandbox's
# check (CVE-2025-27516, GHSA-cpwx-vrp4-4pq7); pyproject requires 3.1.6, and a user
# template is refused under an older Jinja2 that an environment kept anyway.
SAFE_JINJA = (3, 1, 6)


def require_safe_jinja(name: str) -> None:
    """Refuse to render a user's template with a Jinja2 whose sandbox can be escaped."""
    import jinja2

    found = tuple(int(p) for p in re.findall(r"[0-9]+", jinja2.__version__)[:3])
    if found < SAFE_JINJA:
        raise InputError(
            f"user templates need Jinja2 {'.'.join(map(str, SAFE_JINJA))} or later, whose "
            f"sandbox holds (this environment has {jinja2.__version__}); pip install -U jinja2",
            path=name,
        )
