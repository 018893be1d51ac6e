"""Red-team round 63: the install line's hardware, TPUs beside a Mac, FPGA checks, the
sub-megabyte rule, and what section 7 says when some flips are held back."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from hostile_support import run
from test_hostile_round57 import _json_report, _offered

ROOT = Path(__file__).resolve().parents[1]


def _section(tmp_path: Path, profile: str, start: str, end: str) -> str:
    (tmp_path / "p.yaml").write_text(profile)
    result = run("recommend", "p.yaml", "--probes", "none", cwd=tmp_path)
    assert result.code == 0, result.err
    return result.out.split(start)[1].split(end)[0]


def test_the_situation_heading_does_not_deny_a_flip_it_holds_back(tmp_path: Path) -> None:
    """The R1 report said 'No change to your plans or priorities flips the verdict' above
    a paragraph naming plans that would flip it but that the questionnaire does not ask;
    and its table said 'no single change is enough' for JAX, which one of them makes win."""
    result = run("recommend", "--example", "r1-text-image-research-to-production",
                 "--probes", "none", cwd=tmp_path)  # fmt: skip
    assert result.code == 0, result.err
    section = result.out.split("## 7.")[1].split("## 8.")[0]
    assert "No change to your plans or priorities flips the verdict" not in section
    assert "No change to your plans or priorities that the advisor can offer flips" in section
    jax_row = next(line for line in section.splitlines() if line.startswith("| JAX |"))
    assert "none the advisor can offer (see below)" in jax_row
    assert "simulator (JAX or TensorFlow would then win)" in section.replace("\\_", "_")


def test_not_asked_flips_name_the_framework_they_make_win(tmp_path: Path) -> None:
    profile = (ROOT / "examples" / "r1-text-image-research-to-production.yaml").read_text()
    data = _json_report(tmp_path, profile)
    flips = {n["path"]: n for n in data["sensitivity"]["not_asked_flips"]}
    assert sorted(flips) == data["sensitivity"]["not_asked"]
    assert flips["workload.simulator"]["new_winners"] == ["jax", "tensorflow"]
    assert flips["workload.simulator"]["category"] == "plan"


@pytest.mark.parametrize(
    ("profile", "heading", "below"),
    [
        # TensorFlow has no Trainium build: its NVIDIA line, and a note on Trainium below
        ("hardware: {training: [aws_trainium, nvidia_gpu]}\n"
         "team: {experience: {tensorflow: expert}}\n"
         "existing_code: [tf2_keras]\nexisting_code_size: large\n",
         "Install TensorFlow for NVIDIA GPU (not for AWS Trainium",
         "The advisor has no install line of TensorFlow for AWS Trainium."),
        # PyTorch has a ROCm line: it is given for the AMD GPUs beside the CUDA one
        ("hardware: {training: [nvidia_gpu, amd_gpu]}\nteam: {experience: {pytorch: expert}}\n"
         "existing_code: [pytorch]\nexisting_code_size: large\n",
         "Install PyTorch for NVIDIA GPU (not for AMD GPU",
         "download.pytorch.org/whl/rocm"),
    ],
)  # fmt: skip
def test_the_install_line_names_the_hardware_it_serves(
    tmp_path: Path, profile: str, heading: str, below: str
) -> None:
    """Finding 1: TensorFlow's CPU/NVIDIA wheel, chosen because there is no Trainium build,
    was announced as 'for AWS Trainium (not for NVIDIA GPU ...)'."""
    section = _section(tmp_path, profile, "## 2.", "Companion libraries")
    assert heading in section
    assert below in section
    assert "Install TensorFlow for AWS Trainium" not in section
    assert "Install PyTorch for AMD GPU" not in section


def test_one_command_for_a_mac_and_nvidia_gpus_serves_both(tmp_path: Path) -> None:
    section = _section(
        tmp_path,
        "hardware: {training: [apple_silicon, nvidia_gpu]}\n"
        "team: {experience: {pytorch: expert}}\n",
        "## 2.",
        "Companion libraries",
    )
    assert "Install PyTorch for your training hardware (Apple silicon, NVIDIA GPU)" in section


def test_no_accelerators_installs_the_cpu_build(tmp_path: Path) -> None:
    """Finding 5: training.accelerators: 0 got the CUDA wheel 'for NVIDIA GPU (assumed)'."""
    section = _section(
        tmp_path,
        "training: {accelerators: 0}\nteam: {experience: {pytorch: some}}\n",
        "## 2.",
        "Companion libraries",
    )
    assert "(CPU; assumed from training.accelerators: 0" in section
    assert "download.pytorch.org/whl/cpu" in section


def test_tpus_beside_a_mac_are_tpu_only_training(tmp_path: Path) -> None:
    """Finding 2: HW001 said JAX is native 'on both the TPUs and the GPUs of this plan' for
    a Mac, where JAX runs on the CPU."""
    data = _json_report(tmp_path, "purpose: research\nhardware: {training: [apple_silicon, tpu]}\n")
    fired = {r["id"] for r in data["rules"]}
    assert "HW001" not in fired and "HW008" in fired


def test_an_fpga_is_not_offered_to_a_phone_app(tmp_path: Path) -> None:
    """Finding 4: FPGA logic was the cheapest change for a 20M-parameter phone keyboard."""
    profile = (
        "purpose: production\ndomains: [nlp]\nmodel: {parameters: 20M}\n"
        "hardware: {training: [nvidia_gpu], inference: [cpu]}\n"
        "deployment: {targets: [mobile], device_memory_mb: 100}\n"
        "training: {federated: true, on_device: true}\n"
        "team: {size: 6, experience: {pytorch: some, tensorflow: some}}\n"
    )
    data = _json_report(tmp_path, profile)
    assert "fpga" not in _offered(data)
    said = yaml.safe_load(profile)
    said["deployment"]["edge_hardware"] = ["fpga_logic"]
    data = _json_report(tmp_path, yaml.safe_dump(said))
    assert "CON013" in {c["id"] for c in data["inconsistencies"]}


def test_a_large_model_in_fpga_logic_is_inconsistent(tmp_path: Path) -> None:
    data = _json_report(
        tmp_path,
        "model: {parameters: 20M}\ndeployment: {targets: [edge], edge_hardware: [fpga_logic]}\n",
    )
    assert "CON014" in {c["id"] for c in data["inconsistencies"]}


@pytest.mark.parametrize(
    ("deployment", "fires"),
    [
        ("{targets: [edge], device_memory_mb: 0.5}", True),
        ("{targets: [edge], device_memory_mb: 1}", False),
        ("{targets: [edge], edge_hardware: [fpga_logic], device_memory_mb: 0.5}", False),
        # on a microcontroller DEP001's route scores the same runtime: one fact, one rule
        ("{targets: [microcontroller], device_memory_mb: 0.5}", False),
    ],
)
def test_the_sub_megabyte_rule(tmp_path: Path, deployment: str, fires: bool) -> None:
    """Finding 6: DEP109 fired at exactly 1 MB, and for a network compiled into logic."""
    data = _json_report(tmp_path, f"deployment: {deployment}\n")
    assert ("DEP109" in {r["id"] for r in data["rules"]}) is fires


def test_every_bundled_install_line_says_what_it_serves() -> None:
    """The install heading reads `serves`; a bundled line without it would fall back to
    reading its condition, which names hardware a line may be chosen for lacking."""
    pack = yaml.safe_load((ROOT / "rules" / "pack.yaml").read_text())
    for framework, info in pack["frameworks"].items():
        for i, option in enumerate(info["install"]):
            assert "serves" in option, f"{framework} install[{i}]"
