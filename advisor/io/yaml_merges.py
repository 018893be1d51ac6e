"""YAML's ``<<`` merges, for line numbers: the mappings a merge brings, where what it
brings lands in the loaded data, and a key's dotted path for a message."""

from __future__ import annotations

from typing import Any

import yaml

from advisor.io.yaml_guard import MERGE

PathKey = tuple[Any, ...]
FIELD_PART = 120  # characters of each part of a path named in a message


def merge_sources(value: yaml.Node) -> list[tuple[tuple[int, ...], yaml.MappingNode]] | None:
    """The mappings a merge value brings in, each with its position as written: one
    mapping (``()``), or a list of mappings (``(0,)``, ``(1,)``, ...); None when it holds
    anything else, which YAML cannot merge."""
    items: list[tuple[tuple[int, ...], Any]] = (
        [((i,), m) for i, m in enumerate(value.value)]
        if isinstance(value, yaml.SequenceNode)
        else [((), value)]
    )
    return items if all(isinstance(m, yaml.MappingNode) for _, m in items) else None


def landing(written: PathKey, landed: dict[PathKey, PathKey | None]) -> PathKey | None:
    """Where the loaded data holds what ``written`` names (a path as written, stepping
    into merges through ``MERGE``), or None when a key beside a merge overrides it on the
    way. ``landed`` maps each merged key's written path to where it lands (None:
    overridden)."""
    where: PathKey = ()
    steps = iter(written)
    for step in steps:
        if step is not MERGE:
            where = (*where, step)
            continue
        step = next(steps, None)
        at = (step,) if isinstance(step, int) else ()  # a list of merged mappings
        key = next(steps, None) if at else step
        lands = landed.get((*where, MERGE, *at, key))
        if lands is None:
            return None
        where = lands
    return where


def field_path(loc: tuple[Any, ...], cut: int | None = None) -> str:
    """A path for an error: a list position counted from 1 in brackets, a key after a dot
    (``("when", "all", 1, "eq")`` -> ``when.all[2].eq``), each key cut at ``cut``
    characters; a key that looks like a number stays a key (``deployment.0``), since only a
    list's position is an int."""
    out = ""
    for part in loc:
        if isinstance(part, int) and not isinstance(part, bool):
            out += f"[{part + 1}]"
        else:
            out += ("." if out else "") + str(part)[:cut]
    return out


def field_name(where: PathKey, key: Any) -> str:
    """A key's path for a message, each part cut short: built only when an error is
    raised, since joining every key's whole path under a long key costs time in proportion
    to the keys times the key's length."""
    return field_path((*where, key), FIELD_PART)
