"""``advisor probe``: measure the installed frameworks on this machine."""

from __future__ import annotations

import json

import click

from advisor.frameworks import FRAMEWORKS
from advisor.output import emit


def _progress(message: str) -> None:
    click.echo(f"advisor: {message}", err=True)


@click.command()
@click.option(
    "--level",
    type=click.Choice(("quick", "standard", "full")),
    default="quick",
    show_default=True,
    help="How much to measure: quick (matmul, f'(2)), standard (adds bf16, a size sweep, jit, "
    "autodiff, vmap, train_step), full (adds a cold torch.compile and the multi-device scale "
    "probe).",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(("markdown", "json")),
    default="markdown",
    show_default=True,
    help="Output format.",
)
@click.option(
    "--framework",
    "frameworks",
    multiple=True,
    type=click.Choice(FRAMEWORKS),
    help="Measure only this framework (repeat for several; default: all three).",
)
@click.option("--refresh-probes", "refresh", is_flag=True, help="Ignore cached measurements.")
@click.option("-o", "--output", metavar="FILE", help="Write here instead of stdout.")
@click.option("--force", is_flag=True, help="Overwrite the output file if it exists.")
def probe(
    level: str,
    fmt: str,
    frameworks: tuple[str, ...],
    refresh: bool,
    output: str | None,
    force: bool,
) -> None:
    """Run the probes and print their measurements.

    Each framework runs in its own subprocess; progress goes to stderr, so stdout holds
    only the report. Results are cached per machine and framework version.
    """
    from advisor.env_settings import check_environment
    from advisor.output import check_destination
    from probes import run_probes

    check_destination(output, force=force)
    check_environment()
    run = run_probes(
        level, refresh=refresh, progress=_progress, frameworks=list(frameworks) or None
    )
    if fmt == "json":
        text = json.dumps(run, indent=2, ensure_ascii=False) + "\n"
    else:
        from advisor.render import render_template

        text = render_template("probe.md.j2", run)
    emit(text, output, force=force)
