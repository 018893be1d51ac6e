"""Red-team round 65: PROD101 for an LLM service, HW008 for a team new to deep learning,
an install line kept for other answers offered for a second device, a confidence capped by
answers nobody could give, training on Inferentia alone, and the no-fit page's plural."""

from __future__ import annotations

from pathlib import Path

from test_hostile_round57 import _json_report

from advisor.decide.rules import load_ruleset
from advisor.model.profile import Profile
from advisor.pipeline import unasked_fields

PACK = load_ruleset()


def _ids(data: dict) -> set[str]:
    return {r["id"] for r in data["rules"]}


def test_a_tf_serving_stack_does_not_decide_an_llm_service(tmp_path: Path) -> None:
    """Finding 1: TF Serving rated experimental for LLMs, yet PROD101 put TensorFlow at 98
    for a PyTorch-expert team serving an 8B chat model."""
    profile = (
        "domains: [nlp, generative]\nmodel: {parameters: 8e9}\n"
        "deployment: {targets: [server], serving: llm_serving, serving_stack: tf_serving}\n"
        "team: {experience: {tensorflow: some, pytorch: expert}}\n"
    )
    data = _json_report(tmp_path, profile)
    assert "PROD101" not in _ids(data)
    assert data["recommendation"]["framework"] == "pytorch"
    online = profile.replace("llm_serving", "online_api")
    assert "PROD101" in _ids(_json_report(tmp_path, online))


def test_tpus_do_not_bind_a_team_new_to_deep_learning(tmp_path: Path) -> None:
    """Finding 2: HW008 exempted beginners only beside a Mac; with a CPU and free TPUs a
    beginner got JAX at high confidence."""
    profile = (
        "hardware: {training: [cpu, tpu], free_tpu_access: true}\n"
        "team: {size: 1, new_to_deep_learning: true}\n"
    )
    data = _json_report(tmp_path, profile)
    assert "HW008" not in _ids(data)
    assert data["recommendation"]["confidence"] != "high"
    assert "HW008" in _ids(_json_report(tmp_path, profile.replace("true}", "false}")))


def test_a_keras_team_on_jax_is_offered_keras_3(tmp_path: Path) -> None:
    """Finding 3: a Keras team sent to JAX by TPUs and GPUs was offered Flax only."""
    profile = (
        "hardware: {training: [nvidia_gpu, tpu]}\nexisting_code: [tf2_keras]\n"
        "team: {experience: {tensorflow: expert}}\n"
    )
    data = _json_report(tmp_path, profile)
    assert data["recommendation"]["framework"] == "jax"
    names = [item["name"] for item in data["recommendation"]["stack"]]
    assert "Keras 3 on the JAX back end" in names
    plain = _json_report(tmp_path, "hardware: {training: [nvidia_gpu, tpu]}\n")
    plain_names = [item["name"] for item in plain["recommendation"]["stack"]]
    assert "Keras 3 on the JAX back end" not in plain_names


def test_a_second_device_gets_a_line_that_fits_the_rest_of_the_profile(tmp_path: Path) -> None:
    """Finding 4: a microcontroller project training on a Mac and NVIDIA GPUs was told to
    install hls4ml[qkeras] (an FPGA toolchain's line) for the GPU."""
    # (round 66 put TensorFlow's NVIDIA lines before the Mac's, so TPUs lead here instead)
    profile = (
        "hardware: {training: [tpu, nvidia_gpu]}\n"
        "deployment: {targets: [microcontroller]}\n"
        "team: {experience: {tensorflow: expert}}\n"
    )
    data = _json_report(tmp_path, profile)
    rec = data["recommendation"]
    assert rec["framework"] == "tensorflow"
    gpu = rec["install_elsewhere"]["nvidia_gpu"]["command"]
    assert "hls4ml" not in gpu and "tensorflow[and-cuda]" in gpu


def test_answers_the_questionnaire_never_asks_do_not_cap_the_confidence(
    tmp_path: Path,
) -> None:
    """Finding 5: with no existing code the questionnaire never asks whether the team is
    leaving it, yet the confidence was capped for 'answers the profile omits:
    migrating_away, weighing_a_move'."""
    profile = (
        "purpose: production\ndomains: [tabular]\n"
        "hardware: {training: [nvidia_gpu], inference: [cpu]}\n"
        "deployment: {targets: [server], serving: online_api, serving_stack: tf_serving}\n"
        "team: {size: 12, experience: {tensorflow: expert, pytorch: none, jax: none}}\n"
        "existing_code: []\n"
    )
    unasked = unasked_fields(Profile.model_validate({"existing_code": []}))
    assert {"migrating_away", "weighing_a_move"} <= unasked
    rec = _json_report(tmp_path, profile)["recommendation"]
    assert rec["framework"] == "tensorflow"
    assert rec["confidence"] == "high" and rec["confidence_capped"] is None
    # with TensorFlow code, the question is asked: leaving it unanswered still caps
    code = profile.replace("existing_code: []", "existing_code: [tf2_keras]")
    rec = _json_report(tmp_path, code)["recommendation"]
    assert rec["confidence_capped"] and "migrating_away" in rec["confidence_capped"]


def test_training_on_inferentia_alone_is_an_inconsistency(tmp_path: Path) -> None:
    """Finding 6: Inferentia, an inference chip, as the only training hardware passed
    without a word."""
    data = _json_report(tmp_path, "hardware: {training: [aws_inferentia]}\n")
    assert "CON016" in {c["id"] for c in data["inconsistencies"]}
    fine = "hardware: {training: [aws_trainium], inference: [aws_inferentia]}\n"
    assert _json_report(tmp_path, fine)["inconsistencies"] == []


def test_the_hugging_face_check_cites_the_first_release() -> None:
    """Finding 7: CON110 cited only Google's BERT post for pytorch-pretrained-BERT's
    first release."""
    check = next(c for c in PACK.all_checks or () if c.id == "CON110")
    urls = [e.url for e in check.evidence]
    assert "https://github.com/huggingface/transformers/releases/tag/v0.1.2" in urls


def test_the_no_fit_page_counts_one_change_in_the_singular() -> None:
    """Finding 8a: 'ruled_out: 1' printed '1 single change(s) ... are not offered'."""
    for name in ("no_fit.md.j2", "no_fit.html.j2"):
        source = (Path(__file__).parents[1] / "templates" / name).read_text()
        assert "change(s)" not in source and "One single change" in source
