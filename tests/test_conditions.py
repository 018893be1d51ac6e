"""The condition language: parsing, validation against the models, three-valued logic."""

from __future__ import annotations

import pytest

from advisor.decide.conditions import ConditionError, build_context, parse_condition
from advisor.model.facts import Facts
from advisor.model.profile import Profile


def ctx(profile: dict | None = None, facts: dict | None = None) -> dict:
    return build_context(Profile.model_validate(profile or {}), Facts.model_validate(facts or {}))


def test_comparisons_and_combinators() -> None:
    cond = parse_condition(
        {
            "all": [
                {"field": "model.parameters", "gte": "10B"},
                {
                    "any": [
                        {"field": "hardware.training", "contains": "tpu"},
                        {"field": "purpose", "eq": "research"},
                    ]
                },
                {"not": {"field": "team.new_to_deep_learning", "eq": True}},
            ]
        }
    )
    assert cond.evaluate(ctx({"model": {"parameters": 7e10}, "purpose": "research"})) is True
    assert cond.evaluate(ctx({"model": {"parameters": 1e9}, "purpose": "research"})) is False
    assert cond.evaluate(ctx({"model": {"parameters": 7e10}, "purpose": "production"})) is False
    assert cond.fields() == {
        "model.parameters",
        "hardware.training",
        "purpose",
        "team.new_to_deep_learning",
    }


@pytest.mark.parametrize(
    ("op", "value", "profile", "expected"),
    [
        ("in", ["research", "both"], {"purpose": "both"}, True),
        ("not_in", ["research", "both"], {"purpose": "both"}, False),
        ("ne", "research", {"purpose": "both"}, True),
        ("lt", 5, {"training": {"accelerators": 4}}, True),
        ("lte", 4, {"training": {"accelerators": 4}}, True),
        ("gt", 4, {"training": {"accelerators": 4}}, False),
    ],
)
def test_operators(op: str, value: object, profile: dict, expected: bool) -> None:
    field = "purpose" if "purpose" in profile else "training.accelerators"
    assert parse_condition({"field": field, op: value}).evaluate(ctx(profile)) is expected


def test_list_operators() -> None:
    profile = {"deployment": {"targets": ["mobile", "browser"]}}
    any_ = parse_condition({"field": "deployment.targets", "contains_any": ["browser", "edge"]})
    all_ = parse_condition({"field": "deployment.targets", "contains_all": ["browser", "edge"]})
    assert any_.evaluate(ctx(profile)) is True
    assert all_.evaluate(ctx(profile)) is False


def test_missing_fact_is_unknown_and_propagates() -> None:
    fact = {"field": "facts.jit_speedup.jax", "gt": 2}
    assert parse_condition(fact).evaluate(ctx()) is None
    assert parse_condition({"not": fact}).evaluate(ctx()) is None
    # all() with a definite False is False even if another part is unknown
    cond = parse_condition({"all": [fact, {"field": "purpose", "eq": "research"}]})
    assert cond.evaluate(ctx({"purpose": "production"})) is False
    assert cond.evaluate(ctx({"purpose": "research"})) is None
    assert cond.evaluate(ctx({"purpose": "research"}, {"jit_speedup": {"jax": 3.0}})) is True


@pytest.mark.parametrize(
    ("data", "fragment"),
    [
        ({"field": "deployment.target", "contains": "mobile"}, "did you mean 'deployment.targets'"),
        ({"field": "purpose", "equals": "research"}, "unknown operator"),
        ({"field": "purpose", "eq": "reserch"}, "did you mean 'research'"),
        ({"field": "purpose", "gt": 3}, "numeric"),
        ({"field": "deployment.targets", "eq": "mobile"}, "use contains"),
        ({"field": "purpose", "contains": "x"}, "needs a list field"),
        ({"field": "purpose", "in": []}, "non-empty list"),
        ({"all": []}, "non-empty list"),
        ({"all": [{"field": "purpose", "eq": "both"}], "any": []}, "stand alone"),
        ({"feild": "purpose", "eq": "both"}, "did you mean 'field'"),
        ("purpose == 'research'", "must be a mapping"),
        ({"field": "model.parameters", "gt": "lots"}, "expected a number"),
        ({"field": "facts.jit_speedup.jux", "gt": 1}, "unknown field"),
    ],
)
def test_invalid_conditions_name_the_problem(data: object, fragment: str) -> None:
    with pytest.raises(ConditionError) as info:
        parse_condition(data)
    assert fragment in str(info.value)


def test_nesting_limit() -> None:
    data: dict = {"field": "purpose", "eq": "both"}
    for _ in range(40):
        data = {"not": data}
    with pytest.raises(ConditionError, match="deeper"):
        parse_condition(data)


@pytest.mark.parametrize(
    "raw",
    [
        {"field": "model.parameters", "gt": 1.79e308},
        {"field": "model.parameters", "lt": 0},
        {"field": "priorities.raw_performance", "eq": 6},
        {"field": "training.accelerators", "in": [1, 2_000_000]},
    ],
)
def test_a_literal_no_profile_can_reach_is_refused(raw: dict) -> None:
    """A threshold outside the field's own range is a mistake (and would make the
    sensitivity analysis offer values the profile refuses)."""
    with pytest.raises(ConditionError, match="outside the range"):
        parse_condition(raw)


def test_the_numbers_tried_for_an_answer_are_few_and_in_range() -> None:
    from advisor.decide.sensitivity import MAX_NUMBER_TRIES, _alternatives

    many = {1000 + 7 * i for i in range(5000)} | {1e14}
    tried = _alternatives(float, 2e3, many, True, "model.parameters")
    assert 0 < len(tried) <= MAX_NUMBER_TRIES
    assert all(1 <= v <= 1e14 for v in tried)
    assert min(tried, key=lambda v: abs(v - 2e3)) == tried[0]  # the nearest first
    assert all(v <= 1e14 for v in _alternatives(float, 5.0, {1e14}, True, "model.parameters"))


def test_why_not_names_the_comparisons_that_kept_a_condition_false() -> None:
    from advisor.decide.rule_examples import why_not

    cond = parse_condition(
        {"all": [{"field": "team.size", "gte": 8}, {"field": "purpose", "eq": "research"}]}
    )
    assert why_not(cond, {"team.size": 4}) == (
        "; not true: team.size gte 8 (it is 4), purpose eq 'research' (not given)"
    )
    assert why_not(cond, {"team.size": 9, "purpose": "research"}) == ""
