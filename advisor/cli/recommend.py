"""``advisor recommend``, ``advisor examples`` and ``advisor schema``."""

from __future__ import annotations

import json
from pathlib import Path

import click

from advisor.cli.options import FORMATS, PROBE_LEVELS, SEED, progress, python_option
from advisor.cli.output import (
    emit,
    html_page,
    interpreter_paths,
    named_html,
    named_json,
    refuse_text_named_json,
)
from advisor.model.errors import InputError


@click.command()
@click.argument("profile", required=False, type=click.Path(dir_okay=True, path_type=str))
@click.option("--example", "example", metavar="NAME", help="Use a bundled example profile.")
@click.option("-o", "--output", metavar="FILE", help="Write the report here instead of stdout.")
@click.option("--force", is_flag=True, help="Overwrite the output file if it exists.")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(FORMATS),
    default="markdown",
    help="Report format. [default: html or json when -o is named .html or .json, else markdown]",
)
@click.option(
    "--probes",
    type=click.Choice(PROBE_LEVELS),
    default="quick",
    show_default=True,
    help="Measure on this machine first (none: decide from the profile alone).",
)
@click.option("--refresh-probes", is_flag=True, help="Ignore cached measurements.")
@python_option
@click.option(
    "--rules",
    "rule_dirs",
    multiple=True,
    metavar="DIR",
    help="Add a rule pack (a directory of rule YAML files). Repeatable.",
)
@click.option("--template", metavar="PATH", help="Render with a custom Jinja template (sandboxed).")
@click.option(
    "--seed",
    type=SEED,
    default=0,
    show_default=True,
    help="Seed of the Monte-Carlo sensitivity.",
)
@click.option(
    "--as-of",
    "as_of",
    metavar="YYYY-MM",
    help="Answer with the knowledge that held in that month (rules, routes, prior and "
    "releases dated in the pack), to review a past choice; implies --probes none.",
)
@click.pass_context
def recommend(
    ctx: click.Context,
    profile: str | None,
    example: str | None,
    output: str | None,
    force: bool,
    fmt: str,
    probes: str,
    refresh_probes: bool,
    python: tuple[str, ...],
    rule_dirs: tuple[str, ...],
    template: str | None,
    seed: int,
    as_of: str | None,
) -> None:
    """Recommend a framework for PROFILE (a YAML file) or a bundled --example.

    With neither, and a terminal attached, the questionnaire runs first.
    """
    from advisor.cli.output import check_destination
    from advisor.cli.std_streams import stdin_is_tty
    from advisor.decide.pack_layout import files_read
    from advisor.io.profiles import example_path, load_profile
    from advisor.io.safe_read import input_paths
    from advisor.pipeline import run_pipeline

    fmt = _format_for(fmt, template, output)
    pack_files = [f for d in rule_dirs for f in files_read(Path(d))]
    inputs = (profile, template, *pack_files, *interpreter_paths(python))
    destination = check_destination(output, force=force, inputs=inputs, packs=rule_dirs)
    if as_of is not None:
        from advisor.decide.dating import check_view_month

        as_of = check_view_month(as_of)
        if ctx.get_parameter_source("probes") != click.core.ParameterSource.DEFAULT and (
            probes != "none"
        ):
            raise InputError(
                "measurements are of today's frameworks, not of that month's: --as-of takes "
                "--probes none",
                field="--as-of",
            )
        probes = "none"
    if refresh_probes and probes == "none":
        raise InputError(
            "it measures again, and no probe runs with --probes none (or --as-of): drop it or "
            "pick the probes to run",
            field="--refresh-probes",
        )
    if python and probes == "none":
        raise InputError(
            "it names interpreters for the probes, and no probe runs with --probes none "
            "(or --as-of): drop it or pick the probes to run",
            field="--python",
        )
    if probes != "none":
        from advisor.cli.env_settings import check_environment

        check_environment()
    if template is not None:
        from advisor.report.template_jail import check_template

        check_template(template, fmt)
    rule_paths = input_paths(rule_dirs, "--rules")
    _check_interpreters(python)

    if example is not None and not example.strip():
        raise InputError(
            "is empty: name a bundled example (advisor examples lists them)", field="--example"
        )
    if profile and example:
        raise InputError("give a PROFILE file or --example, not both", field="--example")
    if example:
        profile = str(example_path(example))
    if profile is None:
        if not stdin_is_tty():
            raise InputError(
                "no profile given: pass a PROFILE file, --example NAME, or run from a terminal "
                "to answer the questionnaire",
                field="PROFILE",
            )
        from advisor.pipeline import load_rules
        from advisor.questionnaire import run_questionnaire

        load_rules(rule_paths)  # a broken pack is refused before the questions, not after
        loaded = run_questionnaire()
    else:
        loaded = load_profile(profile)
    try:
        text = run_pipeline(
            loaded,
            profile_path=profile,
            probes=probes,
            refresh=refresh_probes,
            rule_dirs=rule_paths,
            fmt=fmt,
            template=template,
            seed=seed,
            progress=progress,
            python=list(python),
            as_of=as_of,
        )
        emit(text, destination)
    except InputError as exc:
        if profile is None:  # the questionnaire ran: its answers are not lost
            from advisor.cli.kept_answers import keep_answers

            raise keep_answers(exc, loaded, rule_dirs) from None
        raise


@click.command()
def examples() -> None:
    """List the bundled example profiles, one per line, name first."""
    from advisor.io.profiles import list_examples

    items = list_examples()
    width = max((len(e.name) for e in items), default=0)
    for item in items:
        click.echo(f"{item.name:<{width}}  {item.description}".rstrip())


@click.command()
def schema() -> None:
    """Print the profile's JSON Schema."""
    from advisor.model.field_guards import (
        MAX_LIST_ITEMS,
        MAX_WHOLE_CHARS,
        WHOLE_TEXT,
        whole_text_in,
    )
    from advisor.model.profile import Profile

    def as_read(node: object) -> None:  # what the loader accepts: lists, numbers as text
        if isinstance(node, dict):
            if node.get("type") == "array":
                node.update({"uniqueItems": True, "maxItems": MAX_LIST_ITEMS})
            for value in node.values():
                as_read(value)
            if node.get("type") == "integer":  # the reader also takes '3' for 3: so may editors
                number = {k: node.pop(k) for k in ("type", "minimum", "maximum") if k in node}
                low, high = number.get("minimum"), number.get("maximum")
                pattern = WHOLE_TEXT  # the range, when there is one, also in the pattern
                if isinstance(low, int) and isinstance(high, int) and 0 <= low <= high:
                    pattern = whole_text_in(low, high)
                text = {"type": "string", "maxLength": MAX_WHOLE_CHARS, "pattern": pattern}
                node["anyOf"] = [number, text]
        elif isinstance(node, list):
            for value in node:
                as_read(value)

    body = Profile.model_json_schema()
    as_read(body)
    schema = {"$schema": "https://json-schema.org/draft/2020-12/schema"}
    click.echo(json.dumps({**schema, **body}, indent=2))


def _format_for(fmt: str, template: str | None, output: str | None) -> str:
    """The format to write (``_format_chosen``); a custom template's HTML goes to an .html
    or .htm file only, whatever else its name is (``out.txt`` too), or to the terminal."""
    chosen = _format_chosen(fmt, template, output)
    if template and output and output != "-" and chosen == "html" and not html_page(output):
        raise _not_a_page()
    return chosen


def _not_a_page() -> InputError:
    return InputError(
        "a custom template's HTML is written only to an .html or .htm file: the content "
        "policy that stops its scripts reaches a browser only in an HTML page (.svg, "
        ".xhtml and .xml are read as XML, an .hta runs outside the browser)",
        field="--output",
    )


def _format_chosen(fmt: str, template: str | None, output: str | None) -> str:
    """When --format was not given: HTML if the custom template (or the output file) is
    named as HTML, so its report data is escaped for HTML, not Markdown; JSON for an
    output file named .json. An explicit --format always wins."""
    if template and output and named_json(str(output)):
        raise InputError(
            "--template renders Markdown or HTML, so its output cannot be named .json",
            field="--output",
        )
    if template and output and output != "-" and named_html(output) and not html_page(output):
        raise _not_a_page()
    source = click.get_current_context().get_parameter_source("fmt")
    if source != click.core.ParameterSource.DEFAULT:
        if output and fmt != "html" and named_html(str(output)):
            # a browser opens the file as HTML: Markdown's escapes and JSON's text would run
            raise InputError(
                f"--format {fmt} cannot be written to a file a browser or web server reads "
                "as HTML, XML or a server page: "
                f"name it .{'json' if fmt == 'json' else 'md'}, or pass --format html",
                field="--output",
            )
        refuse_text_named_json(fmt, output, "html" if fmt == "html" else "md")
        return fmt
    if any(named_html(str(name)) for name in (template, output) if name):
        return "html"
    if not template and output and named_json(str(output)):
        return "json"
    return fmt


def _check_interpreters(python: tuple[str, ...]) -> None:
    """Each --python names an executable file (asked what it is only when the probes run)."""
    from probes.env.interpreter import InterpreterError, executable

    for path in python:  # the probes' own check, before any question is asked
        try:
            executable(path)
        except InterpreterError as exc:
            raise InputError(str(exc)) from None
