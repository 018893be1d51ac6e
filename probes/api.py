"""The probes' public interface: ``run_probes`` and the typed records of a run.

``run_probes`` returns the wire format (a JSON-ready dict); ``ProbeRun.from_json`` reads
it into typed records (ProbeRecord, Metric, Environment, Comparison).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from probes.env.interpreter import InterpreterError
from probes.records import Comparison, Environment, Metric, ProbeRecord, ProbeRun

__all__ = [
    "Comparison",
    "Environment",
    "InterpreterError",
    "Metric",
    "ProbeRecord",
    "ProbeRun",
    "run_probes",
    "run_probes_typed",
]


def run_probes(
    level: str,
    *,
    refresh: bool = False,
    workload: Mapping[str, Any] | None = None,
    progress: Callable[[str], None] | None = None,
    frameworks: Iterable[str] | None = None,
    python: Iterable[str] | str | None = None,
) -> dict[str, Any]:
    """Run the probes of ``level`` (quick, standard or full) and return a JSON-ready dict.

    ``python``: interpreters to run the framework workers in (the project's environment);
    a path that cannot run them raises ``InterpreterError`` (one-line message) when no
    other given path can.
    """
    from probes.run.orchestrate import run

    return run(
        level,
        refresh=refresh,
        workload=workload,
        progress=progress,
        frameworks=frameworks,
        python=python,
    )


def run_probes_typed(level: str, **kwargs: Any) -> ProbeRun:
    """``run_probes`` read back into typed records."""
    return ProbeRun.from_json(run_probes(level, **kwargs))
