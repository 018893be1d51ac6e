"""What the user said: the profile fields given explicitly, as dotted paths.

A default answer is not an answer. Rules read only the fields a profile (or the
questionnaire) set explicitly; pydantic's ``model_fields_set`` records them, section by
section. A section given as ``{}`` says nothing.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from pydantic import BaseModel

from advisor.model.paths import display_only_paths
from advisor.model.profile import Profile


def said_paths(model: BaseModel, prefix: str = "") -> frozenset[str]:
    """Dotted leaf paths set explicitly in ``model`` and its nested sections."""
    out: set[str] = set()
    for name in model.model_fields_set:
        value = getattr(model, name)
        path = f"{prefix}{name}"
        if isinstance(value, BaseModel):
            out |= said_paths(value, path + ".")
        else:
            out.add(path)
    return frozenset(out)


def substantive(said: Iterable[str]) -> list[str]:
    """Said answers that can move a verdict (display-only ones cannot: the project's name
    and notes, and the workload's shape for the probes)."""
    shown = display_only_paths()
    return sorted(p for p in said if p not in shown)


def profile_from_paths(values: dict[str, Any]) -> Profile:
    """A profile holding exactly these dotted-path answers (all of them said)."""
    nested: dict[str, Any] = {}
    for path, value in values.items():
        node = nested
        *parents, leaf = path.split(".")
        for part in parents:
            node = node.setdefault(part, {})
        node[leaf] = value
    return Profile.model_validate(nested)


def training_hardware(profile: Profile) -> tuple[list[str], str]:
    """The training hardware the install line and stack are chosen for, and how it is
    known: ``said`` (hardware.training given), ``accelerators`` (not given, but
    ``training.accelerators: 0`` says training runs on CPUs) or ``default`` (not given:
    the profile's default, NVIDIA GPUs)."""
    said = said_paths(profile)
    if "hardware.training" in said:
        return [h.value for h in profile.hardware.training], "said"
    if "training.accelerators" in said and profile.training.accelerators == 0:
        return ["cpu"], "accelerators"
    return [h.value for h in profile.hardware.training], "default"
