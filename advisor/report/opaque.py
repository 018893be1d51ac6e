"""Values a user template reaches whose text would hold a memory address, kept opaque.

Python writes the address of a method, a function, a generator or a plain object into its
text (``<built-in method items of dict object at 0x7f...>``). A template that turns such a
value into text (``|string``, ``~``, ``|pprint``, ``%``, ``.format``, then any slicing or
reversing) would leak the layout of the advisor's memory into a report. The sandbox hands
a template such values only wrapped (:func:`opaque`): the wrapper's text names the kind
without the address, iterating it iterates the value, and calling it goes through the
sandbox's own ``call``, which unwraps it first (:func:`unwrap`), so every check of the
sandbox still sees the real object. Nothing calls the wrapper directly.
"""

from __future__ import annotations

import re
import types
from collections.abc import Iterator
from typing import Any

from jinja2.exceptions import SecurityError

ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")

_ADDRESSED = (
    types.FunctionType,
    types.BuiltinFunctionType,
    types.MethodType,
    types.MethodWrapperType,
    types.MethodDescriptorType,
    types.WrapperDescriptorType,
    types.GeneratorType,
    types.CoroutineType,
    types.AsyncGeneratorType,
)
_PLAIN = (str, bytes, int, float, complex, bool, type(None), list, tuple, dict, set, frozenset)


def has_address(value: Any) -> bool:
    """Whether ``str(value)`` would hold a memory address (a data value never does)."""
    if isinstance(value, (_PLAIN, type, Opaque)):
        return False
    if isinstance(value, _ADDRESSED):
        return True
    kind = type(value)
    return kind.__repr__ is object.__repr__ and kind.__str__ is object.__str__


class Opaque:
    """A value whose text is its kind only; it iterates and sizes as the value does."""

    __slots__ = ("_value",)
    _value: Any

    def __init__(self, value: Any) -> None:
        object.__setattr__(self, "_value", value)

    def __repr__(self) -> str:
        try:
            text = repr(self._value)
        except Exception:  # a broken __repr__: the kind alone
            text = object.__repr__(self._value)
        return ADDRESS.sub("", text)

    __str__ = __repr__

    def __iter__(self) -> Iterator[Any]:
        return iter(self._value)

    def __len__(self) -> int:
        return len(self._value)

    def __bool__(self) -> bool:
        return True

    def __setattr__(self, name: str, value: Any) -> None:
        raise SecurityError("a template cannot change a value")


class OpaqueCallable(Opaque):
    """An opaque value that can be called, through the sandbox's ``call`` only."""

    __slots__ = ()

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        raise SecurityError("a value was called outside the sandbox's checks")


def opaque(value: Any) -> Any:
    """``value`` itself, or wrapped when its text would hold an address."""
    if not has_address(value):
        return value
    return OpaqueCallable(value) if callable(value) else Opaque(value)


def unwrap(value: Any) -> Any:
    """The value an :class:`Opaque` holds (anything else unchanged)."""
    return value._value if isinstance(value, Opaque) else value
