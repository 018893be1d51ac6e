"""What every command shares: the choices of the common options and the error handling.

Every user error becomes one line on stderr and exit code 2; no traceback. Only the
requested output goes to stdout, so JSON stays clean.
"""

from __future__ import annotations

import os
import re
import sys
from typing import Any, NoReturn

import click
from click.shell_completion import get_completion_class

from advisor.cli.std_streams import fill_closed_fds, guard_stdout, silence_stdout
from advisor.cli.stop_signals import Stopped
from advisor.cli.stop_signals import install as install_stop_signals
from advisor.model.errors import InputError
from advisor.model.terminal_text import clip, inert, one_line

PROBE_LEVELS = ("none", "quick", "standard", "full")
# What a shell reports for a writer killed by SIGPIPE (128 + 13), as for ``yes | head``.
EXIT_SIGPIPE = 141
FORMATS = ("markdown", "json", "html")
# A value click quotes in a usage error ('--seed': '999…', "9'9…", or extra arguments in
# parentheses), echoed at ECHO_LIMIT like a file's.
_QUOTED = re.compile(r"""'((?:[^'\\\n]|\\.){81,})'|"((?:[^"\\\n]|\\.){81,})"|\(([^\n]{81,})\)""")


class AsciiInt(click.ParamType):
    """An integer written in ASCII digits: click's INT also takes '١٢٣' or '1_000', which
    the report's reproduce command would then print differently from what was typed."""

    name = "integer"

    def __init__(self, minimum: int | None = None, maximum: int | None = None) -> None:
        self.minimum = minimum
        self.maximum = maximum

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        if isinstance(value, int):
            number = value
        else:
            text = str(value)
            if len(text) > 4000 and re.fullmatch(r"[+-]?[0-9]+", text):
                self.fail(f"{clip(text, 40)!r} has more than 4,000 digits.", param, ctx)
            if not re.fullmatch(r"[+-]?[0-9]{1,4000}", text):
                self.fail(f"{clip(text, 40)!r} is not an integer in ASCII digits.", param, ctx)
            number = int(text)
        if self.minimum is not None and number < self.minimum:
            self.fail(f"{clip(number, 40)} is below {self.minimum}.", param, ctx)
        if self.maximum is not None and number > self.maximum:
            self.fail(f"{clip(number, 40)} is above {self.maximum}.", param, ctx)
        return number


ASCII_INT = AsciiInt()
# a seed every JSON reader keeps exact (JavaScript's numbers hold integers to 2**53 - 1)
JSON_SAFE = 2**53 - 1
SEED = AsciiInt(minimum=-JSON_SAFE, maximum=JSON_SAFE)
ASCII_COUNT = AsciiInt(minimum=0)  # a number of days, items...: 0 or more


class SubGroup(click.Group):
    """A group whose commands refuse a single-value option given twice (``advisor`` and
    ``advisor rules``)."""

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        name, command, rest = super().resolve_command(ctx, args)
        if command is not None:
            _refuse_repeats(command, rest)
        return name, command, rest


class AdvisorGroup(SubGroup):
    """A click group that turns InputError and usage errors into exit code 2."""

    def main(self, *args: Any, **kwargs: Any) -> Any:
        fill_closed_fds()
        guard_stdout()
        install_stop_signals()
        standalone = kwargs.pop("standalone_mode", True)
        try:
            result = super().main(*args, standalone_mode=False, **kwargs)  # type: ignore[call-overload]
        except InputError as exc:  # raised outside a command's invoke (rare)
            fail(exc)
        except UnicodeError as exc:  # a stream click wrapped itself: PYTHONIOENCODING=undefined
            fail(
                InputError(
                    f"standard output's encoding cannot hold the output ({clip(exc)}); use "
                    "-o FILE (always UTF-8) or set PYTHONIOENCODING=utf-8",
                    field="stdout",
                )
            )
        except click.UsageError as exc:  # one line, arguments made inert, like InputError
            command = exc.ctx.command_path if exc.ctx else "advisor"
            message = _QUOTED.sub(_clip_quoted, exc.format_message())
            click.echo(one_line(f"advisor: error: {message} (see: {command} --help)"), err=True)
            sys.exit(exc.exit_code)
        except click.ClickException as exc:
            click.echo(one_line(f"advisor: error: {exc.format_message()}"), err=True)
            sys.exit(exc.exit_code)
        except click.Abort:
            click.echo("Aborted!", err=True)
            sys.exit(1)
        if standalone:
            sys.exit(result if isinstance(result, int) else 0)
        return result

    def _main_shell_completion(
        self, ctx_args: Any, prog_name: str, complete_var: str | None = None
    ) -> None:
        """Shell completion (README), with its environment read as input: an unknown
        instruction or missing or non-numeric COMP_CWORD is exit 2 and one line, not click's
        silent exit 1 or a traceback."""
        var = complete_var or "_{}_COMPLETE".format(
            prog_name.replace("-", "_").replace(".", "_").upper()
        )
        instruction = os.environ.get(var)
        if not instruction:
            return
        shell, _, action = instruction.partition("_")
        if get_completion_class(shell) is None or action not in ("source", "complete"):
            fail(
                InputError(
                    f"{inert(instruction[:80])!r} is not a completion instruction (for "
                    "example bash_source, zsh_source, fish_source)",
                    field=var,
                )
            )
        try:
            super()._main_shell_completion(ctx_args, prog_name, complete_var)
        except (KeyError, ValueError, IndexError) as exc:
            fail(
                InputError(
                    "the shell's completion variables (COMP_WORDS, COMP_CWORD) are missing "
                    f"or unreadable ({clip(exc)}); completion runs from the shell's own "
                    "completion script",
                    field=var,
                )
            )

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        try:  # `advisor --help | true`: the help is printed while the arguments are parsed
            return super().parse_args(ctx, args)
        except BrokenPipeError:
            reader_gone()

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except InputError as exc:
            fail(exc)
        except Stopped as exc:
            click.echo(f"advisor: stopped by {exc.name}{_what_was_written()}", err=True)
            sys.exit(exc.exit_code)
        except KeyboardInterrupt:
            click.echo(f"advisor: interrupted{_what_was_written()}", err=True)
            sys.exit(130)
        except BrokenPipeError:  # the reader stopped reading (``advisor rules list | head``)
            reader_gone()


def _what_was_written() -> str:
    """How a stop message ends: '; nothing was written' only when nothing was (a stop can
    land after a file was published, or while a report was going to standard output)."""
    from advisor.cli.std_streams import STDOUT_STARTED
    from advisor.io.safe_write import PUBLISHED

    if PUBLISHED:
        return " after writing " + ", ".join(inert(name) for name in PUBLISHED)
    if STDOUT_STARTED:
        return "; the output on standard output may be cut short"
    return "; nothing was written"


python_option = click.option(
    "--python",
    "python",
    multiple=True,
    metavar="PATH",
    help="Run the probe workers in this Python (your project's venv or conda env, with its own "
    "framework builds); repeat for several. Default: the advisor's own Python.",
)


def reader_gone() -> NoReturn:
    """The reader of stdout stopped reading: end silently, as a writer killed by SIGPIPE."""
    silence_stdout(sys.stdout)
    sys.exit(EXIT_SIGPIPE)


def _clip_quoted(match: re.Match[str]) -> str:
    """A quoted or parenthesised value of a usage error, cut like a file's value."""
    text = match.group(0)
    return f"{text[0]}{clip(text[1:-1])}{text[-1]}"


def fail(exc: InputError) -> NoReturn:
    """Print ``exc`` as one line on stderr and exit with its code (a stdout that failed is
    pointed at /dev/null first, so the flush at exit cannot fail a second time)."""
    if exc.field == "stdout":
        silence_stdout(sys.stdout)
    click.echo(one_line(f"advisor: error: {exc}"), err=True)  # 600 with the prefix
    sys.exit(exc.exit_code)


def progress(message: str) -> None:
    """A progress line on stderr, so stdout holds only the report."""
    click.echo(f"advisor: {inert(message)}", err=True)


def _refuse_repeats(command: click.Command, args: list[str]) -> None:
    """An option that takes one value, given twice with different values, is a usage
    error: click would keep the last without a word (``--as-of 2019-01 --as-of 2026-11``
    answering for today)."""
    single = {
        opt: param.name
        for param in command.params
        if isinstance(param, click.Option)
        and not (param.multiple or param.is_flag or param.count)
        and param.nargs == 1
        for opt in param.opts
    }
    takes_value = {  # options whose next token is their value, never an option
        opt
        for param in command.params
        if isinstance(param, click.Option) and not (param.is_flag or param.count)
        for opt in param.opts
    }
    seen: dict[str | None, tuple[str, str]] = {}
    tokens = iter(args)
    for token in tokens:
        if token == "--":
            break
        if token.startswith("--"):
            opt, eq, value = token.partition("=")
        elif token[:2] in takes_value and len(token) > 2:  # -oVALUE, click's attached form
            opt, eq, value = token[:2], "=", token[2:]
        else:
            opt, eq, value = token, "", ""
        if opt not in single:
            if opt in takes_value and not eq:
                next(tokens, "")  # its value, whatever it looks like
            continue
        if not eq:
            value = next(tokens, "")
        earlier = seen.setdefault(single[opt], (opt, value))
        if earlier[1] != value:
            raise click.UsageError(
                f"{opt} is given twice ({earlier[1]!r}, then {value!r}): give it once",
                ctx=None,
            )
