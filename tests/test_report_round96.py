"""Red-team round 96 (2026-12-06): an e-commerce recommendations team on TensorFlow weighing a
move, a retailer's demand-forecasting team new to deep learning, and a quant researcher who
trains many seeds of 5-50M-parameter sequence models at once on one GPU read their reports."""

from __future__ import annotations

from typing import Any

from advisor.decide.conditions import build_context, situation_paths
from advisor.decide.engine import decide
from advisor.decide.install import choose_setup
from advisor.decide.rules import load_ruleset
from advisor.model.profile import Profile

RECSYS: dict[str, Any] = {
    "purpose": "production",
    "domains": ["recommender"],
    "model": {"parameters": "50M"},
    "hardware": {"training": ["nvidia_gpu"], "inference": ["nvidia_gpu"]},
    "deployment": {"targets": ["server"], "serving": "online_api", "serving_stack": "tf_serving"},
    "team": {"experience": {"tensorflow": "expert", "pytorch": "some"}},
    "existing_code": ["tf2_keras"],
    "existing_code_size": "large",
    "weighing_a_move": True,
    "workload": {"sparse_embeddings": True, "model_family": "transformer"},
}
QUANT: dict[str, Any] = {
    "purpose": "research",
    "domains": ["time_series"],
    "model": {"parameters": "50M"},
    "training": {"accelerators": 1},
    "hardware": {"training": ["nvidia_gpu"]},
    "team": {"functional_programming": True, "experience": {"jax": "some", "pytorch": "some"}},
    "determinism": "required",
    "workload": {"model_family": "transformer", "compiled_training_loop": True},
}


def _fired(data: dict[str, Any]) -> set[str]:
    return {r.id for r in decide(Profile.model_validate(data), None, load_ruleset()).rules}


def _stack(data: dict[str, Any], framework: str) -> list[str]:
    context = build_context(Profile.model_validate(data), None)
    setup = choose_setup(load_ruleset(), framework, context, ["nvidia_gpu"])
    return [f"{item.name}: {item.role}" for item in setup.stack]


def test_seeds_of_a_50m_model_batched_on_one_gpu_keep_the_compiled_loop() -> None:
    """Finding H1: the answer was dropped from 10M parameters on, whatever the hardware."""
    assert "PERF101" in _fired(QUANT)
    assert "PERF101" not in _fired({**QUANT, "training": {"accelerators": 32}})
    assert "PERF101" not in _fired({**QUANT, "model": {"parameters": "300M"}})
    small = {**QUANT, "model": {"parameters": "5M"}, "training": {"accelerators": 32}}
    assert "PERF101" in _fired(small)


def test_a_recommender_gets_a_two_tower_starter_in_every_framework() -> None:
    """Finding H2: the starter was a next-token language model."""
    rules = load_ruleset()
    context = build_context(Profile.model_validate(RECSYS), None)
    for fw in rules.meta.frameworks:
        setup = choose_setup(rules, fw, context, ["nvidia_gpu"])
        assert "two-tower retrieval" in (setup.starter.note or ""), fw
        assert "in-batch softmax" in setup.starter.code, fw


def test_a_count_target_is_told_its_loss() -> None:
    """Finding H3: weekly demand was shown a weighted binary classifier only."""
    rules = load_ruleset()
    context = build_context(Profile.model_validate({"domains": ["tabular"]}), None)
    losses = {"pytorch": "PoissonNLLLoss", "jax": "jnp.exp(z) - y * z", "tensorflow": "poisson"}
    for fw, loss in losses.items():
        assert loss in choose_setup(rules, fw, context, ["cpu"]).starter.code, fw


def test_an_embedding_table_is_a_situation_and_parameters_leave_its_rows_out() -> None:
    """Finding H4: 'change workload.sparse_embeddings from true to false' was the headline
    flip, filed under the team's plans, for a 500M-id table that exists."""
    assert "workload.sparse_embeddings" in situation_paths()
    description = Profile.model_fields["model"].annotation.model_fields["parameters"].description
    assert "not the rows of its embedding tables" in (description or "")


def test_sharded_tables_on_nvidia_gpus_lean_to_torchrec() -> None:
    """Findings H5 and M8: ECO103 scored PyTorch and TensorFlow level on GPUs, where
    TensorFlow's route is a plugin with no release since Jun 2024."""
    assert {"ECO103", "ECO115"} <= _fired(RECSYS)
    tpus = {**RECSYS, "hardware": {"training": ["tpu", "nvidia_gpu"]}}
    assert "ECO115" not in _fired(tpus)


def test_tensorflow_recommenders_is_shown_as_keras_2_and_keras_rs_beside_it() -> None:
    """Finding M1 (checked here: tensorflow-recommenders 0.7.7 raises ImportError under
    Keras 3 on TensorFlow 2.21) and M2 (model.save(dir) raises for a Keras 3 model)."""
    stack = _stack(RECSYS, "tensorflow")
    assert any(s.startswith("Keras-RS") and "SOK" in s for s in stack)
    tfrs = [s for s in stack if s.startswith("TensorFlow Recommenders")]
    assert tfrs and "TF_USE_LEGACY_KERAS" in tfrs[0]
    assert any(s.startswith("TensorFlow Serving") and 'format="tf_saved_model"' in s for s in stack)
    new = _stack({**RECSYS, "existing_code": [], "existing_code_size": "small"}, "tensorflow")
    assert not any(s.startswith("TensorFlow Recommenders") for s in new)


def test_the_hedge_is_left_out_where_keras_cannot_carry_the_project() -> None:
    """Finding M9: 'Keras 3 ... so the choice can be revisited' for sharded tables and for
    runs batched with vmap."""
    rules = load_ruleset()
    for data in (RECSYS, QUANT):
        assert decide(Profile.model_validate(data), None, rules).recommendation.hedge == ""
    plain = decide(Profile.model_validate({"domains": ["vision"]}), None, rules)
    assert plain.recommendation.hedge


def test_a_transformer_on_a_workstation_gpu_is_not_told_to_turn_on_float64() -> None:
    """Finding M4: jax_enable_x64 fired on the scientific domain alone."""
    science = {**QUANT, "domains": ["scientific"]}
    assert not any("jax_enable_x64" in s for s in _stack(science, "jax"))
    solver = {**science, "workload": {"model_family": "transformer", "differentiable_solver": True}}
    assert any("jax_enable_x64" in s and "float64" in s for s in _stack(solver, "jax"))


def test_forecasting_has_a_domain_its_libraries_and_its_baselines() -> None:
    """Findings H3 and M6: no time-series domain; NeuralForecast, Darts and the statistical
    and LightGBM baselines were never named."""
    assert "ECO116" in _fired(QUANT)
    assert any(s.startswith("NeuralForecast") for s in _stack(QUANT, "pytorch"))
    for fw in ("pytorch", "jax", "tensorflow"):
        assert any(s.startswith("statsforecast and mlforecast") for s in _stack(QUANT, fw)), fw


def test_a_recommender_moving_to_pytorch_is_told_about_torchrec_and_its_tables() -> None:
    """Finding H6: the move never named TorchRec, and its serving step could not hold a
    500M-row table."""
    move = decide(Profile.model_validate(RECSYS), None, load_ruleset()).move
    assert move is not None
    steps = {s.topic: s.step for s in move.steps if "TorchRec" in s.step}
    assert "Embedding tables" in steps and "optimiser state" in steps["Embedding tables"]
