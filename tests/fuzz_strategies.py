"""Hypothesis strategies and targets shared by the fuzz tests and benchmarks/fuzz.py."""

from __future__ import annotations

import typing
from enum import Enum
from typing import Any

from hypothesis import strategies as st

from advisor.decide.conditions import (
    FACT_PATHS,
    OPERATORS,
    PROFILE_PATHS,
    ConditionError,
    build_context,
    parse_condition,
)
from advisor.io.safe_yaml import load_yaml_text
from advisor.io.yaml_dump import dump_yaml
from advisor.model.errors import InputError
from advisor.model.facts import Facts
from advisor.model.profile import Profile

PATH_PARTS = sorted({part for path in PROFILE_PATHS for part in path.split(".")})
ENUM_WORDS = ["research", "tpu", "mobile", "nvidia_gpu", "expert", "float32", "vision", "7B", "1e9"]

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**12), max_value=10**12),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=20),
    st.sampled_from(ENUM_WORDS),
)
keys = st.one_of(st.sampled_from(PATH_PARTS), st.text(min_size=1, max_size=12))
json_like = st.recursive(
    scalars,
    lambda children: st.one_of(
        st.lists(children, max_size=4), st.dictionaries(keys, children, max_size=5)
    ),
    max_leaves=25,
)
profile_dicts = st.dictionaries(keys, json_like, max_size=8)


def _valid_leaf(annotation: Any) -> st.SearchStrategy[Any]:
    if typing.get_origin(annotation) is list:
        item = typing.get_args(annotation)[0]
        if isinstance(item, type) and issubclass(item, Enum):
            return st.lists(st.sampled_from([m.value for m in item]), max_size=4, unique=True)
        return st.lists(st.sampled_from(["pytorch", "jax", "tensorflow", "x"]), max_size=3)
    if isinstance(annotation, type) and issubclass(annotation, Enum):
        return st.sampled_from([m.value for m in annotation])
    if annotation is bool:
        return st.booleans()
    if annotation is int:
        return st.integers(min_value=0, max_value=6)
    if annotation is float:
        return st.one_of(
            st.floats(min_value=1, max_value=1e13), st.sampled_from(["7B", "350M", "1.5e11"])
        )
    return st.text(max_size=30)


def _nest(flat: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for path, value in flat.items():
        *parents, leaf = path.split(".")
        node = out
        for part in parents:
            node = node.setdefault(part, {})
        node[leaf] = value
    return out


# Mostly valid profiles where any leaf may be replaced by junk: reaches the deep validators.
near_valid_profiles = st.fixed_dictionaries(
    {},
    optional={
        path: st.one_of(*[_valid_leaf(annotation)] * 8, scalars)
        for path, annotation in PROFILE_PATHS.items()
    },
).map(_nest)

condition_keys = st.sampled_from(["all", "any", "not", "field", *OPERATORS, "feild", "eqq"])
paths = st.one_of(st.sampled_from(sorted({**PROFILE_PATHS, **FACT_PATHS})), st.text(max_size=15))
conditions = st.recursive(
    st.one_of(
        st.fixed_dictionaries({"field": paths}).flatmap(
            lambda d: st.tuples(st.sampled_from(OPERATORS), json_like).map(
                lambda op_value: {**d, op_value[0]: op_value[1]}
            )
        ),
        json_like,
    ),
    lambda children: st.one_of(
        st.dictionaries(condition_keys, children, min_size=1, max_size=2),
        st.fixed_dictionaries({"all": st.lists(children, max_size=3)}),
        st.fixed_dictionaries({"any": st.lists(children, max_size=3)}),
        st.fixed_dictionaries({"not": children}),
    ),
    max_leaves=12,
)


def check_profile_dict(data: dict[str, Any]) -> bool:
    """Dump to YAML and load as a profile: a Profile or an InputError, nothing else."""
    from advisor.io.profiles import profile_from_document

    try:
        text = dump_yaml(data)
    except Exception:
        return False
    try:
        profile_from_document(load_yaml_text(text, "fuzz.yaml"))
    except InputError:
        return False
    return True


def check_condition(data: Any) -> bool:
    """Parse a condition; if it parses, it must evaluate to True, False or None."""
    try:
        condition = parse_condition(data)
    except ConditionError:
        return False
    result = condition.evaluate(build_context(Profile(), Facts()))
    assert result in (True, False, None)
    return True


def check_yaml_text(text: str) -> bool:
    """Arbitrary text through the YAML reader: data or an InputError."""
    try:
        load_yaml_text(text, "fuzz.yaml")
    except InputError:
        return False
    return True


def _comparison(path: str) -> st.SearchStrategy[dict[str, Any]]:
    annotation = {**PROFILE_PATHS, **FACT_PATHS}[path]
    leaf = _valid_leaf(typing.get_args(annotation)[0] if _is_optional(annotation) else annotation)
    value = st.one_of(leaf, st.lists(leaf, min_size=1, max_size=3), scalars)
    return st.tuples(st.sampled_from(OPERATORS), value).map(
        lambda op_value: {"field": path, op_value[0]: op_value[1]}
    )


def _is_optional(annotation: Any) -> bool:
    return type(None) in typing.get_args(annotation)


# Well-formed condition trees over real fields, with operators and values that may not fit.
near_valid_conditions = st.recursive(
    st.sampled_from(sorted({**PROFILE_PATHS, **FACT_PATHS})).flatmap(_comparison),
    lambda children: st.one_of(
        st.fixed_dictionaries({"all": st.lists(children, min_size=1, max_size=3)}),
        st.fixed_dictionaries({"any": st.lists(children, min_size=1, max_size=3)}),
        st.fixed_dictionaries({"not": children}),
    ),
    max_leaves=8,
)


# Lines a person might type at the questionnaire: numbers, ranges, names, help, back, junk.
answer_lines = st.lists(
    st.one_of(
        st.just(""),
        st.sampled_from(["?", "<", "y", "n", "none", "1", "2", "3,4", "2-4", "99", "-1", "7B"]),
        st.sampled_from(ENUM_WORDS),
        st.integers(min_value=-5, max_value=100).map(str),
        st.text(max_size=12).map(lambda t: t.replace("\n", " ").replace("\r", " ")),
    ),
    max_size=60,
)


def check_answers(lines: list[str]) -> bool:
    """Feed answers to the questionnaire: a valid Profile, or it stops cleanly."""
    import io

    from advisor.questionnaire import QuestionnaireStopped, Terminal, run_questionnaire

    # after the random answers, Enter keeps every remaining default and accepts the summary
    typed = "".join(f"{line}\n" for line in lines) + "\n" * 80
    terminal = Terminal(stdin=io.StringIO(typed), out=io.StringIO())
    try:
        profile = run_questionnaire(terminal=terminal)
    except QuestionnaireStopped:  # input ran out or the person cancelled
        return False
    assert isinstance(profile, Profile)
    Profile.model_validate(profile.model_dump(mode="json"))
    return True
