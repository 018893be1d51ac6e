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
    assert result.code == 0 and result.out.startswith("ok: 1 rules valid"), result.err


def test_a_bundled_file_is_checked_as_part_of_the_bundled_pack(tmp_path: Path) -> None:
    """Checking rules/scale.yaml alone used to load it twice and call its ids duplicates."""
    result = run("rules", "check", str(ROOT / "rules" / "scale.yaml"), cwd=tmp_path)
    assert result.code == 0 and result.out.startswith("ok: "), result.err
    assert not result.out.startswith("ok: 0 rules"), result.out
