"""Round 91 (2026-12-06): what the report recommends agrees with the reasons it gives."""

from __future__ import annotations

from advisor.decide.engine import decide
from advisor.decide.rules import load_ruleset
from advisor.model.profile import Profile

KERAS_TEAM_ON_PYTORCH = {
    "purpose": "research",
    "domains": ["vision"],
    "hardware": {"training": ["nvidia_gpu"]},
    "team": {"experience": {"tensorflow": "expert", "pytorch": "some"}},
    "ecosystem": {"pretrained_models": True},
}

# a JavaScript team's in-browser PyTorch model (round 91)
BROWSER_TEAM = {
    "purpose": "production",
    "domains": ["vision"],
    "deployment": {"targets": ["browser"]},
    "team": {"experience": {"pytorch": "expert"}, "languages": ["javascript"]},
    "hardware": {"training": ["nvidia_gpu"]},
}


def _stack_names(profile: dict) -> tuple[str, list[str], list[str]]:
    decision = decide(Profile.model_validate(profile), None, load_ruleset())
    rec = decision.recommendation
    fired = [r.id for r in decision.rules]
    return rec.framework, [item.name for item in rec.stack], fired


def test_keras_skills_credited_to_pytorch_come_with_keras_on_pytorch() -> None:
    """TEAM108 gave PyTorch a point because "Keras skills carry over to Keras on the PyTorch
    back end", and the recommended PyTorch stack then named no Keras at all."""
    framework, names, fired = _stack_names(KERAS_TEAM_ON_PYTORCH)
    assert framework == "pytorch" and "TEAM108" in fired
    assert "Keras 3 on the PyTorch back end" in names


def test_a_team_without_keras_gets_no_keras_item() -> None:
    profile = dict(KERAS_TEAM_ON_PYTORCH, team={"experience": {"pytorch": "expert"}})
    framework, names, fired = _stack_names(profile)
    assert framework == "pytorch" and "TEAM108" not in fired
    assert not any("Keras" in name for name in names)


def test_a_browser_pytorch_stack_installs_the_onnx_exporters_dependencies() -> None:
    """The stack said "ONNX export + ONNX Runtime Web" and the install line was only
    `pip install timm`: torch.onnx.export needs onnx and onnxscript beside torch."""
    from advisor.report.context import companion_install

    decision = decide(Profile.model_validate(BROWSER_TEAM), None, load_ruleset())
    assert decision.recommendation.framework == "pytorch"
    line = companion_install(decision.recommendation) or ""
    assert "onnx" in line.split() and "onnxscript" in line.split(), line


def test_torchscript_is_dated_by_the_release_that_deprecated_it() -> None:
    """The PyTorch 2.10 release blog (21 Jan 2026) deprecated TorchScript; the report said 2.11."""
    ruleset = load_ruleset()
    texts = []
    for rule in ruleset.rules:
        texts += [
            rule.why,
            *[t for t in (rule.risks.model_dump() if rule.risks else {}).values() if t],
        ]
        for ev in rule.evidence:
            if ev.ref == "F-TORCHSCRIPT":
                assert "2-10-release" in str(ev.url) and "2.10" in ev.claim
    assert not [t for t in texts if "TorchScript" in t and "2.11" in t]


def _question(path: str):  # type: ignore[no-untyped-def]
    from advisor.questionnaire.loader import load_questions

    return next(q for q in load_questions().questions if q.path == path)


def test_a_simulator_that_only_runs_the_trained_model_is_no_simulator() -> None:
    """A student who will run molecular dynamics with the trained potential answered
    "an existing accelerator simulator built on JAX (JAX-MD)", and HW104 (decisive) gave JAX
    98.7; HW104 is about environments stepping inside the training program."""
    question = _question("workload.simulator")
    assert "while the model trains" in question.prompt
    assert "afterwards" in question.prompt and "molecular dynamics" in question.prompt
    described = Profile.model_fields["workload"].annotation.model_fields["simulator"]
    assert "afterwards" in (described.description or "")


def test_force_training_is_a_higher_order_derivative_in_the_question() -> None:
    """Asked "Do you need Hessians or other higher-order derivatives?", a chemist training
    on forces could honestly answer no, and PERF102's risk then vanished."""
    prompt = _question("workload.higher_order_derivatives").prompt
    assert "forces from an energy" in prompt and "with respect to its inputs" in prompt


WINDOWS_HOSPITAL = {
    "purpose": "production",
    "domains": ["vision"],
    "hardware": {"training": ["nvidia_gpu"], "inference": ["nvidia_gpu"], "native_windows": True},
    "deployment": {"targets": ["server"], "serving": "online_api"},
    "team": {"size": 3, "experience": {"tensorflow": "expert", "pytorch": "none"}},
    "priorities": {"long_term_stability": 5, "production_maturity": 5},
}


def test_native_windows_gpus_are_a_decisive_fact_with_the_right_install_line() -> None:
    """A hospital on Windows servers was scored as if on Linux: TensorFlow's GPU builds
    stopped at 2.10 there and JAX has none, and `pip install torch` on Windows is CPU-only."""
    decision = decide(Profile.model_validate(WINDOWS_HOSPITAL), None, load_ruleset())
    assert decision.recommendation.framework == "pytorch"
    assert "HW112" in decision.decisive_facts.get("pytorch", [])
    install = decision.recommendation.install
    assert install is not None and "download.pytorch.org/whl/cu" in install.command
    risks = {r.framework: r.text for r in decision.risks if r.rule == "HW112"}
    assert "WSL2" in risks["tensorflow"] and "WSL2" in risks["jax"]
    on_linux = dict(WINDOWS_HOSPITAL, hardware={"training": ["nvidia_gpu"]})
    linux = decide(Profile.model_validate(on_linux), None, load_ruleset())
    assert "HW112" not in [r.id for r in linux.rules]


def test_the_windows_question_is_asked_only_of_nvidia_gpu_training() -> None:
    windows = _question("hardware.native_windows")
    assert "WSL2" in windows.prompt
    assert "nvidia_gpu" in repr(windows.when)


def test_a_browser_pytorch_verdict_names_the_export_risk() -> None:
    """A JavaScript team's browser report said "No rule flagged a specific risk of PyTorch"."""
    decision = decide(Profile.model_validate(BROWSER_TEAM), None, load_ruleset())
    assert decision.recommendation.framework == "pytorch"
    texts = [r.text for r in decision.risks if r.framework == "pytorch" and r.rule == "DEP003"]
    assert texts and "quantise" in texts[0]


def test_a_graph_or_potential_project_can_say_so_and_gets_the_field_s_libraries() -> None:
    """A chemist training equivariant potentials was offered JAX-MD and Diffrax as the
    ecosystem and no graph library; a blind writer noted "there is no graph option"."""
    profile = {
        "purpose": "research",
        "domains": ["scientific"],
        "hardware": {"training": ["nvidia_gpu"]},
        "training": {"accelerators": 4},
        "ecosystem": {"libraries": ["graph"]},
        "workload": {"higher_order_derivatives": True},
    }
    rules = load_ruleset()
    decision = decide(Profile.model_validate(profile), None, rules)
    fired = {r.id: r for r in decision.rules}
    assert fired["ECO114"].effects == {"pytorch": 2}
    risks = {r.framework: r.text for r in decision.risks if r.rule == "ECO114"}
    assert "Keras 3" in risks["tensorflow"] and "jraph" in risks["jax"]
    stacks = {fw: [i.name for i in info.stack] for fw, info in rules.meta.frameworks.items()}
    assert any("PyTorch Geometric" in n for n in stacks["pytorch"])
    assert any("e3nn-jax" in n for n in stacks["jax"])
    assert any("TF-GNN" in n for n in stacks["tensorflow"])
    if decision.recommendation.framework == "pytorch":
        assert any("PyTorch Geometric" in i.name for i in decision.recommendation.stack)
