"""What would change the verdict, and how sure the verdict is.

1. The smallest single change that flips the winner: every other value of every
   answer (enums, booleans, one item added to or removed from a list, numbers at the
   thresholds the rules compare them with) and every other level of every priority.
   A priority step costs its distance; changing an answer given (or removing an item
   from a list it gave) costs 1; taking on something new (an item added to a list: a
   target, a device, hardware; or an answer the profile did not give, a list it did not
   give being the default the report assumes, added to or said instead) costs 2, since
   it adds a requirement rather than reconsidering one. At equal cost a changed answer
   comes first, then a priority, then something new. Changes are of three categories: a
   priority, a plan (what the project will do), or the situation (what is already so:
   the team, the existing code, the stack in production; marked in the Profile model).
   ``smallest_flip`` and ``flips_by_framework`` range over all of them;
   ``decidable_flip`` and ``decidable_by_framework`` over the changes a project can
   decide (a priority or a plan), which the report leads with; ``situation_flips`` lists
   the situation's apart, as what the verdict rests on. A change that would make the
   answers contradict each other (a consistency check the profile does not trip
   already, e.g. a microcontroller target for a 70B model) is not a change anyone can
   make: it is counted but not offered. Checks read the changed profile twice, as said
   and with its unsaid answers at their defaults as the report assumes them (an Edge
   TPU added to a profile whose targets default to servers); a new trip in either
   reading rules the change out, and so does one when an added device target or
   accelerator could not run the model the profile sizes
   (said_context.SaidContext.added_device_cannot_run).
2. Win probabilities, seeded Monte-Carlo: each sample perturbs the priorities with
   Gaussian noise (sd 1 level, clipped to 0-5) and, half the time, the answers a user is
   least sure of: one said answer is dropped, or one judgement answer (experience,
   functional style, purpose, determinism, code size) moves to a neighbouring value.
   Hard facts (answers behind a veto or a decisive fact) and answers no rule reads stay
   as said. Each framework's soft score also gets Gaussian noise (sd 1.5 points): the
   rules' integer effects are judgements, and a near-tie should read as one.
"""

from __future__ import annotations

import typing
from enum import Enum
from typing import Any

from advisor.decide.change_text import describe_change
from advisor.decide.conditions import PROFILE_PATHS, situation_paths
from advisor.decide.field_readers import unread_answers
from advisor.decide.reuse import Evaluator
from advisor.decide.rules import RuleSet
from advisor.decide.said_context import SaidContext
from advisor.decide.scoring import (
    Evaluation,
    criterion_weights,
    lead_of,
    rule_effects,
)
from advisor.decide.win_probability import (
    ANSWER_SHARE,
    EFFECT_SD,
    NOISE_SD,
    SAMPLES,
    win_probabilities,
)
from advisor.frameworks import FRAMEWORKS
from advisor.model.decision import Flip, NotAsked, Sensitivity
from advisor.model.facts import Facts
from advisor.model.paths import display_only_paths, framing_paths
from advisor.model.profile import Profile, field_bounds, model_field

DISPLAY_ONLY = display_only_paths()  # no rule reads them: never varied or offered
FRAMING = framing_paths()  # the question the team asks (whether to move): never offered
SITUATION = situation_paths()
RECONSIDER = 1.0  # changing or dropping an answer given
TAKE_ON = 2.0  # a new requirement: an added target, device or library, an unsaid answer
# Judgement answers: a user may well have put the neighbouring value.
JUDGEMENTS = (
    "purpose",
    "determinism",
    "existing_code_size",
    *(f"team.experience.{fw}" for fw in FRAMEWORKS),  # one per registry entry
    "team.functional_programming",
    "team.new_to_deep_learning",
    "team.numpy",
)


def analyse(
    profile: Profile,
    facts: Facts,
    ruleset: RuleSet,
    current: Evaluation,
    weights: dict[str, float],
    *,
    seed: int = 0,
    changes: bool = True,  # False: the win probabilities only (no flips searched or tried)
    unasked: frozenset[str] = frozenset(),
) -> Sensitivity:
    """``unasked``: the fields the questionnaire would not ask about this profile (a team
    new to deep learning is not asked to compile its training loop): saying one of them is
    not offered as a change; answers the profile gave stay changeable."""
    base = SaidContext(profile, facts)
    # when nothing fits, a flip is any change after which something does
    fits = None if current.nothing_fits else current.winner
    flips, tried, ruled_out, not_asked = (
        find_flips(base, ruleset, fits, unasked) if changes else ([], 0, 0, [])
    )
    decidable = [f for f in flips if f.category != "situation"]
    situational = [f for f in flips if f.category == "situation"]
    others = [fw for fw in FRAMEWORKS if fw != fits]
    protected = _protected(ruleset, current) | set(unread_answers(base.said, ruleset))
    variants = answer_variants(base, ruleset, protected)
    answers = len(uncertain_answers(base, protected))
    win = win_probabilities(ruleset, current, variants, base.priorities, seed=seed)
    return Sensitivity(
        smallest_flip=flips[0] if flips else None,
        flips_by_framework=_cheapest(flips, others),
        decidable_flip=decidable[0] if decidable else None,
        decidable_by_framework=_cheapest(decidable, others),
        situation_flips=_cheapest(situational, others),
        candidates_tried=tried,
        ruled_out=ruled_out,
        not_asked_flips=not_asked,
        win_probability=win,
        samples=SAMPLES,
        seed=seed,
        method=(
            f"priorities perturbed by Gaussian noise (sd {NOISE_SD} level, clipped to 0-5) and, "
            f"{_answers_varied(answers, len(variants))}; each framework's soft score "
            f"perturbed by Gaussian noise (sd {EFFECT_SD} points); {SAMPLES} seeded samples"
        ),
    )


def _answers_varied(answers: int, variations: int) -> str:
    """The method's words for the answers the samples vary: each uncertain answer dropped,
    and a judgement (a level, a yes or no) also moved to its neighbouring values, so
    ``variations`` counts those choices and ``answers`` the answers they come from."""
    if not answers:
        return "with no uncertain answers in the profile, no answer varied"
    if variations == answers:
        which = (
            "its one uncertain answer" if answers == 1 else f"one of {answers} uncertain answers"
        )
        return f"in {ANSWER_SHARE:.0%} of samples, {which} dropped"
    whose = "its one uncertain answer" if answers == 1 else f"the {answers} uncertain answers"
    return (
        f"in {ANSWER_SHARE:.0%} of samples, one of {variations} variations of {whose} "
        "(each dropped; a judgement also moved to a neighbouring value)"
    )


def _cheapest(flips: list[Flip], frameworks: list[str]) -> dict[str, Flip | None]:
    """The first (cheapest) flip to each framework, from flips sorted smallest first."""
    return {fw: next((f for f in flips if f.new_winner == fw), None) for fw in frameworks}


def candidate_changes(
    base: SaidContext, ruleset: RuleSet
) -> list[tuple[str, Any, Any, str, float]]:
    """(path, old, new, kind, cost) for every single-answer change worth trying."""
    thresholds = _thresholds(ruleset)
    out: list[tuple[str, Any, Any, str, float]] = []
    for path, annotation in PROFILE_PATHS.items():
        said = path in base.said
        if path in DISPLAY_ONLY or path in FRAMING:
            continue
        old = base.full[path]
        if path.startswith("priorities."):
            for level in range(6):
                if level != old:
                    out.append((path, old, level, "priority", float(abs(level - old))))
            continue
        category = "situation" if path in SITUATION else "plan"
        if not said and isinstance(old, list):
            # saying the list: the one the report assumes plus an item, or that item alone
            # (from None: the profile does not say it, and saying it is what changes)
            for new in _alternatives(annotation, old, set(), said):
                if len(new) > len(old):
                    out.append((path, None, new, category, TAKE_ON))
                    if old:
                        out.append((path, None, new[-1:], category, TAKE_ON))
            continue
        if not said:
            for new in _alternatives(annotation, old, thresholds.get(path, set()), said, path):
                out.append((path, None, new, category, TAKE_ON))  # saying an unsaid answer
            continue
        for new in _alternatives(annotation, old, thresholds.get(path, set()), said, path):
            adds = isinstance(new, list) and len(new) > len(old)
            out.append((path, old, new, category, TAKE_ON if adds else RECONSIDER))
    return out


def _alternatives(
    annotation: Any, old: Any, literals: set[Any], said: bool, path: str = ""
) -> list[Any]:
    if typing.get_origin(annotation) is list:
        item = typing.get_args(annotation)[0]
        values = (
            [m.value for m in item] if isinstance(item, type) and issubclass(item, Enum) else []
        )
        adds = [[*old, v] for v in values if v not in old]
        removes = [[x for x in old if x != v] for v in old]
        # a model trains and runs somewhere: a hardware list is never emptied
        return adds + [r for r in removes if r or path not in HARDWARE_LISTS]
    if isinstance(annotation, type) and issubclass(annotation, Enum):
        return [m.value for m in annotation if m.value != old or not said]
    if annotation is bool:
        return [not old] if said else [True, False]
    if annotation in (int, float):
        low, high = field_bounds(model_field(path)[1]) if path else (None, None)
        low = 0 if low is None else low
        out = set()
        for t in literals:
            if not isinstance(t, (int, float)) or isinstance(t, bool):
                continue
            step = 1 if annotation is int else abs(t) * 0.01 or 0.01
            for value in (t - step, t, t + step):
                value = annotation(value)
                if (value != old or not said) and value >= low and (high is None or value <= high):
                    out.add(value)
        # the nearest values only: a pack with thousands of thresholds costs no more
        return sorted(out, key=lambda v: (abs(v - old), v))[:MAX_NUMBER_TRIES]
    return []


HARDWARE_LISTS = frozenset(
    p
    for p, kind in PROFILE_PATHS.items()
    if p.startswith("hardware.") and typing.get_origin(kind) is list
)
MAX_NUMBER_TRIES = 48  # values tried per numeric answer: 16 thresholds, each with its neighbours


def _thresholds(ruleset: RuleSet) -> dict[str, set[Any]]:
    out: dict[str, set[Any]] = {}
    for rule in ruleset.rules:
        if rule.condition is None:
            continue
        for path, values in rule.condition.literals().items():
            out.setdefault(path, set()).update(values)
    return out


def find_flips(
    base: SaidContext, ruleset: RuleSet, winner: str | None, unasked: frozenset[str] = frozenset()
) -> tuple[list[Flip], int, int, list[NotAsked]]:
    """All single changes that change the winner (None: nothing fits now, so any change
    after which one fits; never one after which nothing does), smallest first; the number
    of changes tried; how many flips contradict other answers (ruled out); and the unsaid
    answers in ``unasked`` (questions the questionnaire would not put to the profile) that
    would flip it, which are named but not offered."""
    flips: list[Flip] = []
    candidates = candidate_changes(base, ruleset)
    fast = Evaluator(ruleset)  # each change touches a few answers: the other rules stand
    ruled_out = 0
    not_asked: dict[str, tuple[str, set[str]]] = {}
    for path, old, new, category, cost in candidates:
        context, priorities = base.changed(path, new)
        outcome = fast.evaluate(context, criterion_weights(ruleset, priorities))
        if outcome.nothing_fits:
            continue
        new_winner = outcome.winner
        if new_winner != winner and (
            base.clashes(ruleset.checks, context)
            or base.added_device_cannot_run(ruleset.checks, path, old, new)
        ):
            ruled_out += 1
        elif new_winner != winner and path in unasked and path not in base.said:
            not_asked.setdefault(path, (category, set()))[1].add(new_winner)
        elif new_winner != winner:
            flips.append(
                Flip(
                    path=path,
                    kind="priority" if category == "priority" else "answer",
                    category=category,
                    from_value=old,
                    to_value=new,
                    description=describe_change(path, old, new),
                    cost=cost,
                    new_winner=new_winner,
                    takes_on=category != "priority" and cost == TAKE_ON,
                    rules_out=winner if winner and outcome.vetoes.get(winner) else None,
                    **lead_of(outcome, ruleset.meta.decision),
                )
            )
    # at equal cost: a changed answer, then a priority, then something new; and one that
    # wins only by ruling the current winner out after one that outscores it
    flips.sort(
        key=lambda f: (
            f.cost,
            f.takes_on,
            f.rules_out is not None,
            f.kind == "priority",
            _distance(f),
            f.path,
        )
    )
    unoffered = [
        NotAsked(path=p, category=c, new_winners=[fw for fw in FRAMEWORKS if fw in won])
        for p, (c, won) in sorted(not_asked.items())
    ]
    return flips, len(candidates), ruled_out, unoffered


def _distance(flip: Flip) -> float:
    a, b = flip.from_value, flip.to_value
    if a is None:
        return 0.0
    if isinstance(a, (int, float)) and isinstance(b, (int, float)) and not isinstance(a, bool):
        return abs(b - a) / (abs(a) + 1.0)
    return 0.0


def _protected(ruleset: RuleSet, current: Evaluation) -> set[str]:
    """Answers behind a veto or a decisive fact: hard facts, not perturbed."""
    out: set[str] = set()
    for rule in current.fired:
        _, decisive = rule_effects(rule, ruleset)
        if rule.veto.items() or any(decisive.values()):
            out |= rule.condition.fields() if rule.condition else set()
    return out


def answer_variants(
    base: SaidContext, ruleset: RuleSet, protected: set[str] | None = None
) -> list[dict[str, Any]]:
    """Contexts with one uncertain answer dropped or moved to a neighbouring value.

    Answers behind a veto or a decisive fact are hard facts and stay as said.
    """
    out = []
    for path in uncertain_answers(base, protected):
        out.append(base.changed(path, None)[0])
        if path in JUDGEMENTS:
            for new in _neighbours(PROFILE_PATHS[path], base.context[path]):
                out.append(base.changed(path, new)[0])
    return out


def uncertain_answers(base: SaidContext, protected: set[str] | None = None) -> list[str]:
    """The said answers the win probabilities vary (not priorities, not hard facts)."""
    return [
        path
        for path in sorted(base.said - (protected or set()))
        if path not in DISPLAY_ONLY
        and path not in FRAMING  # the question asked, not an answer the team is unsure of
        and not path.startswith("priorities.")
    ]


def _neighbours(annotation: Any, old: Any) -> list[Any]:
    if annotation is bool:
        return [not old]
    if isinstance(annotation, type) and issubclass(annotation, Enum):
        values = [m.value for m in annotation]
        i = values.index(old)
        return [values[j] for j in (i - 1, i + 1) if 0 <= j < len(values)]
    return []
