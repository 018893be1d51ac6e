"""The decision benchmark's cases: one YAML file per real project (benchmarks/cases/).

Each file is checked on load; a bad one gives one line naming file, line and field. The
split into dev and test is fixed by a hash of the id (SPLIT_RULE).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

FRAMEWORKS = ("pytorch", "jax", "tensorflow")
SPLIT_RULE = "test if int(sha256(id).hexdigest(), 16) % 3 == 0, else dev"


def split_of(case_id: str) -> str:
    """'test' or 'dev', fixed by a hash of the id (see SPLIT_RULE)."""
    return "test" if int(hashlib.sha256(case_id.encode()).hexdigest(), 16) % 3 == 0 else "dev"


@dataclass
class Case:
    id: str
    chosen: str
    acceptable: tuple[str, ...]
    profile: dict[str, Any]
    path: str
    lines: dict[tuple[Any, ...], int]
    split: str
    year: int = 0


class CaseError(Exception):
    """One problem with one input file, printed as a single line."""


def _key_lines(node: Any, prefix: tuple[Any, ...] = ()) -> dict[tuple[Any, ...], int]:
    """Line (1-based) of every mapping key path in a composed YAML node."""
    lines: dict[tuple[Any, ...], int] = {}
    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            path = (*prefix, key.value)
            lines[path] = key.start_mark.line + 1
            lines.update(_key_lines(value, path))
    return lines


def _line(lines: dict[tuple[Any, ...], int], loc: tuple[Any, ...]) -> int:
    return next((lines[loc[:i]] for i in range(len(loc), 0, -1) if loc[:i] in lines), 1)


_REQUIRED = {
    "id": str, "name": str, "year": int, "source": dict, "chosen": str, "acceptable": list,
    "description": str, "decisive_facts": list, "profile": dict,
}  # fmt: skip


def load_case(path: Path) -> Case:
    """Read and check one case file; raise CaseError naming file, line and field."""
    try:
        text = path.read_text(encoding="utf-8")
        data = yaml.safe_load(text)
        lines = _key_lines(yaml.compose(text))
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
        mark = getattr(exc, "problem_mark", None)
        where, why = (mark.line + 1, exc.problem) if mark else (1, exc)  # type: ignore[attr-defined]
        raise CaseError(f"{path}:{where}: cannot read: {' '.join(str(why).split())}") from None

    def bad(field: str, why: str) -> CaseError:
        return CaseError(f"{path}:{_line(lines, tuple(field.split('.')))}: {field}: {why}")

    if not isinstance(data, dict):
        raise CaseError(f"{path}:1: expected a mapping of case fields")
    for key in data:
        if key not in _REQUIRED:
            raise bad(str(key), f"unknown field (expected {', '.join(_REQUIRED)})")
    for key, kind in _REQUIRED.items():
        if key not in data:
            raise CaseError(f"{path}:1: {key}: missing")
        if not isinstance(data[key], kind) or (kind is str and not data[key].strip()):
            raise bad(key, f"expected a non-empty {kind.__name__}")
    if data["id"] != path.stem:
        raise bad("id", f"must equal the file name stem {path.stem!r}")
    if not 1990 <= data["year"] <= 2030:
        raise bad("year", "expected a year between 1990 and 2030")
    for key in ("url", "title", "publisher"):
        if not isinstance(data["source"].get(key), str) or not data["source"][key].strip():
            raise bad(f"source.{key}", "expected a non-empty string")
    if not data["source"]["url"].startswith(("https://", "http://")):
        raise bad("source.url", "expected an http(s) URL")
    if data["chosen"] not in FRAMEWORKS:
        raise bad("chosen", f"expected one of {', '.join(FRAMEWORKS)}")
    acceptable = data["acceptable"]
    if any(fw not in FRAMEWORKS for fw in acceptable) or data["chosen"] not in acceptable:
        raise bad("acceptable", "expected frameworks from the list, including the chosen one")
    if not data["decisive_facts"] or not all(isinstance(f, str) for f in data["decisive_facts"]):
        raise bad("decisive_facts", "expected a non-empty list of short phrases")
    fields = (data["id"], data["chosen"], tuple(acceptable), data["profile"], str(path), lines)
    return Case(*fields, split_of(data["id"]), data["year"])


def load_cases(directory: Path) -> tuple[list[Case], list[str]]:
    """All cases in a directory, and one error line per bad file."""
    cases, errors = [], []
    for path in sorted(directory.glob("*.yaml")):
        try:
            cases.append(load_case(path))
        except CaseError as exc:
            errors.append(str(exc))
    if not cases and not errors:
        errors.append(f"{directory}: no *.yaml case files")
    return cases, errors


def profile_error(case: Case, exc: ValueError) -> str:
    """One line naming file, line and field for a profile the advisor rejected."""
    details = getattr(exc, "errors", None)
    if callable(details) and details():
        first = details()[0]
        loc = ("profile", *first.get("loc", ()))
        field = ".".join(str(p) for p in loc)
        return f"{case.path}:{_line(case.lines, loc)}: {field}: {first.get('msg', exc)}"
    return f"{case.path}:{_line(case.lines, ('profile',))}: profile: {' '.join(str(exc).split())}"
