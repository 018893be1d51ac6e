"""``advisor probe``: measure the installed frameworks on this machine."""

from __future__ import annotations

import json

import click

from advisor.output import emit


@click.command()
@click.option(
    "--level", type=click.Choice(("quick", "standard", "full")), default="quick", show_default=True,
    help="How much to measure.",
)
@click.option(
    "--format", "fmt", type=click.Choice(("markdown", "json")), default="markdown",
    show_default=True, help="Output format.",
)
@click.option("--refresh-probes", "refresh", is_flag=True, help="Ignore cached measurements.")
@click.option("-o", "--output", metavar="FILE", help="Write here instead of stdout.")
@click.option("--force", is_flag=True, help="Overwrite the output file if it exists.")
def probe(level: str, fmt: str, refresh: bool, output: str | None, force: bool) -> None:
    """Run the probes and print their measurements."""
    from advisor.pipeline import gather_probes

    run = gather_probes(level, None, refresh=refresh) or {}
    if fmt == "json":
        text = json.dumps(
            {"probes": run.get("probes", []), "environment": run.get("environment", {}),
             "cache": run.get("cache")},
            indent=2,
        ) + "\n"
    else:
        from advisor.render import render_template

        text = render_template("probe.md.j2", run)
    emit(text, output, force=force)
