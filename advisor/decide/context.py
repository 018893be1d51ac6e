"""The flat context conditions read: dotted paths over the profile's answers and the facts.

``build_context`` keeps only the answers a profile said (a default is not an answer);
``example_context`` does the same for a rule's or a check's own example profile;
``flatten``, ``get_path`` and ``set_path`` work on nested plain dicts.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from pydantic import ValidationError

from advisor.io.safe_yaml import YamlDocument
from advisor.io.validation import input_error_from_validation
from advisor.model.facts import Facts
from advisor.model.profile import Profile
from advisor.model.said import said_paths


def flatten(data: Any, prefix: str = "") -> dict[str, Any]:
    """Flatten nested plain dicts into dotted paths (lists stay whole)."""
    out: dict[str, Any] = {}
    for key, value in data.items():
        path = f"{prefix}{key}"
        if isinstance(value, dict):
            out.update(flatten(value, path + "."))
        else:
            out[path] = value
    return out


def get_path(data: dict[str, Any], path: str) -> Any:
    """Value at a dotted path in nested dicts."""
    for part in path.split("."):
        data = data[part]
    return data


def set_path(data: dict[str, Any], path: str, value: Any) -> None:
    """Set the value at a dotted path in nested dicts."""
    *parents, leaf = path.split(".")
    for part in parents:
        data = data[part]
    data[leaf] = value


def build_context(
    profile: Profile, facts: Facts | None, said: Collection[str] | None = None
) -> dict[str, Any]:
    """The flat path -> value mapping that conditions read.

    Only the answers in ``said`` are present (all of them when ``said`` is None): a
    comparison on an unsaid answer is unknown, like one on an unmeasured fact.
    """
    context = flatten(profile.model_dump(mode="json"))
    if said is not None:
        context = {k: v for k, v in context.items() if k in said}
    context.update(flatten((facts or Facts()).model_dump(mode="json"), "facts."))
    return context


def example_context(
    example: dict[str, Any], doc: YamlDocument, where: tuple[Any, ...], label: str, *, facts: bool
) -> dict[str, Any]:
    """The said context of an example profile in a pack file (with its ``facts`` when
    ``facts``); a profile that does not validate is an InputError at ``where``."""
    data = dict(example)
    facts_data = data.pop("facts", None) if facts else None
    try:
        profile = Profile.model_validate(data)
    except ValidationError as exc:
        raise input_error_from_validation(exc, doc, prefix=where, label=label) from None
    try:  # named as written: facts.matmul_gflops, at its own line
        measured = Facts.model_validate(facts_data) if facts_data is not None else Facts()
    except ValidationError as exc:
        raise input_error_from_validation(
            exc, doc, prefix=(*where, "facts"), label=f"{label}: facts" if label else "facts"
        ) from None
    return build_context(profile, measured, said_paths(profile))
