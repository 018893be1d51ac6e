"""A framework's own file (rules/<id>.yaml) may describe it and list its routes.

The proof: move TensorFlow's description out of pack.yaml and its routes out of
routes.yaml into rules/tensorflow.yaml, and the loaded pack is the same. Then the ways
to get it wrong, each a one-line error naming the file and the field.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml

from advisor.decide.rules import core_pack_dir, load_ruleset
from advisor.model.errors import InputError

MOVED = "tensorflow"


def _copy_core(tmp_path: Path) -> Path:
    core = tmp_path / "rules"
    shutil.copytree(core_pack_dir(), core)
    return core


def _read(path: Path) -> Any:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def _write(path: Path, data: Any) -> None:
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")


def _move_to_own_file(core: Path, *, info: bool = True, routes: bool = True) -> dict[str, Any]:
    """Move MOVED's description and routes into rules/MOVED.yaml; return that file's data."""
    own: dict[str, Any] = {"rules": []}
    if info:
        pack = _read(core / "pack.yaml")
        own["framework"] = pack["frameworks"].pop(MOVED)
        _write(core / "pack.yaml", pack)
    if routes:
        table = _read(core / "data" / "routes.yaml")
        own["routes"] = {name: v["routes"].pop(MOVED) for name, v in table["venues"].items()}
        _write(core / "data" / "routes.yaml", table)
    _write(core / f"{MOVED}.yaml", own)
    return own


def test_a_framework_described_in_its_own_file_loads_the_same(tmp_path: Path) -> None:
    reference = load_ruleset([])
    core = _copy_core(tmp_path)
    _move_to_own_file(core)
    moved = load_ruleset([], core=core)
    assert moved.meta.frameworks == reference.meta.frameworks
    assert list(moved.meta.frameworks) == list(reference.meta.frameworks)
    assert moved.routes == reference.routes
    assert moved.conditions.keys() == reference.conditions.keys()
    assert [r.id for r in moved.rules] == [r.id for r in reference.rules]


def test_a_framework_described_twice_is_refused(tmp_path: Path) -> None:
    core = _copy_core(tmp_path)
    pack = _read(core / "pack.yaml")
    _write(core / f"{MOVED}.yaml", {"framework": pack["frameworks"][MOVED]})
    with pytest.raises(InputError) as info:
        load_ruleset([], core=core)
    assert info.value.path and info.value.path.endswith(f"{MOVED}.yaml")
    assert info.value.field == "framework" and "keep one" in info.value.message


def test_a_framework_described_nowhere_is_refused(tmp_path: Path) -> None:
    core = _copy_core(tmp_path)
    _move_to_own_file(core)
    (core / f"{MOVED}.yaml").unlink()
    with pytest.raises(InputError) as info:
        load_ruleset([], core=core)
    assert info.value.path and info.value.path.endswith("pack.yaml")
    assert info.value.field == "frameworks" and MOVED in info.value.message


def test_a_venue_without_the_frameworks_routes_is_refused(tmp_path: Path) -> None:
    core = _copy_core(tmp_path)
    own = _move_to_own_file(core, info=False)
    venue = next(iter(own["routes"]))
    del own["routes"][venue]
    _write(core / f"{MOVED}.yaml", own)
    with pytest.raises(InputError) as info:
        load_ruleset([], core=core)
    assert info.value.path and info.value.path.endswith("routes.yaml")
    assert info.value.field == f"venues.{venue}.routes" and MOVED in info.value.message


@pytest.mark.parametrize("problem", ["unknown venue", "listed twice", "bad maturity"])
def test_bad_routes_in_a_framework_file_name_file_and_field(tmp_path: Path, problem: str) -> None:
    core = _copy_core(tmp_path)
    own = _move_to_own_file(core, info=False)
    venue = next(iter(own["routes"]))
    if problem == "unknown venue":
        own["routes"]["moon_base"] = own["routes"][venue]
    elif problem == "listed twice":
        table = _read(core / "data" / "routes.yaml")
        table["venues"][venue]["routes"][MOVED] = own["routes"][venue]
        _write(core / "data" / "routes.yaml", table)
    else:
        own["routes"][venue][0]["maturity"] = "rock solid"
    _write(core / f"{MOVED}.yaml", own)
    with pytest.raises(InputError) as info:
        load_ruleset([], core=core)
    assert info.value.path and info.value.path.endswith(f"{MOVED}.yaml")
    assert info.value.line is not None and info.value.field
    assert info.value.field.startswith("routes")


def test_a_criterion_file_may_not_describe_a_framework(tmp_path: Path) -> None:
    core = _copy_core(tmp_path)
    data = _read(core / "scale.yaml")
    data["framework"] = {"name": "X"}
    _write(core / "scale.yaml", data)
    with pytest.raises(InputError, match="single key 'rules'"):
        load_ruleset([], core=core)
