"""Cached probe runs, keyed by machine, interpreters, framework versions, catalog and level.

Files live in $ADVISOR_CACHE_DIR, else $XDG_CACHE_HOME/advisor, else ~/.cache/advisor;
the folder is created 0700 and files are written 0600, atomically (temp file + rename).
A file that cannot be read, parsed or trusted (see probes.run.trust: owned by this user,
not writable by others, in such a folder, and of a sane shape) is ignored, and the next
run replaces it; in a folder that is not private nothing is read or written.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import stat
import tempfile
from collections.abc import Mapping
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from probes import PROBE_VERSION, catalog
from probes.env.host import accelerator_hints, cpuinfo, env_vars, memory_gb, os_info
from probes.records import ProbeRun
from probes.run import trust

CACHE_ENV = "ADVISOR_CACHE_DIR"
FORMAT = 1
MAX_BYTES = 1024 * 1024  # a real standard run is under 40 KB; bounds what a report makes of it


def cache_dir() -> Path:
    """The advisor's cache folder (not created here)."""
    explicit = os.environ.get(CACHE_ENV, "").strip()
    if explicit:
        return Path(explicit).expanduser()
    xdg = os.environ.get("XDG_CACHE_HOME", "").strip()
    base = Path(xdg).expanduser() if xdg else Path.home() / ".cache"
    return base / "advisor"


def ensure_dir(path: Path) -> Path:
    """Create the cache folder readable by its owner only."""
    if not path.is_dir():
        path.mkdir(mode=0o700, parents=True, exist_ok=True)
        os.chmod(path, 0o700)
    return path


def cache_key(
    level: str,
    frameworks: list[str],
    versions: Mapping[str, str | None],
    workload: Mapping[str, Any] | None,
    interpreters: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """Everything a cached figure depends on.

    ``interpreters`` maps each framework to the interpreter its worker runs in (path,
    Python version, NumPy); the probe catalog and the measuring code enter through
    ``catalog.fingerprint()``, so a changed probe never reuses old figures.
    """
    import platform

    cpu = cpuinfo()
    key: dict[str, Any] = {
        "format": FORMAT,
        "probe_version": PROBE_VERSION,
        "catalog": catalog.fingerprint(),
        "level": level,
        "frameworks": sorted(frameworks),
        "versions": dict(sorted(versions.items())),
        "machine": {
            "node": platform.node(),
            "cpu": cpu["model"],
            "flags": cpu["flags"],
            "cores": cpu["cores"],
            "logical_cpus": cpu["logical_cpus"],
            "available_cpus": cpu["available_cpus"],
            "memory_gb": memory_gb(),
            "os": os_info()["platform"],
            "python": platform.python_version(),
            "accelerators": accelerator_hints(),
        },
        "env": env_vars(),
    }
    if interpreters:
        key["interpreters"] = dict(sorted(interpreters.items()))
    if level != "quick" and workload:
        key["workload"] = dict(sorted(workload.items()))
    return key


def fingerprint(key: Mapping[str, Any]) -> str:
    return hashlib.sha256(json.dumps(key, sort_keys=True, default=str).encode()).hexdigest()


def cache_path(key: Mapping[str, Any], directory: Path | None = None) -> Path:
    return (directory or cache_dir()) / f"probes-{key['level']}-{fingerprint(key)[:20]}.json"


_UNREAD = object()


def read_private_json(path: Path) -> Any:
    """The JSON in ``path`` if it is a private regular file of at most MAX_BYTES (owned by
    this user, not writable by others); ``_UNREAD`` otherwise, or when it is unreadable,
    corrupted or absurdly nested. Opened without following a link and without blocking,
    so a FIFO put in the folder is refused, not waited on."""
    handle = trust.open_regular(path)
    if handle is None:
        return _UNREAD
    with handle:
        try:
            info = os.fstat(handle.fileno())
            if info.st_size > MAX_BYTES:
                return _UNREAD
            if hasattr(os, "getuid") and info.st_uid != os.getuid():
                return _UNREAD
            if info.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
                return _UNREAD
            return json.loads(handle.read(MAX_BYTES + 1).decode("utf-8"))
        except (OSError, ValueError, UnicodeDecodeError, RecursionError):
            return _UNREAD  # unreadable, corrupted or absurdly nested: rebuilt


def load(path: Path, key: Mapping[str, Any]) -> tuple[dict[str, Any], str] | None:
    """(run, created) from a trustworthy cache file for ``key``; None otherwise."""
    if trust.untrusted(path.parent, directory=True):
        return None  # a shared or foreign folder: nothing in it is used
    data = read_private_json(path)
    if data is _UNREAD:
        return None
    if not _valid(data, key) or not trust.valid_run(data.get("run"), data.get("created")):
        return None
    try:  # read back through the records a live run is built from: a live run's every key
        run = ProbeRun.from_json(data["run"]).to_json()
    except (TypeError, ValueError, KeyError, IndexError):
        return None
    return run, data["created"]


def _valid(data: Any, key: Mapping[str, Any]) -> bool:
    if not isinstance(data, dict) or data.get("key") != json.loads(json.dumps(key, default=str)):
        return False
    run = data.get("run")
    if not isinstance(run, dict) or not isinstance(data.get("created"), str):
        return False
    try:
        datetime.fromisoformat(data["created"])
    except ValueError:
        return False
    probes = run.get("probes")
    if not isinstance(probes, list) or not isinstance(run.get("environment"), dict):
        return False
    for probe in probes:
        if not isinstance(probe, dict) or not isinstance(probe.get("metrics"), dict):
            return False
        if not all(isinstance(probe.get(k), str) for k in ("id", "framework", "status")):
            return False
        for m in probe["metrics"].values():
            if not isinstance(m, dict) or not isinstance(m.get("median"), (int, float)):
                return False
    return True


def save(path: Path, key: Mapping[str, Any], run: Mapping[str, Any], created: str) -> None:
    """Write atomically, owner-only; raises OSError on failure."""
    ensure_dir(path.parent)
    reason = trust.untrusted(path.parent, directory=True)
    if reason:
        raise OSError(f"the cache folder {path.parent} is not private ({reason}); not writing")
    text = json.dumps({"key": key, "created": created, "run": run}, indent=1, default=str)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, 0o600)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


class InOurWay(OSError):
    """Something that is not a cached run holds a cache file's name."""


def discard(path: Path) -> None:
    """Remove an older cached run under this key, so that the next run measures again; a
    file the cache folder's owner does not control is left (raises OSError on failure)."""
    if path.is_symlink() or not path.exists():
        return
    if not path.is_file():  # a folder or a FIFO: nothing the cache wrote, and never read
        raise InOurWay(f"{path} is not a cached run (not a regular file); remove it")
    if trust.untrusted(path.parent, directory=True):
        raise OSError(f"the cache folder {path.parent} is not private; not removing {path.name}")
    path.unlink()


def now_iso() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def age_seconds(created: str) -> float | None:
    """How long ago ``created`` was, never below 0: a run the cache accepts may be dated up
    to a few minutes ahead (clock skew, trust.CLOCK_SKEW_SECONDS); it is then 'just made'."""
    try:
        then = datetime.fromisoformat(created)
    except ValueError:
        return None
    if then.tzinfo is None:
        then = then.replace(tzinfo=timezone.utc)
    return max(0.0, round((datetime.now(timezone.utc) - then).total_seconds(), 1))
