"""``advisor rules list|show|check``."""

from __future__ import annotations

import contextlib
import datetime as dt
import os
import re
import sys

import click

from advisor.cli.options import ASCII_COUNT, SubGroup
from advisor.cli.std_streams import write_stdout
from advisor.io.safe_read import input_paths
from advisor.model.terminal_text import JOINER, clip, for_terminal, inert, one_line


@click.group(cls=SubGroup)
def rules() -> None:
    """Inspect and check rule packs."""


@rules.command("list")
@click.option("--rules", "rule_dirs", multiple=True, metavar="DIR", help="Add a rule pack.")
def list_rules(rule_dirs: tuple[str, ...]) -> None:
    """List the rules (id, criterion, title), then the consistency checks."""
    from advisor.decide.rules import load_ruleset

    ruleset = load_ruleset(input_paths(rule_dirs, "--rules"))
    in_force = {r.id for r in ruleset.rules}
    for rule in sorted(ruleset.all_rules, key=lambda r: rule_sort_key(r.id)):
        until = rule.holds.until if rule.holds else None
        past = "" if rule.id in in_force else f" (held until {until}; not scored today)"
        click.echo(inert(f"{rule.id:<9} {rule.criterion:<15} {rule.title}{past}"))
    for check in sorted(ruleset.all_checks or (), key=lambda c: rule_sort_key(c.id)):
        until = check.holds.until if check.holds else None
        when = f" (trips only in views before {until})" if until else ""
        click.echo(inert(f"{check.id:<9} {'(check)':<15} {check.title}{when}"))


@rules.command("show")
@click.argument("rule_id")
@click.option("--rules", "rule_dirs", multiple=True, metavar="DIR", help="Add a rule pack.")
def show_rule(rule_id: str, rule_dirs: tuple[str, ...]) -> None:
    """Print one rule or consistency check as documentation: what, why, evidence, example."""
    from advisor.decide.dating import last_month_before
    from advisor.decide.rules import load_ruleset
    from advisor.model.errors import InputError
    from advisor.report.rule_page import rule_markdown

    ruleset = load_ruleset(input_paths(rule_dirs, "--rules"))
    rule = next((r for r in ruleset.all_rules if r.id == rule_id.upper()), None)
    check = next((c for c in ruleset.all_checks or () if c.id == rule_id.strip().upper()), None)
    if check is not None:
        from advisor.report.check_page import check_markdown

        page = check_markdown(check, ruleset.check_sources.get(check.id, "?"))
        write_stdout(JOINER.join(for_terminal(part) for part in page.split(JOINER)))
        return
    if rule is None:
        from advisor.model.option_hints import meant_ids, or_join

        ids = [r.id for r in ruleset.all_rules] + [c.id for c in ruleset.all_checks or ()]
        meant, many = meant_ids(rule_id, ids)
        suggestion = (
            f"; `advisor rules list` lists the {many} rules and checks"
            if many
            else "; did you mean " + or_join(meant) + "?"
            if meant
            else ""
        )
        raise InputError(f"no rule or check with id '{clip(rule_id)}'{suggestion}", field="RULE_ID")
    if rule.holds and rule.holds.until and ruleset.get(rule.id) is None:
        # its routes, in its time (a month no view can hold, say 1899-12: today's)
        with contextlib.suppress(ValueError):
            ruleset = ruleset.at(last_month_before(rule.holds.until))
    # everything inert but the word joiners the Markdown puts after an "@" or an issue's
    # "#": write_stdout leaves them out on a terminal and keeps them for a file or pipe
    page = rule_markdown(rule, ruleset)
    write_stdout(JOINER.join(for_terminal(part) for part in page.split(JOINER)))


@rules.command("check")
@click.argument("path", required=False, type=click.Path(path_type=str))
@click.option(
    "--stale",
    "stale_days",
    type=ASCII_COUNT,
    metavar="DAYS",
    help="List evidence last checked more than DAYS days ago (exit 1 if any).",
)
@click.option(
    "--today",
    type=click.DateTime(formats=["%Y-%m-%d"]),
    hidden=True,
    help="The date to compare with (tests); default: today.",
)
def check_rules(path: str | None, stale_days: int | None, today: dt.datetime | None) -> None:
    """Validate a rule pack (default: the bundled one), run every rule's examples, and check
    its citations: each evidence entry dated and citing a claim id of docs/sources.md or a
    package of the snapshot (exit 2 at a problem: one line, naming the first)."""
    from advisor.decide.citations import (
        citation_problems,
        load_snapshot,
        load_source_ids,
        problems_error,
        stale_evidence,
    )
    from advisor.decide.dating import knowledge_month, today_anywhere
    from advisor.decide.rules import core_pack_dir, load_ruleset

    day = today.date() if today else today_anywhere()
    extra = input_paths([path], "PATH") if path is not None else []
    core = str(core_pack_dir())
    in_core = bool(extra) and _within(os.path.join(str(extra[0]), "x"), core)
    if in_core:
        extra = []  # the bundled pack or one of its files: checked as part of the bundled pack
    ruleset = load_ruleset(extra, dates_checked=False)  # reported below, against `day`

    def mine(source: str) -> bool:
        """A rule or check from PATH: in it, and from the bundled pack only if PATH is."""
        return not path or (_within(source, path) and _within(source, core) == in_core)

    checked = [r for r in ruleset.all_rules if mine(ruleset.sources[r.id])]
    problems = citation_problems(ruleset, load_source_ids(), load_snapshot().names(), today=day)
    if problems:  # one line, as for every other error; the count says whether more follow
        raise problems_error(problems)
    checks = [c for c in ruleset.all_checks or () if mine(ruleset.check_sources.get(c.id, ""))]
    examples = sum(len(r.examples.fire) + len(r.examples.ok) for r in checked)
    examples += sum(len(c.examples.trip) + len(c.examples.ok) for c in checks)
    month = knowledge_month()  # a claim that ends later still holds today
    ended = sum(1 for r in checked if r.holds and r.holds.until and r.holds.until <= month)
    history = f" ({ended} of them ended: history, not scored today)" if ended else ""
    own = sum(e.ref is None for r in checked for e in r.evidence)
    own += sum(e.ref is None for c in checks for e in c.evidence)
    cited = (
        f"citations resolve ({own} evidence {'entry gives' if own == 1 else 'entries give'} "
        "no ref: the pack's own sources, marked in reports as not checked against "
        "docs/sources.md)"
        if own
        else "citations resolve"
    )
    click.echo(
        f"ok: {_count(len(checked), 'rule')} valid{history}, "
        f"{_count(len(checks), 'consistency check')} valid, "
        f"{_count(examples, 'example')} passed, {cited}"
    )
    if stale_days is None:
        return
    # ages count from the machine's own date: the latest date anywhere on Earth (`day`)
    # only keeps a date checked today somewhere from being refused as in the future
    local = today.date() if today else dt.date.today()
    stale = stale_evidence([*checked, *checks], stale_days, today=local)  # checks cite too
    for item in stale:
        click.echo(f"stale: {one_line(item)}")
    click.echo(
        f"{len(stale)} evidence entries last checked more than {stale_days} days before {local}"
    )
    sys.exit(1 if stale else 0)


def _within(source: str, path: str) -> bool:
    """Whether a rule's file is the checked file or lies in the checked folder (``.``,
    ``./`` and absolute spellings alike; ``/a/pk`` does not contain ``/a/pk2/x.yaml``).
    Folders are compared resolved, a file by the name it was loaded under, so a pack whose
    rule files are links to files elsewhere keeps its rules; a link loop is no match."""
    from advisor.cli.output import same_file

    if not source:
        return False
    try:
        target = os.path.realpath(path)
        folder = os.path.realpath(os.path.dirname(source) or ".")
        file = os.path.join(folder, os.path.basename(source))
    except (OSError, ValueError):
        return False
    if os.path.isdir(target):
        return folder == target or folder.startswith(target.rstrip(os.sep) + os.sep)
    return file == os.path.join(
        os.path.realpath(os.path.dirname(path) or "."), os.path.basename(path)
    ) or same_file(file, path)


_ID = re.compile(r"^([A-Z]+)([0-9]+)$")


def rule_sort_key(rule_id: str) -> tuple[str, int]:
    """PROTO2 before PROTO10: the prefix, then the number."""
    match = _ID.match(rule_id)
    return (match.group(1), int(match.group(2))) if match else (rule_id, 0)


def _count(n: int, noun: str) -> str:
    """'1 rule', '2 rules'."""
    return f"{n} {noun}{'' if n == 1 else 's'}"
