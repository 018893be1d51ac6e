"""Evaluate many contexts that each differ from one base context in a few answers.

The sensitivity analysis scores every rule once per change it tries (a few hundred), so a
pack of thousands of rules cost seconds per thousand rules. A rule's status reads only the
fields its condition names (:mod:`advisor.decide.rule_status`), so a rule that names none
of the fields a change touched keeps its status from the base context, and each rule's
effects are computed once; a change that leaves every status and weight as another one
did (most changes touch fields no rule of a large pack reads) gets that one's result. The
result is the one ``scoring.evaluate`` gives: the same statuses, summed in the same order.
Callers only read an Evaluation, so one may be shared.
"""

from __future__ import annotations

from typing import Any

from advisor.decide.field_readers import field_readers
from advisor.decide.rule_status import rule_status
from advisor.decide.rules import RuleSet
from advisor.decide.scoring import Effects, Evaluation, assemble, rule_effects


class Evaluator:
    """``scoring.evaluate`` for contexts near the first one it evaluates (its base),
    reusing what each shares with that one."""

    def __init__(self, ruleset: RuleSet) -> None:
        self.ruleset = ruleset
        self.base: dict[str, Any] | None = None
        self.statuses: list[str | None] = []
        self.effects: list[Effects | None] = [None] * len(ruleset.rules)
        self.readers = field_readers(ruleset)  # field -> the rules whose condition names it
        self.done: dict[tuple[Any, ...], Evaluation] = {}  # (statuses changed, weights) -> it

    def evaluate(self, context: dict[str, Any], weights: dict[str, float]) -> Evaluation:
        if self.base is None:
            self.base = dict(context)
            self.statuses = [rule_status(rule, context) for rule in self.ruleset.rules]
        statuses = self.statuses
        touched = sorted({i for path in self._changed(context) for i in self.readers.get(path, ())})
        moved = []
        for index in touched:
            status = rule_status(self.ruleset.rules[index], context)
            if status != statuses[index]:
                moved.append((index, status))
        key = (tuple(moved), tuple(weights.items()))
        if key in self.done:
            return self.done[key]
        if moved:
            statuses = list(statuses)
            for index, status in moved:
                statuses[index] = status
        for index, status in enumerate(statuses):
            if status is not None and self.effects[index] is None:
                self.effects[index] = rule_effects(self.ruleset.rules[index], self.ruleset)
        self.done[key] = assemble(self.ruleset, statuses, weights, self.effects)
        return self.done[key]

    def _changed(self, context: dict[str, Any]) -> set[str]:
        """The fields whose presence, type or value differs from the base context's (a
        value that is not equal to itself, such as NaN, counts as changed)."""
        base = self.base or {}
        out = {path for path in base.keys() ^ context.keys()}
        for path, value in context.items():
            if path in base:
                old = base[path]
                if type(old) is not type(value) or old != value:
                    out.add(path)
        return out
