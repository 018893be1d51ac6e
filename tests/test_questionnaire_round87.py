"""Questionnaire review, round 87: six users played through `advisor ask`.

Three defects, each pinned here:

- team.languages was asked only of projects with devices among their targets, yet PROD107
  (C++) reads it whatever the targets and PROD109 is about Java on servers and in batch
  jobs: a company whose model must live in a C++ or JVM backend could not say so.
- deployment.device_memory_mb, a size in MB, was shown as a count: 8 GB as '8k' (which
  typed back reads as 8 KB) and its help said '7B' was accepted (it reads as 7 bytes).
- every list question's help gave 'vision nlp' as its example of names, names that only
  the domains question takes.
"""

from __future__ import annotations

import io
from typing import Any

import pytest

from advisor.decide.conditions import flatten
from advisor.model.profile import Language, Profile
from advisor.questionnaire import Terminal, load_questions, run_questionnaire


@pytest.fixture(scope="module")
def qs():
    return load_questions()


def by_path(qs, path: str):
    return next(q for q in qs.questions if q.path == path)


def _session(lines: list[str], **kwargs: Any) -> tuple[Profile, str]:
    out = io.StringIO()
    terminal = Terminal(stdin=io.StringIO("".join(f"{line}\n" for line in lines)), out=out)
    profile = run_questionnaire(terminal=terminal, **kwargs)
    return profile, out.getvalue()


def _answers(qs, given: dict[str, str]) -> list[str]:
    """One line per question the walk asks (Enter unless ``given``), then 'y' at the summary."""
    answers: dict[str, Any] = {}
    start = qs.base()
    asked: list[str] = []
    while True:  # the answers can bring up follow-ups: walk again until the path is stable
        relevant, _ = qs.walk(answers, start)
        paths = [qs.questions[i].path for i in relevant]
        if paths == asked:
            break
        asked = paths
        for path in paths:
            if path in given:
                answers[path] = by_path(qs, path).parse(given[path])
    return [*(given.get(path, "") for path in asked), "y"]


# ---------------------------------------------------------------- team.languages


@pytest.mark.parametrize("targets", [["server"], ["batch"], ["server", "batch"]])
def test_languages_are_asked_of_server_and_batch_projects(qs, targets: list[str]) -> None:
    profile = Profile.model_validate({"deployment": {"targets": targets}})
    assert "team.languages" not in qs.unasked(profile)


def test_a_jvm_backend_team_can_say_java_and_it_reaches_the_profile(qs) -> None:
    given = {
        "deployment.targets": "server",
        "deployment.serving": "online_api",
        "team.languages": "java",
    }
    profile, shown = _session(_answers(qs, given))
    assert "(team.languages)" in shown
    assert profile.team.languages == [Language.java]
    assert [t.value for t in profile.deployment.targets] == ["server"]


def test_the_default_path_asks_the_languages(qs) -> None:
    relevant, _ = qs.walk({}, qs.base())
    assert "team.languages" in [qs.questions[i].path for i in relevant]


# ---------------------------------------------------------------- device memory, a size


@pytest.mark.parametrize("typed", ["8GB", "256KB", "512", "0.25", "4 GiB", "0"])
def test_a_device_memory_answer_is_shown_as_a_size_that_reads_back_the_same(qs, typed: str) -> None:
    question = by_path(qs, "deployment.device_memory_mb")
    value = question.parse(typed)
    shown = question.show(value)
    assert shown.endswith(" MB"), shown
    assert question.parse(shown) == value  # '8k' had read back as 8 KB


def test_eight_gigabytes_are_shown_as_8000_mb_not_8k(qs) -> None:
    question = by_path(qs, "deployment.device_memory_mb")
    assert question.show(question.parse("8GB")) == "8000 MB"


def test_the_device_memory_help_offers_units_of_size_not_of_count(qs) -> None:
    question = by_path(qs, "deployment.device_memory_mb")
    text = " ".join(question.help_lines())
    assert "7B" not in text and "1.5T" not in text  # 7B is 7 bytes here, not 7 billion
    assert "4GB" in text and "256KB" in text
    assert "Allowed: 0 to 10000000 MB." in text  # '10M' read as a size is 10 MB
    assert "GB" in question.hint()


def test_the_parameter_count_keeps_its_count_suffixes(qs) -> None:
    question = by_path(qs, "model.parameters")
    assert question.show(7e9) == "7B"
    assert "Suffixes k, M, B and T are accepted" in " ".join(question.help_lines())


def test_a_phone_app_revised_sees_its_memory_in_mb(qs) -> None:
    base = Profile.model_validate(
        {"deployment": {"targets": ["mobile"], "device_memory_mb": "8GB"}}
    )
    relevant, _ = qs.walk({}, qs.base(base))
    profile, shown = _session([""] * len(relevant) + ["y"], base=base)
    assert profile == base
    assert "[8000 MB]" in shown and "device_memory_mb  " in shown
    assert "8k" not in shown


# ---------------------------------------------------------------- list questions' help


def test_each_list_question_gives_its_own_names_as_the_example(qs) -> None:
    lists = [q for q in qs.questions if q.kind == "multi"]
    assert len(lists) >= 6
    for question in lists:
        line = next(x for x in question.help_lines() if x.startswith("Type numbers or names"))
        first, second = (v for v, _ in question.choices[:2])
        assert f"{first} {second}" in line, question.path


def test_the_example_names_parse_as_that_question_answers(qs) -> None:
    question = by_path(qs, "hardware.training")
    assert question.parse("cpu nvidia_gpu") == ["cpu", "nvidia_gpu"]
    question.check(["cpu", "nvidia_gpu"], flatten(qs.base()))
