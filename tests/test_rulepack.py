"""The bundled knowledge base: coverage, evidence hygiene, and a validator that says no.

These tests read the shipped rule pack (rules/*.yaml) and check the properties the issue
asks of it, so a rule edit that breaks one of them fails here, not in a user's report.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from advisor.cli import main as cli_main
from advisor.decide.conditions import build_context
from advisor.decide.engine import decide
from advisor.decide.rules import Rule, load_ruleset
from advisor.frameworks import FRAMEWORKS
from advisor.model.errors import InputError
from advisor.model.facts import Facts
from advisor.model.profile import Profile

PACK = load_ruleset()
RULES = PACK.rules


def all_claims(current: bool) -> list[tuple[str, str]]:
    status = "current" if current else "superseded"
    return [(r.id, e.claim) for r in RULES for e in r.evidence if e.status == status]


# --------------------------------------------------------------------------- coverage


def test_pack_loads_with_a_sensible_number_of_rules() -> None:
    # grew from 67 when the profile gained the fields users need to say what decides their
    # case, and to 122 with LEG010-012 (a codebase the team is weighing leaving)
    assert 40 <= len(RULES) <= 130, len(RULES)


def moves(rule: Rule, framework: str) -> bool:
    """Does ``rule`` move ``framework``: a non-zero effect, a veto or a risk for it?"""
    return any(bool(getattr(part, framework)) for part in (rule.effects, rule.veto, rule.risks))


def test_rule_ids_are_unique_and_sources_recorded() -> None:
    counts = Counter(r.id for r in PACK.all_rules)  # ended rules too: they are history
    assert [rid for rid, n in counts.items() if n > 1] == []
    assert set(PACK.sources) == set(counts)
    # a rule lives in the file named after its criterion, or in the file named after a
    # framework (rules/<framework>.yaml), every rule of which moves that framework: so a
    # new candidate's rules can sit together without a catch-all file for anything else
    criteria = {c.id for c in PACK.meta.criteria}
    assert criteria.isdisjoint(FRAMEWORKS), "a file name must say criterion or framework"
    for rule in PACK.all_rules:
        stem = Path(PACK.sources[rule.id]).stem
        if stem in FRAMEWORKS:
            assert moves(rule, stem), (rule.id, f"in {stem}.yaml but does not move {stem}")
        else:
            assert stem == rule.criterion, rule.id


def test_the_file_rule_can_fail() -> None:
    """``moves`` says no for a framework the rule leaves alone, yes for effect, veto, risk."""
    first, other = FRAMEWORKS[0], FRAMEWORKS[-1]
    reason = "A reason long enough to count."
    for part, value in (("effects", 2), ("veto", reason), ("risks", reason)):
        # a rule needs an effect, a veto or a route: the risk-only rule takes a route
        rule = Rule.model_validate({**rule_dict(effects={}, route="server"), part: {first: value}})
        assert moves(rule, first) and not moves(rule, other), part


@pytest.mark.parametrize("criterion", [c.id for c in PACK.meta.criteria])
def test_every_criterion_has_at_least_three_rules(criterion: str) -> None:
    ids = [r.id for r in RULES if r.criterion == criterion]
    assert len(ids) >= 3, (criterion, ids)


@pytest.mark.parametrize("framework", FRAMEWORKS)
def test_each_framework_is_moved_both_ways_by_several_rules(framework: str) -> None:
    ups = [r.id for r in RULES if getattr(r.effects, framework) > 0]
    downs = [r.id for r in RULES if getattr(r.effects, framework) < 0 or getattr(r.veto, framework)]
    assert len(ups) >= 5, (framework, ups)
    assert len(downs) >= 3, (framework, downs)
    # and from several criteria, so no single concern decides everything
    assert len({r.criterion for r in RULES if getattr(r.effects, framework) > 0}) >= 4


def test_no_single_rule_dominates() -> None:
    for rule in RULES:
        assert all(abs(v) <= 5 for _, v in rule.effects.items()), rule.id
        big = [fw for fw, v in rule.effects.items() if abs(v) == 5]
        assert len(big) <= 1, rule.id
    # vetoes are reserved for hard constraints: a target a framework cannot reach, the only
    # training hardware a framework cannot train on (HW109-110), and a framework the team
    # has decided to leave (LEG104-106)
    vetoing = {r.id for r in RULES if r.veto.items()}
    assert vetoing == {"DEP001", "DEP114", "HW109", "HW110", "LEG104", "LEG105", "LEG106"}, vetoing


def test_probe_aware_rules_exist_for_the_speed_claims() -> None:
    fact_rules = {r.id for r in RULES if r.uses_facts}
    assert len(fact_rules) >= 8
    fields = set().union(*(r.condition.fields() for r in RULES if r.condition))
    for needed in (
        "facts.jax_over_pytorch_train_step",
        "facts.jax_over_pytorch_matmul",
        "facts.jit_speedup.jax",
        "facts.compile_seconds.pytorch",
        "facts.failed",
        "facts.accelerator",
        "facts.scaling_efficiency.jax",
    ):
        assert needed in fields, needed


def test_probe_aware_rules_stand_aside_without_measurements() -> None:
    """With --probes none a rule that reads a fact never fires; it stands aside (unknown)
    unless the profile part of its condition already rules it out."""
    for rule in RULES:
        if not rule.uses_facts:
            continue
        # the rule's own firing example, with its measurements taken away
        example = dict(rule.examples.fire[0])
        example.pop("facts", None)
        for profile in (Profile(), Profile.model_validate(example)):
            result = rule.condition.evaluate(build_context(profile, Facts()))
            assert result is not True, rule.id
        assert (
            rule.condition.evaluate(build_context(Profile.model_validate(example), Facts())) is None
        ), rule.id


def test_speed_claims_are_not_taken_on_faith() -> None:
    """Wanting raw speed, without measurements, must not hand JAX performance points."""
    profile = Profile.model_validate({"priorities": {"raw_performance": 5}})
    decision = decide(profile, None, PACK, with_sensitivity=False)
    perf = [r for r in decision.rules if r.criterion == "performance"]
    assert not any(r.effects.get("jax", 0) > 0 for r in perf), [r.id for r in perf]
    # the probe rules that would decide it were skipped, not guessed
    assert {"PERF001", "PERF002"} <= {s.id for s in decision.skipped_rules}


def test_rules_reading_a_priority_sit_in_a_criterion_weighted_by_it() -> None:
    """Otherwise raising that priority could fire a rule elsewhere and lower a score."""
    for rule in RULES:
        crit = PACK.criterion(rule.criterion)
        for path in rule.condition.fields():
            if path.startswith("priorities."):
                assert path.split(".", 1)[1] in crit.priorities, (rule.id, path)


# --------------------------------------------------------------------------- evidence


def test_every_rule_has_current_evidence_with_a_claim() -> None:
    for rule in RULES:
        current = [e for e in rule.evidence if e.status == "current"]
        assert current, rule.id
        for e in rule.evidence:
            assert len(e.claim) >= 20 and e.title and e.source and 1990 <= e.year <= 2026, rule.id
            if e.url:
                assert e.url.startswith("https://"), (rule.id, e.url)


def test_superseded_evidence_has_a_successor_and_a_current_companion() -> None:
    superseded = [(r, e) for r in RULES for e in r.evidence if e.status == "superseded"]
    assert len(superseded) >= 6  # the newer facts of CLAIMS.md are actually encoded
    for rule, e in superseded:
        assert e.superseded_by and len(e.superseded_by) >= 20, rule.id
        assert any(c.status == "current" for c in rule.evidence), rule.id


@pytest.mark.parametrize(
    "needle",
    [
        "LiteRT",  # TF Lite renamed, Sept 2024
        "ExecuTorch",  # PyTorch Mobile replaced, 1.0 in Oct 2025
        "limited maintenance",  # TorchServe (the archiving date was never verified)
        "PyTorch-only",  # Transformers v5
        "pmap",  # maintenance mode since JAX 0.8
    ],
)
def test_each_newer_fact_supersedes_an_article_claim(needle: str) -> None:
    assert any(needle in (e.superseded_by or "") for r in RULES for e in r.evidence), (
        f"no superseded claim is corrected by a fact about {needle}"
    )


# A current claim may name an outdated thing only together with what replaced it.
STALE = {
    r"\bTorchServe\b": r"archived|limited maintenance|no longer|Triton|Ray Serve",
    r"\bPyTorch Mobile\b": r"deprecated|ExecuTorch|replaced",
    r"\b(TF Lite|TFLite|TensorFlow Lite)\b": r"LiteRT",
    r"\bpmap\b": r"shard_map|maintenance",
}
FALSE_NOW = [
    r"JAX (is|remains) (still )?(an )?experimental",
    r"Transformers (now )?supports? (both )?(TensorFlow|JAX|Flax)",
    r"TorchServe (handles|manages|is the way)",
]


def current_texts() -> list[tuple[str, str]]:
    out = [(r.id, e.claim) for r in RULES for e in r.evidence if e.status == "current"]
    out += [(r.id, r.why) for r in RULES]
    out += [(r.id, text) for r in RULES for _, text in r.risks.items()]
    return out


def test_current_text_never_repeats_a_superseded_fact() -> None:
    problems = []
    for rid, text in current_texts():
        for stale, fix in STALE.items():
            if re.search(stale, text) and not re.search(fix, text, re.IGNORECASE):
                problems.append((rid, text))
        for pattern in FALSE_NOW:
            if re.search(pattern, text, re.IGNORECASE):
                problems.append((rid, text))
    assert problems == []


def test_the_stale_check_can_fail() -> None:
    text = "TorchServe handles scaling and PyTorch Mobile is the way to ship to phones."
    assert re.search(r"\bPyTorch Mobile\b", text) and not re.search(
        STALE[r"\bPyTorch Mobile\b"], text
    )
    assert any(re.search(p, text, re.IGNORECASE) for p in FALSE_NOW)


def test_articles_are_cited_by_their_ids() -> None:
    sources = " ".join(e.source for r in RULES for e in r.evidence)
    for article in ("A0", "A1", "A3"):
        assert article in sources


def test_companion_stacks_follow_the_newer_facts() -> None:
    fw = PACK.meta.frameworks
    names = {f: " ".join(s.name for s in fw[f].stack) for f in FRAMEWORKS}
    for wanted in ("torch.compile", "FSDP2", "Lightning", "Triton", "vLLM", "ExecuTorch"):
        assert wanted in names["pytorch"], wanted
    for wanted in ("Flax NNX", "Optax", "Orbax", "shard_map"):
        assert wanted in names["jax"], wanted
    for wanted in (
        "Keras 3",
        "LiteRT",
        "LiteRT for Microcontrollers",
        "TensorFlow Serving",
        "TensorFlow.js",
    ):
        assert wanted in names["tensorflow"], wanted
    every = " ".join(names.values())
    assert "TorchServe" not in every and "PyTorch Mobile" not in every
    assert not re.search(r"\bpmap\b", every)
    assert "Keras 3" in PACK.meta.hedge


def stack_for(framework: str, profile: dict) -> list[str]:
    context = build_context(Profile.model_validate(profile), Facts())
    return [
        item.name
        for i, item in enumerate(PACK.meta.frameworks[framework].stack)
        if PACK.conditions[(framework, "stack", i)].evaluate(context) is True
    ]


def test_stack_items_appear_only_when_they_apply() -> None:
    single = stack_for("pytorch", {})
    assert "torch.compile" in single and not any("DDP" in s or "vLLM" in s for s in single)
    llm = stack_for(
        "pytorch", {"training": {"accelerators": 8}, "deployment": {"serving": "llm_serving"}}
    )
    assert any("DDP" in s for s in llm) and any("vLLM" in s for s in llm)
    jax_many = stack_for("jax", {"training": {"accelerators": 64}})
    assert any("shard_map" in s for s in jax_many)
    tf_edge = stack_for("tensorflow", {"deployment": {"targets": ["microcontroller", "browser"]}})
    assert "LiteRT for Microcontrollers" in tf_edge and any("LiteRT.js" in s for s in tf_edge)
    fpga = {"deployment": {"targets": ["edge"], "edge_hardware": ["fpga_logic", "fpga_dpu"]}}
    assert any("hls4ml" in s for s in stack_for("tensorflow", fpga))
    assert any("FINN" in s for s in stack_for("pytorch", fpga))
    assert all("Vitis AI" in " ".join(stack_for(fw, fpga)) for fw in ("pytorch", "tensorflow"))
    assert not any("hls4ml" in s or "Vitis" in s for s in stack_for("tensorflow", {}))


def install_for(framework: str, profile: dict) -> str:
    context = build_context(Profile.model_validate(profile), Facts())
    options = PACK.meta.frameworks[framework].install
    return next(
        opt.command
        for i, opt in enumerate(options)
        if PACK.conditions[(framework, "install", i)].evaluate(context) is True
    )


def test_fpga_logic_installs_the_tensorflow_its_keras_2_converter_supports() -> None:
    # hls4ml's Keras 2 / QKeras converters need TensorFlow 2.8-2.14 (hls4ml's setup page);
    # its qkeras extra pins TensorFlow <=2.14.1 (hls4ml 1.3.0 on PyPI): only for Keras 2 code;
    # a new model goes on Keras 3 with the hgq2 extra and a current TensorFlow
    fpga = {"deployment": {"targets": ["edge"], "edge_hardware": ["fpga_logic"]}}
    gpu = {**fpga, "hardware": {"training": ["nvidia_gpu"]}}
    assert '"hls4ml[hgq2]" tensorflow' in install_for("tensorflow", gpu)
    keras2 = {**gpu, "existing_code": ["tf2_keras"]}
    assert '"hls4ml[qkeras]"' in install_for("tensorflow", keras2)
    assert "hls4ml" not in install_for("tensorflow", {})


# --------------------------------------------------------------------------- the validator


def rule_dict(rid: str = "ECO901", **over: object) -> dict:
    """A valid user rule; keyword arguments replace (or, given None, remove) a field."""
    rule: dict = {
        "id": rid,
        "title": "A user rule for tests",
        "criterion": "ecosystem",
        "when": {"field": "ecosystem.huggingface", "eq": True},
        "effects": {"pytorch": 2},
        "why": "Because the test says so.",
        "evidence": [
            {
                "title": "A test source",
                "source": "Tests",
                "year": 2025,
                "claim": "A claim that is long enough to count.",
            }
        ],
        "examples": {"fire": [{"ecosystem": {"huggingface": True}}], "ok": [{}]},
    }
    for key, value in over.items():
        if key in ("fire", "ok"):
            rule["examples"][key] = [value]
        elif value is None:
            del rule[key]
        else:
            rule[key] = value
    return rule


def write_pack(tmp_path: Path, *rules: dict, name: str = "userpack") -> Path:
    pack = tmp_path / name
    pack.mkdir()
    (pack / "mine.yaml").write_text(yaml.safe_dump({"rules": list(rules)}, sort_keys=False))
    return pack


def test_a_good_user_rule_loads(tmp_path: Path) -> None:
    pack = write_pack(tmp_path, rule_dict())
    loaded = load_ruleset([pack])
    assert loaded.get("ECO901") is not None and len(loaded.rules) == len(RULES) + 1


BAD_CASES = {
    "unknown field": (
        {"when": {"field": "ecosystem.hugingface", "eq": True}},
        ["ecosystem.hugingface", "did you mean 'ecosystem.huggingface'"],
    ),
    "unknown operator": ({"when": {"field": "ecosystem.huggingface", "equals": True}}, ["equals"]),
    "bad enum literal": (
        {
            "when": {"field": "hardware.training", "contains": "tpuu"},
            "fire": {"hardware": {"training": ["tpu"]}},
        },
        ["tpuu", "did you mean 'tpu'"],
    ),
    "missing evidence": ({"evidence": None}, ["evidence"]),
    "unknown framework": ({"effects": {"mxnet": 2}}, ["mxnet"]),
    "example does not fire": (
        {"fire": {"ecosystem": {"huggingface": False}}},
        ["examples.fire[1]", "did not fire"],
    ),
    "ok example fires": ({"ok": {"ecosystem": {"huggingface": True}}}, ["examples.ok[1]"]),
}


@pytest.mark.parametrize("case", sorted(BAD_CASES))
def test_the_validator_rejects_bad_rules_naming_file_rule_and_field(
    tmp_path: Path, case: str
) -> None:
    override, fragments = BAD_CASES[case]
    pack = write_pack(tmp_path, rule_dict(**override))
    with pytest.raises(InputError) as info:
        load_ruleset([pack])
    message = str(info.value)
    assert "mine.yaml" in message and "ECO901" in message, message
    for fragment in fragments:
        assert fragment in message, (case, message)


def test_duplicate_ids_are_rejected_within_a_pack_and_against_the_core(tmp_path: Path) -> None:
    pack = write_pack(tmp_path, rule_dict("ECO901"), rule_dict("ECO901"))
    with pytest.raises(InputError) as info:
        load_ruleset([pack])
    assert "ECO901" in str(info.value) and "duplicate" in str(info.value)
    clash = write_pack(tmp_path, rule_dict("ECO001"), name="clash")
    with pytest.raises(InputError) as info:
        load_ruleset([clash])
    assert "ECO001" in str(info.value) and "ecosystem.yaml" in str(info.value)


def test_rules_check_cli_exit_codes(tmp_path: Path) -> None:
    runner = CliRunner()
    good = runner.invoke(cli_main, ["rules", "check"])
    ended = len(PACK.all_rules) - len(RULES)
    assert good.exit_code == 0 and f"{len(PACK.all_rules)} rules valid" in good.output
    assert f"({ended} of them ended: history, not scored today)" in good.output
    bad = write_pack(tmp_path, rule_dict(effects={"mxnet": 2}))
    result = runner.invoke(cli_main, ["rules", "check", str(bad)])
    assert result.exit_code == 2
    assert "ECO901" in (result.output + (result.stderr if result.stderr_bytes else ""))
