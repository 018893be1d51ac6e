"""A literal in a rule's condition, read as a profile reads the same text at that field.

``350M`` on ``model.parameters`` is 350 million and ``256KB`` on
``deployment.device_memory_mb`` a quarter of a megabyte, as in a profile; a value outside
the field's range, of the wrong type or not among an enum's values is a ValueError whose
message the condition parser reports. A pack may hold about a million literals, so each
one costs a few microseconds: the field alone is validated (on a blank instance of the
model that declares it), and the type adapters are built once.
"""

from __future__ import annotations

import functools
import math
from enum import Enum
from typing import Any

from pydantic import BaseModel, TypeAdapter, ValidationError

from advisor.model.field_guards import check_separators, short_repr, underflows
from advisor.model.option_hints import did_you_mean
from advisor.model.profile import field_bounds, model_field

_RANGE_ERRORS = ("less_than", "less_than_equal", "greater_than", "greater_than_equal")


@functools.cache
def _adapter(item: Any) -> TypeAdapter[Any]:
    return TypeAdapter(item)


@functools.cache
def _declaring(path: str) -> tuple[BaseModel, str]:
    """A blank instance of the model that declares ``path``, and the field's name there."""
    model, _ = model_field(path)
    return model.model_construct(), path.rsplit(".", 1)[-1]


def as_profile_reads(path: str, value: Any) -> Any:
    """``value`` as a profile reads it at ``path``: the field's own parser and bounds (the
    profile models have field validators only, so the field alone decides)."""
    blank, name = _declaring(path)
    try:
        node = type(blank).__pydantic_validator__.validate_assignment(blank, name, value)
    except ValidationError as exc:
        error = exc.errors()[0]
        if error["type"] in _RANGE_ERRORS:
            low, high = field_bounds(model_field(path)[1])
            span = " to ".join("any" if b is None else f"{b:g}" for b in (low, high))
            raise ValueError(
                f"{short_repr(value)} is outside the range of '{path}' ({span}): the "
                "comparison would be always true or always false"
            ) from None
        raise ValueError(error["msg"].removeprefix("Value error, ")) from None
    return getattr(node, name)


def read_literal(path: str, item: Any, value: Any, op: str, *, fact: bool) -> Any:
    """Validate a literal against the field's item type; return it in comparable form
    (ValueError naming ``op`` when it does not fit)."""
    if item is bool and not isinstance(value, bool):  # no "off", "yes", 1 or 0
        raise ValueError(f"{op}: expected true or false for '{path}', got {short_repr(value)}")
    if item in (int, float) and isinstance(value, bool):
        raise ValueError(f"{op}: expected a number for '{path}', got a boolean")
    if item in (int, float):
        try:  # the field's own reading (350M parameters, 256KB of memory), as in a profile
            value = value if fact else as_profile_reads(path, value)
            if isinstance(value, str):
                check_separators(value)
        except ValueError as exc:
            raise ValueError(f"{op}: {exc}") from None
        if isinstance(value, float) and not math.isfinite(value):
            raise ValueError(f"{op}: expected a finite number for '{path}', got {value}")
    try:
        checked = _adapter(item).validate_python(value)
    except ValidationError:
        raise ValueError(
            f"{op}: {short_repr(value)} is not a valid value for '{path}' "
            f"(expected {_describe(item)})" + _enum_hint(path, item, value)
        ) from None
    if item in (int, float):
        _finite_as_written(path, value, checked, op)
    return checked.value if isinstance(checked, Enum) else checked


def _finite_as_written(path: str, value: Any, checked: Any, op: str) -> None:
    """A number written as text ('nan', '1e999', '1.0e-400') is read as the finite value
    it says, or refused: pydantic's lax float would read NaN, infinity or 0."""
    if isinstance(checked, float) and not math.isfinite(checked):
        raise ValueError(f"{op}: expected a finite number for '{path}', got {short_repr(value)}")
    if isinstance(value, str) and underflows(value):
        raise ValueError(f"{op}: {short_repr(value)} is too small to hold for '{path}'")


def _describe(item: Any) -> str:
    if isinstance(item, type) and issubclass(item, Enum):
        return "one of " + ", ".join(m.value for m in item)
    return getattr(item, "__name__", str(item))


def _enum_hint(path: str, item: Any, value: Any) -> str:
    if not (isinstance(item, type) and issubclass(item, Enum)):
        return ""
    described = "" if path.startswith("facts.") else model_field(path)[1].description or ""
    return did_you_mean(value, [m.value for m in item], described)
