"""What an evidence entry's ``ref`` may cite: a claim id of docs/sources.md (the first
column of its tables) or ``PKG:<name>``, an entry of the package-health snapshot."""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from advisor.io.safe_yaml import read_text_file

_ID_CELL = re.compile(r"^\| ([A-Z][A-Z0-9-]*) \|", re.M)


def sources_file() -> Path:
    """docs/sources.md of the checkout, or its copy in an installed wheel."""
    from advisor.resources import data_dir

    return data_dir("docs") / "sources.md"


def defined_ids(text: str) -> set[str]:
    """The claim ids in the first column of the tables of sources.md."""
    return set(_ID_CELL.findall(text))


@lru_cache(maxsize=4)
def load_source_ids(path: Path | None = None) -> frozenset[str]:
    """The claim ids that docs/sources.md defines."""
    return frozenset(defined_ids(read_text_file(path or sources_file())))


def ref_problem(ref: str, ids: set[str] | frozenset[str], packages: set[str]) -> str | None:
    """Why ``ref`` cites nothing among the claim ``ids`` and snapshot ``packages`` (None: it
    resolves)."""
    if ref.startswith("PKG:"):
        return None if ref[4:] in packages else f"{ref} is not in the package-health snapshot"
    return None if ref in ids else f"{ref} is not a claim id defined in docs/sources.md"
