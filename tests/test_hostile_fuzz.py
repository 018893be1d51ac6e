"""Fuzzing hostile inputs (a few hundred examples here; benchmarks/fuzz.py runs 10,000 each)."""

from __future__ import annotations

from fuzz_hostile import (
    BASE_RULE,
    READERS,
    SPECIAL_KINDS,
    alias_documents,
    check_alias_document,
    check_escaped_profile,
    check_escaped_rule,
    check_long_number,
    check_special_file,
    escaped_text,
    long_numbers,
)
from fuzz_strategies import near_valid_profiles
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

SETTINGS = settings(max_examples=120, deadline=None, suppress_health_check=list(HealthCheck))


@SETTINGS
@given(alias_documents)
def test_recursive_and_expanding_aliases(text: str) -> None:
    check_alias_document(text)


@SETTINGS
@given(st.sampled_from(SPECIAL_KINDS), st.sampled_from(READERS), st.binary(max_size=200))
def test_special_files(kind: str, reader: str, payload: bytes) -> None:
    check_special_file(kind, reader, payload)


@SETTINGS
@given(long_numbers)
def test_long_numeric_strings(text: str) -> None:
    check_long_number(text)


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(near_valid_profiles, st.lists(escaped_text, min_size=1, max_size=4))
def test_escape_sequences_in_profiles(data: dict, texts: list[str]) -> None:
    check_escaped_profile(data, texts)


@SETTINGS
@given(st.lists(escaped_text, min_size=1, max_size=4))
def test_escape_sequences_in_rules(texts: list[str]) -> None:
    check_escaped_rule(BASE_RULE, texts)
