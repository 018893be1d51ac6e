"""A minimal copy of the core rule pack for tests that bring their own rules.

It holds pack.yaml (optionally without the prior), optionally the route table, and each
framework's own file reduced to its description and routes (no rules), so that every
registered framework is described wherever its description lives.
"""

from __future__ import annotations

from pathlib import Path

import yaml

from advisor.decide.framework_files import is_framework_file
from advisor.decide.rules import core_pack_dir


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
