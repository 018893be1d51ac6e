"""Questionnaire review round 97 (2026-12-06): a hospital IT lead with Windows-only GPU
workstations, a retail analyst forecasting weekly sales, and a robotics PhD student on Isaac Lab
drove `advisor recommend` through a real terminal and read the reports it wrote."""

from __future__ import annotations

from advisor.decide.conditions import build_context
from advisor.decide.install import choose_setup
from advisor.decide.rules import load_ruleset
from advisor.model.profile import Profile
from advisor.questionnaire.loader import load_questions
from advisor.report.command import source


def test_a_report_made_from_answers_reruns_from_its_appendix() -> None:
    """Finding 5: the rerun command was 'advisor ask -o profile.yaml && ...', which meant
    answering every question again; the appendix already holds the answers as a profile."""
    made = source(None, "none")
    assert "advisor ask" not in made["command"] and "advisor ask" not in made["measure_command"]
    assert made["command"].startswith("advisor recommend profile.yaml --probes none")
    assert "the profile in the appendix" in made["command"]
    assert made["measure_command"].startswith("advisor recommend profile.yaml --probes quick")


def test_a_forecaster_gets_rows_of_features_and_a_count_loss() -> None:
    """Finding 4: a weekly-sales forecaster was shown an MNIST-shaped classifier."""
    rules = load_ruleset()
    context = build_context(Profile.model_validate({"domains": ["time_series"]}), None)
    for fw in rules.meta.frameworks:
        starter = choose_setup(rules, fw, context, ["cpu"]).starter
        assert "count target" in starter.code and "784" not in starter.code, fw


def test_a_risk_does_not_ask_for_an_answer_already_given() -> None:
    """Finding 3: ECO005's PyTorch risk said 'say where your simulators run' to a student
    who had answered Isaac Lab."""
    rule = load_ruleset().get("ECO005")
    assert rule is not None
    assert "say where" not in rule.risks.pytorch


def test_help_texts_say_what_the_words_mean_and_when_to_skip() -> None:
    """Finding 6: the determinism, native-Windows and free-TPU help restated the question."""
    helps = {q.path: " ".join(q.help_lines()) for q in load_questions().questions}
    assert "Keeping data private" in helps["determinism"] and "skip" in helps["determinism"]
    assert "Windows Subsystem for Linux" in helps["hardware.native_windows"]
    assert "Google's accelerators" in helps["hardware.free_tpu_access"]


def test_a_choice_typed_as_a_person_reads_it_is_taken() -> None:
    """Finding 10: 'Online API' was refused as 'pick just one choice'."""
    questions = {q.path: q for q in load_questions().questions}
    serving = questions["deployment.serving"]
    assert serving.parse("Online API") == "online_api"
    assert serving.parse("llm-serving") == "llm_serving"
