"""Which files of a rule pack are read, and what a user pack may not hold.

Every entry that looks like part of a pack is read or refused, never skipped: a directory
or FIFO named like a rule file reaches the bounded reader, which refuses it.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable
from contextvars import ContextVar
from pathlib import Path
from typing import ParamSpec, TypeVar

from advisor.io.safe_read import path_kind, real_path
from advisor.model.errors import InputError

MAX_PACK_ENTRIES = 10_000  # entries of a pack folder, rule files or not (listed each load)


def _entries(directory: Path) -> list[Path]:
    """A folder's entries, sorted; a folder that cannot be listed, or holds more than
    ``MAX_PACK_ENTRIES`` entries, is a one-line error."""
    entries: list[Path] = []
    try:
        for entry in directory.iterdir():
            entries.append(entry)
            if len(entries) > MAX_PACK_ENTRIES:
                raise InputError(
                    f"the rule pack folder holds over {MAX_PACK_ENTRIES:,} entries; keep its "
                    "rule files in a folder of their own",
                    path=str(directory),
                )
    except OSError as exc:
        why = exc.strerror or type(exc).__name__
        raise InputError(f"cannot list this rule pack folder: {why}", path=str(directory)) from None
    return sorted(entries)


def rule_files(directory: Path) -> list[Path]:
    """The rule files of a pack: every *.yaml/*.yml entry except pack.yaml, sorted."""
    kind = path_kind(directory)
    if kind == "missing":
        raise InputError("no such rule pack directory", path=str(directory))
    if kind != "dir":
        return [directory]  # a single file: the bounded reader refuses anything irregular
    return [
        p for p in _entries(directory) if p.suffix in (".yaml", ".yml") and p.name != "pack.yaml"
    ]


def check_user_pack(directory: Path) -> None:
    """Refuse what a user pack could hold but the advisor would not read: its own
    pack.yaml (only the bundled pack's metadata counts), a rule file whose suffix is not
    lower case, and anything in data/ but consistency.yaml. Subfolders other than data/
    are the pack's own business (notes, tests): rule files are read from its top level."""
    if path_kind(directory) != "dir":
        return
    meta = directory / "pack.yaml"
    if os.path.lexists(meta):
        raise InputError(
            "a user rule pack has no pack.yaml: only the bundled pack's is read (frameworks, "
            "criteria, the decision model); move its rules into another file or remove it",
            path=str(meta),
        )
    for entry in _entries(directory):
        if entry.suffix.lower() in (".yaml", ".yml") and entry.suffix not in (".yaml", ".yml"):
            raise InputError(
                "rule files end in .yaml or .yml, in lower case; this one would be skipped",
                path=str(entry),
            )
        if entry.suffix in (".yaml", ".yml") and entry.name.startswith("."):
            raise InputError(
                "a hidden rule file: `ls` does not show it, yet the pack would read it (and "
                "its rules could veto a framework); rename it without the leading dot, or "
                "move it out of the pack",
                path=str(entry),
            )
    data = directory / "data"
    if path_kind(data) == "dir":
        for entry in _entries(data):  # a README or .DS_Store beside it is left alone
            looks_read = entry.suffix.lower() in (".yaml", ".yml")
            if looks_read and entry.name != "consistency.yaml":
                raise InputError(
                    "a user pack's data/ holds only consistency.yaml (the checks); the "
                    "advisor would not read this",
                    path=str(entry),
                )
    if not rule_files(directory) and not os.path.lexists(data / "consistency.yaml"):
        raise InputError(
            "this rule pack holds no rule file (*.yaml) at its top level and no "
            "data/consistency.yaml, so it would add nothing; rule files in subfolders are "
            "not read",
            path=str(directory),
        )


def user_packs(core: Path, extra: list[Path]) -> list[Path]:
    """The user packs to load: each checked (check_user_pack); the bundled pack named
    again (``--rules rules/``) is already loaded, so it is left out, not refused, and a
    pack named twice is loaded once."""
    out = []
    seen: set[Path] = set()
    for directory in extra:
        if path_kind(directory) == "dir" and real_path(directory) == real_path(core):
            continue
        if real_path(directory) in seen:  # the same pack named twice is loaded once
            continue
        seen.add(real_path(directory))
        check_user_pack(directory)
        out.append(directory)
    _check_pack_bounds(out)
    return out


MAX_PACK_BYTES = 5 * 1024 * 1024  # all user packs' files together: one file's own limit
MAX_PACK_FILES = 1000  # rule files in all user packs (the bundled pack has 13)


def _check_pack_bounds(packs: list[Path]) -> None:
    """Refuse user packs holding more than ``MAX_PACK_FILES`` rule files, or whose files
    hold more than ``MAX_PACK_BYTES``, all of them together (``--rules`` may be repeated),
    before any is parsed: each file is bounded alone, and each costs time and memory of its
    own however small it is."""
    count = total = 0
    for directory in packs:
        count += len(rule_files(directory))
        if count > MAX_PACK_FILES:
            raise InputError(
                f"the rule packs hold {count:,} rule files, over the {MAX_PACK_FILES:,} "
                "they may have together; merge them",
                path=str(directory),
            )
        for path in files_read(directory):
            try:
                size = os.stat(path).st_size
            except (OSError, ValueError):
                continue  # missing or odd: the bounded reader says so
            if size > MAX_PACK_BYTES:
                continue  # over one file's own limit: the bounded reader says it is too large
            total += size
            if total > MAX_PACK_BYTES:
                raise _over_total(directory)


def _over_total(path: Path) -> InputError:
    return InputError(
        f"the rule packs' files hold over {MAX_PACK_BYTES // (1024 * 1024)} MB together; "
        "split it or trim it",
        path=str(path),
    )


_P = ParamSpec("_P")
_R = TypeVar("_R")
_LEFT: ContextVar[list[int] | None] = ContextVar("pack_bytes_left", default=None)


def within_pack_budget(load: Callable[_P, _R]) -> Callable[_P, _R]:
    """Run a ruleset load with ``MAX_PACK_BYTES`` for all user packs' files as they are
    read, not only as sized before (a file in a synced folder may grow in between)."""

    @functools.wraps(load)
    def run(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        token = _LEFT.set([MAX_PACK_BYTES])
        try:
            return load(*args, **kwargs)
        finally:
            _LEFT.reset(token)

    return run


def charge_pack_read(path: Path, size: int) -> None:
    """Count ``size`` bytes of a user pack's file, read and not yet parsed, against the
    packs' total (outside a ``within_pack_budget`` load: only the file's own limit)."""
    left = _LEFT.get()
    if left is not None:
        left[0] -= size
        if left[0] < 0:
            raise _over_total(path)


def files_read(directory: Path) -> list[str]:
    """Every file a pack's loading reads (its rule files and data/consistency.yaml), for
    ``-o`` to keep clear of, links and all."""
    if path_kind(directory) != "dir":
        return [str(directory)]
    return [str(p) for p in (*rule_files(directory), directory / "data" / "consistency.yaml")]
