"""A plain questionnaire derived from the Profile model (to be replaced by questions.yaml)."""

from __future__ import annotations

import typing
from enum import Enum
from typing import Any

import click

from advisor.conditions import PROFILE_PATHS, flatten
from advisor.profile import Profile
from advisor.sensitivity import _set
from advisor.yamlio import dump_yaml


def run_questionnaire() -> Profile:
    """Ask for every profile field, defaults on Enter."""
    data = Profile().model_dump(mode="json")
    defaults = flatten(data)
    for path, annotation in PROFILE_PATHS.items():
        default = defaults[path]
        value = _ask(path, annotation, default)
        _set(data, path, value)
    return Profile.model_validate(data)


def _ask(path: str, annotation: Any, default: Any) -> Any:
    if typing.get_origin(annotation) is list:
        item = typing.get_args(annotation)[0]
        choices = [m.value for m in item]
        raw = click.prompt(
            f"{path} (comma-separated: {', '.join(choices)})", default=",".join(default), show_default=True
        )
        return [v.strip() for v in raw.split(",") if v.strip()]
    if isinstance(annotation, type) and issubclass(annotation, Enum):
        return click.prompt(path, type=click.Choice([m.value for m in annotation]), default=default)
    if annotation is bool:
        return click.confirm(path, default=default)
    return click.prompt(path, type=annotation, default=default)


def profile_yaml(profile: Profile) -> str:
    return dump_yaml(profile.model_dump(mode="json"))
