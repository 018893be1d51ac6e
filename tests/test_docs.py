"""The README stays true: its profile reference is generated from the model."""

from __future__ import annotations

from pathlib import Path

import pytest

from advisor.docs import END, START, profile_reference, replace_section
from advisor.model.profile import Profile

README = Path(__file__).resolve().parent.parent / "README.md"


@pytest.mark.skipif(not README.exists(), reason="README is not shipped in the wheel")
def test_readme_profile_reference_is_up_to_date() -> None:
    text = README.read_text(encoding="utf-8")
    assert replace_section(text, profile_reference()) == text, (
        "README's profile reference is stale: run `python -m advisor.docs --write README.md`"
    )


def test_reference_lists_every_field() -> None:
    table = profile_reference()
    for path in ("purpose", "model.parameters", "team.experience.jax", "workload.dtype"):
        assert f"| `{path}` |" in table
    assert table.count("\n| `") == _leaf_count(Profile)


def _leaf_count(model) -> int:
    count = 0
    for info in model.model_fields.values():
        ann = info.annotation
        if isinstance(ann, type) and hasattr(ann, "model_fields"):
            count += _leaf_count(ann)
        else:
            count += 1
    return count


def test_replace_section_needs_markers() -> None:
    with pytest.raises(ValueError):
        replace_section("no markers", "x")
    assert replace_section(f"a{START}old{END}b", "new\n") == f"a{START}\nnew\n{END}b"


@pytest.mark.skipif(not README.exists(), reason="README is not shipped in the wheel")
def test_readme_has_the_two_ci_commands() -> None:
    text = README.read_text(encoding="utf-8")
    assert "<!-- ci:install-and-run -->" in text and "<!-- ci:test -->" in text
    assert "constraints-cpu.txt" in text
