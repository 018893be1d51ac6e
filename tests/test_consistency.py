"""Answers that cannot all be true (rules/data/consistency.yaml): warned, capped, never offered."""

from __future__ import annotations

import dataclasses
import datetime
from pathlib import Path

import pytest

from advisor.decide.conditions import build_context
from advisor.decide.consistency import load_checks, tripped
from advisor.decide.engine import decide
from advisor.decide.rules import core_pack_dir, load_ruleset
from advisor.io.profiles import list_examples, load_profile
from advisor.model.errors import InputError
from advisor.model.facts import Facts
from advisor.model.profile import Profile
from advisor.model.said import said_paths
from advisor.report.render import render_report

PACK = load_ruleset()
LLM_70B = {
    "purpose": "production",
    "domains": ["nlp"],
    "model": {"parameters": "70B"},
    "hardware": {"training": ["nvidia_gpu"], "inference": ["nvidia_gpu"]},
    "deployment": {"targets": ["server"], "serving": "online_api"},
    "workload": {"model_family": "transformer"},
}
CLASHING = {
    "model": {"parameters": "70B"},
    "deployment": {"targets": ["microcontroller"], "device_memory_mb": 0.25},
    "training": {"accelerators": 8},
    "hardware": {"training": ["cpu"]},
}


def _render(decision, data: dict, fmt: str = "markdown") -> str:
    return render_report(decision, Profile.model_validate(data), None, fmt=fmt)


def _context(data: dict) -> dict:
    profile = Profile.model_validate(data)
    return build_context(profile, Facts(), said_paths(profile))


def test_the_bundled_checks_load_and_their_examples_hold() -> None:
    checks = load_checks(core_pack_dir() / "data" / "consistency.yaml")
    assert len(checks) >= 7 and checks == PACK.all_checks
    # today's view keeps every check except those that ended (dated: 'before X existed')
    assert PACK.checks == tuple(c for c in checks if c.holds is None or c.holds.until is None)
    for check in checks:
        for example in check.examples.trip:
            assert check.trips(_context(example)), check.id
        for example in check.examples.ok:
            assert not check.trips(_context(example)), check.id


def test_the_bundled_examples_contradict_nothing() -> None:
    for example in list_examples():
        profile = load_profile(example.path)
        assert not tripped(PACK.checks, build_context(profile, Facts(), said_paths(profile)))


def test_a_profile_whose_answers_clash_is_warned_and_not_rated_high() -> None:
    decision = decide(Profile.model_validate(CLASHING), Facts(), PACK)
    assert {c.id for c in decision.inconsistencies} == {"CON001", "CON007"}
    assert all(
        f in said_paths(Profile.model_validate(CLASHING))
        for c in decision.inconsistencies
        for f in c.fields
    )
    assert decision.recommendation.confidence != "high"
    # the same verdict with consistent answers is rated high: only the clash capped it
    fine = decide(
        Profile.model_validate({"deployment": {"targets": ["microcontroller"]}}), Facts(), PACK
    )
    assert fine.recommendation.framework == decision.recommendation.framework
    assert fine.recommendation.confidence == "high" and not fine.inconsistencies
    markdown = _render(decision, CLASHING)
    assert "Some answers do not fit together" in markdown and "CON001" in markdown
    assert "Some answers do not fit together" in _render(decision, CLASHING, "html")
    fine_text = _render(fine, {"deployment": {"targets": ["microcontroller"]}})
    assert "do not fit together" not in fine_text


def test_no_offered_flip_makes_the_answers_contradict_each_other() -> None:
    profile = Profile.model_validate(LLM_70B)
    decision = decide(profile, Facts(), PACK)
    sens = decision.sensitivity
    assert sens is not None and sens.ruled_out > 0
    base = build_context(profile, Facts(), said_paths(profile))
    offered = [sens.smallest_flip, *sens.flips_by_framework.values()]
    for flip in filter(None, offered):
        changed = dict(base, **{flip.path: flip.to_value})
        assert not tripped(PACK.checks, changed), flip.description
    text = _render(decision, LLM_70B)
    assert "would also flip the verdict but" in text and "contradict each other" in text
    # a 10 KB device budget is no change for a project whose only target is a server
    assert all(f.path != "deployment.device_memory_mb" for f in filter(None, offered))


def _write(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "consistency.yaml"
    path.write_text(body)
    return path


CHECK = """checks:
  - id: CON001
    title: A test check
    when: {field: deployment.targets, contains: microcontroller}
    message: a message that is long enough
    basis: a basis that is long enough
    examples:
      trip: [{deployment: {targets: [microcontroller]}}]
      ok: [{deployment: {targets: [server]}}]
"""

OK_SERVER = "ok: [{deployment: {targets: [server]}}]"
WHEN = "    when: {field: deployment.targets, contains: microcontroller}\n"


@pytest.mark.parametrize(
    ("old", "new", "line", "message"),
    [
        ("trip: [{deployment: {targets: [microcontroller]}}]", "trip: [{}]", 8, "does not trip"),
        (OK_SERVER, OK_SERVER.replace("server", "microcontroller"), 9, "trips the check"),
        ("contains: microcontroller", "contains: toaster", 4, "toaster"),
        ("    basis: a basis that is long enough\n", "", 2, "evidence or a basis"),
        (WHEN, "    ratio: {of: deployment.targets, per: model.parameters, gt: 1}\n", 4, "numeric"),
        ("id: CON001", "id: RULE001", 2, "id"),
        (WHEN, "    when: {field: facts.jit_speedup.jax, gt: 1}\n", 4, "not measured facts"),
    ],
)  # fmt: skip
def test_a_bad_check_is_refused_naming_file_line_and_field(
    tmp_path: Path, old: str, new: str, line: int, message: str
) -> None:
    assert old in CHECK
    path = _write(tmp_path, CHECK.replace(old, new))
    with pytest.raises(InputError) as info:
        load_checks(path)
    text = str(info.value)
    assert text.startswith(f"{path}:{line}:") and message in text
    assert "\n" not in text


def test_a_duplicate_check_id_is_refused(tmp_path: Path) -> None:
    body = CHECK + CHECK.split("checks:\n", 1)[1]
    with pytest.raises(InputError, match="duplicate check id"):
        load_checks(_write(tmp_path, body))


def test_a_pack_without_checks_has_none(tmp_path: Path) -> None:
    assert load_checks(tmp_path / "missing.yaml") == ()


def test_rules_check_resolves_the_checks_citations() -> None:

    assert not [p for p in _problems(PACK) if p.rule.startswith("check ")]
    check = next(c for c in PACK.checks if c.evidence)
    bad = check.model_copy(
        update={"evidence": [check.evidence[0].model_copy(update={"ref": "F-NOPE"})]}
    )
    problems = [
        str(p) for p in _problems(dataclasses.replace(PACK, checks=(bad,), all_checks=(bad,)))
    ]
    assert any(f"check {check.id}: evidence[1].ref: F-NOPE" in p for p in problems)


def _problems(ruleset):
    from advisor.decide.citations import citation_problems, load_source_ids

    # pinned at the latest day any bundled check's evidence was checked
    return citation_problems(ruleset, load_source_ids(), set(), today=datetime.date(2026, 12, 3))


def test_no_fit_advice_never_offers_a_contradiction(tmp_path: Path) -> None:
    """A fit change that would trip a check is counted, not offered (the no-fit pack's only
    way out, emptying the targets, is made a contradiction by a check for this test)."""
    from advisor.decide.consistency import Check

    pack = Path(__file__).parent / "fixtures" / "no_fit_pack"
    profile = Profile.model_validate({"deployment": {"targets": ["microcontroller"]}})
    plain = load_ruleset([pack])
    assert decide(profile, Facts(), plain).no_fit.ruled_out == 0
    body = CHECK.replace(
        WHEN,
        "    when:\n      not: {field: deployment.targets, contains_any: "
        "[server, mobile, browser, microcontroller, edge, batch]}\n",
    ).replace(
        "trip: [{deployment: {targets: [microcontroller]}}]", "trip: [{deployment: {targets: []}}]"
    )
    checks = load_checks(_write(tmp_path, body))
    assert isinstance(checks[0], Check)
    guarded = dataclasses.replace(plain, checks=checks)
    no_fit = decide(profile, Facts(), guarded).no_fit
    assert no_fit is not None and no_fit.ruled_out > 0
    assert all(c.to_value != [] for c in no_fit.what_would_fit)
    text = render_report(decide(profile, Facts(), guarded), profile, None)
    n = no_fit.ruled_out
    said = f"{n} single changes that would lift" if n > 1 else "One single change that would lift"
    assert said in text and "change(s)" not in text


ANACHRONISM = {
    "hardware": {"training": ["aws_trainium"], "inference": ["nvidia_gpu"]},
    "deployment": {"targets": ["server"], "serving": "llm_serving", "serving_stack": "vllm"},
}


def test_an_answer_naming_what_did_not_exist_yet_is_warned_only_in_that_months_view() -> None:
    profile = Profile.model_validate(ANACHRONISM)
    today = decide(profile, Facts(), PACK)
    assert today.inconsistencies == []
    then = decide(profile, Facts(), PACK.at("2019-06"))
    found = {c.title: c.until for c in then.inconsistencies}
    assert found == {
        "AWS Trainium before it was generally available": "2022-10",
        "vLLM before its release": "2023-06",
    }
    assert then.recommendation.confidence != "high"
    text = render_report(then, profile, None)
    assert "name what did not exist yet in 2019-06" in text
    assert "not yet in 2019-06 (" in text
    # a month after both releases: nothing to warn about
    assert decide(profile, Facts(), PACK.at("2023-06")).inconsistencies == []


def test_a_point_in_time_flip_never_names_what_did_not_exist_yet() -> None:
    """Today 'add aws_trainium' may flip a JAX lab's verdict; in 2021 Trainium did not exist.
    (Beside TPUs it no longer flips anything: HW102 stands aside there.)"""
    profile = Profile.model_validate(
        {
            "purpose": "research",
            "hardware": {"training": ["nvidia_gpu"]},
            "team": {"experience": {"jax": "expert"}, "functional_programming": True},
            "existing_code": ["jax"],
        }
    )
    view = PACK.at("2021-06")
    sens = decide(profile, Facts(), view).sensitivity
    assert sens is not None
    offered = [sens.smallest_flip, *sens.flips_by_framework.values()]
    offered += sens.situation_flips.values()
    assert not any(f and "aws_trainium" in str(f.to_value) for f in offered)
    today = decide(profile, Facts(), PACK).sensitivity
    assert today is not None
    # the contrast, among the changes to plans (a situation, such as GPUs on native Windows
    # (HW112), may be the cheapest change overall)
    offered_today = [today.decidable_flip, *today.decidable_by_framework.values()]
    assert any(f and "aws_trainium" in str(f.to_value) for f in offered_today)


def test_a_dated_check_may_not_start_after_the_knowledge(tmp_path: Path) -> None:
    body = CHECK.replace(
        "    examples:",
        "    holds:\n      since: '2099-01'\n      basis: a dated release fixes it\n"
        "      source: {title: Notes, url: 'https://example.org', year: 2020}\n    examples:",
    )
    path = _write(tmp_path, body)
    with pytest.raises(InputError) as info:
        load_checks(path)
    text = str(info.value)
    assert text.startswith(f"{path}:8:") and "holds.since" in text and "after" in text


def test_a_user_pack_adds_its_own_checks(tmp_path: Path) -> None:
    """A pack's data/consistency.yaml joins the core's checks; an id the core already
    defines is refused, naming the user's file and line."""
    pack = tmp_path / "userpack"
    (pack / "data").mkdir(parents=True)
    (pack / "mine.yaml").write_text("rules: []\n")
    own = CHECK.replace("id: CON001", "id: CON901")
    (pack / "data" / "consistency.yaml").write_text(own)
    loaded = load_ruleset([pack])
    assert [c.id for c in loaded.checks][-1] == "CON901"
    assert len(loaded.checks) == len(PACK.checks) + 1
    profile = Profile.model_validate({"deployment": {"targets": ["microcontroller"]}})
    assert "CON901" in {c.id for c in decide(profile, Facts(), loaded).inconsistencies}
    (pack / "data" / "consistency.yaml").write_text(CHECK)  # CON001 is the core's
    with pytest.raises(InputError) as info:
        load_ruleset([pack])
    text = str(info.value)
    assert text.startswith(f"{pack / 'data' / 'consistency.yaml'}:2:")
    assert "duplicate check id (already defined in" in text and "\n" not in text


def test_naming_a_framework_before_its_release_is_warned_in_that_months_view() -> None:
    """The months come from pack.yaml's `released`, the one record of them."""
    profile = Profile.model_validate(
        {"team": {"experience": {"jax": "expert", "pytorch": "some"}}, "existing_code": ["jax"]}
    )
    then = decide(profile, Facts(), PACK.at("2016-06"))
    found = {c.id: (c.until, c.fields) for c in then.inconsistencies}
    assert found == {
        "RELEASE-pytorch": ("2017-01", ["team.experience.pytorch"]),
        "RELEASE-jax": ("2018-12", ["existing_code", "team.experience.jax"]),
    }
    assert then.recommendation.confidence != "high"
    assert decide(profile, Facts(), PACK.at("2019-01")).inconsistencies == []
    assert decide(profile, Facts(), PACK).inconsistencies == []


def test_a_warning_names_only_the_answers_it_trips_on() -> None:
    profile = Profile.model_validate(
        {"hardware": {"training": ["aws_trainium"], "inference": ["nvidia_gpu"]}}
    )
    (trainium,) = decide(profile, Facts(), PACK.at("2021-01")).inconsistencies
    assert trainium.fields == ["hardware.training"]


def test_a_point_in_time_report_says_why_a_change_is_held_back() -> None:
    profile = load_profile(next(e.path for e in list_examples() if e.name == "tpu-research-lab"))
    text = render_report(decide(profile, Facts(), PACK.at("2022-09")), profile, None)
    held = "add a device that cannot run a model of this size, or name what did not exist yet"
    assert f"contradict each other, {held} in 2022-09" in text
    today = render_report(decide(profile, Facts(), PACK), profile, None)
    assert "did not exist yet" not in today


@pytest.mark.parametrize(
    "kind", ["fifo", "device", "dangling", "directory", "data_fifo", "data_file", "data_dangling"]
)
def test_a_user_packs_irregular_consistency_file_is_refused_not_skipped(
    tmp_path: Path, kind: str
) -> None:
    import os

    pack = tmp_path / "userpack"
    pack.mkdir()
    (pack / "mine.yaml").write_text("rules: []\n")
    if kind.startswith("data_"):  # the pack's data entry itself is not a directory
        data = pack / "data"
        if kind == "data_fifo":
            os.mkfifo(data)
        elif kind == "data_file":
            data.write_text("checks: []\n")
        else:
            data.symlink_to(tmp_path / "nowhere")
        with pytest.raises(InputError, match="'data' entry must be a directory"):
            load_ruleset([pack])
        return
    (pack / "data").mkdir()
    target = pack / "data" / "consistency.yaml"
    if kind == "fifo":
        os.mkfifo(target)
    elif kind == "device":
        target.symlink_to("/dev/zero")
    elif kind == "dangling":
        target.symlink_to(tmp_path / "nowhere.yaml")
    else:
        target.mkdir()
    with pytest.raises(InputError) as info:
        load_ruleset([pack])
    assert "consistency.yaml" in str(info.value) and "\n" not in str(info.value)


def test_a_default_that_trips_a_check_does_not_excuse_a_said_contradiction() -> None:
    """8 MB on an edge device with the default 100M parameters trips the memory check only
    through a default; a 10B model said on top of it is still a contradiction."""
    profile = Profile.model_validate(
        {
            "deployment": {"targets": ["edge"], "device_memory_mb": 8},
            "team": {"experience": {"tensorflow": "expert"}},
            # close enough that a bigger model would flip the verdict, were it consistent
            "priorities": {"learning_curve": 2},
        }
    )
    d = decide(profile, Facts(), PACK)
    assert d.inconsistencies == []
    sens = d.sensitivity
    assert sens is not None and sens.ruled_out > 0
    offered = [sens.smallest_flip, sens.decidable_flip, *sens.flips_by_framework.values()]
    big = [f for f in offered if f and f.path == "model.parameters" and f.to_value >= 1e9]
    assert big == []


def test_adding_to_a_list_not_given_adds_to_its_default() -> None:
    from advisor.decide.said_context import SaidContext
    from advisor.decide.sensitivity import candidate_changes

    base = SaidContext(Profile(), Facts())
    changes = {
        (repr(old), repr(new))
        for path, old, new, _, _ in candidate_changes(base, PACK)
        if path == "hardware.training"
    }
    # saying the list: the assumed default plus an item, or the item instead of it
    assert (repr(None), repr(["nvidia_gpu", "tpu"])) in changes
    assert (repr(None), repr(["tpu"])) in changes
    assert not any(old == repr([]) for old, _ in changes)


def test_a_view_of_a_view_does_not_repeat_the_release_checks() -> None:
    import dataclasses as dc

    bare = dc.replace(PACK, checks=(), all_checks=None)
    twice = bare.at("2016-06").at("2016-06")
    ids = [c.id for c in twice.checks]
    assert sorted(ids) == ["RELEASE-jax", "RELEASE-pytorch"]


def test_rules_check_names_a_user_checks_own_file_and_line(tmp_path: Path, cli) -> None:
    """A user pack's check may give evidence without a ref (like its rules); a ref that
    docs/sources.md does not define is reported at the user's file and line, once."""
    pack = tmp_path / "userpack"
    (pack / "data").mkdir(parents=True)
    (pack / "mine.yaml").write_text("rules: []\n")
    evidence = (
        "    evidence:\n"
        "      - {title: A source, source: Somewhere, year: 2024,\n"
        "         claim: A claim that is long enough to count.}\n"
    )
    own = CHECK.replace("id: CON001", "id: CON901").replace(
        "    basis: a basis that is long enough\n", evidence
    )
    (pack / "data" / "consistency.yaml").write_text(own)
    code, _out, err = cli("rules", "check", str(pack))
    assert code == 0, err
    bad = own.replace("claim: A claim", "ref: F-NOT-A-CLAIM, claim: A claim")
    (pack / "data" / "consistency.yaml").write_text(bad)
    code, _out, err = cli("rules", "check", str(pack))
    lines = err.strip().splitlines()
    assert code == 2 and len(lines) == 1, err
    assert lines[0].startswith(f"advisor: error: {pack / 'data' / 'consistency.yaml'}:8:")
    assert "check CON901" in lines[0] and "F-NOT-A-CLAIM is not a claim id" in lines[0]


@pytest.mark.parametrize("value", ["1e400", ".inf", ".nan"])
def test_a_ratio_threshold_must_be_finite(tmp_path: Path, value: str) -> None:
    body = CHECK.replace(
        WHEN,
        f"    ratio: {{of: model.parameters, per: deployment.device_memory_mb, gt: {value}}}\n",
    )
    with pytest.raises(InputError, match="finite"):
        load_checks(_write(tmp_path, body))


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ("checked: 2099-01-01, ref: A1, ", "2099-01-01 is in the future"),
        ("ref: PKG:no-such-package, ", "is not in the package-health snapshot"),
    ],
)
def test_a_user_checks_evidence_is_held_to_what_a_user_rules_is(
    tmp_path: Path, cli, extra: str, message: str
) -> None:
    pack = tmp_path / "userpack"
    (pack / "data").mkdir(parents=True)
    (pack / "mine.yaml").write_text("rules: []\n")
    evidence = (
        "    evidence:\n"
        f"      - {{title: A source, source: Somewhere, year: 2024, {extra}\n"
        "         claim: A claim that is long enough to count.}\n"
    )
    own = CHECK.replace("id: CON001", "id: CON902").replace(
        "    basis: a basis that is long enough\n", evidence
    )
    (pack / "data" / "consistency.yaml").write_text(own)
    code, _out, err = cli("rules", "check", str(pack))
    assert code == 2 and "check CON902" in err and message in err, err
