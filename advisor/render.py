"""Render a Decision as Markdown (Jinja), HTML or JSON."""

from __future__ import annotations

import json
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined

from advisor import __version__
from advisor.engine import Decision
from advisor.profile import Profile
from advisor.resources import data_dir


def report_data(
    decision: Decision,
    profile: Profile,
    probe_run: dict[str, Any] | None,
    *,
    profile_path: str | None = None,
    probe_level: str = "none",
) -> dict[str, Any]:
    """The report's content as plain data: the JSON output and the templates' context."""
    data = decision.model_dump(mode="json")
    data.update(
        {
            "advisor_version": __version__,
            "profile": profile.model_dump(mode="json"),
            "profile_path": profile_path,
            "probe_level": probe_level,
            "probes": (probe_run or {}).get("probes", []),
            "environment": (probe_run or {}).get("environment", {}),
            "probe_cache": (probe_run or {}).get("cache"),
        }
    )
    return data


def render_report(
    decision: Decision,
    profile: Profile,
    probe_run: dict[str, Any] | None,
    *,
    fmt: str = "markdown",
    template: str | None = None,
    profile_path: str | None = None,
    probe_level: str = "none",
) -> str:
    data = report_data(
        decision, profile, probe_run, profile_path=profile_path, probe_level=probe_level
    )
    if fmt == "json":
        return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    env = Environment(
        loader=FileSystemLoader(str(data_dir("templates"))),
        undefined=StrictUndefined,
        autoescape=False,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    name = "report.html.j2" if fmt == "html" else "report.md.j2"
    return env.get_template(name).render(**data)


def render_template(name: str, data: dict[str, Any]) -> str:
    """Render a bundled template with ``data`` as its context."""
    env = Environment(
        loader=FileSystemLoader(str(data_dir("templates"))),
        undefined=StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    return env.get_template(name).render(**data)
