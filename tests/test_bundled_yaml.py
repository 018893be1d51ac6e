"""The bundled rule pack is read without the hostile-input pre-pass (it ships with the
advisor; the pass cost about 0.13 s of every run): these tests run that pass on it instead,
and require that both readers give the same data."""

from __future__ import annotations

from pathlib import Path

import pytest

from advisor.decide.item_labels import bundled_file, load_pack_yaml
from advisor.io.bundled_yaml import load_bundled_yaml_file
from advisor.io.safe_yaml import load_yaml_file
from advisor.model.errors import InputError
from advisor.resources import data_dir

BUNDLED = sorted(data_dir("rules").rglob("*.yaml"))


def test_the_pack_has_files() -> None:
    assert len(BUNDLED) >= 10


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: p.name)
def test_full_reader_accepts_each_bundled_file_and_agrees(path: Path) -> None:
    full = load_yaml_file(path)  # every guard: aliases, tags, duplicate keys, lines
    fast = load_bundled_yaml_file(path)
    assert fast.data == full.data
    assert fast.lines == {}  # not built until an error asks
    assert fast.line_of(("rules", 0)) == full.line_of(("rules", 0))
    assert fast.lines == full.lines


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: p.name)
def test_pack_reader_takes_the_fast_path_for_bundled_files_only(path: Path, tmp_path: Path) -> None:
    assert bundled_file(path) == path.resolve()
    copy = tmp_path / path.name
    copy.write_bytes(path.read_bytes())
    assert bundled_file(copy) is None
    assert load_pack_yaml(copy).lines  # a user's copy: the full reader, lines mapped
    assert not load_pack_yaml(path).lines


def test_user_pack_link_into_bundled_dir_is_read_as_bundled_content(tmp_path: Path) -> None:
    link = tmp_path / "pack.yaml"
    link.symlink_to(BUNDLED[0])
    assert bundled_file(link) == BUNDLED[0].resolve()  # the same file, not a user's text
    assert bundled_file(tmp_path / "missing.yaml") is None


def test_the_bundled_file_read_is_the_one_checked_not_the_link(tmp_path: Path) -> None:
    link = tmp_path / "pack.yaml"
    link.symlink_to(BUNDLED[0])
    real = bundled_file(link)
    link.unlink()
    link.write_text("rules: [&a [*a]]\n", encoding="utf-8")  # swapped after the check
    assert real is not None
    assert load_bundled_yaml_file(real).data == load_yaml_file(BUNDLED[0]).data


def test_fast_reader_gives_the_full_readers_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("rules:\n  - id: A\n   title: x\n", encoding="utf-8")
    with pytest.raises(InputError) as fast:
        load_bundled_yaml_file(bad)
    with pytest.raises(InputError) as full:
        load_yaml_file(bad)
    assert str(fast.value) == str(full.value)
    assert fast.value.line == 3
