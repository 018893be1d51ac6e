"""Measurements of PyTorch, JAX and TensorFlow on the machine in front of the user.

The parent side (``run_probes``, the environment, the cache) never imports a framework:
each framework runs in its own subprocess (``probes.run.worker``), so a crash, a hang or a
missing install becomes a probe status, not an exception. This package imports nothing
from the advisor. Layout: ``catalog`` (frameworks, probes, levels), ``api`` and
``records`` (the contract), ``run/`` (orchestration, workers, cache), ``measure/``
(timing and statistics), ``env/`` (host, load, interpreters), ``suite/`` (one module per
probe, written once) and ``backends/`` (each framework's operations).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

PROBE_VERSION = "2"
"""Kept for compatibility; the cache key also holds ``catalog.fingerprint()``."""

__all__ = ["PROBE_VERSION", "run_probes"]


def run_probes(
    level: str,
    *,
    refresh: bool = False,
    workload: Mapping[str, Any] | None = None,
    progress: Callable[[str], None] | None = None,
    frameworks: Iterable[str] | None = None,
    python: Iterable[str] | str | None = None,
) -> dict[str, Any]:
    """Run the probes of ``level`` (quick, standard or full) and return a JSON-ready dict."""
    from probes.api import run_probes as run

    return run(level, refresh=refresh, workload=workload, progress=progress,
               frameworks=frameworks, python=python)
