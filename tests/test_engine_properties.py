"""Property tests of the engine on the bundled rule pack (hypothesis).

Profiles are generated from the pydantic Profile model itself: every enum, boolean, list
of enum values and bounded number the model allows, with numbers drawn near the
thresholds the rules compare them with so that rules actually fire.
"""

from __future__ import annotations

import typing
from enum import Enum
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import BaseModel

from advisor.decide.engine import decide
from advisor.decide.rules import load_ruleset
from advisor.frameworks import FRAMEWORKS
from advisor.model.profile import Profile
from advisor.model.rulepack import PRIORITY_NAMES

PACK = load_ruleset()
SETTINGS = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# numbers the rules compare with, so generated profiles land on both sides of them
THRESHOLDS: dict[str, set[float]] = {}
for _rule in PACK.rules:
    for _path, _values in _rule.condition.literals().items():
        THRESHOLDS.setdefault(_path, set()).update(
            v for v in _values if isinstance(v, (int, float)) and not isinstance(v, bool)
        )


def _bounds(info: Any) -> tuple[float | None, float | None]:
    lo = hi = None
    for meta in info.metadata:
        lo = getattr(meta, "ge", lo) if getattr(meta, "ge", None) is not None else lo
        hi = getattr(meta, "le", hi) if getattr(meta, "le", None) is not None else hi
    return lo, hi


def _number(path: str, annotation: Any, lo: float | None, hi: float | None) -> st.SearchStrategy:
    lo = 0 if lo is None else lo
    hi = 10**6 if hi is None else hi
    near = sorted(
        {
            x
            for t in THRESHOLDS.get(path, ())
            for x in (t * 0.5, t - 1, t, t + 1, t * 2)
            if lo <= x <= hi
        }
    )
    if annotation is int:
        plain = st.integers(min_value=int(lo), max_value=int(min(hi, 5000)))
        near_st = st.sampled_from([int(x) for x in near]) if near else plain
    else:
        plain = st.floats(min_value=float(lo), max_value=float(hi), allow_nan=False)
        near_st = st.sampled_from(near) if near else plain
    return st.one_of(plain, near_st)


def _strategy(model: type[BaseModel], prefix: str = "") -> st.SearchStrategy[dict[str, Any]]:
    optional: dict[str, st.SearchStrategy[Any]] = {}
    for name, info in model.model_fields.items():
        annotation = info.annotation
        path = f"{prefix}{name}"
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            optional[name] = _strategy(annotation, path + ".")
        elif typing.get_origin(annotation) is list:
            item = typing.get_args(annotation)[0]
            optional[name] = st.lists(
                st.sampled_from([m.value for m in item]), unique=True, max_size=4
            )
        elif isinstance(annotation, type) and issubclass(annotation, Enum):
            optional[name] = st.sampled_from([m.value for m in annotation])
        elif annotation is bool:
            optional[name] = st.booleans()
        elif annotation in (int, float):
            optional[name] = _number(path, annotation, *_bounds(info))
        # free text (project name and notes) keeps its default
    return st.fixed_dictionaries({}, optional=optional)


profiles = _strategy(Profile).map(Profile.model_validate)


def raws(profile: Profile) -> dict[str, float]:
    return {r.framework: r.raw for r in decide(profile, None, PACK, with_sensitivity=False).ranking}


@SETTINGS
@given(profiles)
def test_any_valid_profile_gets_a_full_deterministic_ranking(profile: Profile) -> None:
    first = decide(profile, None, PACK, with_sensitivity=False)
    again = decide(profile, None, PACK, with_sensitivity=False)
    order = [r.framework for r in first.ranking]
    assert sorted(order) == sorted(FRAMEWORKS)
    assert first.model_dump() == again.model_dump()
    assert first.recommendation.framework == order[0]
    scores = [r.score for r in first.ranking if not r.vetoed]
    assert scores == sorted(scores, reverse=True)
    assert all(0.0 <= r.score <= 100.0 for r in first.ranking)
    # decided from the profile alone: no rule that needs a measurement fired
    assert not any(r.facts_used for r in first.rules)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(profiles)
def test_sensitivity_is_deterministic_and_a_distribution(profile: Profile) -> None:
    first = decide(profile, None, PACK)
    again = decide(profile, None, PACK)
    assert first.sensitivity is not None and again.sensitivity is not None
    assert first.sensitivity.win_probability == again.sensitivity.win_probability
    assert abs(sum(first.sensitivity.win_probability.values()) - 1.0) < 1e-6
    flip = first.sensitivity.smallest_flip
    if flip is not None:
        assert flip.new_winner != first.recommendation.framework
        assert flip.kind in ("priority", "answer")
    decidable = first.sensitivity.decidable_flip
    if decidable is not None:
        assert decidable.category in ("priority", "plan") and flip is not None
        assert flip.cost <= decidable.cost
    for fw, situation in first.sensitivity.situation_flips.items():
        assert situation is None or (
            situation.category == "situation" and situation.new_winner == fw
        )


with_microcontroller = _strategy(Profile).map(
    lambda d: {**d, "deployment": {**d.get("deployment", {}), "targets": ["microcontroller"]}}
)


@SETTINGS
@given(st.one_of(profiles, with_microcontroller.map(Profile.model_validate)))
def test_a_vetoed_framework_never_wins(profile: Profile) -> None:
    d = decide(profile, None, PACK, with_sensitivity=False)
    vetoed = {r.framework for r in d.ranking if r.vetoed}
    vetoing = {fw for rule in d.rules for fw in rule.veto}
    assert vetoed == vetoing
    if vetoed != set(FRAMEWORKS):
        assert d.recommendation.framework not in vetoed
        assert not d.recommendation.all_vetoed
    else:
        assert d.recommendation.all_vetoed
    # vetoed frameworks rank after every allowed one
    flags = [r.vetoed for r in d.ranking]
    assert flags == sorted(flags)


@SETTINGS
@given(profiles, st.sampled_from(PRIORITY_NAMES))
def test_raising_a_priority_never_lowers_a_framework_that_only_gains_from_it(
    profile: Profile, priority: str
) -> None:
    level = getattr(profile.priorities, priority)
    if level == 5:
        return
    higher = profile.model_copy(
        update={"priorities": profile.priorities.model_copy(update={priority: level + 1})}
    )
    weighted_by_it = {c.id for c in PACK.meta.criteria if priority in c.priorities}
    before = decide(profile, None, PACK, with_sensitivity=False)
    after = decide(higher, None, PACK, with_sensitivity=False)
    fired = {r.id: r for r in [*before.rules, *after.rules]}
    score_before = {r.framework: r.score for r in before.ranking}
    score_after = {r.framework: r.score for r in after.ranking}
    raw_before = {r.framework: r.raw for r in before.ranking}
    raw_after = {r.framework: r.raw for r in after.ranking}
    for fw in FRAMEWORKS:
        only_gains = all(
            rule.effects.get(fw, 0) >= 0
            for rule in fired.values()
            if rule.criterion in weighted_by_it
        )
        if only_gains:
            assert raw_after[fw] >= raw_before[fw] - 1e-9, (fw, priority)
            assert score_after[fw] >= score_before[fw], (fw, priority)


def test_the_monotonicity_property_can_fail() -> None:
    """Sanity check of the property itself: a framework that loses from a criterion does
    lose more when that criterion's priority rises (so 'only gains' is doing work)."""
    base = Profile.model_validate({"team": {"new_to_deep_learning": True}})
    higher = base.model_copy(
        update={"priorities": base.priorities.model_copy(update={"learning_curve": 5})}
    )
    assert raws(higher)["jax"] < raws(base)["jax"]  # LRN001 penalises JAX more
    assert raws(higher)["pytorch"] > raws(base)["pytorch"]
