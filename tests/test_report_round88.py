"""Report review round 88: six realistic profiles read end to end as their users would.

- The HTML score breakdown's total and decisive-unit rows are ``<th class="n">`` cells, but
  the stylesheet right-aligned only ``td.n``: the totals sat left-aligned under columns of
  right-aligned numbers.
- "Supporting rules" in the score table was never explained, and for a verdict carried by
  decisive facts it looked wrong: a fintech with a large Keras codebase and TF Serving read
  TensorFlow "3" supporting rules beside PyTorch's "5", while five rules under Why favour
  TensorFlow (two of them decisive facts, which the count leaves out).
- When only a change in the situation flips the verdict, section 7 said "It rests on your
  situation: what is already so about the team, the existing code and the stack in
  production" even for a profile with no existing code and no serving stack (a hospital
  group whose only flip is a hypothetical Keras codebase).
- PyTorch's default starter pointed TPU users to "the install note", which for every
  profile that does not train on TPUs says nothing about TPUs.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from advisor.decide.engine import decide
from advisor.decide.rules import load_ruleset
from advisor.model.facts import Facts
from advisor.model.profile import Profile
from advisor.pipeline import unasked_fields
from advisor.report.render import render_report

FINTECH: dict[str, Any] = {
    "project": {"name": "Card fraud scoring"},
    "purpose": "production",
    "domains": ["tabular"],
    "model": {"parameters": "20M"},
    "training": {"accelerators": 2},
    "hardware": {"training": ["nvidia_gpu"], "inference": ["cpu"]},
    "deployment": {
        "targets": ["server", "batch"],
        "serving": "online_api",
        "serving_stack": "tf_serving",
    },
    "team": {"size": 12, "experience": {"tensorflow": "expert", "pytorch": "some"}},
    "existing_code": ["tf2_keras"],
    "existing_code_size": "large",
    "priorities": {
        "production_maturity": 5,
        "long_term_stability": 5,
        "raw_performance": 4,
        "prototyping_speed": 2,
    },
}
RADIOLOGY: dict[str, Any] = {
    "project": {"name": "Radiology triage service"},
    "purpose": "production",
    "domains": ["vision"],
    "model": {"parameters": "60M"},
    "training": {"accelerators": 4, "nodes": 1},
    "hardware": {"training": ["nvidia_gpu"], "inference": ["nvidia_gpu"]},
    "deployment": {"targets": ["server"], "serving": "online_api"},
    "team": {"size": 3, "experience": {"pytorch": "some"}},
    "ecosystem": {"pretrained_models": True, "libraries": ["vision"]},
    "priorities": {"production_maturity": 5, "long_term_stability": 4, "raw_performance": 3},
    "determinism": "preferred",
}
STUDENTS: dict[str, Any] = {
    "project": {"name": "Course project"},
    "purpose": "research",
    "domains": ["vision"],
    "training": {"accelerators": 0},
    "hardware": {"training": ["cpu"], "inference": ["cpu"]},
    "team": {"size": 2, "new_to_deep_learning": True},
    "priorities": {"learning_curve": 5, "ecosystem_breadth": 4},
}


def _render(data: dict[str, Any], fmt: str = "markdown") -> str:
    profile = Profile.model_validate(data)
    decision = decide(profile, Facts(), load_ruleset([]), unasked=unasked_fields(profile))
    return render_report(
        decision, profile, None, fmt=fmt, profile_path="p.yaml", probe_level="none"
    )


def _css(html: str) -> str:
    match = re.search(r"<style>(.*?)</style>", html, re.S)
    assert match
    return match.group(1)


def test_numeric_header_cells_are_right_aligned_like_the_numbers_above() -> None:
    html = _render(FINTECH, "html")
    assert '<th class="n">' in html  # the total and decisive-unit rows
    rules = re.findall(r"([^{}]+)\{([^}]*)\}", _css(html))
    right = [sel for sel, body in rules if "text-align: right" in body]
    selectors = {s.strip() for sel in right for s in sel.split(",")}
    for tag in set(re.findall(r'<(t[hd]) class="n"', html)):
        assert f"{tag}.n" in selectors, f"{tag}.n cells are not right-aligned"


@pytest.mark.parametrize("fmt", ["markdown", "html"])
def test_the_supporting_rules_count_is_explained(fmt: str) -> None:
    text = _render(FINTECH, fmt)
    assert "Supporting rules" in text
    assert (
        "Supporting rules counts the rules that fired in a framework's favour as a "
        "preference; decisive facts are not counted there." in text
    )


@pytest.mark.parametrize("fmt", ["markdown", "html"])
def test_a_situation_only_flip_does_not_claim_code_or_a_stack_the_profile_lacks(
    fmt: str,
) -> None:
    text = _render(RADIOLOGY, fmt)
    assert "flips the verdict." in text  # no plan or priority change flips it
    assert "if existing_code were" in text  # only a different situation would
    assert "It rests on your situation" not in text
    assert (
        "Only a different situation would (the last column): what is already so about "
        "the team, the existing code or the stack in production." in text
    )


def test_the_pytorch_starter_says_how_to_reach_a_tpu_without_a_missing_note() -> None:
    text = _render(STUDENTS)
    assert "torch.backends.mps.is_available()" in text  # the default starter
    assert "see the install note" not in text
    assert "TPU: TorchTPU (pip install torch_tpu)" in text
    pack = (Path(__file__).parents[1] / "rules" / "pack.yaml").read_text(encoding="utf-8")
    assert "see the install note" not in pack
