"""Safe YAML reading: line numbers, hostile shapes, atomic writes."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from advisor.io.safe_yaml import load_yaml_file, load_yaml_text, write_atomic
from advisor.model.errors import InputError


def test_line_numbers_of_keys_and_items() -> None:
    doc = load_yaml_text("a:\n  b: 1\n  c:\n    - x\n    - y\n", "f.yaml")
    assert doc.data == {"a": {"b": 1, "c": ["x", "y"]}}
    assert doc.line_of(("a", "b")) == 2
    assert doc.line_of(("a", "c", 1)) == 5
    assert doc.line_of(("a", "c", 1, "deeper")) == 5


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("", "empty"),
        ("a: [\n", "invalid YAML"),
        ("a:\n\tb: 1\n", "tab"),
        ("--- 1\n--- 2\n", "single document"),
        ("x: !!python/object/apply:os.system ['echo hi']\n", "not allowed"),
        ("[" * 100 + "]" * 100, "nesting"),
    ],
)
def test_hostile_or_broken_yaml_is_an_input_error(text: str, fragment: str) -> None:
    with pytest.raises(InputError) as info:
        load_yaml_text(text, "bad.yaml")
    assert fragment in str(info.value)
    assert str(info.value).startswith("bad.yaml")


def test_alias_bomb_is_refused_before_expansion() -> None:
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    prev = "a"
    for name in "bcdefghi":
        lines.append(f"{name}: &{name} [" + ",".join([f"*{prev}"] * 9) + "]")
        prev = name
    with pytest.raises(InputError, match="too many nodes"):
        load_yaml_text("\n".join(lines) + "\n", "bomb.yaml")


def test_small_aliases_are_fine() -> None:
    doc = load_yaml_text("base: &b {x: 1}\nother: *b\n", "ok.yaml")
    assert doc.data["other"] == {"x": 1}


def test_binary_and_missing_files(tmp_path: Path) -> None:
    binary = tmp_path / "bin.yaml"
    binary.write_bytes(b"a: 1\n\xff\xfe\x00")
    with pytest.raises(InputError, match="UTF-8"):
        load_yaml_file(binary)
    with pytest.raises(InputError, match="no such file"):
        load_yaml_file(tmp_path / "missing.yaml")
    with pytest.raises(InputError, match="directory"):
        load_yaml_file(tmp_path)


def test_write_atomic_keeps_existing_file(tmp_path: Path) -> None:
    target = tmp_path / "out.md"
    target.write_text("precious")
    with pytest.raises(InputError, match="--force"):
        write_atomic(target, "new")
    assert target.read_text() == "precious"
    write_atomic(target, "new", force=True)
    assert target.read_text() == "new"
    assert [p.name for p in tmp_path.iterdir()] == ["out.md"]


def test_write_atomic_private_mode(tmp_path: Path) -> None:
    target = tmp_path / "cache.json"
    write_atomic(target, "{}", private=True)
    assert stat.S_IMODE(os.stat(target).st_mode) == 0o600


@pytest.mark.skipif(os.geteuid() == 0, reason="root ignores directory permissions")
def test_write_atomic_read_only_dir_leaves_nothing(tmp_path: Path) -> None:
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o500)
    try:
        with pytest.raises(InputError, match="permission denied"):
            write_atomic(ro / "x.md", "text")
        assert list(ro.iterdir()) == []
    finally:
        ro.chmod(0o700)


def test_write_atomic_disk_full_leaves_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import errno

    import advisor.io.safe_yaml as yamlio

    def full(*_args: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(yamlio.os, "fsync", full)
    with pytest.raises(InputError, match="No space left"):
        write_atomic(tmp_path / "report.md", "text")
    assert list(tmp_path.iterdir()) == []


def test_lines_follow_the_document_through_aliases() -> None:
    """An anchor's own lines are its own; a later alias takes the alias's line."""
    from advisor.io.safe_yaml import load_yaml_text

    doc = load_yaml_text("a: &w\n  x: 1\n  y:\n    z: 2\nb: *w\n")
    assert doc.line_of(("a", "y", "z")) == 4
    assert doc.line_of(("b", "y", "z")) == 5
