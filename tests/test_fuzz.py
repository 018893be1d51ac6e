"""Fuzzing: no exception other than the tool's own input errors escapes the readers."""

from __future__ import annotations

from fuzz_strategies import (
    answer_lines,
    check_answers,
    check_condition,
    check_profile_dict,
    check_yaml_text,
    conditions,
    near_valid_conditions,
    near_valid_profiles,
    profile_dicts,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(profile_dicts)
def test_profile_dicts_validate_or_fail_cleanly(data: dict) -> None:
    check_profile_dict(data)


@SETTINGS
@given(near_valid_profiles)
def test_near_valid_profiles_validate_or_fail_cleanly(data: dict) -> None:
    check_profile_dict(data)


@SETTINGS
@given(conditions)
def test_conditions_parse_or_fail_cleanly(data: object) -> None:
    check_condition(data)


@SETTINGS
@given(st.text(max_size=300))
def test_yaml_text_reads_or_fails_cleanly(text: str) -> None:
    check_yaml_text(text)


@SETTINGS
@given(near_valid_conditions)
def test_near_valid_conditions_parse_or_fail_cleanly(data: object) -> None:
    check_condition(data)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(answer_lines)
def test_questionnaire_answers_give_a_profile_or_stop_cleanly(lines: list[str]) -> None:
    check_answers(lines)
