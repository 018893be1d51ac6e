"""Keep braces (HTML) and control characters (both formats) from the report data out of
a custom template's output, whatever path the data takes.

A custom template can reach the data through filters that return safe HTML without
passing the report's escaping (``tojson``, ``urlize``, ``xmlattr``, ``Markup % value``,
``Markup + value``), so escaping at each filter cannot be complete. Instead, before the
render every brace in the data becomes a private-use character, and after it each one
becomes an entity with a zero-width space beside it (``&#123;&#8203;``: the browser
decodes entities, so only braces that never touch keep ``{{`` from a client-side template
engine reading the DOM), a JSON or repr escape (``\\u007b``) or a percent escape
(``%7B``), depending on how the template wrote it out. Braces the template itself writes
are left alone: the template is the user's own choice. A client-side template engine that
reads the page therefore never sees ``{{`` that came from a profile or a rule pack.
"""

from __future__ import annotations

from typing import Any

from advisor.report.text import HTML_CLOSE, HTML_OPEN, drop_controls

OPEN, CLOSE = "\ue07b", "\ue07d"  # private-use stand-ins for '{' and '}'
_TO_DATA = str.maketrans({"{": OPEN, "}": CLOSE})
# How a stand-in can reach the output: as itself, as a JSON/repr escape (tojson, pprint),
# or percent-encoded as UTF-8 (urlencode); each becomes the inert form of a brace there.
_OUT = (
    (OPEN, HTML_OPEN),
    (CLOSE, HTML_CLOSE),
    ("\\ue07b", "\\u007b"),
    ("\\ue07d", "\\u007d"),
    ("%EE%81%BB", "%7B"),
    ("%EE%81%BD", "%7D"),
)


def inert_data(value: Any, *, html: bool) -> Any:
    """A copy of JSON-like report data for a custom template: control, bidi and invisible
    characters dropped from every text (keys too), whatever filters the template uses,
    and for HTML every brace replaced by its stand-in."""
    if isinstance(value, str):
        text = drop_controls(value)
        return text.translate(_TO_DATA) if html else text
    if isinstance(value, dict):
        return {inert_data(k, html=html): inert_data(v, html=html) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(inert_data(v, html=html) for v in value)
    return value


def unshield(text: str) -> str:
    """The rendered output with every stand-in written as an inert brace."""
    for stand_in, inert in _OUT:
        text = text.replace(stand_in, inert)
    return text


def stand_ins(text: str) -> str:
    """``text`` with its braces as stand-ins (written out inert after the render)."""
    return text.translate(_TO_DATA)


def rewrap_filter(func: Any, call: Any) -> Any:
    """``call(func, args, kwargs)`` as a filter that keeps ``func``'s Jinja marker (a filter
    passed the environment or context first keeps receiving it, ahead of ``args``)."""
    passes = getattr(func, "jinja_pass_arg", None)
    if passes is None:
        return lambda *a, **k: call(func, a, k)

    def passing(first: Any, *a: Any, **k: Any) -> Any:
        return call(lambda *b, **kw: func(first, *b, **kw), a, k)

    passing.jinja_pass_arg = passes  # type: ignore[attr-defined]
    return passing


def _data_in(func: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """The filter with its value's braces as stand-ins (``tojson``, ``urlize``, ``xmlattr``
    return safe HTML without the report's escaping; the stand-ins come out inert)."""
    return func(*(inert_data(a, html=True) for a in args), **kwargs)


def _braces_out(func: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """The filter's text result with braces as stand-ins: ``striptags`` decodes entities,
    so ``&#123;&#123;`` in the data would come out as a real ``{{``."""
    result = func(*args, **kwargs)
    return result.translate(_TO_DATA) if isinstance(result, str) else result


def shield_filters(filters: dict[str, Any]) -> None:
    """Make the HTML filters that can carry data braces past escaping keep them inert."""
    for name in ("tojson", "urlize", "xmlattr"):
        filters[name] = rewrap_filter(filters[name], _data_in)
    filters["striptags"] = rewrap_filter(filters["striptags"], _braces_out)
