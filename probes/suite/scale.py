"""scale: a data-parallel step over every local device, through each framework's own engine."""

from __future__ import annotations

from typing import Any

from probes.suite.backend import Backend
from probes.suite.common import Context


def run(b: Backend, ctx: Context) -> dict[str, Any]:
    return b.scale(ctx)
