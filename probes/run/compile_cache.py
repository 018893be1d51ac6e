"""torch.compile's on-disk cache: when a standard run may compile, and where the cache lives.

A first torch.compile on a small CPU takes tens of seconds to minutes (gcc compiles each
fused kernel), so the ``jit`` probe compiles at ``standard`` only when the cache is warm;
``full`` measures it cold and leaves the cache warm. The workload probe always compiles,
with the cache in the advisor's cache folder, so only the first run pays the cold cost.
Only private folders and markers are trusted (owned by this user, not writable by
others): Inductor's artefacts are code that is loaded later.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from pathlib import Path

from probes.env.folders import remove_tree
from probes.env.host import framework_version
from probes.records import ProbeRecord
from probes.run import cache, trust

COMPILE_MARKER = "torch-compile-warm.json"
TEMP_PREFIX = "advisor-inductor-"  # a throw-away Inductor folder (see discard)
WORKLOAD_MARKER = "torch-compile-workloads.json"
SKIP_REASON = (
    "torch.compile's compile cache is cold, and a first compile on CPU can take "
    "minutes; run `advisor probe --level full` once to measure it (that also warms "
    "the cache, so later standard runs include it)"
)


def plan(level: str) -> tuple[str, Path | None]:
    """('cold'|'warm'|'user'|'skip', TORCHINDUCTOR_CACHE_DIR for the child)."""
    user_dir = _user_dir()
    ours = cache.cache_dir() / "torchinductor"
    if not user_dir and not _private_or_new(ours):
        fresh = Path(tempfile.mkdtemp(prefix=TEMP_PREFIX))  # cold, but ours alone
        return ("cold" if level == "full" else "skip"), fresh
    warm = _is_warm(Path(user_dir) if user_dir else ours)
    if level == "full":
        if user_dir:
            return ("warm" if warm else "user"), None
        with contextlib.suppress(OSError):
            remove_tree(ours)  # a worker may have left a folder chain too deep for rmtree
            cache.ensure_dir(ours.parent)
            return "cold", ours
        return "cold", Path(tempfile.mkdtemp(prefix=TEMP_PREFIX))
    if not user_dir:
        with contextlib.suppress(OSError):
            cache.ensure_dir(ours.parent)
    if warm:
        return "warm", (None if user_dir else ours)
    return "skip", (None if user_dir else ours)


def discard(inductor_dir: str | None) -> None:
    """Remove a throw-away Inductor folder of ours (plan's fallback when our cache folder
    cannot be trusted); the user's folder and the advisor's cache stay."""
    if not inductor_dir:
        return
    folder = Path(inductor_dir)
    if folder.name.startswith(TEMP_PREFIX) and folder.parent == Path(tempfile.gettempdir()):
        remove_tree(folder)


def _user_dir() -> str | None:
    """$TORCHINDUCTOR_CACHE_DIR if it is private; a shared folder's artefacts are code, so
    a shared one is ignored (the child then gets a folder of ours)."""
    user_dir = os.environ.get("TORCHINDUCTOR_CACHE_DIR")
    return user_dir if user_dir and _private(Path(user_dir)) else None


def _private_or_new(folder: Path) -> bool:
    """The advisor's own Inductor folder may be used: its parent is private, and it is
    private too or does not exist yet."""
    if folder.parent.exists() and not _private(folder.parent):
        return False
    return not folder.exists() or _private(folder)


def _private(path: Path, *, directory: bool = True) -> bool:
    """Owned by this user and not writable by others (see probes.run.trust)."""
    return trust.untrusted(path, directory=directory) is None


def _is_warm(inductor_dir: Path) -> bool:
    marker = cache.cache_dir() / COMPILE_MARKER
    if not _private(marker, directory=False) or not _private(inductor_dir):
        return False
    data = cache.read_private_json(marker)  # at most 1 MB, no FIFO, no deep nesting
    return (
        isinstance(data, dict)
        and data.get("torch") == framework_version("pytorch")
        and data.get("inductor_dir") == str(inductor_dir)
        and inductor_dir.is_dir()
    )


def remember(record: ProbeRecord | None, inductor_dir: str | None) -> None:
    """After a successful full-level torch.compile, note that its cache is warm."""
    if record is None or not record.ok:
        return
    inductor_dir = _user_dir() or inductor_dir
    if not inductor_dir:
        return
    marker = cache.cache_dir() / COMPILE_MARKER
    text = json.dumps(
        {
            "torch": framework_version("pytorch"),
            "inductor_dir": str(inductor_dir),
            "created": cache.now_iso(),
        }
    )
    with contextlib.suppress(OSError):
        cache.ensure_dir(marker.parent)
        if not _private(marker.parent):
            return
        tmp = marker.with_name(f".{marker.name}.tmp")
        tmp.write_text(text, encoding="utf-8")
        os.chmod(tmp, 0o600)
        os.replace(tmp, marker)


def workload_key(hints: dict[str, object]) -> str:
    """What the workload probe compiles: torch version, family, dtype, batch."""
    return "/".join(
        str(v)
        for v in (
            framework_version("pytorch"),
            hints.get("model_family"),
            hints.get("dtype"),
            hints.get("batch_size"),
        )
    )


def workload_compiles(level: str, hints: dict[str, object]) -> bool:
    """Compile the workload with torch.compile? Always at full; at standard once warm."""
    if level == "full" or _user_dir():
        return True
    return workload_key(hints) in _warm_workloads()


def _warm_workloads() -> list[str]:
    marker = cache.cache_dir() / WORKLOAD_MARKER
    if not _private(marker.parent) or not _private(marker, directory=False):
        return []
    data = cache.read_private_json(marker)  # at most 1 MB, no FIFO, no deep nesting
    return [str(k) for k in data] if isinstance(data, list) else []


def remember_workload(record: ProbeRecord | None, hints: dict[str, object]) -> None:
    """After a compiled torch workload succeeded, later standard runs may compile it too."""
    if record is None or not record.ok or not record.params.get("compiled"):
        return
    keys = sorted({*_warm_workloads(), workload_key(hints)})
    marker = cache.cache_dir() / WORKLOAD_MARKER
    with contextlib.suppress(OSError):
        cache.ensure_dir(marker.parent)
        if not _private(marker.parent):
            return
        tmp = marker.with_name(f".{marker.name}.tmp")
        tmp.write_text(json.dumps(keys), encoding="utf-8")
        os.chmod(tmp, 0o600)
        os.replace(tmp, marker)
