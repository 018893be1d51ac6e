"""Red-team round 61: Inferentia as training hardware, changes the questionnaire would
not ask about, the count of uncertain answers, and JAX's install on Trainium."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hostile_support import run
from test_hostile_round57 import _json_report, _offered

from advisor.decide.engine import decide
from advisor.decide.rules import load_ruleset
from advisor.io.profiles import example_path, list_examples, load_profile
from advisor.model.profile import Profile
from advisor.model.said import said_paths
from advisor.pipeline import unasked_fields

PACK = load_ruleset()


def test_inferentia_named_for_training_decides_nothing(tmp_path: Path) -> None:
    """Finding 1: 'hardware: {training: [aws_inferentia]}', a chip the questionnaire calls
    'an inference chip, not for training', was a decisive fact behind a high PyTorch
    verdict, with the CPU wheel shown 'for your training hardware (AWS Inferentia)'."""
    data = _json_report(tmp_path, "hardware: {training: [aws_inferentia]}\n")
    rec = data["recommendation"]
    assert "HW102" not in {r["id"] for r in data["rules"]}
    assert rec["confidence"] != "high"
    (tmp_path / "p.yaml").write_text("hardware: {training: [aws_inferentia]}\n")
    text = run("recommend", "p.yaml", "--probes", "none", cwd=tmp_path).out
    install = next(line for line in text.splitlines() if line.startswith("Install "))
    assert "for your training hardware" not in install
    # round 63: the CPU build, and below it a line saying there is none for Inferentia
    assert "for CPU (not for AWS Inferentia" in install
    assert "The advisor has no install line of PyTorch for AWS Inferentia." in text
    # Trainium is still PyTorch's native training hardware on AWS
    trn = decide(Profile.model_validate({"hardware": {"training": ["aws_trainium"]}}), None, PACK)
    assert "HW102" in trn.decisive_facts["pytorch"]


def test_install_line_names_the_hardware_only_when_written_for_it(tmp_path: Path) -> None:
    """The default build is shown 'for your training hardware' only when that hardware
    is a CPU; a GPU with its own line keeps the usual heading."""
    for profile, heading in [
        ("hardware: {training: [cpu]}\n", "for your training hardware (CPU)"),
        ("hardware: {training: [nvidia_gpu]}\n", "for your training hardware (NVIDIA GPU)"),
    ]:
        (tmp_path / "p.yaml").write_text(profile)
        text = run("recommend", "p.yaml", "--probes", "none", cwd=tmp_path).out
        assert heading in text, profile


def test_jax_on_trainium_gets_the_neuron_install_and_stack(tmp_path: Path) -> None:
    """Finding 4 (open since round 59): JAX on Trainium was given the CPU-only wheel
    'for your training hardware (AWS Trainium)' and no Neuron entry in the stack."""
    data = _json_report(
        tmp_path,
        "purpose: research\nhardware: {training: [aws_trainium]}\n"
        "team: {experience: {jax: expert}, functional_programming: true}\n"
        "existing_code: [jax]\nexisting_code_size: large\n",
    )
    rec = data["recommendation"]
    assert rec["framework"] == "jax"
    assert "jax-neuronx" in rec["install"]["command"]
    assert "pip.repos.neuron.amazonaws.com" in rec["install"]["command"]
    assert "beta" in rec["install"]["note"]
    assert any("Neuron" in item["name"] for item in rec["stack"])


@pytest.mark.parametrize("name", [e.name for e in list_examples()])
def test_no_change_offered_answers_a_question_the_questionnaire_would_not_ask(name: str) -> None:
    """Finding 2: 'What would change the verdict' led with answers `advisor ask` keeps
    from the profile (compile the whole training loop, for a team new to deep learning;
    an accelerator simulator, for an LLM fine-tune). Answers the profile gave stay
    changeable; unsaid ones are offered only where the questionnaire would ask."""
    profile = load_profile(str(example_path(name)))
    unasked = unasked_fields(profile)
    sens = decide(profile, None, PACK, unasked=unasked).sensitivity
    assert sens is not None
    flips = [
        sens.smallest_flip,
        sens.decidable_flip,
        *sens.flips_by_framework.values(),
        *sens.decidable_by_framework.values(),
        *sens.situation_flips.values(),
    ]
    said = said_paths(profile)
    assert unasked  # every example leaves some question unasked
    for flip in filter(None, flips):
        assert flip.path not in unasked or flip.path in said, (name, flip.path)


@pytest.mark.parametrize(
    ("example", "path"),
    [
        ("r6a-beginners-production", "workload.compiled_training_loop"),
        ("student-starter", "workload.compiled_training_loop"),
        ("llm-finetuning-nvidia-hf", "workload.simulator"),
    ],
)
def test_the_reported_examples_no_longer_lead_with_an_unasked_question(
    tmp_path: Path, example: str, path: str
) -> None:
    result = run(
        "recommend", "--example", example, "--probes", "none", "--format", "json", cwd=tmp_path
    )
    assert result.code == 0, result.err
    assert path not in _offered(json.loads(result.out))


def test_the_method_counts_answers_not_their_variations(tmp_path: Path) -> None:
    """Finding 3: 'one of 6 uncertain answers' for a profile of 3 answers: the count was
    of the variations (each answer dropped, a judgement also moved to its neighbours)."""
    data = _json_report(
        tmp_path, "purpose: research\ndeployment: {targets: []}\nteam: {experience: {jax: some}}\n"
    )
    method = data["sensitivity"]["method"]
    assert "one of 6 variations of the 3 uncertain answers" in method
    # answers with no neighbouring value are only dropped: the two counts agree
    data = _json_report(tmp_path, "domains: [vision, nlp]\nhardware: {training: [nvidia_gpu]}\n")
    assert "one of 2 uncertain answers dropped;" in data["sensitivity"]["method"]


def test_an_accelerator_simulator_decides_nothing_for_a_billion_parameter_policy() -> None:
    """Finding 2 (its simulator part): an 8B LLM fine-tune was told that an accelerator
    simulator would make JAX win on a decisive fact; HW104 now stands aside at a billion
    parameters, as PERF101 does for a compiled training loop."""
    base = {"workload": {"simulator": "accelerator"}, "hardware": {"training": ["nvidia_gpu"]}}
    small = decide(Profile.model_validate(base), None, PACK)
    large = decide(Profile.model_validate({**base, "model": {"parameters": "8B"}}), None, PACK)
    assert "HW104" in small.decisive_facts["jax"]
    assert "HW104" not in {r.id for r in large.rules}
