"""Nothing fits: when every framework is vetoed, nothing is recommended, and the report says why
and what single change would let a framework fit (README's JSON contract)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from advisor.decide.engine import decide
from advisor.decide.rules import load_ruleset
from advisor.frameworks import FRAMEWORKS
from advisor.model.profile import Profile
from advisor.report.render import render_report

PACK = Path(__file__).parent / "fixtures" / "no_fit_pack"
PROFILE = {"project": {"name": "Tiny board"}, "deployment": {"targets": ["microcontroller"]}}


@pytest.fixture(scope="module")
def decision_and_profile():
    profile = Profile.model_validate(PROFILE)
    return decide(profile, None, load_ruleset([PACK])), profile


def test_json_recommends_nothing_and_explains(decision_and_profile) -> None:
    decision, profile = decision_and_profile
    data = json.loads(render_report(decision, profile, None, fmt="json"))
    rec = data["recommendation"]
    assert rec["all_vetoed"] is True
    assert rec["framework"] is None and rec["name"] is None
    assert rec["score"] is None and rec["margin"] is None and rec["confidence"] == "none"
    assert rec["install"] is None and rec["stack"] == [] and rec["starter"] is None
    no_fit = data["no_fit"]
    assert set(no_fit["reasons"]) == set(FRAMEWORKS)
    assert all(no_fit["reasons"][fw] for fw in no_fit["reasons"])
    fits = {c["framework"]: c for c in no_fit["what_would_fit"]}
    assert fits["jax"]["vetoed_by"] == ["DEP001"] and fits["pytorch"]["vetoed_by"] == ["DEP901"]
    for change in fits.values():
        assert change["path"] == "deployment.targets"
        assert change["to_value"] == []
        assert "deployment.targets" in change["fields"]


def test_the_suggested_change_really_lets_a_framework_fit(decision_and_profile) -> None:
    decision, _ = decision_and_profile
    for change in decision.no_fit.what_would_fit:
        data = json.loads(json.dumps(PROFILE))
        data["deployment"]["targets"] = change.to_value
        after = decide(Profile.model_validate(data), None, load_ruleset([PACK]))
        assert not after.recommendation.all_vetoed
        assert change.framework not in {r.framework for r in after.ranking if r.vetoed}


@pytest.mark.parametrize("fmt", ["markdown", "html"])
def test_reports_say_no_candidate_fits(decision_and_profile, fmt: str) -> None:
    decision, profile = decision_and_profile
    text = render_report(decision, profile, None, fmt=fmt)
    assert "No candidate fits this profile" in text
    assert "What would make a framework fit" in text
    assert "remove &#39;microcontroller&#39;" in text or "remove 'microcontroller'" in text
    for wrong in ("Install PyTorch", "still wins", "Build on", "If you build on"):
        assert wrong not in text


def test_a_fitting_profile_has_no_no_fit() -> None:
    profile = Profile.model_validate({"deployment": {"targets": ["server"]}})
    decision = decide(profile, None, load_ruleset([PACK]), with_sensitivity=False)
    assert decision.no_fit is None and decision.recommendation.framework is not None


def test_cli_json_nothing_fits(cli, tmp_path: Path) -> None:
    path = tmp_path / "p.yaml"
    path.write_text("deployment:\n  targets: [microcontroller]\n")
    code, out, err = cli(
        "recommend", str(path), "--probes", "none", "--rules", str(PACK), "--format", "json"
    )
    assert code == 0, err
    data = json.loads(out)
    assert data["recommendation"]["framework"] is None and data["no_fit"]["what_would_fit"]
