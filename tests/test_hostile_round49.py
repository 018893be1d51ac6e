"""Red-team round 49: what backs a verdict when answers are unsaid, and thin profiles."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from hostile_support import run

PACKS = Path(__file__).parent / "fixtures" / "round49"
# three answers a bundled rule reads (team.size alone would not count: round 83)
THREE = "purpose: research\ndomains: [nlp]\nteam: {size: 3}\ntraining: {federated: false}\n"


def _verdict(tmp_path: Path, profile: str, pack: str | None = None) -> dict:
    args = ["recommend", "p.yaml", "--probes", "none", "--format", "json"]
    if pack:
        (tmp_path / "pack").mkdir(exist_ok=True)
        shutil.copy(PACKS / f"{pack}.yaml", tmp_path / "pack" / "legacy.yaml")
        args += ["--rules", "pack"]
    (tmp_path / "p.yaml").write_text(profile)
    result = run(*args, cwd=tmp_path)
    assert result.code == 0, result.err
    data = json.loads(result.out)
    rec = data["recommendation"]
    return {**rec, "thin": data["thin_profile"], "data": data}


def test_an_unsaid_answer_read_under_a_not_backs_nothing(tmp_path: Path) -> None:
    """p1: a decisive rule whose whole condition is {not: {migrating_away eq true, unsaid:
    false}} gave an empty profile "high"."""
    empty = _verdict(tmp_path, "{}\n", "p1")
    assert empty["confidence"] == "low" and empty["thin"]
    three = _verdict(tmp_path, THREE, "p1")
    assert three["confidence"] == "medium" and "migrating_away" in three["confidence_capped"]


def test_a_rival_vetoed_only_through_an_unsaid_answer_still_counts(tmp_path: Path) -> None:
    """p6: JAX leads on a said decisive fact but is vetoed only through unsaid
    migrating_away; PyTorch had been 'high'."""
    three = _verdict(tmp_path, THREE, "p6")
    assert three["framework"] == "pytorch" and three["confidence"] == "medium"
    assert "migrating_away" in three["confidence_capped"]
    said = _verdict(tmp_path, THREE + "migrating_away: true\n", "p6")
    assert said["framework"] == "jax"


def test_a_rival_already_beaten_and_also_vetoed_through_an_unsaid_answer_demotes_nothing(
    tmp_path: Path,
) -> None:
    """p7: JAX leads on a said decisive fact; TensorFlow, also vetoed through an unsaid
    answer, had demoted it to medium with a false reason."""
    for profile in (THREE, THREE + "migrating_away: true\n"):
        verdict = _verdict(tmp_path, profile, "p7")
        assert (verdict["framework"], verdict["confidence"]) == ("jax", "high")
        assert verdict["confidence_capped"] is None


def test_priorities_left_at_the_neutral_3_do_not_thicken_a_profile(tmp_path: Path) -> None:
    one = _verdict(tmp_path, "ecosystem: {huggingface: true}\n")
    neutral = _verdict(
        tmp_path,
        "ecosystem: {huggingface: true}\npriorities: {raw_performance: 3, learning_curve: 3}\n",
    )
    assert one["thin"] and neutral["thin"] and neutral["confidence"] == "low"


def test_a_criterion_whose_rule_vetoed_is_not_one_where_no_rule_fired(tmp_path: Path) -> None:
    (tmp_path / "p.yaml").write_text("migrating_away: true\nexisting_code: [pytorch]\n")
    text = run("recommend", "p.yaml", "--probes", "none", cwd=tmp_path).out
    assert "PyTorch is ruled out" in text and "(rule `LEG105`)" in text
    fired_none = next(line for line in text.splitlines() if line.startswith("No rule fired"))
    assert "Legacy" not in fired_none


@pytest.mark.parametrize("pack", ["p1", "p6", "p7", "p9"])
def test_the_round49_packs_are_valid(tmp_path: Path, pack: str) -> None:
    (tmp_path / "pack").mkdir()
    shutil.copy(PACKS / f"{pack}.yaml", tmp_path / "pack" / "legacy.yaml")
    result = run("rules", "check", "pack", cwd=tmp_path)
    assert result.code == 0, result.err


def _soft_pack(folder: Path, rule_id: str, checked: str) -> None:
    folder.mkdir()
    (folder / "hardware.yaml").write_text(
        f"rules:\n  - id: {rule_id}\n    title: My own hardware preference\n"
        "    criterion: hardware\n    when: {field: purpose, eq: research}\n"
        "    effects: {pytorch: 1, jax: 1}\n"
        "    why: Our lab prefers these two frameworks for research on our cluster.\n"
        f"    evidence:\n      - {{title: My note, source: me, year: 2019, checked: {checked},"
        " claim: We prefer these.}\n"
        "    examples:\n      fire: [{purpose: research}]\n      ok: [{purpose: production}]\n"
    )


def test_the_staleness_warning_names_every_stale_pack_rule_and_only_due_remedies(
    tmp_path: Path,
) -> None:
    """Round 49: only the pack rules at the single oldest date were named, and 'update
    advisor' was offered though the advisor's own evidence was current."""
    _soft_pack(tmp_path / "packA", "HW914", "2020-01-05")
    _soft_pack(tmp_path / "packB", "HW915", "2021-06-01")
    (tmp_path / "p.yaml").write_text(THREE)
    args = ("recommend", "p.yaml", "--probes", "none", "--rules", "packA", "--rules", "packB")
    warning = json.loads(run(*args, "--format", "json", cwd=tmp_path).out)["knowledge"]
    text = warning["stale_warning"]
    assert "HW914 (packA), HW915 (packB)" in text
    assert "update advisor" not in text  # the bundled evidence that fired is current


def test_a_change_that_lets_every_framework_fit_names_them_all(tmp_path: Path) -> None:
    """Round 49: 'one change would let JAX fit' (alphabetical), while PyTorch then wins."""
    (tmp_path / "pack").mkdir()
    reason = "Our research office forbids every framework for now."
    (tmp_path / "pack" / "legacy.yaml").write_text(
        "rules:\n  - id: LEG990\n    title: Research rules out everything here\n"
        "    criterion: legacy\n    when: {field: purpose, eq: research}\n    veto:\n"
        f"      pytorch: {reason}\n      jax: {reason}\n      tensorflow: {reason}\n"
        "    why: Our research office forbids every framework for now, by policy.\n"
        "    evidence:\n      - {title: My note, source: me, year: 2024, claim: All vetoed.}\n"
        "    examples:\n      fire: [{purpose: research}]\n      ok: [{purpose: production}]\n"
    )
    (tmp_path / "p.yaml").write_text(THREE)
    text = run("recommend", "p.yaml", "--probes", "none", "--rules", "pack", cwd=tmp_path).out
    assert "one change would let PyTorch, JAX and TensorFlow fit: purpose: research" in text


def test_rules_check_stale_lists_a_consistency_checks_evidence(tmp_path: Path) -> None:
    """Round 49: --stale never listed the evidence a consistency check cites."""
    (tmp_path / "pack" / "data").mkdir(parents=True)
    (tmp_path / "pack" / "data" / "consistency.yaml").write_text(
        "checks:\n  - id: CON901\n    title: Research with a team of three\n    when:\n"
        "      all:\n        - {field: purpose, eq: research}\n"
        "        - {field: team.size, eq: 3}\n"
        "    message: research with three people is not something our office allows\n"
        "    evidence:\n      - {title: My note, source: me, year: 2019, checked: 2019-01-05,"
        " claim: We do not.}\n"
        "    examples:\n      trip: [{purpose: research, team: {size: 3}}]\n"
        "      ok: [{purpose: production}]\n"
    )
    result = run("rules", "check", "pack", "--stale", "30", cwd=tmp_path)
    assert result.code == 1, result.err
    assert "stale: CON901: My note: checked 2019-01-05" in result.out


def test_a_packs_consistency_check_is_attributed_to_the_pack(tmp_path: Path) -> None:
    """Round 49: a pack's check capped the confidence and read as bundled knowledge."""
    test_rules_check_stale_lists_a_consistency_checks_evidence(tmp_path)  # writes pack/
    (tmp_path / "p.yaml").write_text(THREE)
    args = ("recommend", "p.yaml", "--probes", "none", "--rules", "pack")
    text = run(*args, cwd=tmp_path).out
    assert "+ 1 consistency check of your own (pack)" in text.splitlines()[2]
    assert "(CON901: purpose, team.size; from your pack pack)" in text
    data = json.loads(run(*args, "--format", "json", cwd=tmp_path).out)
    assert data["ruleset"]["packs"] == ["pack"] and data["ruleset"]["pack_checks"] == 1
    assert [c["pack"] for c in data["inconsistencies"]] == ["pack"]


def test_a_decisive_fact_against_the_rivals_is_listed_for_the_framework_it_spares(
    tmp_path: Path,
) -> None:
    """p9: units against JAX and TensorFlow backed a "high" PyTorch but no list showed it."""
    verdict = _verdict(tmp_path, THREE + "migrating_away: false\n", "p9")
    assert verdict["confidence"] == "high"
    assert verdict["data"]["decisive_facts"] == {"pytorch": ["LEG902"]}


# ---------------------------------------------------------------- round 50 (attacking 49)

PACK_RULE = """  - id: {id}
    title: A fact of our own about this project
    criterion: legacy
    {tier}
    when: {when}
    {what}
    why: Our own note says so for every project of this kind here.
    evidence:
      - {{title: My note, source: me, year: 2024, claim: Our own note.}}
    examples:
      fire: [{fire}]
      ok: [{ok}]
"""


def _pack(tmp_path: Path, *rules: dict[str, str]) -> None:
    (tmp_path / "pack").mkdir(exist_ok=True)
    body = "".join(PACK_RULE.format(**{"tier": "tier: decisive", **r}) for r in rules)
    (tmp_path / "pack" / "legacy.yaml").write_text("rules:\n" + body)


def _run(tmp_path: Path, profile: str) -> dict:
    (tmp_path / "p.yaml").write_text(profile)
    args = ("recommend", "p.yaml", "--probes", "none", "--rules", "pack", "--format", "json")
    result = run(*args, cwd=tmp_path)
    assert result.code == 0, result.err
    data = json.loads(result.out)
    return {**data["recommendation"], "thin": data["thin_profile"], "data": data}


NOT_MIGRATING = "{not: {field: migrating_away, eq: true, unsaid: false}}"


@pytest.mark.parametrize(
    ("when", "profile"),
    [
        # a measured fact is no said answer (facts are always in the context)
        (f"{{any: [{{field: facts.accelerator_count, gt: 1000}}, {NOT_MIGRATING}]}}", "{}\n"),
        # a said answer that is false does not carry the unsaid branch of an any
        (f"{{any: [{{field: purpose, eq: research}}, {NOT_MIGRATING}]}}", "purpose: production\n"),
        # two unsaid branches of an any hide each other one at a time (answers the
        # questionnaire asks of this profile: one it would not ask caps nothing, round 65)
        (
            "{all: [{field: purpose, eq: production}, {any: [{field: team.new_to_deep_learning,"
            " eq: false, unsaid: true}, {field: team.numpy, eq: false, unsaid: true}]}]}",
            "purpose: production\n",
        ),
        # not-not is the condition itself, not an exception
        (
            "{all: [{field: purpose, eq: production}, {not: {not: {field:"
            " team.new_to_deep_learning, eq: false, unsaid: true}}}]}",
            "purpose: production\n",
        ),
    ],
)
def test_a_decisive_fact_that_needs_an_unsaid_answer_backs_nothing(
    tmp_path: Path, when: str, profile: str
) -> None:
    unsaid = "migrating_away" if "migrating_away" in when else "team.new_to_deep_learning"
    ok = "{migrating_away: true}" if unsaid == "migrating_away" else "{purpose: research}"
    _pack(tmp_path, {"id": "LEG971", "when": when, "what": "effects: {jax: 1}",
                     "fire": "{purpose: production}", "ok": ok})  # fmt: skip
    thin = _run(tmp_path, profile)
    assert thin["confidence"] == "low" and thin["thin"]
    base = "" if profile == "{}\n" else profile
    more = "domains: [nlp]\nteam: {size: 3}\ntraining: {federated: false}\n"
    more += "" if base else "deployment: {serving: none}\n"
    fuller = _run(tmp_path, base + more)
    assert fuller["confidence"] == "medium" and unsaid in fuller["confidence_capped"]


def test_an_answer_the_questionnaire_would_not_ask_caps_nothing(tmp_path: Path) -> None:
    """Round 65: with no framework code the questionnaire never asks whether the team
    leaves it; a fact resting on a said answer and that one is backed. A fact resting on
    nothing said stays unbacked (round 48), unasked answers or not."""
    when = (
        "{all: [{field: purpose, eq: production},"
        " {field: migrating_away, eq: false, unsaid: true}]}"
    )
    _pack(tmp_path, {"id": "LEG972", "when": when, "what": "effects: {jax: 1}",
                     "fire": "{purpose: production}", "ok": "{purpose: research}"})  # fmt: skip
    fuller = _run(tmp_path, "purpose: production\ndomains: [nlp]\nteam: {size: 3}\n")
    assert fuller["confidence"] == "high" and fuller["confidence_capped"] is None
    coded = "purpose: production\ndomains: [nlp]\nteam: {size: 3}\nexisting_code: [tf2_keras]\n"
    verdict = _run(tmp_path, coded)
    assert verdict["confidence_capped"] and "migrating_away" in verdict["confidence_capped"]


def test_a_fact_against_one_framework_is_no_conflict(tmp_path: Path) -> None:
    """a2: a fact only against JAX had 'favoured' PyTorch and TensorFlow, a conflict."""
    _pack(
        tmp_path,
        {"id": "LEG950", "when": "{field: purpose, eq: research}", "what": "effects: {jax: -1}",
         "fire": "{purpose: research}", "ok": "{purpose: production}"},
        {"id": "LEG951", "when": "{field: domains, contains: nlp}",
         "what": "effects: {pytorch: 1}", "fire": "{domains: [nlp]}", "ok": "{domains: [rl]}"},
    )  # fmt: skip
    verdict = _run(tmp_path, THREE)
    assert verdict["data"]["decisive_conflict"] is False
    # it favours PyTorch and TensorFlow alike over JAX: no pull against the verdict
    facts = verdict["data"]["decisive_facts"]
    assert facts == {"pytorch": ["LEG950", "LEG951"], "tensorflow": ["LEG950"]}
    assert verdict["confidence"] == "high"


def test_the_no_fit_change_names_every_framework_it_lets_fit(tmp_path: Path) -> None:
    """v1: 'team.size 3 -> 2' lifts PyTorch's veto too, but only JAX was named."""
    veto = "veto: {{{fw}: 'Ruled out here by our own note.'}}"
    _pack(
        tmp_path,
        {"id": "LEG994", "tier": "", "when": "{field: team.size, eq: 3}",
         "what": veto.format(fw="jax"), "fire": "{team: {size: 3}}", "ok": "{team: {size: 2}}"},
        {"id": "LEG995", "tier": "",
         "when": "{all: [{field: purpose, eq: research}, {field: team.size, eq: 3}]}",
         "what": veto.format(fw="pytorch"), "fire": "{purpose: research, team: {size: 3}}",
         "ok": "{purpose: production}"},
        {"id": "LEG996", "tier": "", "when": "{field: domains, contains: nlp}",
         "what": veto.format(fw="tensorflow"), "fire": "{domains: [nlp]}",
         "ok": "{domains: [rl]}"},
    )  # fmt: skip
    (tmp_path / "p.yaml").write_text(THREE)
    text = run("recommend", "p.yaml", "--probes", "none", "--rules", "pack", cwd=tmp_path).out
    assert "one change would let PyTorch and JAX fit: team.size: 3 → 2" in text


def test_a_pack_file_named_beside_its_folder_is_read_once_and_credited_as_named(
    tmp_path: Path,
) -> None:
    """Round 50: a file and its folder were a 'duplicate rule id' of themselves; the bundled
    pack's own file was refused; a file pack was credited to its folder ('.')."""
    _pack(tmp_path, {"id": "LEG950", "when": "{field: purpose, eq: research}",
                     "what": "effects: {jax: -1}", "fire": "{purpose: research}",
                     "ok": "{purpose: production}"})  # fmt: skip
    (tmp_path / "p.yaml").write_text(THREE)
    base = ("recommend", "p.yaml", "--probes", "none", "--format", "json")
    both = run(*base, "--rules", "pack/legacy.yaml", "--rules", "pack", cwd=tmp_path)
    assert both.code == 0, both.err
    assert json.loads(both.out)["ruleset"]["packs"] == ["pack/legacy.yaml"]
    from hostile_support import ROOT

    bundled = ROOT / "rules" / "legacy.yaml"  # the pack the child (PYTHONPATH=ROOT) bundles
    again = run(*base, "--rules", str(bundled), cwd=tmp_path)
    assert again.code == 0, again.err
    assert json.loads(again.out)["ruleset"]["packs"] == []
    alone = run(*base[:1], "../p.yaml", *base[2:], "--rules", "legacy.yaml", cwd=tmp_path / "pack")
    assert json.loads(alone.out)["ruleset"]["packs"] == ["legacy.yaml"]


def test_a_tripped_pack_checks_old_evidence_dates_the_report(tmp_path: Path) -> None:
    """Round 50: a pack check checked in 2019 capped the confidence of a report 'as of' today."""
    test_rules_check_stale_lists_a_consistency_checks_evidence(tmp_path)  # writes pack/
    (tmp_path / "p.yaml").write_text(THREE)
    args = ("recommend", "p.yaml", "--probes", "none", "--rules", "pack", "--format", "json")
    knowledge = json.loads(run(*args, cwd=tmp_path).out)["knowledge"]
    assert knowledge["as_of"] == "2019-01-05"
    assert "refresh the evidence of your own checks CON901 (pack)" in knowledge["stale_warning"]
    assert "update advisor" not in knowledge["stale_warning"]


def test_a_pack_folder_name_is_escaped_as_text_in_why(tmp_path: Path) -> None:
    """Round 50: in a code span its braces stayed raw (a Liquid pipeline expands them) and
    a pipe showed a backslash."""
    _pack(tmp_path, {"id": "LEG950", "when": "{field: purpose, eq: research}",
                     "what": "effects: {jax: 1}", "fire": "{purpose: research}",
                     "ok": "{purpose: production}"})  # fmt: skip
    odd = tmp_path / "{{x}}|y"
    (tmp_path / "pack").rename(odd)
    (tmp_path / "p.yaml").write_text(THREE)
    text = run("recommend", "p.yaml", "--probes", "none", "--rules", odd.name, cwd=tmp_path).out
    line = next(x for x in text.splitlines() if "from your pack" in x)
    assert "from your pack \\{\\{x\\}\\}\\|y)" in line and "`{{" not in line


# ---------------------------------------------------------------- round 51 (attacking 50)

ROUND51 = Path(__file__).parent / "fixtures" / "round51"


def _with(tmp_path: Path, pack: str, profile: str) -> dict:
    (tmp_path / "pack").mkdir(exist_ok=True)
    (tmp_path / "pack" / "rules.yaml").write_text((ROUND51 / f"{pack}.yaml").read_text())
    return _run(tmp_path, profile)


# team.size is read by no bundled rule: the federated answer makes three (round 83)
PROF_B = "purpose: research\nteam: {size: 4}\ndomains: [nlp]\ntraining: {federated: false}\n"


def test_the_omitted_answers_named_are_the_ones_that_matter(tmp_path: Path) -> None:
    """Bundled PROD105/PROD101: 'made unknown together' had named domains and
    existing_code too, answers the verdict does not need. (With PyTorch code, so that the
    questionnaire asks whether the team leaves it: round 65.)"""
    (tmp_path / "p.yaml").write_text(
        "purpose: production\nmodel: {parameters: 8B}\n"
        "hardware: {training: [nvidia_gpu], inference: [nvidia_gpu]}\n"
        "deployment: {targets: [server], serving: llm_serving, serving_stack: vllm}\n"
        "team: {size: 6, experience: {pytorch: expert}}\nexisting_code: [pytorch]\n"
    )
    data = json.loads(run("recommend", "p.yaml", "--probes", "none", "--format", "json",
                          cwd=tmp_path).out)  # fmt: skip
    capped = data["recommendation"]["confidence_capped"]
    assert capped.endswith("omits: migrating_away, weighing_a_move")


def test_a_fact_against_the_only_rival_standing_is_listed_for_the_winner(tmp_path: Path) -> None:
    verdict = _with(tmp_path, "packG", PROF_B)
    assert verdict["confidence"] == "high"
    assert verdict["data"]["decisive_facts"] == {"pytorch": ["SCL971"]}


def test_a_fact_favouring_two_alike_is_no_conflict(tmp_path: Path) -> None:
    verdict = _with(tmp_path, "packB", PROF_B)
    assert verdict["data"]["decisive_conflict"] is False
    assert verdict["confidence"] == "high"


def test_a_negation_of_a_negation_inside_an_any_is_no_exception(tmp_path: Path) -> None:
    # an answer the questionnaire asks of this profile (round 65: one it would not ask,
    # such as migrating_away with no framework code, caps nothing)
    verdict = _with(tmp_path, "packF2", PROF_B)
    capped = verdict["confidence_capped"]
    assert verdict["confidence"] == "medium" and "team.new_to_deep_learning" in capped


# ---------------------------------------------------------------- round 52 (attacking 51)

PROF_B52 = (
    "purpose: research\nmodel: {parameters: 100M}\nhardware: {training: [nvidia_gpu]}\n"
    "team: {size: 4, experience: {pytorch: expert}}\npriorities: {prototyping_speed: 5}\n"
)


def test_a_fact_whose_top_framework_is_vetoed_favours_the_best_one_standing(
    tmp_path: Path,
) -> None:
    """packH: {jax: 2, pytorch: 1} with JAX vetoed backed a high PyTorch listed under JAX."""
    verdict = _with(tmp_path, "packH", PROF_B52)
    assert verdict["confidence"] == "high"
    assert verdict["data"]["decisive_facts"] == {"pytorch": ["SCL981"]}


def test_a_fact_for_a_rival_over_the_winner_is_a_conflict(tmp_path: Path) -> None:
    """packJ: packH plus a fact for TensorFlow pull different ways."""
    verdict = _with(tmp_path, "packJ", PROF_B52)
    assert verdict["data"]["decisive_conflict"] is True


def test_facts_that_only_tell_two_rivals_apart_are_no_conflict(tmp_path: Path) -> None:
    """packK: three facts all favour PyTorch at least as much as any rival."""
    verdict = _with(tmp_path, "packK", PROF_B52)
    assert verdict["data"]["decisive_conflict"] is False
    assert verdict["confidence"] == "high"
