"""``advisor rules list|show|check``."""

from __future__ import annotations

from pathlib import Path

import click

from advisor.io.safe_read import input_paths
from advisor.model.terminal_text import for_terminal, inert


@click.group()
def rules() -> None:
    """Inspect and check rule packs."""


@rules.command("list")
@click.option("--rules", "rule_dirs", multiple=True, metavar="DIR", help="Add a rule pack.")
def list_rules(rule_dirs: tuple[str, ...]) -> None:
    """List the rules: id, criterion, title."""
    from advisor.decide.rules import load_ruleset, rule_sort_key

    ruleset = load_ruleset(input_paths(rule_dirs, "--rules"))
    for rule in sorted(ruleset.rules, key=lambda r: rule_sort_key(r.id)):
        click.echo(inert(f"{rule.id:<9} {rule.criterion:<15} {rule.title}"))


@rules.command("show")
@click.argument("rule_id")
@click.option("--rules", "rule_dirs", multiple=True, metavar="DIR", help="Add a rule pack.")
def show_rule(rule_id: str, rule_dirs: tuple[str, ...]) -> None:
    """Print one rule as documentation: what, why, evidence, example."""
    from advisor.decide.rules import load_ruleset
    from advisor.model.errors import InputError
    from advisor.report.rule_page import rule_markdown

    ruleset = load_ruleset(input_paths(rule_dirs, "--rules"))
    rule = ruleset.get(rule_id.upper())
    if rule is None:
        import difflib

        hint = difflib.get_close_matches(rule_id.upper(), [r.id for r in ruleset.rules], n=1)
        suggestion = f"; did you mean {hint[0]}?" if hint else ""
        raise InputError(f"no rule with id '{rule_id}'{suggestion}", field="RULE_ID")
    click.echo(for_terminal(rule_markdown(rule, ruleset)), nl=False)


@rules.command("check")
@click.argument("path", required=False, type=click.Path(path_type=str))
def check_rules(path: str | None) -> None:
    """Validate a rule pack (default: the bundled one) and run every rule's examples."""
    from advisor.decide.rules import load_ruleset

    extra = input_paths([path], "PATH") if path is not None else []
    ruleset = load_ruleset(extra)
    checked = [
        r for r in ruleset.rules if not path or ruleset.sources[r.id].startswith(str(Path(path)))
    ]
    examples = sum(len(r.examples.fire) + len(r.examples.ok) for r in checked)
    click.echo(f"ok: {len(checked)} rules valid, {examples} examples passed")
