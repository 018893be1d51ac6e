"""Red-team round 92 (2026-12-06): a keyword-spotting start-up, an e-commerce ranking team and
an introductory course read their reports end to end."""

from __future__ import annotations

from advisor.decide.engine import decide
from advisor.decide.rules import load_ruleset
from advisor.model.profile import Profile

RANKING = {
    "purpose": "production",
    "domains": ["recommender", "tabular"],
    "model": {"parameters": "2B"},
    "training": {"accelerators": 16, "nodes": 2},
    "hardware": {"training": ["nvidia_gpu"], "inference": ["nvidia_gpu"]},
    "deployment": {"targets": ["server"], "serving": "online_api", "serving_stack": "tf_serving"},
    "team": {"size": 12, "experience": {"pytorch": "some", "tensorflow": "expert"}},
    "existing_code": ["tf2_keras"],
    "existing_code_size": "large",
    "weighing_a_move": True,
    "workload": {"sparse_embeddings": True},
}


def test_serving_a_ranking_model_as_an_llm_is_no_change_to_offer() -> None:
    """The cheapest flip offered to the ranking team was deployment.serving: llm_serving."""
    rules = load_ruleset()
    tripped = decide(
        Profile.model_validate(
            {**RANKING, "deployment": {"targets": ["server"], "serving": "llm_serving"}}
        ),
        None,
        rules,
    )
    assert "CON017" in [i.id for i in tripped.inconsistencies]
    sens = decide(Profile.model_validate(RANKING), None, rules).sensitivity
    assert sens is not None
    offered = [sens.smallest_flip, sens.decidable_flip, *sens.flips_by_framework.values()]
    assert not any(f and f.path == "deployment.serving" for f in offered)


def test_sparse_tables_on_gpus_get_a_sharded_embedding_layer_in_tensorflow() -> None:
    """tf.distribute's MirroredStrategy copies every table onto every GPU."""
    stack = load_ruleset().meta.frameworks["tensorflow"].stack
    names = [item.name for item in stack]
    assert any("Sparse Operation Kit" in n for n in names)


def test_a_beginners_course_on_free_colab_tpus_is_not_told_to_scale_on_them() -> None:
    course = {
        "purpose": "research",
        "domains": ["vision", "nlp"],
        "hardware": {"training": ["nvidia_gpu"], "free_tpu_access": True},
        "team": {"new_to_deep_learning": True, "numpy": True},
        "priorities": {"learning_curve": 5},
    }
    fired = [r.id for r in decide(Profile.model_validate(course), None, load_ruleset()).rules]
    assert "HW106" not in fired
    course["team"] = {"numpy": True}
    fired = [r.id for r in decide(Profile.model_validate(course), None, load_ruleset()).rules]
    assert "HW106" in fired


def test_a_tensorflow_device_verdict_names_the_converter_s_move_to_litert() -> None:
    """A microcontroller report said "No rule flagged a specific risk of TensorFlow", while
    its starter and stack use tf.lite, which is leaving the TensorFlow package."""
    kws = {
        "purpose": "production",
        "domains": ["speech"],
        "model": {"parameters": 100000},
        "deployment": {"targets": ["microcontroller"], "device_memory_mb": "256KB"},
        "team": {"size": 4, "languages": ["cpp"], "experience": {"pytorch": "some"}},
    }
    decision = decide(Profile.model_validate(kws), None, load_ruleset())
    texts = [r.text for r in decision.risks if r.framework == "tensorflow"]
    assert any("LiteRT" in t and "pin" in t for t in texts), texts


def test_prod107_does_not_offer_a_c_library_that_is_no_longer_published() -> None:
    """PROD107 said TensorFlow runs from C++ "through its C API (libtensorflow)"; TensorFlow
    2.19 stopped publishing libtensorflow packages."""
    rule = load_ruleset().get("PROD107")
    assert rule is not None and "2.19" in rule.why


def test_a_team_told_to_build_on_a_framework_it_does_not_know_is_told_so() -> None:
    from advisor.report.risks import experience_gap

    pytorch_team = Profile.model_validate({"team": {"experience": {"pytorch": "some"}}})
    text = experience_gap(pytorch_team, "tensorflow")
    assert text and "PyTorch (some)" in text and "learn TensorFlow" in text
    assert experience_gap(pytorch_team, "pytorch") is None
    both = Profile.model_validate(
        {"team": {"experience": {"pytorch": "some", "tensorflow": "expert"}}}
    )
    assert experience_gap(both, "tensorflow") is None
    assert experience_gap(Profile.model_validate({}), "jax") is None  # nothing said


def test_a_rule_that_scored_the_winner_down_is_one_of_its_risks() -> None:
    """The ranking team's TensorFlow verdict carried LEG006 at -3.3 for TensorFlow and said
    "No rule flagged a specific risk of TensorFlow"."""
    from advisor.model.measurements import ProbeRun
    from advisor.report.risks import risks

    # production maturity beside stability: from ruleset 2026.12.79 (ECO115, sharded tables on
    # NVIDIA GPUs) stability alone makes this team's verdict PyTorch, at low confidence
    priorities = {"long_term_stability": 5, "production_maturity": 5}
    profile = Profile.model_validate({**RANKING, "priorities": priorities})
    decision = decide(profile, None, load_ruleset())
    assert decision.recommendation.framework == "tensorflow"
    shown = risks(decision, ProbeRun(), profile)
    texts = {r["rule"]: r["text"] for r in shown["chosen"]}
    assert "LEG006" in texts and "points for TensorFlow" in texts["LEG006"]


def test_a_team_weighing_a_move_is_told_to_stay_or_to_move() -> None:
    from advisor.frameworks import CODE_FRAMEWORK, FRAMEWORKS
    from advisor.model.choices import ExistingCode
    from advisor.report.verdict import verb, verdict

    assert set(CODE_FRAMEWORK) <= {c.value for c in ExistingCode}
    assert set(CODE_FRAMEWORK.values()) == set(FRAMEWORKS)
    profile = Profile.model_validate(RANKING)
    decision = decide(profile, None, load_ruleset())
    assert decision.recommendation.framework == "tensorflow"
    assert verdict(decision, profile).startswith("Stay on TensorFlow")
    assert verb(profile, "pytorch") == "Move to"
    new = Profile.model_validate({"existing_code": ["tf2_keras"]})
    assert verb(new, "pytorch") == "Build on"  # not weighing a move: a plain verdict
    assert verb(Profile.model_validate({"weighing_a_move": True}), "jax") == "Build on"
