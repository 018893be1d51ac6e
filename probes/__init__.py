"""Measurements of PyTorch, JAX and TensorFlow on the machine in front of the user.

The parent side (this package's ``run_probes``, the environment, the cache) never
imports a framework: each framework runs in its own subprocess (``probes.worker``),
so a crash, a hang or a missing install becomes a probe status, not an exception.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

PROBE_VERSION = "1"
"""Bumped whenever a probe's method changes, so that old cached figures are not reused."""

__all__ = ["PROBE_VERSION", "run_probes"]


def run_probes(
    level: str,
    *,
    refresh: bool = False,
    workload: Mapping[str, Any] | None = None,
    progress: Callable[[str], None] | None = None,
    frameworks: Iterable[str] | None = None,
) -> dict[str, Any]:
    """Run the probes of ``level`` (quick, standard or full) and return a JSON-ready dict."""
    from probes.runner import run

    return run(level, refresh=refresh, workload=workload, progress=progress, frameworks=frameworks)
