"""Red-team round 57: the profile, the decision and the report read together. Each finding,
fixed, with the promise it broke (README, SECURITY.md: "what would change the verdict" never
offers an impossible change; the report says nothing the data does not support; bad input
is one line, exit 2, nothing written; reports inject no GitHub references)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hostile_support import run


def _json_report(tmp_path: Path, profile: str, *extra: str) -> dict:
    (tmp_path / "p.yaml").write_text(profile)
    result = run(
        "recommend", "p.yaml", "--probes", "none", "--format", "json", *extra, cwd=tmp_path
    )
    assert result.code == 0, result.err
    return json.loads(result.out)


def _offered(data: dict) -> str:
    """Every flip the report offers, as text."""
    s = data["sensitivity"]
    return json.dumps(
        [s["smallest_flip"], s["flips_by_framework"], s["decidable_flip"],
         s["decidable_by_framework"], s["situation_flips"]]
    )  # fmt: skip


@pytest.mark.parametrize(
    ("profile", "never"),
    [
        ("model: {parameters: 70B}\npurpose: production\ndomains: [nlp]\n"
         "deployment: {targets: [edge]}\n", "'microcontroller'"),
        ("model: {parameters: 70B}\ndeployment: {targets: [mobile]}\n", "'microcontroller'"),
        ("model: {parameters: 70B}\n"
         "deployment: {targets: [edge], edge_hardware: [nvidia_jetson]}\n", "'edge_tpu'"),
    ],
)  # fmt: skip
def test_a_device_added_to_a_large_model_is_judged_by_the_model_it_must_run(
    tmp_path: Path, profile: str, never: str
) -> None:
    """Finding 1: a 70B project targeting edge boxes or phones was told to add a
    microcontroller target (a Jetson appliance, a Coral Edge TPU), the very change
    rules/data/consistency.yaml names as one nobody can make: the checks let a second
    target stand for a second model, so an added one tripped nothing."""
    data = _json_report(tmp_path, profile)
    assert never not in _offered(data)
    assert data["sensitivity"]["ruled_out"] > 0


def _all_flips(profile: dict) -> list:
    """Every flip of the profile, not only the cheapest the report shows."""
    from advisor.decide.engine import decide
    from advisor.decide.rules import load_ruleset
    from advisor.decide.said_context import SaidContext
    from advisor.decide.sensitivity import find_flips
    from advisor.model.facts import Facts
    from advisor.model.profile import Profile

    ruleset, model = load_ruleset(), Profile.model_validate(profile)
    winner = decide(model, None, ruleset, verdict_only=True).recommendation.framework
    return find_flips(SaidContext(model, Facts()), ruleset, winner)[0]


def _adds_microcontroller(profile: dict) -> bool:
    """Whether any flip of the profile adds a microcontroller target."""
    return any(
        f.path == "deployment.targets" and "microcontroller" in (f.to_value or [])
        for f in _all_flips(profile)
    )


def test_an_added_device_that_fits_the_model_is_still_offered() -> None:
    """The other side: a 200,000-parameter phone model may add a microcontroller target; a
    70-billion-parameter one may not."""
    assert _adds_microcontroller(
        {"model": {"parameters": 200000}, "deployment": {"targets": ["mobile"]}}
    )
    assert not _adds_microcontroller(
        {"model": {"parameters": 7e10}, "deployment": {"targets": ["mobile"]}}
    )


def test_equal_decisive_facts_leave_the_confidence_to_the_other_answers(tmp_path: Path) -> None:
    """Finding 2: TPU-only training (decisive for JAX) and a large PyTorch codebase that
    stays (decisive for PyTorch) put both scores near 100; a 23-point soft lead won in
    every sample yet read '1.9 points ahead (confidence: low)'."""
    profile = (
        "hardware: {training: [tpu]}\nexisting_code: [pytorch]\nexisting_code_size: large\n"
        "team: {experience: {pytorch: expert}}\necosystem: {huggingface: true}\n"
        "domains: [nlp, vision]\n"
    )
    data = _json_report(tmp_path, profile)
    rec = data["recommendation"]
    assert rec["framework"] == "pytorch" and rec["margin"] < 5
    assert rec["lead_on_other_answers"] > 10
    assert rec["confidence"] == "medium"
    assert "the decisive facts are level" in data["report"]["verdict"]


def test_jax_earns_no_large_scale_points_where_it_does_not_run(tmp_path: Path) -> None:
    """Finding 4: SCL001 (+4) and SCL004 (+3) credited JAX on Intel Gaudi and AWS Trainium,
    beside HW103 saying Gaudi has no JAX support."""
    for hardware in ("intel_gaudi", "aws_trainium"):
        profile = (
            f"purpose: research\nmodel: {{parameters: 70B}}\ntraining: {{accelerators: 512}}\n"
            f"hardware: {{training: [{hardware}]}}\n"
        )
        fired = {r["id"] for r in _json_report(tmp_path, profile)["rules"]}
        assert not fired & {"SCL001", "SCL004"}, (hardware, fired)


def test_a_sparse_recommender_is_not_credited_with_dense_llm_stacks(tmp_path: Path) -> None:
    """Finding 5: SCL005 and SCL001 scored Megatron/TorchTitan or Gemini-style training for
    a recommender whose parameters are embedding rows (SCL002 already stood aside)."""
    for hardware in ("nvidia_gpu", "tpu"):
        profile = (
            f"purpose: research\nmodel: {{parameters: 50B}}\nhardware: {{training: [{hardware}]}}\n"
            "workload: {sparse_embeddings: true}\n"
        )
        fired = {r["id"] for r in _json_report(tmp_path, profile)["rules"]}
        assert not fired & {"SCL001", "SCL005"}, (hardware, fired)


def test_a_soft_lead_on_a_thin_profile_is_not_called_close_to_the_prior(tmp_path: Path) -> None:
    """Finding 6: two answers gave PyTorch +9 and JAX -2, and the report said 'the scores
    are close to the prior'; one neutral priority read '1 priorities'."""
    data = _json_report(
        tmp_path, "ecosystem: {huggingface: true}\nteam: {experience: {pytorch: expert}}\n"
    )
    thin = data["report"]["basis"]["thin"]
    assert "close to the prior" not in thin and "rests on those answers" in thin
    data = _json_report(tmp_path, "domains: [nlp]\npriorities: {raw_performance: 3}\n")
    assert "(and 1 priority left at neutral)" in data["report"]["basis"]["thin"]


@pytest.mark.parametrize("name", [b"r\x9b.md", b"q\xff.yaml"])
def test_an_output_name_with_bytes_that_are_not_utf8_is_refused(
    tmp_path: Path, name: bytes
) -> None:
    """Finding 7: -o took a name holding byte 0x9b (the 8-bit CSI), which U+009B is refused
    as; the file was written."""
    import os

    (tmp_path / "p.yaml").write_text("purpose: research\n")
    command = ["recommend", "p.yaml", "--probes", "none", "-o"]
    if name.endswith(b".yaml"):
        command = ["ask", "--defaults", "-o"]
    result = run(*command, os.fsdecode(name), cwd=tmp_path)
    assert result.code == 2 and "not UTF-8" in result.err, result.err
    assert len(result.err.strip().splitlines()) == 1
    assert sorted(os.listdir(tmp_path)) == ["p.yaml"]


def test_a_sub_megabyte_ethos_u_board_filed_as_edge_is_consistent(tmp_path: Path) -> None:
    """Finding 8: a 1.5M-parameter model on a Cortex-M55 + Ethos-U55 board with 512 KB,
    targeted as 'edge', tripped CON004: such a system keeps its weights in flash."""
    profile = (
        "model: {parameters: 1500000}\n"
        "deployment: {targets: [edge], edge_hardware: [arm_ethos], device_memory_mb: 0.5}\n"
    )
    assert _json_report(tmp_path, profile)["inconsistencies"] == []


def test_error_positions_are_counted_from_one_everywhere(tmp_path: Path) -> None:
    """Finding 9: rules were numbered from 0 (rules[0]) and conditions from 1 (when.all[2])
    on the same line, and a duplicate key inside a condition read 'when.all.1.eq'."""
    (tmp_path / "pack").mkdir()
    rule = "  - id: {rid}\n    title: t\n    criterion: ecosystem\n    when: {when}\n"
    text = "rules:\n" + rule.format(
        rid="prod-901",
        when="{all: [{field: purpose, eq: research}, {field: purpose, eq: a, eq: b}]}",
    )
    (tmp_path / "pack" / "r.yaml").write_text(text)
    result = run("rules", "check", "pack", cwd=tmp_path)
    assert result.code == 2
    assert "rules[1]: when.all[2].eq: duplicate key 'eq'" in result.err, result.err
    (tmp_path / "p.yaml").write_text("hardware: {training: [nvidia_gpu, tpuu]}\n")
    result = run("recommend", "p.yaml", "--probes", "none", cwd=tmp_path)
    assert result.code == 2 and "hardware.training[2]:" in result.err, result.err


def test_a_bare_commit_sha_is_broken_too() -> None:
    """Finding 10: GitHub links a bare commit SHA (7 to 40 hex characters) to the commit."""
    from advisor.model.terminal_text import JOINER
    from advisor.report.text import md_inline

    assert md_inline("fix 0352b13abd7c") == f"fix 0{JOINER}352b13abd7c"
    assert md_inline("owner/repo@a1b2c3d") == f"owner/repo@{JOINER}a1b2c3d"  # one joiner
    for plain in ("1000000 steps", "deadbeef", "a 7B model", "abc123"):  # not a SHA
        assert JOINER not in md_inline(plain), plain


def test_a_vllm_stack_served_only_on_tpus_is_left_to_the_tpu_route(tmp_path: Path) -> None:
    """Finding 3: PROD102 credited PyTorch +3 for a vLLM stack whose models 'land first on
    GPUs' when the project serves on TPUs only, where PROD106 weighs vLLM's JAX and
    PyTorch back ends: one fact, one rule."""
    profile = (
        "deployment: {targets: [server], serving: llm_serving, serving_stack: vllm}\n"
        "hardware: {training: [tpu], inference: [tpu]}\ndomains: [nlp]\n"
    )
    fired = {r["id"] for r in _json_report(tmp_path, profile)["rules"]}
    assert "PROD106" in fired and "PROD102" not in fired
