"""What an evidence entry's ``ref`` may cite: a claim id of docs/sources.md (the first
column of its tables) or ``PKG:<name>``, an entry of the package-health snapshot; and the
links an entry that gives a ``ref`` may show: those its claim's row lists (for a package,
its PyPI page)."""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from advisor.io.safe_yaml import read_text_file

_ID_CELL = re.compile(r"^\| ([A-Z][A-Z0-9-]*) \|", re.M)
_URL = re.compile(r"https?://[^\s|;<>()\[\]`]+")


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


def _same_page(url: str) -> str:
    """A link compared as its page: no fragment, no trailing slash or punctuation."""
    return url.split("#", 1)[0].rstrip(".,").rstrip("/")


def defined_links(text: str) -> dict[str, frozenset[str]]:
    """For each claim id of sources.md, the links its table row gives."""
    links: dict[str, frozenset[str]] = {}
    for line in text.splitlines():
        if match := _ID_CELL.match(line):
            found = frozenset(_same_page(u) for u in _URL.findall(line))
            links[match[1]] = links.get(match[1], frozenset()) | found
    return links


@lru_cache(maxsize=4)
def load_source_links(path: Path | None = None) -> dict[str, frozenset[str]]:
    """The links docs/sources.md gives for each claim id."""
    return defined_links(read_text_file(path or sources_file()))


def url_problem(ref: str, url: str, links: dict[str, frozenset[str]]) -> str | None:
    """Why ``url`` is not a link of the claim ``ref`` names (None: it is), so that an entry
    cannot lend a real claim id to a page docs/sources.md does not list for it."""
    if ref.startswith("PKG:"):
        allowed = frozenset({f"https://pypi.org/project/{ref[4:]}"})
    else:
        allowed = links.get(ref, frozenset())
    if _same_page(url) in allowed:
        return None
    return f"{url} is not a link docs/sources.md gives for {ref}"
