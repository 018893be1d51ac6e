"""``advisor probe``: measure the installed frameworks on this machine."""

from __future__ import annotations

import click

from advisor.cli.options import progress, python_option
from advisor.cli.output import emit, interpreter_paths
from advisor.frameworks import FRAMEWORKS
from advisor.model.terminal_text import json_document


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
    help="Measure only this framework (repeat for several; default: all).",
)
@click.option("--refresh-probes", "refresh", is_flag=True, help="Ignore cached measurements.")
@click.option("-o", "--output", metavar="FILE", help="Write here instead of stdout.")
@click.option("--force", is_flag=True, help="Overwrite the output file if it exists.")
@python_option
def probe(
    level: str,
    fmt: str,
    frameworks: tuple[str, ...],
    refresh: bool,
    output: str | None,
    force: bool,
    python: tuple[str, ...],
) -> None:
    """Run the probes and print their measurements.

    Each framework runs in its own subprocess; progress goes to stderr, so stdout holds
    only the report. Results are cached per machine and framework version.
    """
    from advisor.cli.env_settings import check_environment
    from advisor.cli.output import check_destination
    from advisor.pipeline import measure

    fmt = _format_for(fmt, output)
    # never over an interpreter
    destination = check_destination(output, force=force, inputs=interpreter_paths(python))
    check_environment()
    run = measure(
        level,
        None,
        refresh=refresh,
        progress=progress,
        frameworks=list(frameworks) or None,
        python=list(python),
    )
    assert run is not None  # 'none' is not a choice of --level
    if fmt == "json":
        text = json_document(run)
    else:
        from advisor.report.render import render_template

        text = render_template("probe.md.j2", run)
    emit(text, destination)


def _format_for(fmt: str, output: str | None) -> str:
    """JSON for an output file named .json when --format was not given; an output file
    named as HTML is refused (this report is Markdown or JSON, and Markdown's escapes do
    not make text inert in a browser)."""
    from advisor.cli.output import named_html, named_json, refuse_text_named_json
    from advisor.model.errors import InputError

    if output and named_html(output):  # a browser would run the HTML the text holds
        raise InputError(
            "advisor probe writes Markdown or JSON, not HTML, so its file cannot be named as "
            "one a browser or web server reads as HTML, XML or a server page: name it .md or .json",
            field="--output",
        )
    source = click.get_current_context().get_parameter_source("fmt")
    if source == click.core.ParameterSource.DEFAULT and output and named_json(output):
        return "json"
    refuse_text_named_json(fmt, output, "md")
    return fmt
