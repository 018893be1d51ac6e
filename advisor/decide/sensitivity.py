"""What would change the verdict.

1. The smallest single change that flips the winner: every other value of every
   answer (enums, booleans, one item added to or removed from a list, numbers at the
   thresholds the rules compare them with) and every other level of every priority.
   A priority step costs its distance; any other answer costs 1.
2. Win probabilities: the priorities are perturbed with Gaussian noise (sd 1 level,
   clipped to 0-5) in a seeded Monte-Carlo; the fired rules stay fixed, so this
   measures how much the verdict rests on the weights the user chose.
"""

from __future__ import annotations

import copy
import random
import typing
from enum import Enum
from typing import Any

from advisor.decide.conditions import PROFILE_PATHS, flatten, set_path
from advisor.decide.rules import RuleSet
from advisor.decide.scoring import Evaluation, criterion_weights, evaluate, rank_order
from advisor.frameworks import FRAMEWORKS
from advisor.model.decision import Flip, Sensitivity
from advisor.model.facts import Facts
from advisor.model.profile import Profile

SAMPLES = 2000
NOISE_SD = 1.0
SKIP_PREFIXES = ("project.",)


def analyse(
    profile: Profile,
    facts: Facts,
    ruleset: RuleSet,
    current: Evaluation,
    weights: dict[str, float],
    *,
    seed: int = 0,
) -> Sensitivity:
    flips, tried = find_flips(profile, facts, ruleset, current.winner)
    by_fw: dict[str, Flip | None] = {}
    for fw in FRAMEWORKS:
        if fw != current.winner:
            by_fw[fw] = next((f for f in flips if f.new_winner == fw), None)
    win = win_probabilities(ruleset, current, profile.priorities.model_dump(), seed=seed)
    return Sensitivity(
        smallest_flip=flips[0] if flips else None,
        flips_by_framework=by_fw,
        candidates_tried=tried,
        win_probability=win,
        samples=SAMPLES,
        seed=seed,
        method=(
            f"priorities perturbed by Gaussian noise (sd {NOISE_SD} level, clipped to 0-5), "
            f"{SAMPLES} seeded samples; fired rules held fixed"
        ),
    )


def candidate_changes(profile: Profile, ruleset: RuleSet) -> list[tuple[str, Any, Any, str, float]]:
    """(path, old, new, kind, cost) for every single-answer change worth trying."""
    plain = flatten(profile.model_dump(mode="json"))
    thresholds = _thresholds(ruleset)
    out: list[tuple[str, Any, Any, str, float]] = []
    for path, annotation in PROFILE_PATHS.items():
        if path.startswith(SKIP_PREFIXES):
            continue
        old = plain[path]
        if path.startswith("priorities."):
            for level in range(6):
                if level != old:
                    out.append((path, old, level, "priority", float(abs(level - old))))
            continue
        for new in _alternatives(annotation, old, thresholds.get(path, set())):
            out.append((path, old, new, "answer", 1.0))
    return out


def _alternatives(annotation: Any, old: Any, literals: set[Any]) -> list[Any]:
    if typing.get_origin(annotation) is list:
        item = typing.get_args(annotation)[0]
        values = (
            [m.value for m in item] if isinstance(item, type) and issubclass(item, Enum) else []
        )
        adds = [[*old, v] for v in values if v not in old]
        removes = [[x for x in old if x != v] for v in old]
        return adds + removes
    if isinstance(annotation, type) and issubclass(annotation, Enum):
        return [m.value for m in annotation if m.value != old]
    if annotation is bool:
        return [not old]
    if annotation in (int, float):
        out = set()
        for t in literals:
            if not isinstance(t, (int, float)) or isinstance(t, bool):
                continue
            step = 1 if annotation is int else abs(t) * 0.01 or 0.01
            for value in (t - step, t, t + step):
                value = annotation(value)
                if value != old and value >= 0:
                    out.add(value)
        return sorted(out, key=lambda v: (abs(v - old), v))
    return []


def _thresholds(ruleset: RuleSet) -> dict[str, set[Any]]:
    out: dict[str, set[Any]] = {}
    for rule in ruleset.rules:
        if rule.condition is None:
            continue
        for path, values in rule.condition.literals().items():
            out.setdefault(path, set()).update(values)
    return out


def find_flips(
    profile: Profile, facts: Facts, ruleset: RuleSet, winner: str
) -> tuple[list[Flip], int]:
    """All single changes that change the winner, smallest first."""
    base = profile.model_dump(mode="json")
    fact_context = flatten(facts.model_dump(mode="json"), "facts.")
    flips: list[Flip] = []
    candidates = candidate_changes(profile, ruleset)
    for path, old, new, kind, cost in candidates:
        changed = copy.deepcopy(base)
        set_path(changed, path, new)
        try:
            candidate = Profile.model_validate(changed)
        except ValueError:
            continue  # outside the field's allowed range
        context = flatten(candidate.model_dump(mode="json"))
        context.update(fact_context)
        weights = criterion_weights(ruleset, changed["priorities"])
        new_winner = evaluate(ruleset, context, weights).winner
        if new_winner != winner:
            flips.append(
                Flip(
                    path=path,
                    kind=kind,
                    from_value=old,
                    to_value=new,
                    description=_describe(path, old, new),
                    cost=cost,
                    new_winner=new_winner,
                )
            )
    flips.sort(key=lambda f: (f.cost, 0 if f.kind == "answer" else 1, _distance(f), f.path))
    return flips, len(candidates)


def _distance(flip: Flip) -> float:
    a, b = flip.from_value, flip.to_value
    if isinstance(a, (int, float)) and isinstance(b, (int, float)) and not isinstance(a, bool):
        return abs(b - a) / (abs(a) + 1.0)
    return 0.0


def _describe(path: str, old: Any, new: Any) -> str:
    if isinstance(old, list) and isinstance(new, list):
        added = [v for v in new if v not in old]
        removed = [v for v in old if v not in new]
        if added:
            return f"add '{added[0]}' to {path}"
        return f"remove '{removed[0]}' from {path}"
    return f"{path}: {_fmt(old)} → {_fmt(new)}"


def _fmt(value: Any) -> str:
    if isinstance(value, float) and value >= 1e4:
        return f"{value:.3g}"
    return str(value).lower() if isinstance(value, bool) else str(value)


def win_probabilities(
    ruleset: RuleSet, current: Evaluation, priorities: dict[str, Any], *, seed: int = 0
) -> dict[str, float]:
    """Share of perturbed-priority samples each framework wins (seeded, deterministic)."""
    per_criterion: dict[str, dict[str, float]] = {}
    for rule in current.fired:
        row = per_criterion.setdefault(rule.criterion, dict.fromkeys(FRAMEWORKS, 0.0))
        for fw, delta in rule.effects.items():
            row[fw] += delta
    rng = random.Random(seed)
    names = list(priorities)
    wins = dict.fromkeys(FRAMEWORKS, 0)
    criteria = [(c.id, c.priorities) for c in ruleset.meta.criteria]
    for _ in range(SAMPLES):
        sample = {
            n: min(5.0, max(0.0, float(priorities[n]) + rng.gauss(0.0, NOISE_SD))) for n in names
        }
        raw = dict.fromkeys(FRAMEWORKS, 0.0)
        for cid, prios in criteria:
            if not per_criterion.get(cid):
                continue
            row = per_criterion[cid]
            weight = sum(sample[p] for p in prios) / (3.0 * len(prios)) if prios else 1.0
            for fw in FRAMEWORKS:
                raw[fw] += weight * row[fw]
        wins[rank_order(raw, current.vetoes, current.support)[0]] += 1
    return {fw: round(wins[fw] / SAMPLES, 4) for fw in FRAMEWORKS}
