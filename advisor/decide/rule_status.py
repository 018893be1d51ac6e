"""A rule's status on a context: it fires, it stands aside, or it does not apply.

The status reads the context's values of the fields the rule's condition names, and
nothing else, so an evaluation of a context that differs from another only in fields a
rule does not name can keep that rule's status (:mod:`advisor.decide.reuse`).
"""

from __future__ import annotations

from typing import Any

from advisor.decide.rules import Rule

FIRED, SKIPPED = "fired", "skipped"  # None: the rule does not apply


def rule_status(rule: Rule, context: dict[str, Any]) -> str | None:
    """Whether ``rule`` fires on ``context``, stands aside (skipped when a measurement it
    needs is missing, or when only the machine's noise kept it from firing), or does not
    apply (None; also when the profile did not give an answer it needs)."""
    assert rule.condition is not None
    result = rule.condition.evaluate(context)
    if result is None:
        if any(context.get(f) is None for f in rule.condition.fields() if f[:6] == "facts."):
            return SKIPPED
        return None
    if not result:
        return SKIPPED if too_noisy(rule, context) else None
    return FIRED


def too_noisy(rule: Rule, context: dict[str, Any]) -> bool:
    """Whether a rule that did not fire stood aside only because the machine was too noisy
    to measure: its ``facts.noisy`` guard failed, and with the noise unknown it would not be
    false (so it is listed as standing aside, not as not applying)."""
    assert rule.condition is not None
    if context.get("facts.noisy") is not True or "facts.noisy" not in rule.condition.fields():
        return False
    return rule.condition.evaluate({**context, "facts.noisy": None}) is not False
