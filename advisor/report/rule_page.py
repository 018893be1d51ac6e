"""A rule as documentation, in the manner of ruff's rule pages.

A rule pack is untrusted: every text from it is escaped for Markdown (no live links,
no raw HTML, no code-span break-outs), every URL must be http(s), and the YAML blocks
are fenced so that nothing inside them can close the fence.
"""

from __future__ import annotations

from collections.abc import Sequence

from advisor.decide.citations import load_snapshot
from advisor.decide.rules import Rule, RuleSet
from advisor.io.yaml_dump import dump_yaml
from advisor.model.rulepack import Evidence, Holds
from advisor.report.text import md_fence, md_inline, safe_url


def yaml_block(data: object) -> list[str]:
    return [md_fence(dump_yaml(data).rstrip(), "yaml")]


def rule_markdown(rule: Rule, ruleset: RuleSet) -> str:
    crit = ruleset.criterion(rule.criterion)
    source = ruleset.sources.get(rule.id, "?")
    lines = [
        f"# {md_inline(rule.id)}: {md_inline(rule.title)}",
        "",
        f"Criterion: {md_inline(crit.title)} (the articles' criterion "
        f"{md_inline(crit.claim_id)} in docs/sources.md); "
        f"file: {md_inline(source)}",
        "",
        *_ended(rule),
        "## What it checks",
        "",
        *yaml_block({"when": rule.when}),
        "",
        "## Effect",
        "",
    ]
    unit = "decisive unit(s), ranked before every soft point" if rule.tier == "decisive" else ""
    for fw, delta in rule.effects.items():
        if delta:
            lines.append(f"- {fw}: {delta:+d} {unit}".rstrip())
    if rule.route and ruleset.routes is not None:
        venue = ruleset.routes.venues[rule.route]
        points = ruleset.routes.effects(rule.route)
        lines.append(
            f"- scored by each framework's best route to '{rule.route}' ({md_inline(venue.title)}):"
        )
        for fw in points:
            best = venue.best(fw)
            lines.append(f"  - {fw}: {md_inline(best.route)} ({best.maturity}, {points[fw]:+d})")
        sole = ruleset.routes.sole_runtime(rule.route)
        if sole:
            lines.append(f"  - only {sole} has a mature route here: one decisive unit for {sole}")
    for fw, reason in rule.veto.items():
        lines.append(f"- {fw}: vetoed. {md_inline(reason)}")
    lines += ["", "## Why", "", md_inline(rule.why)]
    if rule.scope:
        lines += ["", "## Scope", "", md_inline(rule.scope)]
    lines += ["", "## Evidence", ""]
    lines += evidence_lines(rule.evidence)
    lines += holds_lines(rule.holds)
    lines += ["", "## Example", "", "Fires for:", "", *yaml_block(rule.examples.fire[0])]
    lines += ["", "Does not fire for:", "", *yaml_block(rule.examples.ok[0]), ""]
    return "\n".join(lines)


def evidence_lines(evidence: Sequence[Evidence]) -> list[str]:
    """The evidence list of a rule's or a check's page."""
    lines = []
    for e in evidence:
        mark = " (superseded)" if e.status == "superseded" else ""
        url = safe_url(e.url) if e.url else ""
        link = f" <{url}>" if url else ""
        lines.append(f"- {md_inline(e.title)}, {md_inline(e.source)}, {e.year}{mark}.{link}")
        lines.append(f"  Claim: {md_inline(e.claim)}")
        cited = [f"Checked {e.checked}" if e.checked else "Never checked"]
        if e.ref:
            cited.append(f"ref {e.ref}")
        else:  # only a user's pack may leave it out
            cited.append("no ref: a source of the pack's own, not checked against docs/sources.md")
        release = load_snapshot().release_text(e.ref[4:]) if e.ref and e.ref[:4] == "PKG:" else None
        if release:
            cited.append(release)
        lines.append(f"  {md_inline('; '.join(cited))}.")
        if e.superseded_by:
            lines.append(f"  Superseded by: {md_inline(e.superseded_by)}")
    return lines


def holds_lines(holds: Holds | None) -> list[str]:
    """The months a rule's or a check's claim held, with the source that dates them."""
    if holds is None:
        return []
    period = f"since {holds.since}" if holds.since else "from the start"
    period += f", until {holds.until}" if holds.until else ", still holds"
    url = safe_url(holds.source.url)
    return [
        "",
        "## When it held",
        "",
        f"{period}. {md_inline(holds.basis)}",
        f"Source: {md_inline(holds.source.title)}, {holds.source.year}. <{url}>",
    ]


def _ended(rule: Rule) -> list[str]:
    """A line at the top of an ended rule's page: history, not scored today."""
    from advisor.decide.dating import knowledge_month

    until = rule.holds.until if rule.holds else None
    if until is None or until > knowledge_month():
        return []
    return [
        f"**Ended: this claim held until {until}. It is history, kept for point-in-time "
        "views (`recommend --as-of`), and is not scored today.**",
        "",
    ]
