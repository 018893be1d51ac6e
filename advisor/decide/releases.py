"""The package-health snapshot of the core pack, and the release tokens in rule prose.

The text of a rule pack (a rule's ``why``, ``risks`` or evidence, a stack or install
note) names a package's latest release as ``{release:NAME}``; loading fills it in from the
bundled snapshot (rules/data/package_health.yaml; a user's pack uses it too), so
refreshing the snapshot refreshes the text, and a NAME the snapshot does not hold is an
error naming file, line and field.
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from advisor.io.safe_yaml import YamlDocument, load_yaml_file
from advisor.io.validation import input_error_from_validation
from advisor.io.yaml_merges import field_path
from advisor.model.errors import InputError
from advisor.model.option_hints import closest
from advisor.model.package_health import PackageSnapshot, UnknownPackage
from advisor.model.terminal_text import clip

SNAPSHOT_FILE = Path("data") / "package_health.yaml"  # inside a rule pack directory


def snapshot_path() -> Path:
    """The bundled pack's package-health snapshot: the one snapshot of a run."""
    from advisor.resources import data_dir

    return data_dir("rules") / SNAPSHOT_FILE


def load_snapshot() -> PackageSnapshot:
    """The bundled package-health snapshot (rule text, citations and the report use it)."""
    return read_snapshot(snapshot_path())


@lru_cache(maxsize=4)
def read_snapshot(path: Path) -> PackageSnapshot:
    """The package-health snapshot at ``path``."""
    doc = load_yaml_file(path)
    try:
        return PackageSnapshot.model_validate(doc.data)
    except ValidationError as exc:
        raise input_error_from_validation(exc, doc) from None


def fill_releases(doc: YamlDocument, snapshot: PackageSnapshot, source: Path) -> YamlDocument:
    """``doc`` with every ``{release:NAME}`` in its strings filled in from ``snapshot``
    (read from ``source``, which an unknown NAME's error names). A collection the YAML
    reaches through several aliases is filled once and stays shared, not copied each time."""
    done: dict[int, Any] = {}

    def walk(node: Any, loc: tuple[Any, ...]) -> Any:
        if isinstance(node, (dict, list)) and id(node) in done:
            return done[id(node)]
        out = _walk(node, loc)
        if isinstance(node, (dict, list)):
            done[id(node)] = out
        return out

    def _walk(node: Any, loc: tuple[Any, ...]) -> Any:
        if isinstance(node, str):
            try:
                return snapshot.fill_releases(node)
            except UnknownPackage as exc:
                name = str(exc.args[0])
                close = closest(name[:100], sorted(snapshot.names()))
                hint = f"; did you mean {{release:{close[0]}}}?" if close else ""
                raise InputError(
                    f"{{release:{clip(name)}}}: no package of that name in the package-health "
                    f"snapshot {source}{hint}",
                    path=doc.path,
                    line=doc.line_of(loc),
                    field=_field(doc, loc),
                ) from None
        if isinstance(node, dict):
            return {k: walk(v, (*loc, k)) for k, v in node.items()}
        if isinstance(node, list):
            return [walk(v, (*loc, i)) for i, v in enumerate(node)]
        return node

    return replace(doc, data=walk(doc.data, ()))


def _field(doc: YamlDocument, loc: tuple[Any, ...]) -> str | None:
    """'rule ID: why' inside a rule (as other rule errors say), else the dotted key path."""
    rules = doc.data.get("rules") if isinstance(doc.data, dict) else None
    if len(loc) > 2 and loc[0] == "rules" and isinstance(rules, list):
        rule = rules[loc[1]]
        if isinstance(rule, dict) and isinstance(rule.get("id"), str):
            return f"rule {rule['id']}: " + field_path(loc[2:])
    return field_path(loc) or None
