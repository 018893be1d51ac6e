"""Widths and precisions in a custom template's format strings, checked before formatting.

``'%9999999d' % 1``, ``'{:>9999999}'.format(x)`` or a width taken from an argument
(``%*d``, ``{:>{w}}``) would build a huge string before any cap on the result could see
it. Both styles are scanned the way Python reads them (nested parentheses in a ``%(key)``
mapping key, ``{{`` escapes, any Unicode decimal digit in a ``{}`` spec), in linear time.
"""

from __future__ import annotations

import string

from jinja2.exceptions import SecurityError

MAX_WIDTH = 9_999  # largest field width or padding
_FLAGS = "-#0 +"


def check_format(spec: object, style: str = "%") -> None:
    """Raise SecurityError for a width or precision over ``MAX_WIDTH`` or one taken from
    an argument; ``style`` is ``"%"`` for %-formatting, ``"{}"`` for str.format."""
    if isinstance(spec, bytes):  # b'%9999999d' % 1 formats the same way
        spec = spec.decode("latin-1")
    if not isinstance(spec, str):
        return
    for number in _percent_numbers(spec) if style == "%" else _brace_numbers(spec):
        if number is None:
            raise SecurityError("a format width or precision taken from an argument is not allowed")
        if number > MAX_WIDTH:
            raise SecurityError(f"a format width or precision over {MAX_WIDTH} is not allowed")


def _percent_numbers(spec: str) -> list[int | None]:
    """Every width and precision of the %-conversions in ``spec`` (None for ``*``)."""
    found: list[int | None] = []
    i, n = 0, len(spec)
    while i < n:
        i = spec.find("%", i)
        if i < 0:
            break
        i += 1
        if i < n and spec[i] == "%":
            i += 1
            continue
        if i < n and spec[i] == "(":  # a mapping key: Python counts nested parentheses
            depth = 0
            while i < n:
                depth += {"(": 1, ")": -1}.get(spec[i], 0)
                i += 1
                if depth == 0:
                    break
        while i < n and spec[i] in _FLAGS:
            i += 1
        for lead in ("", "."):  # the width, then the precision
            if lead and not (i < n and spec[i] == "."):
                break
            i += len(lead)
            if i < n and spec[i] == "*":
                found.append(None)
                i += 1
                continue
            start = i
            while i < n and spec[i].isdigit():
                i += 1
            if i > start:
                found.append(_number(spec[start:i]))
    return found


def _brace_numbers(spec: str) -> list[int | None]:
    """Every width and precision in the ``{}`` fields of ``spec`` (None for a nested field)."""
    try:
        fields = list(string.Formatter().parse(spec))
    except ValueError:
        return []  # str.format refuses it too
    found: list[int | None] = []
    for _, name, format_spec, _ in fields:
        if name is None or not format_spec:
            continue
        if "{" in format_spec:
            found.append(None)
            continue
        digits = ""
        for char in format_spec + " ":
            if char.isdecimal():
                digits += char
            elif digits:
                found.append(_number(digits))
                digits = ""
    return found


def _number(digits: str) -> int:
    """The value of a run of decimal digits, without converting a huge run."""
    digits = digits.lstrip("0") or "0"
    return MAX_WIDTH + 1 if len(digits) > len(str(MAX_WIDTH)) else int(digits)
