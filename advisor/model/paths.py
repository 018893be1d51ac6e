"""Dotted paths of the models' answers: every leaf field, and which say what is already so."""

from __future__ import annotations

import types
import typing
from typing import Any, Union

from pydantic import BaseModel

from advisor.model.facts import Facts
from advisor.model.profile import DISPLAY_ONLY, FRAMING, SITUATION, Profile


def _unwrap_optional(annotation: Any) -> Any:
    origin = typing.get_origin(annotation)
    if origin in (Union, types.UnionType):
        args = [a for a in typing.get_args(annotation) if a is not type(None)]
        if len(args) == 1:
            return args[0]
    return annotation


def leaf_paths(model: type[BaseModel] = Profile, prefix: str = "") -> dict[str, Any]:
    """Every leaf field of a model as dotted path -> annotation."""
    out: dict[str, Any] = {}
    for name, info in model.model_fields.items():
        annotation = _unwrap_optional(info.annotation)
        path = f"{prefix}{name}"
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            out.update(leaf_paths(annotation, path + "."))
        else:
            out[path] = annotation
    return out


def described_paths(model: type[BaseModel], prefix: str = "", depth: int = 0) -> dict[str, str]:
    """Every field of a model and of the models inside it (sections too), as dotted path ->
    description: what "did you mean" searches for a name that names nothing."""
    out: dict[str, str] = {}
    for name, info in model.model_fields.items():
        path = prefix + name
        out[path] = info.description or ""
        args = (info.annotation, *typing.get_args(info.annotation))
        nested = next((a for a in args if isinstance(a, type) and issubclass(a, BaseModel)), None)
        if nested is not None and depth < 4:
            out.update(described_paths(nested, path + ".", depth + 1))
    return out


def marked_paths(marker: str, model: type[BaseModel] = Profile, prefix: str = "") -> frozenset[str]:
    """Dotted paths of the answers whose field carries ``marker`` in the Profile model's
    metadata (a section so marked marks every answer in it)."""
    out: set[str] = set()
    for name, info in model.model_fields.items():
        path = f"{prefix}{name}"
        extra = info.json_schema_extra if isinstance(info.json_schema_extra, dict) else {}
        annotation = _unwrap_optional(info.annotation)
        nested = isinstance(annotation, type) and issubclass(annotation, BaseModel)
        if marker in extra:
            out |= set(leaf_paths(annotation, path + ".")) if nested else {path}
        elif nested:
            out |= marked_paths(marker, annotation, path + ".")
    return frozenset(out)


def situation_paths() -> frozenset[str]:
    """Dotted paths of the answers about what is already so (``SITUATION`` metadata)."""
    return marked_paths(SITUATION)


def framing_paths() -> frozenset[str]:
    """Dotted paths of the answers that frame the team's question (``FRAMING`` metadata):
    never offered as a change that would flip the verdict."""
    return marked_paths(FRAMING)


def display_only_paths() -> frozenset[str]:
    """Dotted paths of the answers no rule reads (``DISPLAY_ONLY`` metadata): the project's
    name and notes, and what only shapes the probes' workload."""
    return marked_paths(DISPLAY_ONLY)


PROFILE_PATHS = leaf_paths(Profile)
FACT_PATHS = {f"facts.{k}": v for k, v in leaf_paths(Facts).items()}
# what a condition may read: every answer but the display-only ones, and the facts
ALL_PATHS = {
    **{k: v for k, v in PROFILE_PATHS.items() if k not in display_only_paths()},
    **FACT_PATHS,
}
