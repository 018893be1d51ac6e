"""Every measured fact a bundled rule reads is one some probe measures, for the frameworks
the fact names: a rule reading a figure no probe takes can never fire (until ruleset
2026.12.45 PERF011/PERF012 read a TensorFlow train step the train_step probe did not run)."""

from __future__ import annotations

from advisor.decide.rules import load_ruleset
from advisor.frameworks import REFERENCE, REGISTRY
from advisor.model.facts import ratio_facts
from advisor.model.measurements import METRIC_FACTS
from probes.catalog import PROBES

# facts about the installation and the run, not a probe's figure
NOT_A_FIGURE = {"accelerator", "accelerator_count", "installed", "failed", "noisy"}
FRAMEWORK_IDS = {spec.id for spec in REGISTRY}


def _measured_for(fact: str) -> set[str]:
    """The frameworks some probe measures ``fact`` (a per-framework fact field) for."""
    probe, metric = METRIC_FACTS[fact]
    spec = next(p for p in PROBES if p.id == probe)
    assert metric in spec.facts, (fact, probe, metric)
    return set(spec.frameworks)


def _needs(name: str) -> tuple[str, set[str]]:
    """(per-framework fact, the frameworks it must be measured for) of a rule's fact."""
    ratios = ratio_facts()
    if name in ratios:
        fact, framework = ratios[name]
        return fact, {framework, REFERENCE}
    fact, _, framework = name.partition(".")
    if framework in FRAMEWORK_IDS:
        return fact, {framework}
    return fact, set(FRAMEWORK_IDS) if not framework else {framework}


def test_every_fact_a_rule_reads_is_measured_by_a_probe() -> None:
    unmeasured = []
    for rule in load_ruleset().rules:
        assert rule.condition is not None
        for field in sorted(rule.condition.fields()):
            if not field.startswith("facts."):
                continue
            name = field.removeprefix("facts.")
            if name in NOT_A_FIGURE:
                continue
            fact, frameworks = _needs(name)
            assert fact in METRIC_FACTS, f"{rule.id}: {field} maps to no probe metric"
            missing = frameworks - _measured_for(fact)
            if missing:
                unmeasured.append(f"{rule.id}: {field} (not measured for {sorted(missing)})")
    assert not unmeasured, unmeasured
