"""`rules check PATH` counts the rules of PATH however PATH is spelled."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from hostile_support import ROOT, run

PACK = ROOT / "tests" / "fixtures" / "no_fit_pack"


@pytest.mark.parametrize("spelling", [".", "./", "vetoes.yaml", "ABS"])
def test_a_user_pack_counts_its_rules_from_inside(tmp_path: Path, spelling: str) -> None:
    pack = tmp_path / "pk"
    shutil.copytree(PACK, pack)
    arg = str(pack) if spelling == "ABS" else spelling
    result = run("rules", "check", arg, cwd=pack)
    assert result.code == 0 and result.out.startswith("ok: 1 rule valid"), result.err


def test_a_bundled_file_is_checked_as_part_of_the_bundled_pack(tmp_path: Path) -> None:
    """Checking rules/scale.yaml alone used to load it twice and call its ids duplicates."""
    result = run("rules", "check", str(ROOT / "rules" / "scale.yaml"), cwd=tmp_path)
    assert result.code == 0 and result.out.startswith("ok: "), result.err
    assert not result.out.startswith("ok: 0 rules"), result.out


def test_a_pack_of_linked_rule_files_keeps_its_rules(tmp_path: Path) -> None:
    """A stow-style pack (rule files are links to a store elsewhere) is counted, so
    `--stale` sees its evidence instead of passing an empty pack."""
    (tmp_path / "store").mkdir()
    shutil.copy(PACK / "vetoes.yaml", tmp_path / "store" / "r.yaml")
    (tmp_path / "pack").mkdir()
    (tmp_path / "pack" / "r.yaml").symlink_to("../store/r.yaml")
    result = run("rules", "check", "pack", cwd=tmp_path)
    assert result.code == 0 and result.out.startswith("ok: 1 rule valid"), result.err


def test_a_link_loop_and_the_root_folder(tmp_path: Path) -> None:
    (tmp_path / "loop1").symlink_to("loop2")
    (tmp_path / "loop2").symlink_to("loop1")
    for arg in ("loop1", "loop1/x"):
        result = run("rules", "check", arg, cwd=tmp_path)
        assert result.code == 2 and len(result.err.splitlines()) == 1, result.err
        assert "Traceback" not in result.err, result.err
    result = run("rules", "check", "/", cwd=tmp_path)  # holds the bundled pack, is not it
    # round 64: a pack that would add nothing is an error, not "ok: 0 rules valid"
    assert result.code == 2 and "holds no rule file" in result.err, result.out + result.err
    assert len(result.err.splitlines()) == 1
