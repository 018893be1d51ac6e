"""The framework registry, the rule pack, the questions and the probe backends agree.

probes/catalog.py:FRAMEWORK_SPECS is the one list of candidate frameworks
(advisor/frameworks.py derives the advisor's view of it); everything else must cover
exactly the same ones.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from advisor.decide.rules import load_ruleset
from advisor.frameworks import FRAMEWORKS, REGISTRY
from advisor.model.facts import Facts, PerFramework
from advisor.model.profile import Profile
from advisor.model.rulepack import Effects, Risks, Vetoes
from advisor.questionnaire import load_questions


def test_registry_ids_are_unique_and_complete() -> None:
    assert len(FRAMEWORKS) == len(set(FRAMEWORKS)) >= 2
    for spec in REGISTRY:
        assert spec.display and spec.import_name and spec.distributions and spec.install
        assert spec.probe_backend


def test_per_framework_models_follow_the_registry() -> None:
    team = Profile.model_fields["team"].annotation
    assert team is not None
    experience = team.model_fields["experience"].annotation
    for model in (Effects, Vetoes, Risks, PerFramework, experience):
        assert model is not None
        assert tuple(model.model_fields) == FRAMEWORKS, model.__name__
    ratios = [name for name in Facts.model_fields if "_over_" in name]
    assert {name.split("_over_")[0] for name in ratios} == set(FRAMEWORKS) - {FRAMEWORKS[0]}


def test_rule_pack_covers_exactly_the_registry() -> None:
    ruleset = load_ruleset([])
    assert tuple(ruleset.meta.frameworks) == FRAMEWORKS
    for fw, info in ruleset.meta.frameworks.items():
        assert info.name == next(s.display for s in REGISTRY if s.id == fw)
    moved = {fw for rule in ruleset.rules for fw, delta in rule.effects.items() if delta}
    assert moved == set(FRAMEWORKS), "every framework needs rules that move its score"


def test_questions_ask_each_framework_experience() -> None:
    asked = {q.path for q in load_questions().questions}
    assert {f"team.experience.{fw}" for fw in FRAMEWORKS} <= asked


def test_probe_backends_match_the_registry() -> None:
    from probes import catalog

    backends = {spec.probe_backend: spec for spec in REGISTRY}
    assert set(catalog.FRAMEWORKS) == set(backends)
    for backend, spec in backends.items():
        assert catalog.IMPORT_NAME[backend] == spec.import_name
        assert tuple(catalog.DISTRIBUTIONS[backend]) == spec.distributions
        assert catalog.INSTALL[backend] == spec.install
    for fw in catalog.FRAMEWORK_SPECS:
        assert importlib.util.find_spec(fw.backend) is not None, f"no backend module {fw.backend}"
        assert fw.label == next(s.display for s in REGISTRY if s.probe_backend == fw.id)


def test_every_declared_extra_is_in_pyproject() -> None:
    """A framework's pip extra, when it names one, exists (else the hint gives `install`)."""
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    pyproject = Path(__file__).resolve().parents[1] / "pyproject.toml"
    extras = tomllib.loads(pyproject.read_text())["project"]["optional-dependencies"]
    (everything,) = extras["all"]
    in_all = set(everything.split("[", 1)[1].rstrip("]").split(","))
    for spec in REGISTRY:
        if spec.extra is not None:
            assert spec.extra in extras, f"{spec.id}: no [{spec.extra}] extra in pyproject.toml"
            assert spec.extra in in_all, f"[all] leaves out [{spec.extra}]"


def test_missing_hint_without_an_extra_gives_the_plain_install_line(monkeypatch) -> None:
    import dataclasses

    import advisor.frameworks as frameworks

    first = dataclasses.replace(frameworks.REGISTRY[0], extra=None)
    monkeypatch.setattr(frameworks, "REGISTRY", (first, *frameworks.REGISTRY[1:]))
    hint = frameworks.missing_hint(first.id)
    assert first.install in hint and "framework-advisor[" not in hint
