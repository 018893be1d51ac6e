"""The ``advisor`` command line.

Every user error becomes one line on stderr and exit code 2; no traceback. Only the
requested output goes to stdout, so JSON stays clean.
"""

from __future__ import annotations

import sys

import click

from advisor import __version__
from advisor.errors import InputError
from advisor.std_streams import fill_closed_fds
from advisor.stop_signals import Stopped
from advisor.stop_signals import install as install_stop_signals
from advisor.terminal_text import inert_lines

PROBE_LEVELS = ("none", "quick", "standard", "full")
FORMATS = ("markdown", "json", "html")


class AdvisorGroup(click.Group):
    """A click group that turns InputError and usage errors into exit code 2."""

    def main(self, *args, **kwargs):  # type: ignore[override]
        fill_closed_fds()
        install_stop_signals()
        standalone = kwargs.pop("standalone_mode", True)
        try:
            result = super().main(*args, standalone_mode=False, **kwargs)
        except InputError as exc:  # raised outside a command's invoke (rare)
            fail(exc)
        except click.ClickException as exc:  # usage errors echo arguments: make them inert
            exc.message = inert_lines(exc.message)
            exc.show()
            sys.exit(exc.exit_code)
        except click.Abort:
            click.echo("Aborted!", err=True)
            sys.exit(1)
        if standalone:
            sys.exit(result if isinstance(result, int) else 0)
        return result

    def invoke(self, ctx: click.Context):  # type: ignore[override]
        try:
            return super().invoke(ctx)
        except InputError as exc:
            fail(exc)
        except Stopped as exc:
            click.echo(f"advisor: stopped by {exc.name}; nothing was written", err=True)
            sys.exit(exc.exit_code)
        except KeyboardInterrupt:
            click.echo("advisor: interrupted; nothing was written", err=True)
            sys.exit(130)


def fail(exc: InputError) -> None:
    click.echo(f"advisor: error: {exc}", err=True)
    sys.exit(exc.exit_code)


@click.group(cls=AdvisorGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "--version", prog_name="advisor")
def main() -> None:
    """Choose between PyTorch, JAX and TensorFlow, with evidence and measurements."""


def _register() -> None:
    from advisor.cli_ask import ask
    from advisor.cli_probe import probe
    from advisor.cli_recommend import examples, recommend, schema
    from advisor.cli_rules import rules

    for command in (recommend, examples, ask, probe, rules, schema):
        main.add_command(command)


_register()
