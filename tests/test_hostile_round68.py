"""Red-team round 68 (security): a template that prints a method or a generator whole gets
its kind, never the memory address Python writes in its text."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hostile_support import run

ADDRESS = re.compile(r"0x[0-9a-fA-F]{6,}")


@pytest.mark.parametrize("suffix", ["md", "html"])
def test_a_template_cannot_print_a_memory_address(tmp_path: Path, suffix: str) -> None:
    """Finding 2: `{{ report.items }}` printed '<built-in method items of dict object at
    0x7fb71b7c8100>', an address that weakens address-space randomisation."""
    template = tmp_path / f"t.{suffix}.j2"
    template.write_text(
        "{{ report.items }} {{ report.keys() | map('upper') }} {{ [report.items] }}\n"
    )
    result = run("recommend", "--example", "student-starter", "--probes", "none",
                 "--template", str(template), cwd=tmp_path)  # fmt: skip
    assert result.code == 0, result.err
    assert "built-in method items of dict object" in result.out  # the kind is still shown
    assert "generator object" in result.out
    assert not ADDRESS.search(result.out), result.out


@pytest.mark.parametrize("name", ["new.yaml.", "x.yaml::$DATA", "x.YML.", "data.", "Data::$DATA"])
def test_an_output_cannot_join_a_pack_under_a_windows_reading_of_its_name(
    tmp_path: Path, name: str
) -> None:
    """Round 68, noted as untestable on Linux: Windows opens 'new.yaml.' and
    'new.yaml::$DATA' as new.yaml, which the pack would then load as a rule file, and
    'data.' as its data/ folder; the pack check read names only as POSIX does."""
    pack = tmp_path / "pk"
    pack.mkdir()
    result = run("recommend", "--example", "student-starter", "--probes", "none",
                 "--rules", "pk", "-o", f"pk/{name}", cwd=tmp_path)  # fmt: skip
    assert result.code == 2, result.out
    assert "would become part of the rule pack" in result.err
    assert list(pack.iterdir()) == []
