"""A consistency check as documentation, in the manner of a rule's page (rule_page.py).

A check never scores a framework: the page says what combination of answers it trips on,
the line the report prints when it does, why no real project has that combination, and an
example. Every text from the pack is escaped as on a rule's page.
"""

from __future__ import annotations

from advisor.decide.consistency import Check
from advisor.decide.dating import knowledge_month
from advisor.report.rule_page import evidence_lines, yaml_block
from advisor.report.text import md_inline, safe_url


def check_markdown(check: Check, source: str) -> str:
    lines = [
        f"# {md_inline(check.id)}: {md_inline(check.title)}",
        "",
        f"Consistency check (answers that cannot all be true); file: {md_inline(source)}",
        "",
        "It never scores a framework. When a profile trips it, the report warns under the "
        'verdict, caps the confidence at medium, and "what would change the verdict" offers '
        "no change that would trip it. It trips only on answers the profile gave.",
        "",
        "## What it checks",
        "",
    ]
    shown: dict[str, object] = {}
    if check.when is not None:
        shown["when"] = check.when
    if check.ratio is not None:
        shown["ratio"] = check.ratio.model_dump()
    lines += [*yaml_block(shown), "", "## What the report says", "", md_inline(check.message)]
    if check.basis:
        lines += ["", "## Why", "", md_inline(check.basis)]
    if check.evidence:
        lines += ["", "## Evidence", "", *evidence_lines(check.evidence)]
    lines += _when_it_trips(check)
    if check.examples.trip:
        lines += ["", "## Example", "", "Trips for:", "", *yaml_block(check.examples.trip[0])]
    if check.examples.ok:
        lines += ["", "Does not trip for:", "", *yaml_block(check.examples.ok[0])]
    lines.append("")
    return "\n".join(lines)


def _when_it_trips(check: Check) -> list[str]:
    """A dated check (something that did not exist yet) trips only in a point-in-time view."""
    h = check.holds
    if h is None:
        return []
    months = " and ".join(
        part
        for part in (f"from {h.since}" if h.since else "", f"before {h.until}" if h.until else "")
        if part
    )
    past = h.until is not None and h.until <= knowledge_month()
    when = (
        f"Only in a point-in-time view (`recommend --as-of`) of a month {months}; today's "
        "advice never trips it."
        if past
        else f"In the months {months}, today's advice included."
    )
    return [
        "",
        "## When it trips",
        "",
        f"{when} {md_inline(h.basis)}",
        f"Source: {md_inline(h.source.title)}, {h.source.year}. <{safe_url(h.source.url)}>",
    ]
