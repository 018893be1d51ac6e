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

from probes.api import run_probes

PROBE_VERSION = "2"
"""Kept for compatibility; the cache key also holds ``catalog.fingerprint()``."""

__all__ = ["PROBE_VERSION", "run_probes"]
