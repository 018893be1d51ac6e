"""Red-team round 64: the questionnaire (a hidden question's loaded answer, the summary's
`?` and `<`, a negative whole number), PROD002 without a server, dated TPUs, and the
point-in-time banner."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_ask_pty import SUMMARY, Person
from test_hostile_round57 import _json_report

from advisor.io.profiles import load_profile
from advisor.model.profile import Profile
from advisor.model.said import said_paths
from advisor.questionnaire import load_questions

MOBILE_SERVING = "deployment: {targets: [mobile], serving: online_api}\n"


def test_a_hidden_question_does_not_bring_up_its_follow_up() -> None:
    """Finding 1: a revised profile's serving answer, hidden for a phone-only project,
    still brought up the serving-stack question."""
    profile = Profile.model_validate(
        {"deployment": {"targets": ["mobile"], "serving": "online_api"}}
    )
    assert "deployment.serving_stack" in load_questions().unasked(profile)


def test_the_pty_session_skips_the_serving_stack_for_a_phone_app(tmp_path: Path) -> None:
    (tmp_path / "in.yaml").write_text(MOBILE_SERVING)
    person = Person("ask", "--from", "in.yaml", "-o", "out.yaml", cwd=tmp_path)
    assert person.enter_until("deployment.serving_stack") is None
    person.child.sendline("")
    assert person.finish() == 0
    out = load_profile(tmp_path / "out.yaml")
    assert "deployment.serving_stack" not in said_paths(out)


def test_the_summary_explains_itself_and_goes_back(tmp_path: Path) -> None:
    """Finding 7: the intro says '? explains' and '< goes back', but at the summary both
    were 'Invalid answer'."""
    person = Person("ask", "-o", "p.yaml", cwd=tmp_path)
    assert person.enter_until() is None
    last = person.asked[-1]
    person.child.sendline("?")
    person.child.expect(SUMMARY)
    assert "< goes back to the last question" in person.output
    assert "Invalid answer" not in person.output
    person.child.sendline("<")
    assert person.next_question() == last
    person.child.sendline("")
    assert person.enter_until() is None
    person.child.sendline("")
    assert person.finish() == 0


@pytest.mark.parametrize("field", ["priorities.learning_curve", "team.size"])
def test_a_negative_whole_number_is_out_of_range_not_of_form(field: str) -> None:
    section, key = field.split(".")
    with pytest.raises(ValueError, match="greater than or equal to") as info:
        Profile.model_validate({section: {key: "-1"}})
    assert "whole number (an integer)" not in str(info.value)


def test_online_serving_needs_a_server(tmp_path: Path) -> None:
    """Finding 1: PROD002 (TF Serving) fired for a phone-only app and flipped its verdict;
    the combination is now an inconsistency and the rule stands aside."""
    data = _json_report(tmp_path, MOBILE_SERVING)
    assert "PROD002" not in {r["id"] for r in data["rules"]}
    assert "CON015" in {c["id"] for c in data["inconsistencies"]}
    data = _json_report(tmp_path, "deployment: {serving: online_api}\n")
    assert "PROD002" in {r["id"] for r in data["rules"]}


def test_tpus_before_the_cloud_tpu_beta_are_flagged(tmp_path: Path) -> None:
    """Finding 2: --as-of 2017-01 recommended for TPU-only training with no warning."""
    profile = "hardware: {training: [tpu]}\nteam: {experience: {pytorch: some}}\n"
    data = _json_report(tmp_path, profile, "--as-of", "2017-01")
    assert "CON111" in {c["id"] for c in data["inconsistencies"]}
    assert data["recommendation"]["confidence"] != "high"
    assert "CON111" not in {c["id"] for c in _json_report(tmp_path, profile)["inconsistencies"]}


def test_the_point_in_time_banner_says_route_names_are_todays(tmp_path: Path) -> None:
    """Finding 3: a 2019 view listed 'TensorFlow.js or LiteRT.js' with no note."""
    data = _json_report(tmp_path, "deployment: {targets: [browser]}\n", "--as-of", "2019-06")
    assert "names of the routes" in data["report"]["basis"]["point_in_time"]


def test_a_pack_with_nothing_at_its_top_level_is_refused(tmp_path: Path) -> None:
    """Finding 5: a pack whose rule file sat in a subfolder passed `rules check` as
    'ok: 0 rules valid' and did nothing under --rules, silently."""
    from hostile_support import run

    (tmp_path / "pack" / "rules").mkdir(parents=True)
    (tmp_path / "pack" / "rules" / "mine.yaml").write_text("rules: []\n")
    for args in (("rules", "check", "pack"),
                 ("recommend", "--example", "student-starter", "--rules", "pack",
                  "--probes", "none")):  # fmt: skip
        result = run(*args, cwd=tmp_path)
        assert result.code == 2 and "subfolders are not read" in result.err, result.err
        assert len(result.err.splitlines()) == 1
