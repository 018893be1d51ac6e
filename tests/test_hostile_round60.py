"""Red-team round 60: sentences about ties and the prior, and the advice for FPGA logic.

At a tie what the answers alone gave outranks the prior (ruleset 2026.12.30); these tests
keep every sentence about the tie, the prior and the perturbations true to that order.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hostile_support import run
from test_hostile_round57 import _json_report

from advisor.decide.engine import decide
from advisor.decide.rules import load_ruleset
from advisor.model.profile import Profile

PRIOR_DECIDES = "the prior decides"


def test_a_tie_the_answers_broke_is_not_credited_to_the_prior(tmp_path: Path) -> None:
    """Finding 1a: one answer (a browser target) broke a tie the prior had levelled, yet
    the thin-profile sentence said the prior decided it."""
    data = _json_report(tmp_path, "deployment: {targets: [browser]}\n")
    rec, thin = data["recommendation"], data["report"]["basis"]["thin"]
    assert rec["tie_broken"] and "outranks the prior" in rec["tie_note"]
    assert PRIOR_DECIDES not in thin and "tie-break settles them" in thin


@pytest.mark.parametrize(
    ("profile", "as_of"),
    [
        # JAX and TensorFlow tie, and the prior gives each 0 (finding 1b)
        ("purpose: research\ndomains: [recommender]\nexisting_code: [jax, tf2_keras]\n"
         "existing_code_size: large\n", None),
        # TensorFlow 0.1 ahead of JAX, prior 0 each
        ("existing_code: [tf2_keras]\nexisting_code_size: large\nhardware: {training: [tpu]}\n"
         "deployment: {serving_stack: triton}\n", None),
        # the answers alone already put PyTorch ahead (finding 1c)
        ("hardware: {training: [amd_gpu, nvidia_gpu]}\n", None),
        # no prior holds in 2021 (finding 1d)
        ("team: {experience: {jax: some, pytorch: some}}\n", "2021-01"),
    ],
)  # fmt: skip
def test_the_prior_is_said_to_decide_only_where_it_does(
    tmp_path: Path, profile: str, as_of: str | None
) -> None:
    extra = ("--as-of", as_of) if as_of else ()
    basis = _json_report(tmp_path, profile, *extra)["report"]["basis"]
    text = " ".join([basis["thin"] or "", *basis["decisive"]])
    assert PRIOR_DECIDES not in text, text


def test_an_empty_profile_without_a_prior_is_close_to_level_not_to_the_prior(
    tmp_path: Path,
) -> None:
    thin = _json_report(tmp_path, "{}\n", "--as-of", "2021-01")["report"]["basis"]["thin"]
    assert "close to level" in thin and "close to the prior" not in thin


def test_a_three_way_tie_explains_each_place_and_the_verdict_names_both_rivals(
    tmp_path: Path,
) -> None:
    """Finding 2: 'broken alphabetically' was said of the order JAX, TensorFlow, PyTorch,
    and '(1 vs 1 vs 0) as many supporting rules'; the verdict named one rival."""
    profile = "purpose: both\nteam: {experience: {jax: expert, tensorflow: some}}\n"
    data = _json_report(tmp_path, profile)
    names = [e["framework"] for e in data["ranking"]]
    assert names == ["jax", "tensorflow", "pytorch"]
    note = data["recommendation"]["tie_note"]
    assert (
        "JAX and TensorFlow have as many supporting rules (2) and are ordered alphabetically"
        in note
    )
    assert "PyTorch is level with TensorFlow only because of the prior" in note
    assert "ties with TensorFlow and PyTorch" in data["report"]["verdict"]


def test_a_tie_whose_runner_up_wins_more_perturbations_says_so() -> None:
    """Finding 3: 'Build on TensorFlow' beside perturbations won 52% by PyTorch, 35% by it."""
    d = decide(
        Profile.model_validate({"deployment": {"targets": ["browser"]}}), None, load_ruleset()
    )
    rec, wins = d.recommendation, d.sensitivity.win_probability if d.sensitivity else {}
    assert rec.runner_up and wins[rec.runner_up] > wins[rec.framework or ""]
    assert "The random perturbations favour PyTorch" in (rec.tie_note or "")


def _markdown(tmp_path: Path, profile: str) -> str:
    (tmp_path / "p.yaml").write_text(profile)
    result = run("recommend", "p.yaml", "--probes", "none", cwd=tmp_path)
    assert result.code == 0, result.err
    return result.out


def test_jax_for_fpga_logic_is_given_the_keras_3_route_not_flax(tmp_path: Path) -> None:
    """Finding 4a: JAX won on TPU-only training and was given a Flax NNX stack, which no
    FPGA tool converts, while DEP112 said JAX had no route."""
    out = _markdown(
        tmp_path,
        "purpose: production\ndeployment: {targets: [edge], edge_hardware: [fpga_logic]}\n"
        "hardware: {training: [tpu]}\nteam: {experience: {tensorflow: some}}\n",
    )
    assert "Build on JAX" in out
    stack = out.split("## 2.")[1].split("## 3.")[0]
    assert "Flax NNX" not in stack and "Keras 3 on the JAX back end" in stack
    assert "No FPGA tool converts Flax or Equinox models" in out


@pytest.mark.parametrize(
    ("existing", "command"),
    [
        ("", 'pip install "hls4ml[hgq2]" tensorflow'),
        ("existing_code: [tf2_keras]\n", 'pip install "hls4ml[qkeras]"'),
    ],
)
def test_tensorflow_for_fpga_logic_installs_keras_3_unless_keras_2_code_exists(
    tmp_path: Path, existing: str, command: str
) -> None:
    """Finding 4b: a new FPGA project was told to install the qkeras extra, which pins
    TensorFlow 2.14 (Keras 2), beside a Keras 3 stack."""
    out = _markdown(
        tmp_path, "deployment: {targets: [edge], edge_hardware: [fpga_logic]}\n" + existing
    )
    assert "Build on TensorFlow" in out and command in out
