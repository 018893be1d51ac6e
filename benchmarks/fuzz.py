"""Long fuzz run: 10,000 examples per target (CI runs a few hundred in tests/test_fuzz.py).

Usage: python benchmarks/fuzz.py [--examples N]
Prints, per target, how many inputs were tried, accepted and rejected with an InputError.
Any other exception fails the run with hypothesis's minimal failing example.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

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


def run(examples: int, only: list[str] | None = None) -> None:
    counts: Counter[str] = Counter()
    opts = settings(
        max_examples=examples,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )

    @opts
    @given(profile_dicts)
    def profiles(data: dict) -> None:
        counts["profile " + ("accepted" if check_profile_dict(data) else "rejected")] += 1

    @opts
    @given(near_valid_profiles)
    def near(data: dict) -> None:
        counts["near-valid " + ("accepted" if check_profile_dict(data) else "rejected")] += 1

    @opts
    @given(near_valid_conditions)
    def near_conds(data: object) -> None:
        counts["near-valid condition " + ("accepted" if check_condition(data) else "rejected")] += 1

    @opts
    @given(conditions)
    def conds(data: object) -> None:
        counts["condition " + ("accepted" if check_condition(data) else "rejected")] += 1

    @opts
    @given(st.text(max_size=500))
    def yaml_text(text: str) -> None:
        counts["yaml text " + ("accepted" if check_yaml_text(text) else "rejected")] += 1

    print(f"{'target':<22} {'tried':>7} {'accepted':>9} {'rejected':>9} {'seconds':>8}")

    @opts
    @given(answer_lines)
    def answers(lines: list[str]) -> None:
        counts["questionnaire " + ("accepted" if check_answers(lines) else "rejected")] += 1

    @opts
    @given(alias_documents)
    def aliases(text: str) -> None:
        counts[
            "recursive aliases " + ("accepted" if check_alias_document(text) else "rejected")
        ] += 1

    @opts
    @given(st.sampled_from(SPECIAL_KINDS), st.sampled_from(READERS), st.binary(max_size=200))
    def special(kind: str, reader: str, payload: bytes) -> None:
        ok = check_special_file(kind, reader, payload)
        counts["special files " + ("accepted" if ok else "rejected")] += 1

    @opts
    @given(long_numbers)
    def numbers(text: str) -> None:
        counts["long numbers " + ("accepted" if check_long_number(text) else "rejected")] += 1

    @opts
    @given(near_valid_profiles, st.lists(escaped_text, min_size=1, max_size=4))
    def escaped_profiles(data: dict, texts: list[str]) -> None:
        ok = check_escaped_profile(data, texts)
        counts["escapes in profiles " + ("accepted" if ok else "rejected")] += 1

    @opts
    @given(st.lists(escaped_text, min_size=1, max_size=4))
    def escaped_rules(texts: list[str]) -> None:
        ok = check_escaped_rule(BASE_RULE, texts)
        counts["escapes in rules " + ("accepted" if ok else "rejected")] += 1

    targets = (
        ("profile", profiles),
        ("near-valid", near),
        ("condition", conds),
        ("near-valid condition", near_conds),
        ("yaml text", yaml_text),
        ("questionnaire", answers),
        ("recursive aliases", aliases),
        ("special files", special),
        ("long numbers", numbers),
        ("escapes in profiles", escaped_profiles),
        ("escapes in rules", escaped_rules),
    )
    for name, target in targets:
        if only and name not in only:
            continue
        start = time.perf_counter()
        target()
        secs = time.perf_counter() - start
        acc, rej = counts[f"{name} accepted"], counts[f"{name} rejected"]
        tried = acc + rej
        print(f"{name:<22} {tried:>7} {acc:>9} {rej:>9} {secs:>8.1f}")
    print("no exception other than InputError/ConditionError escaped")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--examples", type=int, default=10_000)
    parser.add_argument("--only", action="append", help="run only this target (repeatable)")
    args = parser.parse_args()
    run(args.examples, args.only)
