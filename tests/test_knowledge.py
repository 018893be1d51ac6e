"""The knowledge base: cited claim ids exist, evidence is dated, package facts come from the
snapshot, and no single fact of a profile is scored by two rules.

docs/sources.md defines the claim ids (first column of its tables); rules cite them with
pack.yaml's `claim_id` and each evidence entry's `ref` (or `PKG:name` for an entry of
rules/data/package_health.yaml). The check itself is advisor.decide.citations, shared with
`advisor rules check`.
"""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

import pytest
import yaml
from pack_support import knowledge_today, minimal_core

from advisor.decide.citations import citation_problems, defined_ids, load_snapshot
from advisor.decide.engine import decide
from advisor.decide.rules import RuleSet, load_ruleset, rule_files
from advisor.model.profile import Profile

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ROOT / "docs" / "sources.md"
SNAPSHOT = ROOT / "rules" / "data" / "package_health.yaml"
TODAY = knowledge_today()  # the newest checked date; test_no_date_is_after_the_real_clock

PACK = load_ruleset()


def snapshot_packages() -> dict[str, dict]:
    data = yaml.safe_load(SNAPSHOT.read_text(encoding="utf-8"))
    return {p["name"]: p for p in data["packages"]}


def problems_of(ruleset: RuleSet, core: Path | None = None) -> list[str]:
    ids = defined_ids(SOURCES.read_text(encoding="utf-8"))
    found = citation_problems(ruleset, ids, set(snapshot_packages()), today=TODAY, core=core)
    return [str(p) for p in found]


# --------------------------------------------------------------------------- citations


def test_sources_define_the_articles_criteria_and_recommendations() -> None:
    ids = defined_ids(SOURCES.read_text(encoding="utf-8"))
    assert {"A0", "A1", "A3", "A-MATMUL", "A-GRAD", "A-NUMPY", "A-PERF"} <= ids
    assert {f"R{i}" for i in range(1, 8)} <= ids
    assert {c.claim_id for c in PACK.meta.criteria} <= ids
    assert len([i for i in ids if i.startswith("F-")]) >= 20


def test_every_cited_id_is_defined_and_every_evidence_is_dated() -> None:
    assert problems_of(PACK) == []


def test_the_citation_check_can_fail(tmp_path: Path) -> None:
    """A rule citing an undefined id, an unknown package and no date is reported, each once."""
    core = minimal_core(tmp_path)
    (core / "bad.yaml").write_text(
        """rules:
  - id: HW901
    title: A rule with bad citations
    criterion: hardware
    when: {field: hardware.training, contains: tpu}
    effects: {jax: 1}
    why: Only here to prove that the citation check can fail.
    evidence:
      - {title: Nowhere, source: Nobody, year: 2026, ref: F-NOSUCHFACT,
         claim: A claim whose id is not defined in sources.md.}
      - {title: Nothing, source: PyPI, year: 2026, ref: "PKG:no-such-package",
         checked: 2026-11-30, claim: A package that the snapshot does not list.}
    examples:
      fire: [{hardware: {training: [tpu]}}]
      ok: [{hardware: {training: [cpu]}}]
"""
    )
    rs = load_ruleset(core=core)
    problems = problems_of(rs, core=core)
    bad = core / "bad.yaml"
    assert problems == [
        f"{bad}:9: rule HW901: evidence[1].checked: no checked date (when was the claim last "
        "verified?)",
        f"{bad}:9: rule HW901: evidence[1].ref: F-NOSUCHFACT is not a claim id defined in "
        "docs/sources.md",
        f"{bad}:11: rule HW901: evidence[2].ref: PKG:no-such-package is not in the "
        "package-health snapshot",
    ]


def test_the_snapshot_loads_as_a_typed_model() -> None:
    snap = load_snapshot()
    assert snap.snapshot <= TODAY
    assert snap.names() == set(snapshot_packages())
    tfjs = snap.get("tensorflowjs")
    assert tfjs is not None and snap.release_text("tensorflowjs") == (
        f"latest {tfjs.version} ({tfjs.released}, per PyPI snapshot of {snap.snapshot})"
    )
    assert snap.release_text("no-such-package") is None


# --------------------------------------------------------------------------- package health


def test_snapshot_is_complete_and_dated() -> None:
    data = yaml.safe_load(SNAPSHOT.read_text(encoding="utf-8"))
    snap = dt.date.fromisoformat(str(data["snapshot"]))
    assert snap <= TODAY
    packages = snapshot_packages()
    needed = {
        "tensorflow", "tensorflow-cpu", "tensorflowjs", "tensorflow-hub", "tensorflow-probability",
        "tensorflow-io", "tensorflow-privacy", "tensorflow-metal", "jax-metal", "torch",
        "torch-xla", "torch-tpu", "jax", "flax", "keras", "executorch", "litert-torch",
        "ai-edge-torch", "torchserve", "opacus",
    }  # fmt: skip
    assert needed <= set(packages)
    for name, p in packages.items():
        assert re.match(r"^\d+(\.\d+)*", str(p["version"])), name
        released = dt.date.fromisoformat(str(p["released"]))
        assert released <= dt.date.fromisoformat(str(p["checked"])) <= TODAY, name
        assert p["source"] == f"https://pypi.org/project/{name}/", name


def test_snapshot_is_not_loaded_as_a_rule_file() -> None:
    files = rule_files(ROOT / "rules")
    assert SNAPSHOT.exists() and SNAPSHOT not in files
    assert all(f.parent == ROOT / "rules" for f in files)


def test_stale_libraries_earn_tensorflow_nothing() -> None:
    """Rules whose evidence cites a stale TF library's snapshot entry give TensorFlow <= 0."""
    stale = {"PKG:tensorflow-hub", "PKG:tensorflow-probability", "PKG:tensorflow-io",
             "PKG:tensorflow-privacy", "PKG:tensorflowjs"}  # fmt: skip
    citing = [r for r in PACK.rules if any(e.ref in stale for e in r.evidence)]
    assert {r.id for r in citing} >= {"ECO006", "ECO008", "PERF007"}
    for rule in citing:
        if rule.id == "DEP003":  # TF.js stalled, but TF's own .tflite route to LiteRT.js remains
            assert rule.effects.tensorflow <= 2
            continue
        assert rule.effects.tensorflow <= 0, rule.id


# --------------------------------------------------------------------------- one fact, one rule

BASE = {
    "purpose": "research",
    "model": {"parameters": "300M"},
    "training": {"accelerators": 8},
    "hardware": {"training": ["nvidia_gpu"], "inference": ["nvidia_gpu"]},
    "deployment": {"targets": ["server"], "serving": "none"},
    "team": {"experience": {"pytorch": "none", "jax": "none", "tensorflow": "none"}},
}


def fired(data: dict) -> dict[str, dict[str, float]]:
    """Each fired rule's effective effects: its own, its route's and its decisive units."""
    d = decide(Profile.model_validate(data), None, PACK, with_sensitivity=False)
    return {r.id: {**r.effects, **{f"{fw} (decisive)": u for fw, u in r.decisive.items()}}
            for r in d.rules}  # fmt: skip


def with_(**changes: object) -> dict:
    data = {k: (dict(v) if isinstance(v, dict) else v) for k, v in BASE.items()}
    for dotted, value in changes.items():
        section, _, key = dotted.partition("__")
        if key:
            data[section] = {**data[section], key: value}
        else:
            data[section] = value
    return data


def moved_by(fact: dict, without: dict) -> set[str]:
    """Rules that fire with the fact and not without it (or the other way round)."""
    a, b = fired(fact), fired(without)
    return {rid for rid in set(a) ^ set(b) if any(a.get(rid, b.get(rid, {})).values())}


@pytest.mark.parametrize(
    ("name", "fact", "without", "rule"),
    [
        (
            "TPU-only training",
            with_(hardware__training=["tpu"]),
            with_(hardware__training=["cpu"]),
            "HW008",
        ),
        (
            "TPUs next to GPUs",
            with_(hardware__training=["nvidia_gpu", "tpu"]),
            with_(hardware__training=["nvidia_gpu"]),
            "HW001",
        ),
        (
            "phone target",
            with_(deployment__targets=["server", "mobile"]),
            with_(deployment__targets=["server"]),
            "DEP002",
        ),
        (
            "edge target",
            with_(deployment__targets=["server", "edge"]),
            with_(deployment__targets=["server"]),
            "DEP004",
        ),
        (
            "1024 accelerators",
            with_(training__accelerators=1024, hardware__training=["tpu"]),
            with_(training__accelerators=8, hardware__training=["tpu"]),
            "SCL004",
        ),
        (
            "64 accelerators",
            with_(training__accelerators=64, hardware__training=["tpu"]),
            with_(training__accelerators=8, hardware__training=["tpu"]),
            "PAR002",
        ),
    ],
)
def test_a_fact_moves_the_scores_through_one_rule_only(
    name: str, fact: dict, without: dict, rule: str
) -> None:
    assert moved_by(fact, without) == {rule}, name


@pytest.mark.parametrize("count", [16, 64, 255, 256, 1024, 100_000])
def test_scale_and_parallelism_never_both_score_the_accelerator_count(count: int) -> None:
    ids = set(fired(with_(training__accelerators=count, hardware__training=["tpu"])))
    assert len(ids & {"SCL004", "PAR002"}) == 1, (count, ids)
    # on GPUs alone neither scores it: DDP/FSDP2 and the PyTorch large-scale stacks are the
    # well-trodden path there (PAR001)
    gpus = set(fired(with_(training__accelerators=count)))
    assert not gpus & {"SCL004", "PAR002"}, (count, gpus)


@pytest.mark.parametrize(
    "hardware", [["tpu"], ["cpu", "tpu"], ["nvidia_gpu", "tpu"], ["amd_gpu", "tpu"]]
)
def test_tpu_training_is_scored_by_exactly_one_hardware_rule(hardware: list[str]) -> None:
    ids = set(fired(with_(hardware__training=hardware)))
    assert len(ids & {"HW001", "HW008"}) == 1, (hardware, ids)


def test_no_performance_rule_reads_the_deployment_targets() -> None:
    """Device targets are scored under deployment; PERF008 scored them a second time."""
    for rule in PACK.rules:
        if rule.criterion == "performance":
            assert not any(f.startswith("deployment.") for f in rule.condition.fields()), rule.id


def test_large_research_models_on_nvidia_gpus_do_not_tip_to_jax() -> None:
    big = with_(model={"parameters": "70B"}, training__accelerators=512)
    on_gpu, on_tpu = fired(big), fired({**big, "hardware": {"training": ["tpu"]}})
    assert "SCL001" not in on_gpu and "SCL005" in on_gpu
    assert "SCL001" in on_tpu and "SCL005" not in on_tpu


def test_no_date_is_after_the_real_clock() -> None:
    """The tests take the newest checked date as today (pack_support.knowledge_today), so
    a date typed in the future (2027 for 2026) must be caught here, against the real clock
    (the latest date anywhere on Earth), as `advisor rules check` does."""
    from advisor.decide.dating import today_anywhere

    assert knowledge_today() <= today_anywhere()
    problems = citation_problems(
        PACK, defined_ids(SOURCES.read_text(encoding="utf-8")), set(snapshot_packages()),
        today=today_anywhere(),
    )  # fmt: skip
    assert [str(p) for p in problems] == []
