"""A rule as documentation, in the manner of ruff's rule pages."""

from __future__ import annotations

from advisor.decide.citations import load_snapshot
from advisor.decide.rules import Rule, RuleSet
from advisor.io.safe_yaml import dump_yaml


def rule_markdown(rule: Rule, ruleset: RuleSet) -> str:
    crit = ruleset.criterion(rule.criterion)
    lines = [
        f"# {rule.id}: {rule.title}",
        "",
        f"Criterion: {crit.title} ({crit.claim_id}); file: {ruleset.sources.get(rule.id, '?')}",
        "",
        "## What it checks",
        "",
        "```yaml",
        dump_yaml({"when": rule.when}).rstrip(),
        "```",
        "",
        "## Effect",
        "",
    ]
    for fw, delta in rule.effects.items():
        if delta:
            lines.append(f"- {fw}: {delta:+d}")
    for fw, reason in rule.veto.items():
        lines.append(f"- {fw}: vetoed. {reason}")
    lines += ["", "## Why", "", rule.why, "", "## Evidence", ""]
    for e in rule.evidence:
        mark = " (superseded)" if e.status == "superseded" else ""
        link = f" <{e.url}>" if e.url else ""
        lines.append(f"- {e.title}, {e.source}, {e.year}{mark}.{link}")
        lines.append(f"  Claim: {e.claim}")
        cited = [f"Checked {e.checked}" if e.checked else "Never checked"]
        if e.ref:
            cited.append(f"ref {e.ref}")
        release = load_snapshot().release_text(e.ref[4:]) if e.ref and e.ref[:4] == "PKG:" else None
        if release:
            cited.append(release)
        lines.append(f"  {'; '.join(cited)}.")
        if e.superseded_by:
            lines.append(f"  Superseded by: {e.superseded_by}")
    lines += [
        "",
        "## Example",
        "",
        "Fires for:",
        "",
        "```yaml",
        dump_yaml(rule.examples.fire[0]).rstrip(),
        "```",
    ]
    lines += [
        "",
        "Does not fire for:",
        "",
        "```yaml",
        dump_yaml(rule.examples.ok[0]).rstrip(),
        "```",
        "",
    ]
    return "\n".join(lines)
