"""``advisor ask``: the interactive questionnaire."""

from __future__ import annotations

import click


@click.command()
@click.option("-o", "--output", metavar="FILE", help="Write the profile here (YAML).")
@click.option("--force", is_flag=True, help="Overwrite the output file if it exists.")
def ask(output: str | None, force: bool) -> None:
    """Answer questions at the terminal and get a profile."""
    from advisor.output import emit
    from advisor.questionnaire import profile_yaml, run_questionnaire

    profile = run_questionnaire()
    emit(profile_yaml(profile), output, force=force)
