"""Fuzzing: no exception other than the tool's own input errors escapes the readers.

Every target of tests/fuzz_targets.py (profiles, conditions, raw YAML, questionnaire
answers and the hostile inputs) runs here for a few hundred examples; benchmarks/fuzz.py
runs the same targets for 10,000 each.
"""

from __future__ import annotations

import pytest
from fuzz_targets import TARGETS, FuzzTarget, run_target


@pytest.mark.parametrize("target", TARGETS, ids=[t.name for t in TARGETS])
def test_fuzz_target_fails_only_cleanly(target: FuzzTarget) -> None:
    run_target(target, target.ci_examples, ci=True)
