"""Checks every input model applies to each field before pydantic converts it.

* YAML 1.1 reads ``yes``, ``on``, ``true`` as booleans, and pydantic's lax mode turns a
  boolean into 1 for an ``int`` or ``float`` field. A boolean where a number belongs is
  an error here, never a silent 1.
* A number must be finite (``.nan`` and ``.inf`` are refused).
* A number written as text may use a comma or underscore only between groups of three
  digits (``1,000,000``, ``1_000``): ``'1_0'`` or ``'0,25'`` is an error, never 10 or 25.
* A text holds at most ``MAX_TEXT_CHARS`` characters.
* A list holds at most ``MAX_LIST_ITEMS`` items and no item twice, so the work done on
  a list (validation, the sensitivity analysis) stays small whatever the file holds.

Used as a ``field_validator("*", mode="before")`` on the base class of the profile, the
rule-pack and the facts models.
"""

from __future__ import annotations

import functools
import math
import re
import types
import typing
from typing import Any, Union

from pydantic import ValidationInfo

MAX_LIST_ITEMS = 64
MAX_TEXT_CHARS = 10_000
MAX_WHOLE_CHARS = 64
# A whole number written as text ('3', ' 4 ', '8.0'): ASCII spaces only, no sign but '+',
# no separators; the JSON Schema's pattern for whole-number fields is this one, so an
# editor that checks a profile agrees with the reader (advisor schema)
# the blanks a number written as text may carry around it, here and in the JSON Schema
# (whose \s is JavaScript's, not Python's: neither is used)
SPACES = r"[ \t\r\n]*"
_WHOLE_TAIL = r"(?:\.0+)?"  # '8.0' is 8
WHOLE_TEXT = rf"^{SPACES}\+?[0-9]+{_WHOLE_TAIL}{SPACES}$"
_WHOLE = re.compile(WHOLE_TEXT)
# a negative whole number: out of every whole-number field's range, not of its form
_NEGATIVE_WHOLE = re.compile(rf"^{SPACES}-[0-9]+{_WHOLE_TAIL}{SPACES}$")


def whole_text_in(low: int, high: int) -> str:
    """WHOLE_TEXT narrowed to the whole numbers from ``low`` to ``high`` (0 <= low <= high):
    the schema's pattern for a field with that range, so a text the reader would refuse as
    out of range ('6' for a 0-5 priority) fails the schema too. Leading zeros and a '.0'
    tail are taken, as the reader takes them."""
    alternatives = []
    for length in range(len(str(low)), len(str(high)) + 1):
        first = low if length == len(str(low)) else 10 ** (length - 1)
        last = high if length == len(str(high)) else 10**length - 1
        alternatives += _same_length(str(first), str(last))
    return rf"^{SPACES}\+?0*(?:{'|'.join(alternatives)}){_WHOLE_TAIL}{SPACES}$"


def _same_length(first: str, last: str) -> list[str]:
    """Regex alternatives that match exactly the numbers first..last, both of one length."""
    if first == last:
        return [first]
    if len(first) == 1:
        return [f"[{first}-{last}]"]
    if first[0] == last[0]:
        return [first[0] + tail for tail in _same_length(first[1:], last[1:])]
    rest = len(first) - 1
    out = []
    low_digit, high_digit = int(first[0]), int(last[0])
    if first[1:] != "0" * rest:
        out += [first[0] + tail for tail in _same_length(first[1:], "9" * rest)]
        low_digit += 1
    if last[1:] != "9" * rest:
        high_digit -= 1
    if low_digit <= high_digit:
        digit = str(low_digit) if low_digit == high_digit else f"[{low_digit}-{high_digit}]"
        out.append(f"{digit}[0-9]{{{rest}}}")
    if last[1:] != "9" * rest:
        out += [last[0] + tail for tail in _same_length("0" * rest, last[1:])]
    return out


def _whole(text: str) -> bool:
    """A whole number as the schema's pattern and length take it."""
    return len(text) <= MAX_WHOLE_CHARS and bool(_WHOLE.match(text))


def _numeric(annotation: Any) -> bool:
    """True for int, float and their optional forms."""
    if annotation in (int, float):
        return True
    if typing.get_origin(annotation) in (Union, types.UnionType):
        args = [a for a in typing.get_args(annotation) if a is not type(None)]
        return bool(args) and all(a in (int, float) for a in args)
    return False


@functools.cache
def _field_kind(cls: Any, name: str) -> tuple[bool, bool, Any] | None:
    """(numeric, a whole number, its lower bound) of a model's field; None for no such
    field. Cached: guard_field runs for every value of every profile and rule pack."""
    field = cls.model_fields.get(name)
    if field is None:
        return None
    low = next((m.ge for m in field.metadata if hasattr(m, "ge")), 0)
    return _numeric(field.annotation), field.annotation is int, low


def guard_field(cls: Any, value: Any, info: ValidationInfo) -> Any:
    """Refuse a boolean for a number, and over-long or repetitive lists."""
    kind = _field_kind(cls, info.field_name or "")
    if kind is None:
        return value
    numeric, whole, low = kind
    if isinstance(value, bool):
        if numeric:
            raise ValueError(
                f"expected a number, got the boolean {str(value).lower()} "
                "(YAML reads yes/no/on/off/true/false as booleans)"
            )
    elif isinstance(value, float):
        if numeric and not math.isfinite(value):
            raise ValueError(f"expected a finite number, got {value}")
    elif isinstance(value, str):
        if numeric:
            _guard_number_text(value, whole, low)
        if len(value) > MAX_TEXT_CHARS:
            raise ValueError(f"text is too long ({len(value)} characters, limit {MAX_TEXT_CHARS})")
    elif isinstance(value, list):
        check_list(value)
    return value


def _guard_number_text(value: str, whole: bool, low: Any) -> None:
    """A number written as text: separators, a whole number's form and range, finiteness,
    underflow."""
    check_separators(value)  # at any length: padding must not skip it
    if whole and not _whole(value):
        if _NEGATIVE_WHOLE.match(value) and len(value) <= MAX_WHOLE_CHARS:
            raise ValueError(f"input should be greater than or equal to {low}")
        raise ValueError(f"expected a whole number (an integer), got {short_repr(value)}")
    if _non_finite(value):
        raise ValueError(f"expected a finite number, got {short_repr(value)}")  # '1e999', 'nan'
    if underflows(value):
        raise ValueError(f"{short_repr(value)} is too small to hold (it would read as 0)")


def _groups(sep: str) -> re.Pattern[str]:
    return re.compile(
        rf"[-+]?[1-9][0-9]{{0,2}}(?:{sep}[0-9]{{3}})+(?:\.[0-9]*)?(?:e[+-]?[0-9]+)?(?:\s*[a-z]+)?",
        re.IGNORECASE,
    )  # the whole stripped text: separators in the integer part only, after a first group
    # that does not start with 0 ('0,250' is a decimal comma), three digits after each. Each
    # part can match in one way only, so a text that fails does so in linear time.


_THOUSANDS = {",": _groups(","), "_": _groups("_")}


def check_separators(value: str) -> None:
    """Refuse a comma or underscore that does not separate thousands ('0,25', '1,5B',
    '1_5'): Python and pydantic would read '1_5' as 15."""
    for sep, pattern in _THOUSANDS.items():
        if sep in value and not pattern.fullmatch(value.strip()):
            raise ValueError(
                f"{sep!r} may only separate thousands (1,000,000 or 1_000_000); write a "
                "decimal with a point (0.25, 1.5B)"
            )


def underflows(text: str, scale: float = 1.0) -> bool:
    """Whether ``text`` is a number that is not zero but reads as 0.0 ('1e-400'), also
    once multiplied by its unit's ``scale`` ('1e-320 B' in MB)."""
    try:
        number = float(text.strip()) * scale
    except ValueError:
        return False
    return number == 0 and bool(re.search(r"[1-9]", re.split(r"[eE]", text)[0]))


def _non_finite(text: str) -> bool:
    """Whether ``text`` reads as an infinite or not-a-number float (as pydantic would)."""
    try:
        return not math.isfinite(float(text.strip()))
    except ValueError:
        return False


def check_list(value: list[Any]) -> None:
    """At most ``MAX_LIST_ITEMS`` items, and no scalar item twice."""
    if len(value) > MAX_LIST_ITEMS:
        raise ValueError(f"too many items ({len(value)}, limit {MAX_LIST_ITEMS})")
    repeat = first_repeat(value)
    if repeat is not None:
        raise ValueError(f"{short_repr(value[repeat])} is listed twice")


def first_repeat(value: list[Any]) -> int | None:
    """The position of the first scalar item that an earlier item equals (None: none), so
    an error can name the repeat's own line."""
    seen: set[Any] = set()
    for position, item in enumerate(value):
        if isinstance(item, (str, int, float)) and not isinstance(item, bool):
            if item in seen:
                return position
            seen.add(item)
    return None


def yaml_repr(value: Any, limit: int = 80) -> str:
    """A value as YAML writes it (null, true, .inf), not as Python does; cut to ``limit``."""
    if value is None or isinstance(value, bool):
        return {None: "null", True: "true", False: "false"}[value]
    if isinstance(value, float) and not math.isfinite(value):
        return ".nan" if math.isnan(value) else (".inf" if value > 0 else "-.inf")
    return short_repr(value, limit)


def yaml_kind(value: Any) -> str:
    """What kind of YAML value this is, in words ("a number", "a list", "an empty document")."""
    if value is None:
        return "an empty document"
    for kind, words in ((bool, "a yes/no value"), ((int, float), "a number"), (str, "text")):
        if isinstance(value, kind):
            return words
    return "a list" if isinstance(value, list) else "a mapping"


def short_repr(value: Any, limit: int = 80) -> str:
    """``repr(value)`` cut to ``limit`` characters with an ellipsis."""
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + "…"
