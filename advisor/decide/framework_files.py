"""A framework's own file (``rules/<framework id>.yaml``): its rules, description and routes.

Besides ``rules:``, the file named after a registered framework may hold

- ``framework:`` the name, summary, install options, stack and starter that ``pack.yaml``
  holds under ``frameworks`` for the others;
- ``routes:`` venue -> that framework's routes (the venues and their titles are
  ``rules/data/routes.yaml``'s).

So a new candidate's knowledge can live in one file. Each framework is described in
exactly one place: both a ``pack.yaml`` entry and a ``framework:`` section is an error, and
so is a venue that lists the framework in both files.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, TypeVar

from pydantic import TypeAdapter, ValidationError

from advisor.decide.routes import Route, RouteTable
from advisor.frameworks import FRAMEWORKS
from advisor.io.safe_yaml import YamlDocument
from advisor.io.validation import input_error_from_validation
from advisor.model.errors import InputError
from advisor.model.rulepack import FrameworkInfo, PackMeta
from advisor.model.terminal_text import clip

FRAMEWORK_FILE_KEYS = ("rules", "framework", "routes")
_ROUTES = TypeAdapter(dict[str, list[Route]])
_INFO = TypeAdapter(FrameworkInfo)
T = TypeVar("T")


@dataclass(frozen=True)
class FrameworkFile:
    """The ``framework:`` and ``routes:`` sections of one framework's own file."""

    framework: str
    doc: YamlDocument
    info: FrameworkInfo | None = None
    routes: dict[str, list[Route]] = field(default_factory=dict)


def is_framework_file(stem: str) -> bool:
    """Whether a rule file's name (without .yaml) is a registered framework id."""
    return stem in FRAMEWORKS


def read_framework_file(framework: str, doc: YamlDocument) -> FrameworkFile:
    """Validate the optional ``framework:`` and ``routes:`` sections of a framework's file."""
    data = doc.data if isinstance(doc.data, dict) else {}
    info = _section(doc, data, "framework", _INFO)
    routes: dict[str, list[Route]] = _section(doc, data, "routes", _ROUTES) or {}
    for venue, listed in routes.items():
        if not listed:
            raise InputError(
                "list at least one route (maturity: none when there is no way there)",
                path=doc.path,
                line=doc.line_of(("routes", venue)),
                field=f"routes.{venue}",
            )
    return FrameworkFile(framework, doc, info, routes)


def _section(
    doc: YamlDocument, data: dict[str, Any], key: str, adapter: TypeAdapter[T]
) -> T | None:
    """One section validated (None when absent); errors name the file, line and field."""
    if data.get(key) is None:
        return None
    try:
        return adapter.validate_python(data[key])
    except ValidationError as exc:
        raise input_error_from_validation(exc, doc, prefix=(key,), label=key) from None


def merge_framework_info(
    meta: PackMeta, pack: YamlDocument, files: list[FrameworkFile]
) -> PackMeta:
    """pack.yaml's ``frameworks`` plus the frameworks described in their own files."""
    frameworks = dict(meta.frameworks)
    for fw in frameworks:
        if fw not in FRAMEWORKS:
            raise InputError(
                f"'{fw}' is not a registered framework (one of {', '.join(FRAMEWORKS)}; "
                "the registry is probes/catalog.py)",
                path=pack.path,
                line=pack.line_of(("frameworks", fw)),
                field=f"frameworks.{fw}",
            )
    for own in files:
        if own.info is None:
            continue
        if own.framework in frameworks:
            raise InputError(
                f"{own.framework} is described here and in {pack.path} (frameworks."
                f"{own.framework}): keep one",
                path=own.doc.path,
                line=own.doc.line_of(("framework",)),
                field="framework",
            )
        frameworks[own.framework] = own.info
    missing = [fw for fw in FRAMEWORKS if fw not in frameworks]
    if missing:
        raise InputError(
            f"no name, summary, install, stack and starter for {', '.join(missing)}: add them "
            "under 'frameworks' here, or under 'framework:' in rules/<framework id>.yaml",
            path=pack.path,
            line=pack.line_of(("frameworks",)),
            field="frameworks",
        )
    ordered = {fw: frameworks[fw] for fw in FRAMEWORKS}
    return meta.model_copy(update={"frameworks": ordered})


def merge_routes(table: RouteTable, doc: YamlDocument, files: list[FrameworkFile]) -> RouteTable:
    """routes.yaml plus the routes given in frameworks' own files; every venue complete."""
    venues = {name: dict(venue.routes) for name, venue in table.venues.items()}
    for own in files:
        for name, routes in own.routes.items():
            problem = ""
            if name not in venues:
                known = ", ".join(sorted(venues))
                where = f"venues are defined in {doc.path}: {known}"
                problem = f"unknown venue '{clip(name)}' ({where})"
            elif own.framework in venues[name]:
                problem = f"{doc.path} already lists {own.framework}'s routes here: keep one"
            if problem:
                raise InputError(
                    problem,
                    path=own.doc.path,
                    line=own.doc.line_of(("routes", name)),
                    field=f"routes.{name}",
                )
            venues[name][own.framework] = routes
    for name, listed in venues.items():
        unknown = [fw for fw in listed if fw not in FRAMEWORKS]
        missing = [fw for fw in FRAMEWORKS if fw not in listed]
        if unknown or missing:
            problem = (
                f"'{unknown[0]}' is not a registered framework"
                if unknown
                else f"no route for {', '.join(missing)}: list one here (maturity: none when "
                f"there is no way there) or under routes.{name} in rules/<framework id>.yaml"
            )
            raise InputError(
                problem,
                path=doc.path,
                line=doc.line_of(("venues", name, "routes")),
                field=f"venues.{name}.routes",
            )
    merged = {
        name: venue.model_copy(update={"routes": {fw: venues[name][fw] for fw in FRAMEWORKS}})
        for name, venue in table.venues.items()
    }
    return table.model_copy(update={"venues": merged})
