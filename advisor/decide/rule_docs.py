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
    unit = "decisive unit(s), ranked before every soft point" if rule.tier == "decisive" else ""
    for fw, delta in rule.effects.items():
        if delta:
            lines.append(f"- {fw}: {delta:+d} {unit}".rstrip())
    if rule.route and ruleset.routes is not None:
        venue = ruleset.routes.venues[rule.route]
        points = ruleset.routes.effects(rule.route)
        lines.append(f"- scored by each framework's best route to '{rule.route}' ({venue.title}):")
        for fw in points:
            best = venue.best(fw)
            lines.append(f"  - {fw}: {best.route} ({best.maturity}, {points[fw]:+d})")
        sole = ruleset.routes.sole_runtime(rule.route)
        if sole:
            lines.append(f"  - only {sole} has a mature route here: one decisive unit for {sole}")
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
