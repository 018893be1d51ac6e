"""Said answers that no rule in force reads.

The bundled pack has no rule on ``team.size`` or ``workload.dtype`` (the profile reference
says so; the dtype reaches the rules only through what the probes measure in it, like the
display-only workload shape), and a user's pack may read them. An answer no rule reads
cannot move the verdict: it is no telling answer (the thin-profile rule counts those) and
no uncertain answer for the win probabilities to vary (varying it would change nothing and
only dilute the samples that vary the answers that do count).
"""

from __future__ import annotations

from collections.abc import Iterable

from advisor.decide.rules import RuleSet


def read_fields(ruleset: RuleSet) -> frozenset[str]:
    """Every field a rule in force reads in its condition."""
    out: set[str] = set()
    for rule in ruleset.rules:
        if rule.condition is not None:
            out |= rule.condition.fields()
    return frozenset(out)


def unread_answers(said: Iterable[str], ruleset: RuleSet) -> list[str]:
    """The answers among ``said`` that no rule in force reads, sorted; priorities apart,
    since they weight the criteria rather than being read."""
    read = read_fields(ruleset)
    return sorted(p for p in said if p not in read and not p.startswith("priorities."))
