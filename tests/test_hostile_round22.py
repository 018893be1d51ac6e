"""Red-team round 22: a worker's round errors are bounded and end its rounds; numbers that
read as NaN, infinity or a silent 0 are refused in rule literals and facts; YAML keys that
underflow compare as loaded."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from hostile_support import fake_interpreter, run

from advisor.decide.conditions import ConditionError, parse_condition
from advisor.io.safe_yaml import load_yaml_text
from advisor.model.errors import InputError
from advisor.model.facts import Facts

ROUND = """
time.sleep(0.9)
emit(json.dumps({"event": "round", "kernel": "matmul", "error": "E" * 500000}))
"""


@pytest.mark.skipif(os.name != "posix", reason="a fake interpreter script needs a shebang")
def test_a_worker_that_answers_rounds_with_errors_is_asked_once_and_its_error_bounded(
    tmp_path: Path,
) -> None:
    fake = fake_interpreter(tmp_path, ROUND)
    env = {"ADVISOR_PROBE_TIMEOUT": "1", "ADVISOR_CACHE_DIR": str(tmp_path / "cache")}
    start = time.monotonic()
    result = run("probe", "--python", str(fake), "--format", "json", cwd=tmp_path, env=env)
    assert result.code == 0, result.err
    assert time.monotonic() - start < 30  # every round had been asked, 0.9 s each
    assert len(result.out) < 100_000  # the 500,000-character error, clipped once


@pytest.mark.parametrize("literal", ["nan", "1e999", "-inf", "1.0e-400", "1E-400"])
def test_a_fact_literal_that_is_not_a_finite_nonzero_number_is_refused(literal: str) -> None:
    for op in ("in", "gte"):
        value = [literal, 2.1] if op == "in" else literal
        with pytest.raises(ConditionError):
            parse_condition({"field": "facts.jax_over_pytorch_train_step", op: value})


def test_facts_written_as_underflowing_text_are_refused_and_zero_stays_zero() -> None:
    with pytest.raises(ValueError, match="too small"):
        Facts.model_validate({"jax_over_pytorch_train_step": "1.0e-400"})
    assert Facts.model_validate({"jax_over_pytorch_train_step": "0e5"})


def test_an_underflowing_key_is_refused_as_a_number_key() -> None:
    # round 22 made it compare as loaded; round 23 refuses every key YAML reads as a number
    with pytest.raises(InputError, match="Keys should be strings") as info:
        load_yaml_text("a:\n  b: 1\n  1.0e-400: x\n")
    assert info.value.line == 3
    assert load_yaml_text('a:\n  "1.0e-400": x\n').data == {"a": {"1.0e-400": "x"}}
