"""Red-team round 58: round 57's changes, attacked. Each finding, fixed, with the promise it
broke (README: "what would change the verdict" never offers a change that would contradict
the other answers, and offers the ones that would not; the report says nothing the data does
not support; every list position an error names is counted from 1)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hostile_support import run
from test_hostile_round57 import _json_report, _offered


@pytest.mark.parametrize(
    "deployment",
    ["{targets: [server, edge], edge_hardware: [nvidia_jetson]}", "{targets: [server, edge]}"],
)
def test_an_edge_tpu_is_never_offered_to_a_70b_project_beside_servers(
    tmp_path: Path, deployment: str
) -> None:
    """Finding 1: with a server target beside the edge one, the check that keeps a Coral
    Edge TPU from a 70B model stood aside ('the server may run another model'), and the
    headline change was 'add edge_tpu'. An added accelerator must run the model."""
    profile = (
        f"model: {{parameters: 70B}}\npurpose: production\ndomains: [nlp]\n"
        f"deployment: {deployment}\n"
    )
    assert "edge_tpu" not in _offered(_json_report(tmp_path, profile))


@pytest.mark.parametrize(
    ("profile", "offered"),
    [
        ("model: {parameters: 5M}\ndomains: [vision]\npurpose: production\n"
         "deployment: {targets: [mobile], edge_hardware: [apple_neural_engine], "
         "serving_stack: tf_serving}\nteam: {experience: {tensorflow: some, pytorch: some}}\n",
         "'server'"),
        ("model: {parameters: 200000}\ndomains: [speech]\npurpose: production\n"
         "deployment: {targets: [edge], edge_hardware: [edge_tpu]}\nhardware: {training: [tpu]}\n"
         "existing_code: [jax]\nexisting_code_size: large\nteam: {experience: {jax: expert}}\n",
         "'microcontroller'"),
    ],
)  # fmt: skip
def test_a_device_that_can_run_the_model_is_offered_again(
    tmp_path: Path, profile: str, offered: str
) -> None:
    """Finding 2: judging an added target 'alone' kept the other deployment answers, so a
    server added to a phone app with a Neural Engine tripped 'an accelerator without a
    device target', and a microcontroller added to a 200,000-parameter Coral keyword
    spotter 'a Coral without an edge target': ordinary changes were called contradictions.
    Only the checks about the model's size judge an added device. (Since round 90 a flip
    that wins only by ruling the winner out, as a microcontroller does JAX, is headlined
    after one that outscores it at the same cost; it must still be among the changes
    offered, not ruled out.)"""
    import yaml

    from advisor.decide.rules import load_ruleset
    from advisor.decide.said_context import SaidContext
    from advisor.decide.sensitivity import find_flips
    from advisor.model.facts import Facts
    from advisor.model.profile import Profile

    data = _json_report(tmp_path, profile)
    said = Profile.model_validate(yaml.safe_load(profile))
    flips, _, _, _ = find_flips(
        SaidContext(said, Facts()), load_ruleset(), data["recommendation"]["framework"]
    )
    assert offered in json.dumps([f.model_dump() for f in flips])


def test_a_codebase_is_one_fact_not_a_decisive_one_and_a_soft_one(tmp_path: Path) -> None:
    """Finding 4: TPU-only training (decisive for JAX) against a large PyTorch codebase that
    stays (decisive for PyTorch) was decided by the codebase's soft twin (LEG003 beside
    LEG102), which lifted the confidence to medium and was called 'the other answers'."""
    profile = "hardware: {training: [tpu]}\nexisting_code: [pytorch]\nexisting_code_size: large\n"
    data = _json_report(tmp_path, profile)
    fired = {r["id"] for r in data["rules"]}
    assert "LEG102" in fired and "LEG003" not in fired
    assert data["recommendation"]["confidence"] == "low"


def test_the_soft_lead_is_said_in_the_points_the_table_shows(tmp_path: Path) -> None:
    """Finding 4 (units): the verdict said '32.6 points ahead on the other answers' as if
    they were the points table's; it now says the lead with the level decisive facts set
    aside, the number the confidence reads (round 59: the soft points it said next were not)."""
    profile = (
        "hardware: {training: [tpu]}\nexisting_code: [pytorch]\nexisting_code_size: large\n"
        "team: {experience: {pytorch: expert}}\necosystem: {huggingface: true}\n"
        "domains: [nlp, vision]\n"
    )
    data = _json_report(tmp_path, profile)
    lead = data["recommendation"]["lead_on_other_answers"]
    assert f"set aside they leave it {lead:.1f} points ahead" in data["report"]["verdict"]


def test_a_thin_profile_whose_answer_moves_the_top_two_alike_is_left_to_the_prior(
    tmp_path: Path,
) -> None:
    """Finding 5: 'purpose: production' gave PyTorch and TensorFlow +3 each and the prior
    decided, yet the report said 'the lead rests on those few answers alone'."""
    thin = _json_report(tmp_path, "purpose: production\n")["report"]["basis"]["thin"]
    assert "1 answer given, so that answer leaves the top two level and the prior decides" in thin


_JAX_FILE = """rules:
  - id: PROD901
    title: Our infra team runs JAX serving
    criterion: production
    when: {field: deployment.serving, eq: online_api}
    effects: {jax: 2}
    why: Our platform team supports JAX only.
    evidence:
      - {title: Internal wiki, source: platform team, year: 2025, claim: JAX is the only server.}
    examples:
      fire: [{deployment: {serving: online_api}}]
      ok: [{deployment: {serving: none}}]
routes:
  server:
    - route: custom
      maturity: mature
      url: "https://example.com/"
      checked: "2026-11-30"
      since: "2099-01"
"""


def test_pack_and_route_positions_are_counted_from_one(tmp_path: Path) -> None:
    """Finding 6: a route in a pack's framework file was 'server[1]' in one error and
    'routes.server.0.since' in the next."""
    (tmp_path / "pk").mkdir()
    (tmp_path / "pk" / "jax.yaml").write_text(_JAX_FILE)
    result = run("rules", "check", "pk", cwd=tmp_path)
    assert result.code == 2 and "routes.server[1].since: 2099-01" in result.err, result.err


@pytest.mark.parametrize(
    ("text", "field"),
    [
        ('deployment: {"0": 1}\n', "deployment.0:"),
        ('team: {experience: {"2": some}}\n', "team.experience.2:"),
    ],
)
def test_a_quoted_number_key_is_named_as_the_key_it_is(
    tmp_path: Path, text: str, field: str
) -> None:
    """Finding 7: renumbering worked on the joined text, so a key written "2" became the
    list position [3] of a mapping that has no list."""
    (tmp_path / "p.yaml").write_text(text)
    result = run("recommend", "p.yaml", "--probes", "none", cwd=tmp_path)
    assert result.code == 2 and field in result.err, result.err


def test_equal_negative_decisive_units_cancel_too(tmp_path: Path) -> None:
    """Finding 8: a pack's decisive fact against every framework put the scores near 0, and
    the lead of 14 soft points read as 2.9 with no lead_on_other_answers."""
    pack = tmp_path / "neg"
    pack.mkdir()
    (pack / "rules.yaml").write_text(
        "rules:\n  - id: PROD901\n    title: No framework approved for production yet\n"
        "    criterion: production\n    tier: decisive\n"
        "    when: {field: purpose, in: [production, both]}\n"
        "    effects: {pytorch: -1, jax: -1, tensorflow: -1}\n"
        "    why: Our security team has not yet approved any ML framework build.\n"
        "    evidence:\n      - {title: Internal wiki, source: security team, year: 2025, "
        "claim: No framework build is approved yet.}\n"
        "    examples: {fire: [{purpose: production}], ok: [{purpose: research}]}\n"
    )
    (tmp_path / "p.yaml").write_text(
        "purpose: production\nteam: {experience: {pytorch: expert}}\n"
        "ecosystem: {huggingface: true}\n"
    )
    result = run(
        "recommend", "p.yaml", "--probes", "none", "--rules", "neg", "--format", "json",
        cwd=tmp_path,
    )  # fmt: skip
    assert result.code == 0, result.err
    assert json.loads(result.out)["recommendation"]["lead_on_other_answers"] is not None
