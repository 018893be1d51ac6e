"""Questionnaire review round 95 (2026-12-06): three users (a product manager, a PhD student, a
firmware lead) drove `advisor ask` through a real terminal; Enter saved every [default] as the
user's own answer, with no way to say "I do not know"."""

from __future__ import annotations

import dataclasses
import io

from advisor.model.said import said_paths
from advisor.questionnaire import run_questionnaire
from advisor.questionnaire.loader import load_questions
from advisor.questionnaire.spec import UNSAID
from advisor.questionnaire.terminal import Terminal


def _answers(replies: dict[str, str], base=None) -> tuple[set[str], str]:
    """Walk the questionnaire answering ``replies`` by field path, Enter elsewhere."""
    qs = load_questions()
    lines: list[str] = []
    # the questions in the order the answers bring them up, with the replies given
    given: dict[str, object] = {}
    index = 0
    while True:
        relevant, _ = qs.walk(given, qs.base(base))
        index = next((i for i in relevant if i >= index), -1)
        if index < 0:
            break
        question = qs.questions[index]
        reply = replies.get(question.path, "")
        lines.append(reply)
        if reply:
            given[question.path] = UNSAID if reply == "skip" else question.parse(reply)
        index += 1
    out = io.StringIO()
    terminal = Terminal(stdin=io.StringIO("".join(f"{x}\n" for x in [*lines, "y"])), out=out)
    profile = run_questionnaire(terminal=terminal, base=base)
    return set(said_paths(profile)), out.getvalue()


def test_skip_leaves_a_question_unsaid_and_enter_still_keeps_the_default() -> None:
    said, shown = _answers({"team.numpy": "skip", "hardware.training": "skip"})
    assert "team.numpy" not in said and "hardware.training" not in said
    assert "team.functional_programming" in said  # Enter: the [default] is the answer
    assert "skip leaves a question unsaid" in shown
    assert "team.numpy" in shown.split("Your answers:")[1] and "not said" in shown


def test_skip_drops_what_a_revised_profile_said() -> None:
    from advisor.model.profile import Profile

    base = Profile.model_validate({"team": {"numpy": True}, "purpose": "research"})
    said, _ = _answers({"team.numpy": "skip"}, base=base)
    assert "team.numpy" not in said and "purpose" in said


def test_a_required_question_cannot_be_skipped() -> None:
    """A question set of one's own (--questions FILE) may mark a question required."""
    from advisor.questionnaire.session import Session

    qs = load_questions()
    assert all(q.show(UNSAID) == "not said" for q in qs.questions)
    question = dataclasses.replace(qs.questions[1], required=True)
    out = io.StringIO()
    session = Session(qs, qs.base(), Terminal(stdin=io.StringIO("skip\nresearch\n"), out=out))
    assert session.ask(question, 1, 1, {}) == "research"
    assert "must be answered" in out.getvalue()


def test_a_microcontroller_s_memory_is_read_as_flash_and_ram() -> None:
    """Finding 7: the device-memory question did not say RAM or flash; on a microcontroller
    the weights sit in flash and the activations in RAM, and the report says to check both."""
    from advisor.model.profile import Profile
    from advisor.report.risks import memory_budget

    mcu = {
        "model": {"parameters": "200K"},
        "deployment": {"targets": ["microcontroller"], "device_memory_mb": "256KB"},
    }
    text = memory_budget(Profile.model_validate(mcu)) or ""
    assert "flash (about 200 KB as int8)" in text and "256 KB given" in text
    phone = {
        "model": {"parameters": "1M"},
        "deployment": {"targets": ["mobile"], "device_memory_mb": 50},
    }
    assert memory_budget(Profile.model_validate(phone)) is None  # 4 MB of weights fit 50 MB


def test_a_skipped_answer_is_unsaid_for_the_questions_after_it() -> None:
    """Round 95's open point: training hardware left unsaid still brought up the accelerator
    count and the native-Windows question, which read the default (NVIDIA GPUs) as said."""
    said, shown = _answers({"hardware.training": "skip", "deployment.serving": "skip"})
    assert "How many accelerators" not in shown and "native Windows" not in shown
    assert "TPUs at no cost" in shown  # free TPUs matter most while the hardware is open
    assert "serving stack is already running" in shown  # a stack in place is a fact
    assert not {"hardware.training", "deployment.serving"} & said
    _, enter = _answers({})  # Enter keeps NVIDIA GPUs: both follow-ups are asked
    assert "How many accelerators" in enter and "native Windows" in enter


def test_a_skip_does_not_hide_what_does_not_depend_on_it() -> None:
    qs = load_questions()
    base = qs.base()

    def asked(answers: dict[str, object]) -> set[str]:
        return {qs.questions[i].path for i in qs.walk(answers, base)[0]}

    everything = asked({})
    for path in ("team.new_to_deep_learning", "domains", "migrating_away", "purpose"):
        assert asked({path: UNSAID}) >= everything, path
