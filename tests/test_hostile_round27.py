"""Red-team round 27: `rules show` of a rule that ended before any view can hold, display-only
fields no rule reads (tests/test_decision_model.py), a measuring command the advisor
accepts in point-in-time reports, a readable report when every framework is ruled out, and
a decisive lead that needs no shown margin for "medium"."""

from __future__ import annotations

from pathlib import Path

from hostile_support import run

OLD_RULE = """rules:
  - id: DEP901
    title: An old rule
    criterion: deployment
    holds:
      until: "1900-01"
      basis: It held long ago in the old days.
      source: {title: Some old source, url: "https://example.com/x", year: 2010}
    when: {field: deployment.targets, contains: mobile}
    effects: {tensorflow: 1}
    why: because of reasons long ago
    evidence:
      - {title: ttt, source: ss, year: 2010, claim: claim claim claim}
    examples:
      fire: [{deployment: {targets: [mobile]}}]
      ok: [{deployment: {targets: [server]}}]
"""


def test_rules_show_of_a_rule_that_ended_in_1900(tmp_path: Path) -> None:
    (tmp_path / "pk").mkdir()
    (tmp_path / "pk" / "r.yaml").write_text(OLD_RULE)
    done = run("rules", "show", "DEP901", "--rules", "pk", cwd=tmp_path)
    assert done.code == 0, done.err
    assert "held until 1900-01" in done.out


def test_a_point_in_time_report_offers_a_measuring_command_that_runs(tmp_path: Path) -> None:
    done = run("recommend", "--example", "student-starter", "--as-of", "2020-01", cwd=tmp_path)
    assert done.code == 0, done.err
    measure = next(x for x in done.out.splitlines() if x.endswith("--probes quick"))
    assert "--as-of" not in measure
    assert "advisor recommend --example student-starter --as-of 2020-01 --probes none" in done.out


def test_every_framework_ruled_out_reads_as_sentences(tmp_path: Path) -> None:
    (tmp_path / "p.yaml").write_text("existing_code: [tf1]\nmigrating_away: true\n")
    done = run("recommend", "p.yaml", "--as-of", "2016-06", cwd=tmp_path)
    assert done.code == 0, done.err
    assert " by ;" not in done.out and " by )" not in done.out and "they test ." not in done.out
    assert "JAX not yet released" in done.out
    assert "**JAX** was not yet released in the month this view is of" in done.out


def test_a_decisive_lead_is_at_least_medium_whatever_the_shown_margin(tmp_path: Path) -> None:
    (tmp_path / "sat.yaml").write_text(
        "hardware: {training: [tpu]}\n"
        "workload: {compiled_training_loop: true, simulator: accelerator_jax}\n"
        "existing_code: [pytorch]\nexisting_code_size: large\n"
        "migrating_away: false\nweighing_a_move: false\n"
        "deployment: {targets: [server], serving_stack: vllm}\n"
        "team: {experience: {pytorch: expert}}\n"
    )
    done = run("recommend", "sat.yaml", "--probes", "none", cwd=tmp_path)
    assert done.code == 0, done.err
    verdict = next(x for x in done.out.splitlines() if x.startswith("**Build on"))
    assert "ahead on decisive facts" in verdict and "confidence: medium" in verdict, verdict


def test_a_user_packs_rule_examples_still_run_on_every_recommendation(tmp_path: Path) -> None:
    """A recommendation skips the bundled pack's fixtures (tested), never a user pack's."""
    (tmp_path / "pk").mkdir()
    (tmp_path / "pk" / "r.yaml").write_text(
        OLD_RULE.replace(
            'holds:\n      until: "1900-01"', 'holds:\n      until: "2030-01"'
        ).replace("{deployment: {targets: [server]}}", "{deployment: {targets: [mobile]}}")
    )
    done = run("recommend", "--example", "student-starter", "--probes", "none", "--rules", "pk",
               cwd=tmp_path)  # fmt: skip
    assert done.code == 2, done.err
    assert "examples.ok[1]" in done.err and "should not fire" in done.err
