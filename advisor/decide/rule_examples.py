"""A rule's own fixtures (semgrep-style): every ``fire`` profile fires it, no ``ok`` one does.

Run for every rule of a user's pack whenever it loads, and for the bundled pack by
``advisor rules check`` and the test suite (tests/test_rulepack.py); a recommendation
skips the bundled pack's, which cannot change between its tests and the run.
"""

from __future__ import annotations

from typing import Any

from advisor.decide.conditions import All, AnyOf, Compare, Condition
from advisor.decide.context import example_context
from advisor.io.safe_yaml import YamlDocument
from advisor.model.errors import InputError
from advisor.model.field_guards import short_repr
from advisor.model.rulepack import RuleExamples


def check_examples(
    condition: Condition,
    examples: RuleExamples,
    doc: YamlDocument,
    loc: tuple[Any, ...],
    label: str,
) -> None:
    """An InputError at the first example whose outcome is not the one it names."""
    for kind in ("fire", "ok"):
        for i, example in enumerate(getattr(examples, kind)):
            ex_loc = (*loc, "examples", kind, i)
            name = f"{label}: examples.{kind}[{i + 1}]"
            context = example_context(example, doc, ex_loc, name, facts=True)
            result = condition.evaluate(context)
            if (result is True) == (kind == "fire"):
                continue
            if kind == "ok":
                message = "example should not fire the rule but did"
            else:
                outcome = "stood aside (a fact is missing)" if result is None else "did not fire"
                message = f"example should fire the rule but {outcome}" + why_not(
                    condition, context
                )
            raise InputError(message, path=doc.path, line=doc.line_of(ex_loc), field=name)


MAX_PACK_EXAMPLES = 10_000  # examples in all the user packs' rules (the bundled pack: 319)


def examples_within_budget(doc: YamlDocument, so_far: int, key: str = "rules") -> int:
    """The examples a user's rules file (or consistency file, ``key`` "checks") gives,
    counted before any is read; an InputError when they take all the user packs' examples
    past ``MAX_PACK_EXAMPLES`` (each costs a profile read and an evaluation on every load)."""
    items = doc.data.get(key) if isinstance(doc.data, dict) else None
    count = 0
    for raw in items if isinstance(items, list) else ():  # a wrong shape: its own checks say
        examples = raw.get("examples") if isinstance(raw, dict) else None
        if isinstance(examples, dict):
            count += sum(len(v) for v in examples.values() if isinstance(v, list))
    if so_far + count > MAX_PACK_EXAMPLES:
        raise InputError(
            f"the user packs' rules and checks hold more than {MAX_PACK_EXAMPLES:,} examples "
            "in all; keep a few per rule",
            path=doc.path,
        )
    return count


def why_not(condition: Condition, context: dict[str, Any], most: int = 3) -> str:
    """The comparisons that kept ``condition`` from being true, for an error message:
    "; not true: team.size gte 8 (it is 4), purpose eq 'research' (not given)"."""
    found: list[str] = []

    def walk(node: Condition) -> None:
        if isinstance(node, (All, AnyOf)):
            for part in node.parts:
                walk(part)
        elif isinstance(node, Compare) and node.evaluate(context) is not True:
            actual = context.get(node.path)
            state = "not given" if actual is None else f"it is {short_repr(actual)}"
            found.append(f"{node.path} {node.op} {short_repr(node.value)} ({state})")

    walk(condition)  # a `not` is left out: what it negates was true
    return f"; not true: {', '.join(found[:most])}" if found else ""
