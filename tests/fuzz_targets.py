"""The one catalog of fuzz targets: what is generated, and what must hold for it.

tests/test_fuzz.py runs each target for a few hundred examples in CI; benchmarks/fuzz.py
runs the same targets for 10,000 examples each and counts what was accepted. A target's
check returns True for an accepted input and False for one refused with the tool's own
input error; any other exception escapes and fails the run.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from fuzz_hostile import (
    BASE_RULE,
    READERS,
    SPECIAL_KINDS,
    alias_documents,
    any_month,
    check_alias_document,
    check_dated_rule,
    check_escaped_profile,
    check_escaped_rule,
    check_long_number,
    check_special_file,
    dated_holds,
    escaped_text,
    long_numbers,
)
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
from hypothesis.strategies import SearchStrategy


@dataclass(frozen=True)
class FuzzTarget:
    """One kind of hostile input: its strategies (one per argument) and its check."""

    name: str
    strategies: tuple[SearchStrategy[Any], ...]
    check: Callable[..., bool]
    ci_examples: int = 120
    # The hostile strategies generate large or heavily filtered data by design, so
    # hypothesis's health checks would only flag what they are meant to do.
    health_checks: bool = True


def _escaped_rule(texts: list[str]) -> bool:
    return check_escaped_rule(BASE_RULE, texts)


_ESCAPES = st.lists(escaped_text, min_size=1, max_size=4)

TARGETS: tuple[FuzzTarget, ...] = (
    FuzzTarget("profile", (profile_dicts,), check_profile_dict, 150),
    FuzzTarget("near-valid", (near_valid_profiles,), check_profile_dict, 150),
    FuzzTarget("condition", (conditions,), check_condition, 150),
    FuzzTarget("near-valid condition", (near_valid_conditions,), check_condition, 150),
    FuzzTarget("yaml text", (st.text(max_size=500),), check_yaml_text, 150),
    FuzzTarget("questionnaire", (answer_lines,), check_answers, 100),
    FuzzTarget("recursive aliases", (alias_documents,), check_alias_document, health_checks=False),
    FuzzTarget(
        "special files",
        (st.sampled_from(SPECIAL_KINDS), st.sampled_from(READERS), st.binary(max_size=200)),
        check_special_file,
        health_checks=False,
    ),
    FuzzTarget("long numbers", (long_numbers,), check_long_number, health_checks=False),
    FuzzTarget(
        "escapes in profiles",
        (near_valid_profiles, _ESCAPES),
        check_escaped_profile,
        60,
        health_checks=False,
    ),
    FuzzTarget("escapes in rules", (_ESCAPES,), _escaped_rule, health_checks=False),
    FuzzTarget("dated rules", (dated_holds, any_month), check_dated_rule, 150),
)


def run_target(target: FuzzTarget, examples: int, *, ci: bool = False) -> Counter[bool]:
    """Run ``target`` for ``examples`` hypothesis examples; count accepted (True) and refused.

    In CI (``ci=True``) hypothesis keeps its example database, so a failure replays first on
    the next run, and its health checks (but the one for slow data) stay on where the target
    allows; the long benchmark run turns both off.
    """
    verdicts: Counter[bool] = Counter()
    quiet = [HealthCheck.too_slow] if ci and target.health_checks else list(HealthCheck)
    extra: dict[str, Any] = {} if ci else {"database": None}

    @settings(max_examples=examples, deadline=None, suppress_health_check=quiet, **extra)
    @given(st.tuples(*target.strategies))
    def fuzz(args: tuple[Any, ...]) -> None:
        verdicts[bool(target.check(*args))] += 1

    fuzz()
    return verdicts
