"""Building probe records in the parent, and the one-line progress message for each."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

from probes import catalog
from probes.records import ProbeRecord

Progress = Callable[[str], None]


def settled(
    probe: str,
    framework: str,
    status: str,
    reason: str | None = None,
    seconds: float = 0.0,
    params: dict[str, Any] | None = None,
) -> ProbeRecord:
    """A record decided without a result from the worker (skipped, failed, timeout)."""
    return ProbeRecord(
        probe, framework, status, reason, params=params or {}, seconds=round(float(seconds), 3)
    )


def from_worker(probe: str, framework: str, result: dict[str, Any]) -> ProbeRecord:
    """A worker's result event as a record; anything malformed becomes 'failed' or is dropped."""
    record = ProbeRecord.from_json({**result, "id": probe, "framework": framework})
    record.seconds = round(record.seconds, 3)
    return record


def announce(say: Progress, record: ProbeRecord) -> None:
    head = f"{record.framework} {record.id}: {record.status}"
    if record.ok:
        name = catalog.spec(record.id).headline if record.id in catalog.BY_ID else ""
        m = record.metrics.get(name)
        if m:
            head += f", {name} {m.median:.4g} {m.unit}"
        if record.noisy:
            head += " (noisy)"
    elif record.reason:
        head += f" ({_short(record.reason)})"
    say(f"probe {head} [{record.seconds:.1f} s]")


def _short(text: str, limit: int = 140) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def safe(progress: Progress | None) -> Progress:
    """A progress callback that never raises into the run."""

    def say(message: str) -> None:
        if progress is None:
            return
        with contextlib.suppress(Exception):
            progress(message)

    return say
