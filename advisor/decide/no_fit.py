"""When every framework is vetoed: why, and what single change would let one fit.

The Decision then recommends nothing (``recommendation.framework`` is null) and carries
a ``no_fit`` object: the veto reasons per framework, and for each framework the
cheapest single answer change after which no rule vetoes it and the answers still fit
together (or, where no single change does, the rules to get past and the profile fields
they test).
"""

from __future__ import annotations

from typing import Any

from advisor.decide.rules import RuleSet
from advisor.frameworks import FRAMEWORKS
from advisor.model.decision import FitChange, NoFit
from advisor.model.facts import Facts
from advisor.model.profile import Profile


def explain_no_fit(
    profile: Profile, facts: Facts, ruleset: RuleSet, vetoes: dict[str, list[str]]
) -> NoFit:
    """The reasons (veto texts) and, per framework, the cheapest change that lifts its vetoes."""
    from advisor.decide.change_text import describe_change
    from advisor.decide.reuse import Evaluator
    from advisor.decide.said_context import SaidContext
    from advisor.decide.scoring import criterion_weights
    from advisor.decide.sensitivity import candidate_changes

    base = SaidContext(profile, facts)
    best: dict[str, tuple[float, str, Any, Any]] = {}
    ruled_out = 0
    lets_fit: dict[tuple[str, str], list[str]] = {}  # a change -> every framework it lets fit
    # the bundled rules veto on answers only, but a user pack's veto may read a priority
    read = {
        f
        for reasons in vetoes.values()
        for reason in reasons
        if (rule := ruleset.get(reason.split(":", 1)[0])) and rule.condition
        for f in rule.condition.fields()
    }
    priorities_veto = any(f.startswith("priorities.") for f in read)
    fast = Evaluator(ruleset)  # each change touches a few answers: the other rules stand
    for path, old, new, _kind, cost in candidate_changes(base, ruleset):
        if path.startswith("priorities.") and not priorities_veto:
            continue  # priorities move scores here, never vetoes
        context, priorities = base.changed(path, new)
        result = fast.evaluate(context, criterion_weights(ruleset, priorities))
        if base.clashes(ruleset.checks, context):
            # not a change anyone can make: it contradicts other answers
            ruled_out += any(not result.vetoes[fw] for fw in FRAMEWORKS)
            continue
        fit = [fw for fw in FRAMEWORKS if not result.vetoes[fw]]
        if fit:
            lets_fit[(path, repr(new))] = fit
        for fw in fit:
            if fw not in best or cost < best[fw][0]:
                best[fw] = (cost, path, old, new)
    changes = []
    for fw in FRAMEWORKS:
        # a veto's reason starts with its rule's id; a release veto (RuleSet.at) has none
        ids = [reason.split(":", 1)[0] for reason in vetoes[fw]]
        rule_ids = [rid for rid in ids if ruleset.get(rid) is not None]
        fields = sorted(
            {
                f
                for rid in rule_ids
                if (rule := ruleset.get(rid)) and rule.condition
                for f in rule.condition.fields()
            }
        )
        found = best.get(fw)
        changes.append(
            FitChange(
                framework=fw,
                change=describe_change(found[1], found[2], found[3]) if found else None,
                path=found[1] if found else None,
                from_value=found[2] if found else None,
                to_value=found[3] if found else None,
                vetoed_by=rule_ids,
                fields=fields,
                lets_fit=lets_fit.get((found[1], repr(found[3])), [fw]) if found else [],
            )
        )
    changes.sort(key=lambda c: (c.change is None, best.get(c.framework, (0,))[0], c.framework))
    return NoFit(
        reasons={fw: list(vetoes[fw]) for fw in FRAMEWORKS},
        what_would_fit=changes,
        ruled_out=ruled_out,
    )
