"""Red-team round 75 (security): regression tests, each failing before its fix."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from advisor.decide import item_labels
from advisor.model.errors import InputError
from probes.run import trust


def test_a_duplicate_key_is_named_by_rule_id_without_reading_the_file_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The label came from a second, unguarded read of the file by name: a file swapped in
    between (30,000 levels deep) gave a RecursionError traceback, and a large one took four
    times as long. It now comes from the nodes the guarded read composed."""
    pack = tmp_path / "dup.yaml"
    pack.write_text("rules:\n  - id: ABC001\n    title: a\n    title: b\n", encoding="utf-8")

    def no_second_read(*args: object, **kwargs: object) -> None:
        raise AssertionError("the file was composed a second time")

    monkeypatch.setattr(yaml, "compose", no_second_read)
    with pytest.raises(InputError) as err:
        item_labels.load_pack_yaml(pack)
    assert err.value.field == "rule ABC001: title"
    assert err.value.line == 4


def test_an_error_found_before_the_document_is_composed_keeps_its_position(
    tmp_path: Path,
) -> None:
    pack = tmp_path / "tag.yaml"
    pack.write_text("rules:\n  - id: ABC001\n    title: !!str a\n", encoding="utf-8")
    with pytest.raises(InputError) as err:
        item_labels.load_pack_yaml(pack)
    assert err.value.line == 3 and "tag" in str(err.value)


def test_a_workers_version_must_be_text() -> None:
    """A foreign interpreter's worker reported a mapping as its version: the report printed a
    Python repr, and the run was saved, refused by the cache on every read and measured
    again each time."""
    env = trust.clean_env(
        {"event": "env", "version": {"a": "b"}, "build": {"cuda": "12.4"}, "devices": []}
    )
    assert "version" not in env
    assert env["build"] == {"cuda": "12.4"}
    assert trust.clean_env({"event": "env", "version": "2.13.0"})["version"] == "2.13.0"
