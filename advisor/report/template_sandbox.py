"""The sandbox a user's ``--template`` renders in, and its in-process render.

Jinja's ``ImmutableSandboxedEnvironment`` (no Python internals, and no mutation of
lists, dicts or sets: nothing a template sees can be changed) with no loader, plus caps
on every operation that can build a large value from a small template:

* ``*`` on sequences, ``+`` on strings and lists, and ``namespace`` attributes (the only
  way to carry a value from one loop iteration to the next) hold at most
  ``MAX_STRING`` items; ``int * int`` and ``**`` at most ``MAX_INT_BITS`` bits;
* widths in ``%``, ``format``, ``.format``, ``center``, ``ljust``, ``rjust``, ``zfill``,
  ``indent``, ``wordwrap`` and ``lipsum`` are at most ``MAX_WIDTH``;
* every call's string result is at most ``MAX_STRING`` characters, and the output at
  most ``MAX_OUTPUT`` characters (checked while streaming).

These caps fail fast with a clear message; the hard bounds on CPU time and memory come
from the separate process in :mod:`advisor.report.template_jail`.
"""

from __future__ import annotations

import types
from pathlib import Path
from typing import Any

from jinja2 import TemplateError, nodes, pass_eval_context
from jinja2.exceptions import SecurityError, TemplateSyntaxError, UndefinedError
from jinja2.runtime import str_join
from jinja2.sandbox import ImmutableSandboxedEnvironment
from jinja2.utils import Namespace, generate_lorem_ipsum
from jinja2.visitor import NodeTransformer
from markupsafe import Markup

from advisor.frameworks import DISPLAY_NAMES, FRAMEWORKS
from advisor.model.errors import InputError
from advisor.model.terminal_text import clip
from advisor.report.brace_shield import (
    inert_data,
    rewrap_filter,
    shield_filters,
    stand_ins,
    unshield,
)
from advisor.report.format_limits import MAX_WIDTH, check_format
from advisor.report.jinja_options import options, report_globals, require_safe_jinja
from advisor.report.opaque import opaque, unwrap
from advisor.report.text import HTML_FILTERS, MARKDOWN_FILTERS, html_text

# characters of an error's own text (Jinja's or Python's) shown in the one-line message: it
# may echo a name or value from the template at any length
REASON_LIMIT = 160
MAX_STRING = 1_000_000  # characters (or items) one value may hold
MAX_SEQUENCE_PRODUCT = 100_000  # longest string or list '*' may build
MAX_EXPONENT = 100  # largest exponent '**' may take
MAX_INT_BITS = 4096  # largest integer '*' and '**' may build
MAX_OUTPUT = 5_000_000  # characters a template may output

_WIDTH_METHODS = frozenset({"center", "ljust", "rjust", "zfill", "expandtabs"})
_WIDTH_FILTERS = {"center": "width", "indent": "width", "wordwrap": "width"}


def _too_big(value: Any) -> bool:
    return isinstance(value, (str, bytes, list, tuple)) and len(value) > MAX_STRING


def _check_width(value: Any, what: str) -> None:
    """A width (or, for ``indent``, an indentation string) may not exceed ``MAX_WIDTH``."""
    size = len(value) if isinstance(value, str) else value
    if isinstance(size, int) and abs(size) > MAX_WIDTH:
        raise SecurityError(f"{what} {size} is too large (limit {MAX_WIDTH})")


class CappedNamespace(Namespace):
    """``namespace()`` whose attributes cannot grow past ``MAX_STRING``."""

    def __setitem__(self, name: str, value: Any) -> None:
        if _too_big(value):
            raise SecurityError(f"a value of more than {MAX_STRING} characters or items")
        super().__setitem__(name, value)


class ReportSandbox(ImmutableSandboxedEnvironment):
    """The immutable sandbox, with size caps on the operations that build values."""

    intercepted_binops = frozenset({"*", "**", "+", "%"})

    def is_safe_attribute(self, obj: Any, attr: str, value: Any) -> bool:
        """No attribute of a class: ``dict.update(report, ...)`` calls a mutating method
        unbound, which the immutable sandbox checks only on instances."""
        if isinstance(obj, type):
            return False
        return super().is_safe_attribute(obj, attr, value)

    def call_binop(self, context: Any, operator: str, left: Any, right: Any) -> Any:
        if operator == "**":
            _check_power(left, right)
        elif operator == "*":
            _check_product(left, right)
        elif operator == "+" and isinstance(left, (str, bytes, list, tuple)):
            if isinstance(right, (str, bytes, list, tuple)) and len(left) + len(right) > MAX_STRING:
                raise SecurityError(f"'+' would build more than {MAX_STRING} characters or items")
        elif operator == "%":
            check_format(left)
        result = super().call_binop(context, operator, left, right)
        if _too_big(result):
            raise SecurityError(f"'{operator}' built more than {MAX_STRING} characters or items")
        return result

    def wrap_str_format(self, value: Any) -> Any:
        """``str.format`` and ``format_map``: refuse huge widths before formatting."""
        wrapped = super().wrap_str_format(value)
        if wrapped is not None:
            check_format(value.__self__, "{}")
        return wrapped

    def getattr(self, obj: Any, attribute: str) -> Any:
        return opaque(super().getattr(unwrap(obj), attribute))

    def getitem(self, obj: Any, argument: Any) -> Any:
        return opaque(super().getitem(unwrap(obj), argument))

    def call(__self, __context: Any, __obj: Any, *args: Any, **kwargs: Any) -> Any:
        __obj = unwrap(__obj)  # the sandbox checks the real callable, never its wrapper
        owner = getattr(__obj, "__self__", None)  # str, bytes and Markup methods alike
        if isinstance(owner, (str, bytes)) and not isinstance(__obj, type):
            name = getattr(__obj, "__name__", "")
            width = args[0] if args else kwargs.get("tabsize", kwargs.get("width"))
            if name in _WIDTH_METHODS and width is not None:
                _check_width(width, f"str.{name} width")
            if name == "expandtabs":  # each tab may become that many spaces
                tabs = owner.count("\t") if isinstance(owner, str) else owner.count(b"\t")
                size = width if isinstance(width, int) else 8
                if tabs * max(size, 1) > MAX_STRING:
                    raise SecurityError(f"'expandtabs' would build over {MAX_STRING} characters")
        result = super().call(__context, __obj, *args, **kwargs)
        if _too_big(result):
            raise SecurityError(f"a call built more than {MAX_STRING} characters or items")
        decodes = getattr(__obj, "__name__", "") in ("unescape", "striptags")
        if decodes and isinstance(owner, Markup) and __self.autoescape is True:
            return stand_ins(result)  # decoded entities: braces from the data stay inert
        return opaque(result)


def _check_product(left: Any, right: Any) -> None:
    for seq, count in ((left, right), (right, left)):
        sized = isinstance(seq, (str, bytes, list, tuple)) and isinstance(count, int)
        if sized and len(seq) * count > MAX_SEQUENCE_PRODUCT:
            raise SecurityError(
                f"'*' would build a sequence of {len(seq) * count} items "
                f"(limit {MAX_SEQUENCE_PRODUCT})"
            )
    ints = isinstance(left, int) and isinstance(right, int)
    if ints and left.bit_length() + right.bit_length() > MAX_INT_BITS:
        raise SecurityError(f"'*' would build an integer over {MAX_INT_BITS} bits")


def _check_power(left: Any, right: Any) -> None:
    if isinstance(right, (int, float)) and abs(right) > MAX_EXPONENT:
        raise SecurityError(f"exponent {right} is too large (limit {MAX_EXPONENT})")
    ints = isinstance(left, int) and isinstance(right, int)
    if ints and right > 0 and left.bit_length() * right > MAX_INT_BITS:
        raise SecurityError(f"'**' would build an integer over {MAX_INT_BITS} bits")


def _capped_filter(name: str, func: Any, param: str) -> Any:
    """``func`` with its width argument capped (a filter Jinja passes the environment or
    context first, such as ``wordwrap``, keeps receiving it: ``rewrap_filter``)."""

    def capped(call: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        value, rest = (args[0], args[1:]) if args else (None, ())
        _check_width(rest[0] if rest else kwargs.get(param), f"{name} {param}")
        if name == "indent" and _too_big(str(value)):
            raise SecurityError(f"a value of more than {MAX_STRING} characters")
        result = call(*args, **kwargs)
        if _too_big(result):
            raise SecurityError(f"'{name}' built more than {MAX_STRING} characters")
        return result

    return rewrap_filter(func, capped)


def _result_capped(name: str, func: Any) -> Any:
    """``func`` refusing a result over ``MAX_STRING`` characters or items."""

    def check(call: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        result = call(*args, **kwargs)
        if _too_big(result):
            raise SecurityError(f"'{name}' built more than {MAX_STRING} characters or items")
        return opaque(result)  # a generator or iterator keeps its address to itself

    return rewrap_filter(func, check)


def _capped_format(value: Any, *args: Any, **kwargs: Any) -> str:
    check_format(value)
    result = str(value) % (kwargs or args)
    if _too_big(result):
        raise SecurityError(f"'format' built more than {MAX_STRING} characters")
    return result


def _capped_replace(value: Any, old: Any, new: Any, count: int | None = None) -> Any:
    text, old_s, new_s = str(value), str(old), str(new)
    hits = text.count(old_s) if old_s else len(text) + 1
    if len(text) + hits * max(len(new_s) - len(old_s), 0) > MAX_STRING:
        raise SecurityError(f"'replace' would build more than {MAX_STRING} characters")
    return text.replace(old_s, new_s) if count is None else text.replace(old_s, new_s, count)


def sandboxed_environment(*, html: bool) -> ReportSandbox:
    """A loader-less immutable sandbox for user templates, with the report's filters."""
    env = ReportSandbox(loader=None, **options(html))
    env.filters.update(MARKDOWN_FILTERS)
    env.filters.update(HTML_FILTERS)
    for name, param in _WIDTH_FILTERS.items():
        env.filters[name] = _capped_filter(name, env.filters[name], param)
    env.filters["format"] = _capped_format
    env.filters["replace"] = _capped_replace
    env.filters["sum"] = _numbers_only_sum(env.filters["sum"])
    for name in ("e", "escape"):  # escaping also encodes braces, as the finalizer does
        env.filters[name] = html_text
    env.filters["forceescape"] = lambda value: html_text(str(value))
    tojson = env.filters["tojson"]
    env.filters["tojson"] = _capped_filter("tojson", tojson, "indent")
    if html:
        shield_filters(env.filters)
    for name, func in list(env.filters.items()):  # no filter may return a huge value
        env.filters[name] = _result_capped(name, func)
    env.globals.update(report_globals())
    env.globals.update(  # read-only views of the globals
        {
            "FRAMEWORKS": tuple(FRAMEWORKS),
            "DISPLAY_NAMES": types.MappingProxyType(dict(DISPLAY_NAMES)),
            "namespace": CappedNamespace,
            "lipsum": _capped_lipsum,
            CONCAT: _capped_concat,
        }
    )
    env.globals.update({name: opaque(value) for name, value in env.globals.items()})
    return env


CONCAT = "__advisor_concat"  # what '~' compiles to in a user template (CappedConcat)


@pass_eval_context
def _capped_concat(eval_ctx: Any, parts: list[Any], autoescape: bool | None = None) -> Any:
    """``a ~ b``, joined as Jinja joins it: escaped (Markup kept) where autoescaping is on
    where the ``~`` is written (``autoescape``, known when the template is compiled; None:
    decided at run time, as Jinja does), refused before joining when the result would
    pass ``MAX_STRING``."""
    texts = [p if isinstance(p, str) else str(p) for p in parts]
    if sum(len(t) for t in texts) > MAX_STRING:
        raise SecurityError(f"'~' would build more than {MAX_STRING} characters")
    if not (eval_ctx.autoescape if autoescape is None else autoescape):
        return str_join(parts)
    return Markup("").join(html_text(p) for p in parts)  # escaped, braces encoded


class CappedConcat(NodeTransformer):
    """Compile every ``~`` to a call of the capped join (Jinja joins it inline), with the
    autoescape setting in force where it is written (``{% autoescape %}`` blocks), as
    Jinja's compiler fixes it, so a macro keeps the setting of its definition."""

    def __init__(self, autoescape: bool) -> None:
        self.stack: list[bool | None] = [autoescape]

    def visit_ScopedEvalContextModifier(self, node: nodes.Node) -> nodes.Node:
        value = self.stack[-1]
        for option in getattr(node, "options", []):
            if option.key == "autoescape":
                constant = isinstance(option.value, nodes.Const)
                value = bool(option.value.value) if constant else None  # None: volatile
        self.stack.append(value)
        self.generic_visit(node)
        self.stack.pop()
        return node

    def visit_Concat(self, node: nodes.Concat) -> nodes.Node:
        self.generic_visit(node)  # transforms the parts in place
        args = [nodes.List(node.nodes), nodes.Const(self.stack[-1])]
        call = nodes.Call(nodes.Name(CONCAT, "load"), args, [], None, None)
        return call.set_lineno(node.lineno)


def _numbers_only_sum(func: Any) -> Any:
    """``sum`` for numbers: adding lists or strings with ``start`` is quadratic."""

    def wrapper(environment: Any, iterable: Any, attribute: Any = None, start: Any = 0) -> Any:
        if not isinstance(start, (int, float)) or isinstance(start, bool):
            raise SecurityError("'sum' adds numbers only")
        return func(environment, iterable, attribute, start)

    wrapper.jinja_pass_arg = func.jinja_pass_arg  # type: ignore[attr-defined]
    return wrapper


def _capped_lipsum(n: int = 5, html: bool = True, min: int = 20, max: int = 100) -> str:
    """Jinja's ``lipsum`` with its counts capped."""
    _check_width(n, "lipsum n")
    _check_width(max, "lipsum max")
    return str(generate_lorem_ipsum(n, html, min, max))


def render_in_sandbox(
    source: str, name: str, data: dict[str, Any], *, html: bool, parse_only: bool = False
) -> str:
    """Render ``source`` in the sandbox; every failure is an InputError naming ``name``.
    ``parse_only``: stop once the template compiles (``--template`` checked before work)."""
    require_safe_jinja(name)
    env = sandboxed_environment(html=html)
    short = Path(name).name
    try:
        tree = CappedConcat(bool(env.autoescape)).visit(
            env.parse(source, name=short, filename=name)
        )
    except TemplateSyntaxError as exc:
        raise InputError(
            f"template syntax error: {_reason(exc.message)}", path=name, line=exc.lineno
        ) from None
    except RecursionError:
        raise InputError("template nests too deeply to read", path=name) from None
    except (ValueError, OverflowError, MemoryError) as exc:  # e.g. a 5,000-digit number
        raise InputError(f"template cannot be read: {_reason(exc)}", path=name) from None
    for node in tree.find_all((nodes.Extends, nodes.Include, nodes.Import, nodes.FromImport)):
        raise InputError(
            "a custom template cannot extend, include or import other templates; "
            "put everything in this one file",
            path=name,
            line=node.lineno,
        )
    try:
        code = env.compile(tree, name=short, filename=name)
        template = env.template_class.from_code(env, code, env.make_globals(None), None)
    except TemplateSyntaxError as exc:
        raise InputError(
            f"template syntax error: {_reason(exc.message)}", path=name, line=exc.lineno
        ) from None
    except RecursionError:
        raise InputError("template nests too deeply to compile", path=name) from None
    except (SyntaxError, ValueError, OverflowError, MemoryError) as exc:
        # Python's own compiler limits (20 nested loops, 100 indented blocks)
        reason = exc.msg if isinstance(exc, SyntaxError) else str(exc)
        raise InputError(
            f"template cannot be compiled: {clip(reason)} (nest fewer blocks)", path=name
        ) from None
    if parse_only:
        return ""
    try:
        parts: list[str] = []
        size = 0
        for chunk in template.generate(**inert_data(data, html=html)):
            size += len(chunk)
            if size > MAX_OUTPUT:
                raise SecurityError(f"the output is larger than {MAX_OUTPUT} characters")
            parts.append(chunk)
        text = unshield("".join(parts)) if html else "".join(parts)
        if len(text) > MAX_OUTPUT:
            raise SecurityError(f"the output is larger than {MAX_OUTPUT} characters")
        return text
    except InputError:
        raise
    except SecurityError as exc:
        raise _error(f"template blocked by the sandbox: {_reason(exc)}", exc, name) from None
    except UndefinedError as exc:
        raise _error(
            f"template uses an undefined value: {_reason(exc.message)} "
            "(see `advisor recommend --format json` for the available data)",
            exc,
            name,
        ) from None
    except TemplateError as exc:
        raise _error(f"template error: {_reason(exc.message or exc)}", exc, name) from None
    except MemoryError:
        raise InputError("template needs too much memory", path=name) from None
    except RecursionError as exc:
        raise _error("template recursion is too deep", exc, name) from None
    except Exception as exc:  # a user template can fail in any way; never a traceback
        raise _error(f"template failed: {type(exc).__name__}: {_reason(exc)}", exc, name) from None


def _reason(text: object) -> str:
    """An error's own text, clipped to REASON_LIMIT characters."""
    return clip(text, REASON_LIMIT)


def _error(message: str, exc: BaseException, name: str) -> InputError:
    return InputError(message, path=name, line=_template_line(exc, name))


def _template_line(exc: BaseException, filename: str) -> int | None:
    """The template line where ``exc`` was raised, from Jinja's rewritten traceback."""
    line = None
    tb: types.TracebackType | None = exc.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == filename:
            line = tb.tb_lineno
        tb = tb.tb_next
    return line
