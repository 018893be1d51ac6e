"""Red-team round 93 (2026-12-06): a weather service, a physics PhD student and a mobile speech
team read their reports end to end; and round 92's open point, a team weighing a move told only
"Stay on X", now gets staying against moving side by side."""

from __future__ import annotations

from typing import Any

from advisor.decide.conditions import build_context
from advisor.decide.engine import decide
from advisor.decide.moves import porting_steps
from advisor.decide.rules import load_ruleset
from advisor.model.measurements import ProbeRun
from advisor.model.profile import Profile
from advisor.report.context import ReportInput, build_report

RANKING: dict[str, Any] = {
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


def _report(data: dict[str, Any]) -> dict[str, Any]:
    profile = Profile.model_validate(data)
    decision = decide(profile, None, load_ruleset())
    return build_report(ReportInput(decision=decision, profile=profile, run=ProbeRun()))


def test_a_team_weighing_a_move_sees_staying_against_moving() -> None:
    decision = decide(Profile.model_validate(RANKING), None, load_ruleset())
    move = decision.move
    assert move is not None
    assert (move.stay, move.move, move.recommended) == ("tensorflow", "pytorch", "tensorflow")
    assert "TEAM107" in [r.rule for r in move.for_staying]
    assert "TEAM003" in [r.rule for r in move.for_moving]
    assert not {r.rule for r in move.for_staying} & {r.rule for r in move.for_moving}
    topics = [s.topic for s in move.steps]
    assert topics[0] == "Model code" and "Serving" in topics and topics[-1] == "Check"
    assert any("KERAS_BACKEND=torch" in s.step for s in move.steps)
    assert [s.topic for s in move.stay_steps] == ["Keras 2 code"]  # Keras 3 since TF 2.16
    part = _report(RANKING)["stay_or_move"]
    assert part["title"] == "Staying on TensorFlow or moving to PyTorch"
    assert "staying comes out ahead" in part["standing"] and part["size"] == "large"


def test_tensorflow_1_code_leaving_gets_the_rewrite_steps_and_staying_costs_a_migration() -> None:
    leaving = {
        "existing_code": ["tf1"],
        "migrating_away": True,
        "team": {"experience": {"pytorch": "expert"}},
        "domains": ["vision"],
    }
    move = decide(Profile.model_validate(leaving), None, load_ruleset()).move
    assert move is not None and move.recommended == move.move == "pytorch"
    assert any("tf.train.load_checkpoint" in s.step for s in move.steps)
    assert not any("KERAS_BACKEND" in s.step for s in move.steps)  # no Keras code to carry
    assert [s.topic for s in move.stay_steps] == ["TensorFlow 1 code"]
    # a team that has decided to leave: staying is ruled out (LEG104), and the report says so
    assert _report(leaving)["stay_or_move"]["standing"].startswith(
        "Staying on TensorFlow is ruled out"
    )
    weighing = {**leaving, "migrating_away": False, "weighing_a_move": True}
    assert "moving comes out ahead" in _report(weighing)["stay_or_move"]["standing"]


def test_no_stay_or_move_part_for_a_team_that_is_not_weighing_one() -> None:
    settled = {k: v for k, v in RANKING.items() if k != "weighing_a_move"}
    assert decide(Profile.model_validate(settled), None, load_ruleset()).move is None
    assert _report(settled)["stay_or_move"] is None
    # weighing a move with no code in a candidate framework: nothing to stay on
    numpy_only = {"existing_code": ["numpy"], "weighing_a_move": True}
    assert decide(Profile.model_validate(numpy_only), None, load_ruleset()).move is None


def test_every_framework_says_how_to_port_each_other_frameworks_code() -> None:
    """Each framework's porting list covers the code of the others; each step links a source
    except the closing check, which is the team's own test."""
    from advisor.frameworks import CODE_FRAMEWORK

    rules = load_ruleset()
    for fw in rules.meta.frameworks:
        for kind, code_fw in CODE_FRAMEWORK.items():
            if code_fw == fw:
                continue
            profile = Profile.model_validate({"existing_code": [kind], "weighing_a_move": True})
            steps = porting_steps(rules, fw, build_context(profile, None))
            assert steps, (kind, code_fw, fw)
            assert all(s.url for s in steps if s.topic != "Check")
