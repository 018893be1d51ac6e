"""What the probes may trust on disk: private folders and files, and cached runs of a sane shape.

A cache folder (or torch.compile's Inductor folder, whose artefacts are code that is later
loaded) is trusted only if the current user owns it and neither group nor others can
write it; a file likewise. A cached run is used only if every value has the shape and
range a real run produces: statuses ``ok`` or ``skipped`` (failed runs are never
cached), finite medians from 1e-12 to 1e15, mappings where mappings belong,
bounded strings and lists, and a creation time that is not in the future.
"""

from __future__ import annotations

import math
import os
import stat
from datetime import datetime, timezone
from pathlib import Path
from typing import IO, Any

from probes.run.consistency import (
    comparison_agrees,
    comparisons_match_run,
    probes_match_run,
    rate_matches_time,
)

MAX_NUMBER = 1e18  # any number anywhere in a cached run
MAX_MEDIAN = 1e15  # a metric's median (GFLOP/s, seconds, ratios...)
# ... and its floor: no real timing, rate or ratio is smaller, and the reports divide by
# medians (a spread, an MFU, a share of the best rate): 5e-324 had made them inf
MIN_MEDIAN = 1e-12
MAX_TEXT = 4000
MAX_ITEMS = 2000
MAX_DEPTH = 8
CACHED_STATUSES = ("ok", "skipped")
_SIZES = ("n", "size", "batch")  # parameters the reports read as numbers
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
    if not _typed(run, {"level": (str,), "frameworks": (list,), "cache": (dict,)}):
        return False
    if not all(isinstance(f, str) for f in run.get("frameworks", [])):
        return False
    if not all(_valid_probe(p) for p in probes):
        return False
    comparisons = run.get("comparisons", [])
    if not isinstance(comparisons, list) or not all(_valid_comparison(c) for c in comparisons):
        return False
    if not (_valid_environment(run["environment"]) and _bounded(run, 0)):
        return False
    return comparisons_match_run(run) and probes_match_run(run)


_NUMBER_OR_NONE = ("number", None)
# The nested keys the reports read, with the type each must have (a missing key is fine
# where the reports have a default, see ``_REQUIRED``).
_ENVIRONMENT = {
    "os": (str,),
    "python": (str,),
    "cpu": (dict,),
    "memory_gb": _NUMBER_OR_NONE,
    "frameworks": (dict,),
    "accelerator": (dict,),
    "threads": (dict, int),
    "env_vars": (dict,),
    "benchmark_index": ("number",),
    "noisy": (bool,),
    "warnings": (list,),
    "interpreters": (list,),
    "load": (dict, None),
}
_REQUIRED = ("os", "python", "cpu", "frameworks", "accelerator", "warnings")
_FRAMEWORK = {
    "installed": (bool,),
    "version": (str, None),
    "devices": (list,),
    "probed": (bool,),
    "import_s": _NUMBER_OR_NONE,
}
_COMPARISON = {
    "probe": (str,),
    "metric": (str,),
    "numerator": (str,),
    "denominator": (str,),
    "ratio": _NUMBER_OR_NONE,
    "interval": (list, None),
    "round_ratios": (list,),
}


def _typed(data: Any, types: dict[str, tuple[Any, ...]], required: tuple[str, ...] = ()) -> bool:
    """Whether ``data`` is a mapping whose keys in ``types`` have one of their types."""
    if not isinstance(data, dict) or any(k not in data for k in required):
        return False
    for key, allowed in types.items():
        if key not in data:
            continue
        value = data[key]
        ok = any(
            (t is None and value is None)
            or (t == "number" and _number(value))
            or (
                isinstance(t, type)
                and isinstance(value, t)
                and not (t is int and isinstance(value, bool))
            )
            for t in allowed
        )
        if not ok:
            return False
    return True


def _valid_environment(env: Any) -> bool:
    """The environment's nested shape, as the reports read it."""
    if not _typed(env, _ENVIRONMENT, _REQUIRED):
        return False
    frameworks, accelerator = env["frameworks"], env["accelerator"]
    if not all(_typed(f, _FRAMEWORK, ("installed",)) for f in frameworks.values()):
        return False
    if not all(isinstance(d, dict) for f in frameworks.values() for d in f.get("devices", [])):
        return False
    names = accelerator.get("names", [])
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        return False
    if not isinstance(accelerator.get("kind", ""), str) or not _number(accelerator.get("count", 0)):
        return False
    threads = env.get("threads", {})
    if isinstance(threads, dict) and not all(
        isinstance(v, dict) if k in frameworks else _number(v) for k, v in threads.items()
    ):
        return False  # a framework's threads are a mapping (intra_op, inter_op, ...)
    if not _valid_detail(env.get("benchmark_index_detail")):
        return False
    interpreters = env.get("interpreters", [])
    if not all(_typed(i, _INTERPRETER, ("path",)) for i in interpreters):
        return False
    if not all(
        isinstance(v, (str, type(None)))
        for i in interpreters
        for v in i.get("frameworks", {}).values()
    ):
        return False
    return all(isinstance(w, str) for w in env["warnings"]) and all(
        isinstance(v, str) for v in env.get("env_vars", {}).values()
    )


_INTERPRETER = {"path": (str,), "version": (str,), "numpy": (str, None), "frameworks": (dict,)}


def _valid_detail(detail: Any) -> bool:
    """The benchmark index's detail: a unit and the before/after measurements."""
    if not _typed(detail, {"unit": (str,)}, ("unit", "before", "after")):
        return False
    return all(_typed(detail[k], {"median": ("number",)}, ("median",)) for k in ("before", "after"))


def _valid_comparison(comparison: Any) -> bool:
    required = ("probe", "metric", "numerator", "denominator")
    if not _typed(comparison, _COMPARISON, required):
        return False
    for key in ("confidence", "threshold"):  # shares the report prints as percentages
        if key in comparison and not (_number(comparison[key]) and 0 <= comparison[key] <= 1):
            return False
    interval = comparison.get("interval")
    if interval is not None and (len(interval) != 2 or not all(_number(v) for v in interval)):
        return False
    if not all(_number(v) for v in comparison.get("round_ratios", [])):
        return False
    return comparison_agrees(comparison)


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
    params = probe.get("params", {})
    if not isinstance(params, dict):
        return False
    if any(k in params and params[k] is not None and not _number(params[k]) for k in _SIZES):
        return False
    metrics = probe.get("metrics")
    if not isinstance(metrics, dict) or not _valid_check(probe.get("check")):
        return False
    noisy = probe.get("noisy_metrics", [])
    if not isinstance(noisy, list) or not all(isinstance(n, str) for n in noisy):
        return False
    return all(_valid_metric(m) for m in metrics.values()) and rate_matches_time(probe)


_CHECK = {"name": (str,), "reference": (str,), "max_rel_diff": _NUMBER_OR_NONE, "agrees": (bool,)}


def _valid_check(check: Any) -> bool:
    """A probe's cross-framework check: absent, or a named mapping of the reported keys."""
    return check is None or _typed(check, _CHECK, ("name",))


def _valid_metric(metric: Any) -> bool:
    if not isinstance(metric, dict):
        return False
    if not _in_range(metric.get("median"), positive=True):
        return False
    iqr = metric.get("iqr", 0.0)
    if iqr is not None and not _in_range(iqr):
        return False
    n = metric.get("n", 1)
    if n is not None and (isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= 10**7):
        return False
    return isinstance(metric.get("unit", ""), str)


def _in_range(value: Any, *, positive: bool = False) -> bool:
    """A median (at least ``MIN_MEDIAN``: no real timing or rate is zero) or a spread (from
    0), finite and at most ``MAX_MEDIAN``."""
    if not _number(value):
        return False
    low_ok = float(value) >= MIN_MEDIAN if positive else float(value) >= 0
    return low_ok and float(value) <= MAX_MEDIAN


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


def clean_env(event: dict[str, Any]) -> dict[str, Any]:
    """A worker's ``env`` event with every value of the wrong shape dropped: a worker run
    by a foreign interpreter (--python) writes what it likes."""
    env = {k: v for k, v in event.items() if k != "event" and _bounded(v, 1)}
    if not _number(env.get("import_s", 0.0)):
        env.pop("import_s")
    if env.get("version") is not None and not isinstance(env["version"], str):
        env.pop("version")  # a version is text (the cache's trust rule says so too)
    if env.get("build") is not None and not isinstance(env["build"], (str, dict)):
        env.pop("build")
    devices = env.get("devices", [])
    if not isinstance(devices, list) or not all(_device(d) for d in devices):
        env["devices"] = []
    if "threads" in env and not isinstance(env["threads"], dict):
        env.pop("threads")  # a real worker reports a mapping (intra_op, inter_op, ...)
    return env


def clean_import_error(event: dict[str, Any]) -> dict[str, Any]:
    """A worker's ``import_error`` event as a real worker writes it: ``missing`` a boolean,
    the reason a text cut at MAX_TEXT characters (it lands in every probe's reason), the
    module a short text or nothing."""
    reason, module = event.get("reason"), event.get("module")
    clean: dict[str, Any] = {
        "event": "import_error",
        "missing": event.get("missing") is True,
        "reason": reason[:MAX_TEXT] if isinstance(reason, str) else "",
    }
    if isinstance(module, str) and len(module) <= MAX_TEXT:
        clean["module"] = module
    return clean


def _device(entry: Any) -> bool:
    """A device as a real worker reports it: a kind and a name (texts), an index if any."""
    return (
        isinstance(entry, dict)
        and isinstance(entry.get("kind"), str)
        and isinstance(entry.get("name"), str)
        and (entry.get("index") is None or _number(entry.get("index")))
    )


def valid_result(result: Any) -> bool:
    """Whether a worker's ``result`` event has the shape a real probe gives (finite, bounded
    metrics; mappings where mappings belong); anything else counts as a failed probe."""
    if not isinstance(result, dict) or result.get("status") not in (*CACHED_STATUSES, "failed"):
        return False
    params = result.get("params", {})
    if not isinstance(params, dict) or not _bounded(result, 1):
        return False
    if any(k in params and params[k] is not None and not _number(params[k]) for k in _SIZES):
        return False
    if not _typed(result, _RESULT) or not _worker_check(result.get("check")):
        return False
    noisy = result.get("noisy_metrics", [])
    if not isinstance(noisy, list) or not all(isinstance(n, str) for n in noisy):
        return False
    metrics = result.get("metrics", {})
    return isinstance(metrics, dict) and all(_valid_metric(m) for m in metrics.values())


# What a real worker's result holds besides its metrics (probes/suite/common.py, worker.py):
# the parent reads ``seconds`` as a number, so a text there had failed the framework's run.
_RESULT = {"reason": (str, None), "seconds": ("number",), "check": (dict, None)}
_WORKER_CHECK = {"name": (str,), "values": (list,), "scale": _NUMBER_OR_NONE}


def _worker_check(check: Any) -> bool:
    """A result's cross-framework check as a real worker writes it (probes/suite/data.py):
    a name, a list of values, a scale and a tolerance that are numbers (a NaN a worker
    computed arrives as null). A text tolerance or a check without a name had stopped
    `advisor probe` with a traceback."""
    if check is None:
        return True
    rtol = check.get("rtol")
    return _typed(check, _WORKER_CHECK, ("name",)) and (rtol is None or _in_range(rtol))


def open_regular(path: str | Path) -> IO[bytes] | None:
    """``path`` opened for reading if it is a regular file, else None: never through a
    link, never blocking in open(). A worker can write in the folder that holds its events
    and output, and anyone in a cache folder: either could swap a file for a link (to
    /dev/zero), a FIFO or a device."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(path, flags)
    except OSError:
        return None
    try:
        if stat.S_ISREG(os.fstat(fd).st_mode):
            return os.fdopen(fd, "rb")
    except OSError:
        pass
    os.close(fd)
    return None
