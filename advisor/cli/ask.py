"""``advisor ask``: the interactive questionnaire, writing a commented YAML profile."""

from __future__ import annotations

import click

from advisor.cli.std_streams import stdin_is_tty
from advisor.io.safe_read import input_paths
from advisor.model.errors import InputError


@click.command()
@click.option("-o", "--output", metavar="FILE", help="Write the profile here instead of stdout.")
@click.option("--force", is_flag=True, help="Overwrite the output file if it exists.")
@click.option(
    "--from",
    "from_path",
    metavar="PROFILE",
    help="Revise this profile: its answers become the defaults.",
)
@click.option(
    "--defaults",
    is_flag=True,
    help="Ask nothing: answer every question with its default (works without a terminal).",
)
@click.option(
    "--questions",
    "questions_path",
    metavar="FILE",
    help="Ask the questions in this YAML file instead of the bundled ones "
    "(advisor/questionnaire/questions.yaml).",
)
def ask(
    output: str | None,
    force: bool,
    from_path: str | None,
    defaults: bool,
    questions_path: str | None,
) -> None:
    """Answer questions at the terminal and get a profile (YAML, with help as comments).

    Prompts go to stderr; the profile goes to stdout unless -o FILE is given.
    Ctrl-C at any point writes nothing.
    """
    from advisor.cli.output import check_destination, emit, named_html, named_json
    from advisor.io.profile_writer import profile_yaml
    from advisor.io.profiles import load_profile
    from advisor.questionnaire import load_questions, run_questionnaire

    # before any question is asked; never over its own inputs, nor under a name a browser
    # renders (the profile's texts are YAML, not escaped markup) or one that promises JSON
    if output and (named_html(output) or named_json(output)):
        raise InputError(
            "advisor ask writes a YAML profile, and this name is one a browser or web server "
            "reads as HTML, XML or JSON: end it in .yaml",
            field="--output",
        )
    destination = check_destination(output, force=force, inputs=(from_path, questions_path))
    if questions_path is not None:
        questions_path = str(input_paths([questions_path], "--questions")[0])
    questions = load_questions(questions_path) if questions_path is not None else None
    base = load_profile(from_path) if from_path is not None else None
    if not defaults and not stdin_is_tty():
        raise InputError(
            "stdin is not a terminal, so nobody can answer the questions; pass --defaults to "
            "take every default (with --from PROFILE to start from a profile)"
        )
    profile = run_questionnaire(
        base=base, defaults=defaults, questions=questions, verb="Write" if output else "Use"
    )
    try:
        emit(profile_yaml(profile), destination)
    except InputError as exc:  # a file that appeared at -o meanwhile: keep the answers
        if defaults or destination.path in (None, "-"):
            raise
        from advisor.cli.kept_answers import keep_answers

        raise keep_answers(exc, profile, (), command="ask") from None
