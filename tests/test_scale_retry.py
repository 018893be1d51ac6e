"""The PyTorch scale probe retries torchrun once when a rank dies, and says so."""

from __future__ import annotations

import time
from typing import Any

from probes.backends.scale_torch import run_with_retry

GOOD: dict[str, Any] = {
    "metrics": {"efficiency": {"median": 0.5, "iqr": 0.01, "n": 5, "unit": "ratio"}},
    "params": {"world_size": 2},
    "noisy_metrics": [],
}


def _launcher(*outcomes: tuple[dict[str, Any] | None, str]):
    calls: list[int] = []

    def launch() -> tuple[dict[str, Any] | None, str]:
        calls.append(1)
        data, why = outcomes[len(calls) - 1]
        return ({**data, "params": dict(data["params"])} if data else None), why

    return launch, calls


def test_a_rank_that_dies_once_is_retried_and_recorded() -> None:
    launch, calls = _launcher((None, "torchrun exited with status 1; log: SIGABRT"), (GOOD, ""))
    record = run_with_retry(launch, time.monotonic() + 120)
    assert len(calls) == 2 and record["status"] == "ok"
    assert record["params"]["attempts"] == 2
    assert "SIGABRT" in record["params"]["first_attempt_failed"]


def test_a_first_success_is_not_marked() -> None:
    launch, calls = _launcher((GOOD, ""))
    record = run_with_retry(launch, time.monotonic() + 120)
    assert len(calls) == 1 and "attempts" not in record["params"]


def test_two_failures_fail_naming_both() -> None:
    launch, calls = _launcher((None, "status 1: first"), (None, "status 1: second"))
    record = run_with_retry(launch, time.monotonic() + 120)
    assert len(calls) == 2 and record["status"] == "failed"
    assert "second" in record["reason"] and "first" in record["reason"]


def test_no_retry_after_a_timeout_or_without_time_left() -> None:
    launch, calls = _launcher((None, "torchrun did not finish in time; log: "), (GOOD, ""))
    assert run_with_retry(launch, time.monotonic() + 120)["status"] == "failed"
    assert len(calls) == 1
    launch, calls = _launcher((None, "status 1"), (GOOD, ""))
    assert run_with_retry(launch, time.monotonic() + 5)["status"] == "failed"
    assert len(calls) == 1
