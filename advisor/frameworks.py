"""THE framework registry: the candidates the advisor chooses between.

Everything per framework derives from ``REGISTRY``: the ids, display names, the
per-framework pydantic models (rule effects, vetoes and risks, the team's experience,
measured facts), the report's rows, the ``--framework`` choices and the checks that the
rule pack, the questions and the probe backends cover the same frameworks
(tests/test_registry.py). Adding a candidate starts with one entry in probes/catalog.py.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, create_model

from probes.catalog import FRAMEWORK_SPECS


@dataclass(frozen=True)
class FrameworkSpec:
    """One candidate framework, as the advisor sees it."""

    id: str  # the key in profiles, rules, facts and JSON output
    display: str  # the name a reader sees
    long_name: str  # the name in the team-experience question (may name a companion API)
    import_name: str  # the Python module the probe backend imports
    distributions: tuple[str, ...]  # pip distributions that provide it
    install: str  # the plain install line shown when it is missing
    probe_backend: str  # the id of its backend in probes/
    extra: str | None  # the advisor's pip extra that installs it (None: use `install`)


# The entries themselves live in probes/catalog.py (standard library only), the one list that
# both the advisor and the probe workers read: probes may import nothing from advisor.
REGISTRY: tuple[FrameworkSpec, ...] = tuple(
    FrameworkSpec(
        id=entry.id,
        display=entry.label,
        long_name=entry.long_name or entry.label,
        import_name=entry.import_name,
        distributions=entry.distributions,
        install=entry.install,
        probe_backend=entry.id,
        extra=entry.extra,
    )
    for entry in FRAMEWORK_SPECS
)

FRAMEWORKS: tuple[str, ...] = tuple(spec.id for spec in REGISTRY)
DISPLAY_NAMES: dict[str, str] = {spec.id: spec.display for spec in REGISTRY}
# The framework each kind of existing code (the profile's ExistingCode values) is written in;
# NumPy and other frameworks' code are in none of the candidates. tests/test_report_round92.py
# checks the keys against ExistingCode and the values against FRAMEWORKS.
CODE_FRAMEWORK: dict[str, str] = {
    "pytorch": "pytorch",
    "tf1": "tensorflow",
    "tf2_keras": "tensorflow",
    "jax": "jax",
}
# Ratio facts divide each framework's figure by this one's (facts.jax_over_pytorch_...).
REFERENCE = REGISTRY[0].id


def display_name(framework: str | None) -> str:
    """Display name of a framework id ('none' for None, the id itself if unknown)."""
    return DISPLAY_NAMES.get(framework or "", framework or "none")


def per_framework_model(
    name: str,
    field: Callable[[FrameworkSpec], tuple[Any, Any]],
    *,
    base: type[BaseModel],
    doc: str | None = None,
) -> type[BaseModel]:
    """A pydantic model with one field per registered framework.

    ``field(spec)`` gives that framework's ``(annotation, default-or-FieldInfo)``; ``base``
    carries the model config and any methods. The fields follow the registry's order.
    """
    fields: dict[str, Any] = {spec.id: field(spec) for spec in REGISTRY}
    model: type[BaseModel] = create_model(name, __base__=base, __doc__=doc, **fields)
    return model


def missing_hint(framework: str, python: list[str] | None = None) -> str:
    """One line: how to get ``framework`` measured (install the extra, or measure elsewhere).

    ``python``: the interpreters given with --python that lack it (None: the advisor's own).
    """
    spec = next(s for s in REGISTRY if s.id == framework)
    if python:
        return (
            f"{spec.display} is not installed in {' or '.join(python)}: install it there "
            f"({python[0]} -m pip install {spec.distributions[0]}), or give another "
            "--python PATH that has it"
        )
    if spec.extra is None:
        how = spec.install
    else:
        how = (
            f'pip install "framework-advisor[{spec.extra}]" '
            f'(from a clone: pip install ".[{spec.extra}]")'
        )
    return (
        f"{spec.display} is not installed here: {how}, or measure the environment that has "
        "it with --python PATH"
    )
