"""The ``advisor`` click group, with every command registered on it."""

from __future__ import annotations

import click

from advisor import __version__
from advisor.cli.ask import ask
from advisor.cli.options import AdvisorGroup
from advisor.cli.probe import probe
from advisor.cli.recommend import examples, recommend, schema
from advisor.cli.rules import rules


@click.group(cls=AdvisorGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "--version", prog_name="advisor")
def main() -> None:
    """Choose between PyTorch, JAX and TensorFlow, with evidence and measurements."""


for _command in (recommend, examples, ask, probe, rules, schema):
    main.add_command(_command)
