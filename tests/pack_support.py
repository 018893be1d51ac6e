"""A minimal copy of the core rule pack for tests that bring their own rules.

It holds pack.yaml (optionally without the prior), optionally the route table, and each
framework's own file reduced to its description and routes (no rules), so that every
registered framework is described wherever its description lives.
"""

from __future__ import annotations

import datetime as dt
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from advisor.decide.framework_files import is_framework_file
from advisor.decide.rules import core_pack_dir
from advisor.model.errors import InputError


def minimal_core(tmp_path: Path, *, prior: bool = True, routes: bool = False) -> Path:
    """A rule pack directory with the core's metadata and no rules; returns its path."""
    source = core_pack_dir()
    core = tmp_path / "core"
    core.mkdir()
    meta = yaml.safe_load((source / "pack.yaml").read_text(encoding="utf-8"))
    if not prior:
        meta.pop("prior", None)
    (core / "pack.yaml").write_text(yaml.safe_dump(meta), encoding="utf-8")
    if routes:
        (core / "data").mkdir()
        (core / "data" / "routes.yaml").write_text(
            (source / "data" / "routes.yaml").read_text(encoding="utf-8"), encoding="utf-8"
        )
    for own in sorted(source.glob("*.yaml")):
        if not is_framework_file(own.stem):
            continue
        data = yaml.safe_load(own.read_text(encoding="utf-8"))
        kept = {k: data[k] for k in ("framework", "routes") if k in data}
        if not routes:
            kept.pop("routes", None)
        if kept:
            (core / own.name).write_text(yaml.safe_dump(kept), encoding="utf-8")
    return core


_USER_RULE = """\
rules:
  - id: DEP902
    title: A user rule
    criterion: deployment
    when:
      all:
{conditions}
    effects: {{tensorflow: 1}}
    why: Because a test needs a rule to break.
    evidence:
      - {{title: A source, source: A publisher, year: 2020, checked: 2026-01-01,
         claim: A claim long enough.}}
    examples:
      fire: [{{deployment: {{targets: [mobile]}}, team: {{size: 5}}}}]
      ok: [{{deployment: {{targets: [server]}}}}]
"""


def user_rule_pack(tmp_path: Path, conditions: str) -> Path:
    """A user pack of one rule whose `when` is `all` of ``conditions`` (YAML list items,
    written from column 0); the first condition is on line 7 of pack/r.yaml."""
    pack = tmp_path / "pack"
    pack.mkdir()
    text = _USER_RULE.format(conditions=textwrap.indent(conditions.rstrip("\n"), " " * 8))
    (pack / "r.yaml").write_text(text, encoding="utf-8")
    return pack


def refusal(call: Callable[[], Any]) -> str:
    """The one-line message of the InputError that ``call`` raises."""
    with pytest.raises(InputError) as info:
        call()
    return str(info.value)


def _checked_dates(node: Any) -> list[Any]:
    if isinstance(node, dict):
        own = [node["checked"]] if "checked" in node else []
        return own + [d for v in node.values() for d in _checked_dates(v)]
    if isinstance(node, list):
        return [d for v in node for d in _checked_dates(v)]
    return []


def knowledge_today() -> dt.date:
    """The day the tests take as today: the newest ``checked`` date anywhere in the bundled
    pack, or its package snapshot's date if later. Evidence honestly dated the day it was
    checked then never reads as "in the future" in the tests, which stay deterministic for
    a given pack; tests/test_knowledge.py holds every date to the real clock instead."""
    from advisor.decide.citations import load_snapshot

    found = [load_snapshot().snapshot]
    for path in sorted(core_pack_dir().rglob("*.yaml")):
        for value in _checked_dates(yaml.safe_load(path.read_text(encoding="utf-8"))):
            found.append(value if isinstance(value, dt.date) else dt.date.fromisoformat(str(value)))
    return max(found)
