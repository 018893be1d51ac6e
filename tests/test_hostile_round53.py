"""Red-team round 53, and the error labels left open after round 48."""

from __future__ import annotations

from pathlib import Path

import pytest
from hostile_support import run

_RULE = """rules:
  - {head}
    title: A test rule
{extra}    criterion: ecosystem
    when: {{field: purpose, eq: research}}
    effects: {{pytorch: 1}}
    why: Because this test says so and nothing else.
    evidence:
      - {{title: A note, source: me, year: 2024, claim: Said here.}}
"""


@pytest.mark.parametrize(
    ("head", "label"), [("id: USR001", "rule USR001: title"), ("idx: 1", "rules[0]: title")]
)
def test_a_duplicate_key_in_a_rule_file_names_the_rule_by_its_id(
    tmp_path: Path, head: str, label: str
) -> None:
    """A duplicate key had said `rules.0.title`, every other error of a rule `rule ID: x`."""
    pack = tmp_path / "pack"
    pack.mkdir()
    (pack / "extra.yaml").write_text(_RULE.format(head=head, extra="    title: Again\n"))
    result = run("rules", "check", "pack", cwd=tmp_path)
    assert result.code == 2
    assert f"extra.yaml:4: {label}: duplicate key 'title'" in result.err, result.err
    assert "rules.0" not in result.err


def test_a_duplicate_key_in_a_consistency_check_names_the_check(tmp_path: Path) -> None:
    (tmp_path / "pack" / "data").mkdir(parents=True)
    text = "checks:\n  - id: CHK901\n    title: One\n    title: Two\n"
    (tmp_path / "pack" / "data" / "consistency.yaml").write_text(text)
    result = run("rules", "check", "pack", cwd=tmp_path)
    assert result.code == 2
    said = "consistency.yaml:4: check CHK901: title: duplicate key 'title'"
    assert said in result.err, result.err


def test_a_duplicate_key_inside_a_condition_keeps_its_path_after_the_id(tmp_path: Path) -> None:
    (tmp_path / "pack").mkdir()
    text = "rules:\n  - id: USR002\n    when: {field: purpose, eq: research, eq: x}\n"
    (tmp_path / "pack" / "extra.yaml").write_text(text)
    result = run("rules", "check", "pack", cwd=tmp_path)
    assert result.code == 2
    assert "extra.yaml:3: rule USR002: when.eq: duplicate key 'eq'" in result.err, result.err
