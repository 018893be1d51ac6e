"""A rule's 'why' speaks to the profile at hand; where it stands aside is its 'scope'.

Round 88 (a tech lead reading reports): whys told a team with a serving stack how an online
API with none is weighed, and sent users to rule ids they could not see (DET001, SCL001).
Those notes now live in ``scope``, shown on the rule's page and never in a report.
"""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner
from pydantic import ValidationError

from advisor.cli.main import main as cli
from advisor.decide.engine import decide
from advisor.decide.rules import Rule, load_ruleset
from advisor.model.facts import Facts
from advisor.model.profile import Profile
from advisor.report.render import render_report

RULE_ID = re.compile(r"\b[A-Z]{2,5}\d{3}\b")


def test_no_bundled_why_names_another_rule() -> None:
    named = {r.id: RULE_ID.findall(r.why) for r in load_ruleset([]).rules}
    assert {k: v for k, v in named.items() if v} == {}


def test_the_scope_is_on_the_rule_page() -> None:
    result = CliRunner().invoke(cli, ["rules", "show", "DEP110"])
    assert result.exit_code == 0, result.output
    assert "## Scope" in result.output and "PROD002" in result.output


def test_the_scope_is_not_in_a_report() -> None:
    rule = next(r for r in load_ruleset([]).rules if r.id == "SCL002")
    assert rule.scope and "ECO103" in rule.scope
    profile = Profile.model_validate(
        {"model": {"parameters": "70B"}, "hardware": {"training": ["nvidia_gpu"]}}
    )
    decision = decide(profile, Facts(), load_ruleset([]))
    report = render_report(decision, profile, None, fmt="markdown", probe_level="none")
    assert "SCL002" in report and rule.scope not in report and "ECO103" not in report


def test_a_scope_is_one_line() -> None:
    base = next(r for r in load_ruleset([]).rules if r.id == "DEP110").model_dump()
    with pytest.raises(ValidationError, match="one line"):
        Rule.model_validate({**base, "scope": "first\nsecond"})


def test_no_bundled_risk_or_veto_names_an_internal_id() -> None:
    internal = re.compile(r"\b([A-Z]{2,5}\d{3}|F-[A-Z0-9]+)\b")
    found = [
        (r.id, fw)
        for r in load_ruleset([]).rules
        for fw, text in [*r.risks.items(), *r.veto.items()]
        if text and internal.search(text)
    ]
    assert found == []
