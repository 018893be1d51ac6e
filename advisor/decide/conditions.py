"""A small declarative condition language over profile fields and measured facts.

A condition is YAML data, parsed once into objects and checked against the models:

    all: [cond, ...]          every one holds
    any: [cond, ...]          at least one holds
    not: cond                 the opposite
    {field: PATH, OP: VALUE}  a comparison

OP is one of eq, ne, lt, lte, gt, gte, in, not_in, contains, contains_any, contains_all.
A comparison may add ``unsaid: true|false``, its result when the profile does not give
that answer; without it, an unsaid answer makes the comparison unknown.
PATH names a profile field (``deployment.targets``; not a display-only one) or a fact
(``facts.jit_speedup.jax``). Evaluation is three-valued: a comparison on a fact that was
not measured is *unknown* (None), and a rule whose condition is unknown stands aside.
Nothing here evaluates strings as code.
"""

from __future__ import annotations

import typing
from dataclasses import dataclass
from typing import Any

from advisor.decide.context import build_context, flatten, get_path, set_path  # noqa: F401
from advisor.decide.field_hints import COMBINATORS, field_hint, word_hint
from advisor.decide.literals import read_literal
from advisor.model.field_guards import check_list, first_repeat
from advisor.model.paths import (  # noqa: F401
    ALL_PATHS,
    FACT_PATHS,
    PROFILE_PATHS,
    leaf_paths,
    situation_paths,
)
from advisor.model.terminal_text import clip

COMPARISONS = ("eq", "ne", "lt", "lte", "gt", "gte")
MEMBERSHIP = ("in", "not_in")
CONTAINS = ("contains", "contains_any", "contains_all")
OPERATORS = COMPARISONS + MEMBERSHIP + CONTAINS
MAX_DEPTH = 32
MAX_CONDITIONS = 256  # conditions in one rule's or check's `when` (the core's largest: 6)
MAX_PACK_CONDITIONS = 20_000  # in all the rules (or all the checks) loaded (the core: 239)
# what a condition that only chooses what a report shows may read: display-only answers too
DISPLAY_READABLE = {**ALL_PATHS, **PROFILE_PATHS}


class ConditionError(ValueError):
    """A condition that does not parse or does not fit the models. ``where`` names the bad
    part for people (``when.all[3]``, counted from 1); ``loc`` is its path inside the
    condition (``("all", 2, "field")``), for its line, set by the innermost parse_condition
    when the raiser gave none."""

    def __init__(self, message: str, where: str = "when", loc: tuple[Any, ...] | None = None):
        super().__init__(message)
        self.message, self.where, self.loc = message, where, loc

    def __str__(self) -> str:
        return f"{self.where}: {self.message}"


@dataclass(frozen=True)
class FieldInfo:
    """What a path resolves to in the models."""

    path: str
    annotation: Any
    is_list: bool
    item: Any  # the item type for lists, the type itself otherwise
    is_fact: bool


def resolve_field(path: str, *, display: bool = False) -> FieldInfo:
    """Look a dotted path up in the Profile or Facts model. ``display``: the condition
    only chooses what a report shows (a starter, a stack item, an install line), so it may
    read a display-only answer as well; a rule or a question may not."""
    readable = DISPLAY_READABLE if display else ALL_PATHS
    if not isinstance(path, str) or path not in readable:
        if isinstance(path, str) and path in PROFILE_PATHS:  # the model says no rule reads it
            raise ConditionError(f"'{path}' is display only: no rule or question may read it")
        raise ConditionError(f"unknown field '{clip(path)}'{field_hint(str(path))}")
    annotation = readable[path]
    is_list = typing.get_origin(annotation) is list
    item = typing.get_args(annotation)[0] if is_list else annotation
    return FieldInfo(path, annotation, is_list, item, path.startswith("facts."))


def _check_value(info: FieldInfo, value: Any, op: str) -> Any:
    """Validate a literal against the field's item type; return it in comparable form."""
    try:
        return read_literal(info.path, info.item, value, op, fact=info.is_fact)
    except ValueError as exc:
        raise ConditionError(str(exc)) from None


class Condition:
    """Base class: evaluate to True, False or None (unknown)."""

    def evaluate(self, context: dict[str, Any]) -> bool | None:  # pragma: no cover - abstract
        raise NotImplementedError

    def fields(self) -> set[str]:  # pragma: no cover - abstract
        raise NotImplementedError

    def required_fields(self, in_all: bool = False) -> set[str]:
        """The fields it needs to hold, not those of an exception (a ``not`` among an
        ``all``'s parts): a ``not`` alone or in an ``any`` can make it hold by itself."""
        parts = getattr(self, "parts", ())
        return set().union(*(p.required_fields(isinstance(self, All)) for p in parts))

    def literals(self) -> dict[str, set[Any]]:
        """Literal values compared with each field (used to find tipping points)."""
        return {}

    def size(self) -> int:
        """Conditions in this one, itself included (at most MAX_CONDITIONS)."""
        return 1 + sum(p.size() for p in getattr(self, "parts", ()))


@dataclass(frozen=True)
class Always(Condition):
    def evaluate(self, context: dict[str, Any]) -> bool | None:
        return True

    def fields(self) -> set[str]:
        return set()


@dataclass(frozen=True)
class All(Condition):
    parts: tuple[Condition, ...]

    def evaluate(self, context: dict[str, Any]) -> bool | None:
        unknown = False
        for part in self.parts:
            value = part.evaluate(context)
            if value is False:
                return False
            unknown = unknown or value is None
        return None if unknown else True

    def fields(self) -> set[str]:
        return set().union(*(p.fields() for p in self.parts))

    def literals(self) -> dict[str, set[Any]]:
        return _merge(p.literals() for p in self.parts)


@dataclass(frozen=True)
class AnyOf(Condition):
    parts: tuple[Condition, ...]

    def evaluate(self, context: dict[str, Any]) -> bool | None:
        unknown = False
        for part in self.parts:
            value = part.evaluate(context)
            if value is True:
                return True
            unknown = unknown or value is None
        return None if unknown else False

    def fields(self) -> set[str]:
        return set().union(*(p.fields() for p in self.parts))

    def literals(self) -> dict[str, set[Any]]:
        return _merge(p.literals() for p in self.parts)


def _negates(c: Condition) -> bool:
    return isinstance(c, Not) or any(_negates(p) for p in getattr(c, "parts", ()))


@dataclass(frozen=True)
class Not(Condition):
    part: Condition

    def evaluate(self, context: dict[str, Any]) -> bool | None:
        value = self.part.evaluate(context)
        return None if value is None else not value

    def fields(self) -> set[str]:
        return self.part.fields()

    def required_fields(self, in_all: bool = False) -> set[str]:
        # an exception negates a plain condition; not-not X, not: {any: [not: X]} hold by X
        return set() if in_all and not _negates(self.part) else self.part.fields()

    def literals(self) -> dict[str, set[Any]]:
        return self.part.literals()

    def size(self) -> int:
        return 1 + self.part.size()


@dataclass(frozen=True)
class Compare(Condition):
    path: str
    op: str
    value: Any
    unsaid: bool | None = None  # the result when the answer was not given (None: unknown)

    def evaluate(self, context: dict[str, Any]) -> bool | None:
        actual = context.get(self.path)
        if actual is None:
            if self.unsaid is not None and self.path not in context:
                return self.unsaid  # facts are always in the context, so only answers
            return None
        op, value = self.op, self.value
        if op == "eq":
            return actual == value
        if op == "ne":
            return actual != value
        if op == "lt":
            return actual < value
        if op == "lte":
            return actual <= value
        if op == "gt":
            return actual > value
        if op == "gte":
            return actual >= value
        if op == "in":
            return actual in value
        if op == "not_in":
            return actual not in value
        if op == "contains":
            return value in actual
        if op == "contains_any":
            return any(v in actual for v in value)
        return all(v in actual for v in value)  # contains_all

    def fields(self) -> set[str]:
        return {self.path}

    def required_fields(self, in_all: bool = False) -> set[str]:
        return self.fields()

    def literals(self) -> dict[str, set[Any]]:
        values = self.value if isinstance(self.value, tuple) else (self.value,)
        return {self.path: set(values)}


def _merge(parts: Any) -> dict[str, set[Any]]:
    out: dict[str, set[Any]] = {}
    for part in parts:
        for key, values in part.items():
            out.setdefault(key, set()).update(values)
    return out


def parse_condition(
    data: Any,
    where: str = "when",
    depth: int = 0,
    loc: tuple[Any, ...] = (),
    *,
    display: bool = False,
) -> Condition:
    """Parse YAML data into a Condition, checking every path, operator and literal (an
    error's ``where`` and ``loc`` name the bad part: ConditionError). ``display``: see
    resolve_field."""
    try:
        return _parse(data, where, depth, loc, display)
    except ConditionError as exc:
        if exc.loc is None:
            exc.loc = loc
        raise


def _parse(data: Any, where: str, depth: int, loc: tuple[Any, ...], display: bool) -> Condition:
    if depth > MAX_DEPTH:
        raise ConditionError(f"conditions nest deeper than {MAX_DEPTH} levels", where)
    if data is None or data is True:
        return Always()
    if not isinstance(data, dict):
        raise ConditionError(
            "a condition must be a mapping with all, any, not, or field plus an operator", where
        )
    keys = set(data)
    for combinator in ("all", "any"):
        if combinator in keys:
            if keys != {combinator}:
                raise ConditionError(f"'{combinator}' must stand alone in its mapping", where)
            items = data[combinator]
            if not isinstance(items, list) or not items:
                raise ConditionError(
                    f"'{combinator}' needs a non-empty list",
                    f"{where}.{combinator}",
                    (*loc, combinator),
                )
            _check_items(items, combinator, f"{where}.{combinator}", (*loc, combinator))
            parts = tuple(
                parse_condition(
                    item,
                    f"{where}.{combinator}[{i + 1}]",
                    depth + 1,
                    (*loc, combinator, i),
                    display=display,
                )
                for i, item in enumerate(items)
            )
            again = next((i for i, part in enumerate(parts) if part in parts[:i]), None)
            if again is not None:
                raise ConditionError(
                    f"'{combinator}' holds the same condition twice",
                    f"{where}.{combinator}[{again + 1}]",
                    (*loc, combinator, again),
                )
            node = All(parts) if combinator == "all" else AnyOf(parts)
            if node.size() > MAX_CONDITIONS:  # aliases can repeat a subtree many times
                raise ConditionError(f"holds more than {MAX_CONDITIONS} conditions", where)
            return node
    if "not" in keys:
        if keys != {"not"}:
            raise ConditionError("'not' must stand alone in its mapping", where)
        inner = parse_condition(
            data["not"], f"{where}.not", depth + 1, (*loc, "not"), display=display
        )
        return Not(inner)
    if "field" not in keys:
        hints = [h for key in sorted(map(str, keys)) for h in word_hint(key, COMBINATORS)]
        suggestion = f"; did you mean '{hints[0]}'?" if hints else ""
        raise ConditionError(
            f"expected all, any, not or field, got {clip(sorted(map(str, keys)))}{suggestion}",
            where,
        )
    unsaid = data.get("unsaid")
    if "unsaid" in keys and not isinstance(unsaid, bool):
        raise ConditionError("'unsaid' must be true or false", where, (*loc, "unsaid"))
    ops = keys - {"field", "unsaid"}
    if len(ops) != 1:
        raise ConditionError(
            f"a comparison needs exactly one operator besides 'field' ({', '.join(OPERATORS)})",
            where,
        )
    op = str(next(iter(ops)))
    if op not in OPERATORS:
        hint = word_hint(op, OPERATORS)
        suggestion = f"; did you mean '{hint[0]}'?" if hint else ""
        raise ConditionError(f"unknown operator '{clip(op)}'{suggestion}", where, (*loc, op))
    try:
        info = resolve_field(data["field"], display=display)
    except ConditionError as exc:
        raise ConditionError(exc.message, where, (*loc, "field")) from None
    try:
        value = _parse_operand(info, op, data[op])
    except ConditionError as exc:  # its loc, if any, is below the operator (a repeat's place)
        raise ConditionError(exc.message, where, (*loc, op, *(exc.loc or ()))) from None
    if unsaid is not None and info.is_fact:
        raise ConditionError(
            "'unsaid' applies to profile answers, not measured facts", where, (*loc, "unsaid")
        )
    return Compare(info.path, op, value, unsaid)


def _parse_operand(info: FieldInfo, op: str, raw: Any) -> Any:
    if op in COMPARISONS:
        if info.is_list:
            raise ConditionError(f"'{op}' does not apply to the list '{info.path}'; use contains")
        if op in ("lt", "lte", "gt", "gte") and info.item not in (int, float):
            raise ConditionError(f"'{op}' needs a numeric field; '{info.path}' is not one")
        return _check_value(info, raw, op)
    if op in MEMBERSHIP:
        if info.is_list:
            raise ConditionError(
                f"'{op}' does not apply to the list '{info.path}'; use contains_any"
            )
        if not isinstance(raw, list) or not raw:
            raise ConditionError(f"'{op}' needs a non-empty list of values")
        _check_items(raw, op)
        return _read_items(info, raw, op)
    if not info.is_list:
        raise ConditionError(
            f"'{op}' needs a list field; '{info.path}' is not a list (use eq or in)"
        )
    if op == "contains":
        return _check_value(info, raw, op)
    if not isinstance(raw, list) or not raw:
        raise ConditionError(f"'{op}' needs a non-empty list of values")
    _check_items(raw, op)
    return _read_items(info, raw, op)


def _read_items(info: FieldInfo, raw: list[Any], op: str) -> tuple[Any, ...]:
    """Each literal as the field reads it, no value twice however it is written
    ('7B' and 7000000000, '256KB' and 0.256 are one value)."""
    values = tuple(_check_value(info, v, op) for v in raw)
    _check_items(list(values), op)
    return values


def _check_items(items: list[Any], op: str, where: str = "when", loc: tuple[Any, ...] = ()) -> None:
    """A literal or sub-condition list: capped in length, no value twice (the error's loc
    ends at the repeat)."""
    try:
        check_list(items)
    except ValueError as exc:
        repeat = first_repeat(items)
        at = loc if repeat is None else (*loc, repeat)
        raise ConditionError(f"{op}: {exc}", where, at) from None
