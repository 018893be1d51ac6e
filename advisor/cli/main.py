"""The ``advisor`` click group, with every command registered on it."""

from __future__ import annotations

import click

from advisor.cli.ask import ask
from advisor.cli.options import AdvisorGroup
from advisor.cli.probe import probe
from advisor.cli.recommend import examples, recommend, schema
from advisor.cli.rules import rules
from advisor.cli.version import print_version


@click.group(cls=AdvisorGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--version",
    is_flag=True,
    expose_value=False,
    is_eager=True,
    callback=print_version,
    help="Show the advisor, ruleset and installed framework versions, and exit.",
)
def main() -> None:
    """Choose between PyTorch, JAX and TensorFlow, with evidence and measurements."""


for _command in (recommend, examples, ask, probe, rules, schema):
    main.add_command(_command)
