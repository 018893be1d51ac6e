"""Turn pydantic validation errors into one-line InputErrors with file, line and field."""

from __future__ import annotations

import re
import typing
from typing import Any

from pydantic import BaseModel, ValidationError
from pydantic_core import ErrorDetails

from advisor.io.safe_yaml import YamlDocument
from advisor.io.yaml_merges import field_path
from advisor.model.errors import InputError
from advisor.model.facts import Facts
from advisor.model.field_guards import first_repeat, short_repr, yaml_repr
from advisor.model.option_hints import did_you_mean, hint_text, meant_names
from advisor.model.paths import described_paths
from advisor.model.profile import Profile


def input_error_from_validation(
    exc: ValidationError,
    doc: YamlDocument | None,
    *,
    prefix: tuple[Any, ...] = (),
    label: str | None = None,
    path: str | None = None,
) -> InputError:
    """The first validation error as an InputError (others are summarised by count)."""
    errors = exc.errors(include_url=False)
    # an unknown key first: a misspelt key also explains the "missing" one it meant
    first = next((e for e in errors if e["type"] == "extra_forbidden"), errors[0])
    loc = tuple(part for part in first["loc"] if not _is_union_tag(part))
    dotted = field_path(loc)
    message = _message(first, exc.title, loc)
    if len(errors) > 1:
        message += f" (and {len(errors) - 1} more problem{'s' if len(errors) > 2 else ''})"
    field = ": ".join(part for part in (label, dotted) if part) or None
    at = (*prefix, *loc)
    if doc and first["type"] == "value_error" and "is listed twice" in message:
        at = (*at, *_repeat(doc.data, at))
    line = doc.line_of(at) if doc else None
    return InputError(message, path=path or (doc.path if doc else None), line=line, field=field)


def _repeat(data: Any, at: tuple[Any, ...]) -> tuple[int, ...]:
    """The position of the first item repeated in the list at ``at``, so a repeat is named
    at its own line, not the list's (empty when the data there is not such a list)."""
    for part in at:
        in_list = isinstance(data, list) and isinstance(part, int) and part < len(data)
        if not in_list and not (isinstance(data, dict) and part in data):
            return ()
        data = data[part]
    position = first_repeat(data) if isinstance(data, list) else None
    return () if position is None else (position,)


_UNION_TAG = re.compile(r"[A-Za-z_-]+\[.*\]")


def _is_union_tag(part: Any) -> bool:
    """pydantic's union member tags (``list[...]``, ``int``): not part of the user's path."""
    return isinstance(part, str) and (
        bool(_UNION_TAG.fullmatch(part)) or part in ("str", "int", "float", "bool", "list")
    )


def _message(error: ErrorDetails, title: str, loc: tuple[Any, ...]) -> str:
    kind = error["type"]
    if kind == "extra_forbidden":
        hint, valid = suggest_key(title, loc)
        key = loc[-1] if loc else ""
        # a message shows whitespace as one space and trims it at the ends: say it is there
        unknown = (
            "unknown key (its name starts or ends with a space or line break)"
            if isinstance(key, str) and key != key.strip()
            else "unknown key"
        )
        if hint:
            return unknown + hint
        if valid and len(valid) <= 8:
            return f"{unknown}; valid keys: " + ", ".join(valid)
        return unknown
    if kind == "enum":
        expected = error.get("ctx", {}).get("expected", "")
        value = error.get("input")
        options = [o.strip(" '") for o in expected.replace(" or ", ", ").split(",") if o.strip()]
        hint = did_you_mean(value, options, _field_description(title, loc))
        return f"{short_repr(value)} is not one of {expected}{hint}"
    if kind == "missing":
        return "required field is missing"
    if kind == "list_type":
        return f"expected a list (written [a, b]), got {yaml_repr(error.get('input'))}"
    if kind in ("model_type", "model_attributes_type"):  # not pydantic's class name
        section = _model_at(title, loc)
        keys = list(section.model_fields) if section else []
        shown = ", ".join(keys[:8]) + (", ..." if len(keys) > 8 else "")
        listed = f" ({shown})" if keys else ""
        return f"expected a section of keys{listed}, got {yaml_repr(error.get('input'))}"
    message = error["msg"]
    if message.startswith("Value error, "):
        message = message[len("Value error, ") :]
    value = error.get("input")
    plain = kind not in ("model_type", "dict_type", "list_type")
    if plain and not isinstance(value, (dict, list)) and "got " not in message:
        message += f" (got {short_repr(value)})"
    return message


_MODELS: dict[str, type[BaseModel]] = {}


def register_model(model: type[BaseModel]) -> type[BaseModel]:
    """Let error messages suggest keys for this model (by its title)."""
    _MODELS[model.model_config.get("title") or model.__name__] = model
    return model


def _model_at(title: str, parts: tuple[Any, ...]) -> type[BaseModel] | None:
    """The model that holds the keys below ``parts`` (list positions skipped)."""
    model = _MODELS.get(title)
    for part in parts:
        if model is None or isinstance(part, int):
            continue
        info = model.model_fields.get(str(part))
        if info is None:
            return None
        annotation = info.annotation
        args = (annotation, *typing.get_args(annotation))
        model = next((a for a in args if isinstance(a, type) and issubclass(a, BaseModel)), None)
    return model


def suggest_key(title: str, loc: tuple[Any, ...]) -> tuple[str, list[str]]:
    """What to say after "unknown key" at ``loc`` (a guess, as a full dotted path:
    'batch_size' -> 'workload.batch_size'; or how to write a dotted key), and the valid keys
    there."""
    model = _model_at(title, loc[:-1]) if loc else None
    root = _MODELS.get(title)
    if model is None or root is None:
        return "", []
    parent = ".".join(str(p) for p in loc[:-1] if not isinstance(p, int))
    key = str(loc[-1])
    written = f"{parent}.{key}" if parent else key
    meant = meant_names(written, described_paths(root))
    if "." in key and len(meant) == 1 and "." in meant[0]:  # 'team.size: 3', 'team.sise: 3'
        section, _, field = meant[0].rpartition(".")
        return f"; a dotted name is not a path here: write '{field}' under '{section}'", []
    return hint_text(meant), list(model.model_fields)


def _field_description(title: str, loc: tuple[Any, ...]) -> str:
    """The description of the field at ``loc`` (list positions skipped), or ""."""
    names = [part for part in loc if not isinstance(part, int)]
    model = _model_at(title, tuple(names[:-1])) if names else None
    info = model.model_fields.get(str(names[-1])) if model else None
    return (info.description or "") if info else ""


register_model(Profile)
register_model(Facts)
