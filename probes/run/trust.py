"""What the probes may trust on disk: private folders and files, and cached runs of a sane shape.

A cache folder (or torch.compile's Inductor folder, whose artefacts are code that is later
loaded) is trusted only if the current user owns it and neither group nor others can
write it; a file likewise. A cached run is used only if every value has the shape and
range a real run produces: statuses ``ok`` or ``skipped`` (failed runs are never
cached), finite non-negative medians below 1e15, mappings where mappings belong,
bounded strings and lists, and a creation time that is not in the future.
"""

from __future__ import annotations

import math
import os
import stat
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

MAX_NUMBER = 1e18  # any number anywhere in a cached run
MAX_MEDIAN = 1e15  # a metric's median (GFLOP/s, seconds, ratios...)
MAX_TEXT = 4000
MAX_ITEMS = 2000
MAX_DEPTH = 8
CACHED_STATUSES = ("ok", "skipped")
MAX_AGE_SECONDS = 10 * 365 * 86400
CLOCK_SKEW_SECONDS = 300


def untrusted(path: Path, *, directory: bool) -> str | None:
    """Why ``path`` must not be trusted (None when it may be): owner and write bits."""
    try:
        link = os.lstat(path)
        info = os.stat(path)
    except OSError as exc:
        return f"cannot inspect it ({exc.strerror or exc})"
    uid = os.getuid() if hasattr(os, "getuid") else None
    if directory and not stat.S_ISDIR(info.st_mode):
        return "it is not a folder"
    if not directory and not stat.S_ISREG(info.st_mode):
        return "it is not a regular file"
    if uid is not None and (info.st_uid != uid or link.st_uid != uid):
        return "another user owns it"
    if info.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        return "others can write to it"
    return None


def valid_run(run: Any, created: Any) -> bool:
    """True if a cached run has the shape and ranges a real run has."""
    if not isinstance(run, dict) or not _fresh(created):
        return False
    probes = run.get("probes")
    if not isinstance(probes, list) or not isinstance(run.get("environment"), dict):
        return False
    if not all(_valid_probe(p) for p in probes):
        return False
    comparisons = run.get("comparisons", [])
    if not isinstance(comparisons, list) or not all(isinstance(c, dict) for c in comparisons):
        return False
    return _bounded(run, 0)


def _fresh(created: Any) -> bool:
    if not isinstance(created, str) or len(created) > 64:
        return False
    try:
        then = datetime.fromisoformat(created)
    except ValueError:
        return False
    if then.tzinfo is None:
        then = then.replace(tzinfo=timezone.utc)
    age = (datetime.now(timezone.utc) - then).total_seconds()
    return -CLOCK_SKEW_SECONDS <= age <= MAX_AGE_SECONDS


def _valid_probe(probe: Any) -> bool:
    if not isinstance(probe, dict):
        return False
    if not all(isinstance(probe.get(k), str) for k in ("id", "framework", "status")):
        return False
    if probe["status"] not in CACHED_STATUSES:
        return False
    if not isinstance(probe.get("params", {}), dict):
        return False
    metrics = probe.get("metrics")
    if not isinstance(metrics, dict):
        return False
    return all(_valid_metric(m) for m in metrics.values())


def _valid_metric(metric: Any) -> bool:
    if not isinstance(metric, dict):
        return False
    if not _in_range(metric.get("median")):
        return False
    iqr = metric.get("iqr", 0.0)
    if iqr is not None and not _in_range(iqr):
        return False
    n = metric.get("n", 1)
    if n is not None and (isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= 10**7):
        return False
    return isinstance(metric.get("unit", ""), str)


def _in_range(value: Any) -> bool:
    """A median or spread: a finite number from 0 to ``MAX_MEDIAN``."""
    return _number(value) and 0 <= float(value) <= MAX_MEDIAN


def _number(value: Any) -> bool:
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return abs(value) <= MAX_NUMBER  # a 300-digit integer never reaches float()
    return isinstance(value, float) and math.isfinite(value) and abs(value) <= MAX_NUMBER


def _bounded(value: Any, depth: int) -> bool:
    """Every number finite and bounded, every text and container bounded, nesting shallow."""
    if depth > MAX_DEPTH:
        return False
    if value is None or isinstance(value, bool):
        return True
    if isinstance(value, (int, float)):
        return _number(value)
    if isinstance(value, str):
        return len(value) <= MAX_TEXT
    if isinstance(value, list):
        return len(value) <= MAX_ITEMS and all(_bounded(v, depth + 1) for v in value)
    if isinstance(value, dict):
        return len(value) <= MAX_ITEMS and all(
            isinstance(k, str) and len(k) <= MAX_TEXT and _bounded(v, depth + 1)
            for k, v in value.items()
        )
    return False
