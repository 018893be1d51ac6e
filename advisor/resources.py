"""Find the data that ships with the package: rules, templates, examples, docs/sources.md.

In a wheel they live in ``advisor/_data/``; in a source checkout they are the
top-level folders of the repository.
"""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def data_dir(name: str) -> Path:
    """Directory of bundled data ``name`` (rules, templates, examples or docs)."""
    for candidate in (_PACKAGE / "_data" / name, _PACKAGE.parent / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"bundled data folder '{name}' is missing from the installation")
