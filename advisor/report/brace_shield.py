"""Keep braces from report data out of a custom HTML template's output, whatever path
the data takes.

A custom template can reach the data through filters that return safe HTML without
passing the report's escaping (``tojson``, ``urlize``, ``xmlattr``, ``Markup % value``,
``Markup + value``), so escaping at each filter cannot be complete. Instead, before the
render every brace in the data becomes a private-use character, and after it each one
becomes an entity (``&#123;``), a JSON or repr escape (``\\u007b``) or a percent escape
(``%7B``), depending on how the template wrote it out. Braces the template itself writes
are left alone: the template is the user's own choice. A client-side template engine that
reads the page therefore never sees ``{{`` that came from a profile or a rule pack.
"""

from __future__ import annotations

from typing import Any

OPEN, CLOSE = "\ue07b", "\ue07d"  # private-use stand-ins for '{' and '}'
_TO_DATA = str.maketrans({"{": OPEN, "}": CLOSE})
# How a stand-in can reach the output: as itself, as a JSON/repr escape (tojson, pprint),
# or percent-encoded as UTF-8 (urlencode); each becomes the inert form of a brace there.
_OUT = (
    (OPEN, "&#123;"),
    (CLOSE, "&#125;"),
    ("\\ue07b", "\\u007b"),
    ("\\ue07d", "\\u007d"),
    ("%EE%81%BB", "%7B"),
    ("%EE%81%BD", "%7D"),
)


def shield(value: Any) -> Any:
    """A copy of JSON-like data with every brace in its texts (keys too) replaced."""
    if isinstance(value, str):
        return value.translate(_TO_DATA)
    if isinstance(value, dict):
        return {shield(k): shield(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(shield(v) for v in value)
    return value


def unshield(text: str) -> str:
    """The rendered output with every stand-in written as an inert brace."""
    for stand_in, inert in _OUT:
        text = text.replace(stand_in, inert)
    return text
