"""``advisor --version``: the advisor, its ruleset and the frameworks found, without importing any.

Framework versions come from the installed distributions' metadata (importlib.metadata), so
the answer is immediate and no framework is imported.
"""

from __future__ import annotations

import importlib.metadata
import platform
import sys

import click
import yaml

from advisor import __version__
from advisor.frameworks import REGISTRY
from advisor.model.terminal_text import inert
from advisor.resources import data_dir


def ruleset_version() -> str:
    """'advisor-core 2026.11.0', read from the bundled pack.yaml's first keys."""
    try:
        meta = yaml.safe_load((data_dir("rules") / "pack.yaml").read_text(encoding="utf-8"))
        return f"{meta['ruleset']} {meta['version']}"
    except (OSError, KeyError, TypeError, yaml.YAMLError):
        return "unknown"


def framework_versions() -> dict[str, str | None]:
    """Framework display name -> installed version (None when none of its distributions is)."""
    found: dict[str, str | None] = {}
    for spec in REGISTRY:
        found[spec.display] = None
        for dist in spec.distributions:
            try:
                found[spec.display] = importlib.metadata.version(dist)
                break
            except importlib.metadata.PackageNotFoundError:
                continue
    return found


def version_text() -> str:
    """The lines ``advisor --version`` prints, each made inert: a distribution's metadata and
    the interpreter's path come from the environment, and reach a terminal."""
    lines = [
        f"advisor {__version__}",
        f"ruleset {ruleset_version()}",
        f"Python {platform.python_version()} ({sys.executable})",
    ]
    for display, version in framework_versions().items():
        lines.append(f"{display} {version or 'not installed'}")
    return "\n".join(inert(line) for line in lines)


def print_version(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    """The eager ``--version`` callback."""
    if not value or ctx.resilient_parsing:
        return
    click.echo(version_text())
    ctx.exit()
