"""Red-team round 62: the section-7 sentence once changes are held back as unasked, and
the install heading for training hardware the chosen line does not serve."""

from __future__ import annotations

from pathlib import Path

import pytest
from hostile_support import run
from test_hostile_round57 import _json_report


def _install_line(tmp_path: Path, profile: str) -> str:
    (tmp_path / "p.yaml").write_text(profile)
    result = run("recommend", "p.yaml", "--probes", "none", cwd=tmp_path)
    assert result.code == 0, result.err
    return next(line for line in result.out.splitlines() if line.startswith("Install "))


@pytest.mark.parametrize(
    ("example", "path"),
    [
        ("r6a-beginners-production", "workload.simulator"),
        ("student-starter", "workload.simulator"),
        ("r4-product-team-vision-nlp", "workload.simulator"),
        # (the LLM example's accelerator simulator no longer flips it: HW104's size guard;
        # nor does a compiled training loop these examples' models of 10M parameters or more:
        # PERF101's size guard, red-team round 93)
    ],
)
def test_a_change_held_back_as_unasked_is_named_not_denied(
    tmp_path: Path, example: str, path: str
) -> None:
    """Finding 1: after round 61's filter these reports said 'No single change to the
    profile flips the verdict', though answering a question the questionnaire does not put
    to them does; the report now names such answers and says why they are not offered."""
    result = run("recommend", "--example", example, "--probes", "none", cwd=tmp_path)
    assert result.code == 0, result.err
    section = result.out.split("## 7.")[1].split("## 8.")[0]
    assert "No single change to the profile flips the verdict" not in section
    assert path in section.replace("\\_", "_") and "not offered" in section
    data = _json_report(tmp_path, Path(_example(example)).read_text(encoding="utf-8"))
    assert path in data["sensitivity"]["not_asked"]


def _example(name: str) -> str:
    from advisor.io.profiles import example_path

    return str(example_path(name))


@pytest.mark.parametrize(
    ("profile", "served", "not_served"),
    [
        # PyTorch's NVIDIA line chosen while Trainium is listed too (finding 2, r5/r6b)
        ("purpose: research\nhardware: {training: [nvidia_gpu, aws_trainium]}\n",
         "NVIDIA GPU", "AWS Trainium"),
        # TensorFlow's line chosen for Keras code, on Inferentia (finding 2)
        ("hardware: {training: [aws_inferentia]}\nexisting_code: [tf2_keras]\n"
         "existing_code_size: large\nteam: {experience: {tensorflow: expert}}\n",
         None, "AWS Inferentia"),
        # the FPGA line chosen while training is on TPUs (finding 2)
        ("purpose: production\ndomains: [scientific]\nhardware: {training: [tpu]}\n"
         "deployment: {targets: [edge], edge_hardware: [fpga_logic]}\nmodel: {parameters: 50k}\n"
         "team: {experience: {tensorflow: expert}}\nexisting_code: [tf2_keras]\n"
         "existing_code_size: large\nmigrating_away: false\nweighing_a_move: false\n",
         None, "TPU"),
    ],
)  # fmt: skip
def test_the_install_heading_names_only_the_hardware_its_line_serves(
    tmp_path: Path, profile: str, served: str | None, not_served: str
) -> None:
    """Finding 2: the heading said 'for your training hardware (NVIDIA GPU, AWS
    Trainium)' over a CUDA wheel, and '(TPU)' over the plain TensorFlow wheel chosen for
    an FPGA target."""
    line = _install_line(tmp_path, profile)
    assert "for your training hardware" not in line
    assert f"not for {not_served}" in line
    if served:
        assert line.startswith(f"Install PyTorch for {served} ")


def test_an_empty_training_hardware_list_gets_a_heading_of_its_own(tmp_path: Path) -> None:
    """Finding 3: 'Install PyTorch for your training hardware ():'."""
    line = _install_line(tmp_path, "hardware: {training: []}\n")
    assert "()" not in line and "lists no training hardware" in line
