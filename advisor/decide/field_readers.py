"""Which rules read which answer, and the said answers that no rule in force reads.

One index serves both the sensitivity analysis's fast re-scoring (:mod:`advisor.decide.reuse`:
a change re-scores only the rules that read a field it touched) and the thin-profile rule.
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


def field_readers(ruleset: RuleSet) -> dict[str, list[int]]:
    """Each field a rule in force reads in its condition -> the indices of those rules."""
    readers: dict[str, list[int]] = {}
    for index, rule in enumerate(ruleset.rules):
        if rule.condition is not None:
            for path in rule.condition.fields():
                readers.setdefault(path, []).append(index)
    return readers


def unread_answers(said: Iterable[str], ruleset: RuleSet) -> list[str]:
    """The answers among ``said`` that no rule in force reads, sorted; priorities apart,
    since they weight the criteria rather than being read."""
    read = field_readers(ruleset)
    return sorted(p for p in said if p not in read and not p.startswith("priorities."))
