"""The questionnaire in-process: questions as data, checked against the Profile model."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
import yaml

from advisor.decide.conditions import PROFILE_PATHS, flatten
from advisor.io.profile_writer import profile_yaml
from advisor.io.profiles import load_profile
from advisor.model.errors import InputError
from advisor.model.profile import Domain, Hardware, Profile, Serving
from advisor.model.said import said_paths
from advisor.questionnaire import (
    AnswerError,
    QuestionnaireStopped,
    Terminal,
    derived_help,
    human_count,
    load_questions,
    model_field,
    path_lengths,
    run_questionnaire,
)

# Fields the questionnaire deliberately does not ask, and why (also in questions.yaml).
NOT_ASKED = {"project.notes"}  # free text: easier to write in the YAML file


@pytest.fixture(scope="module")
def qs():
    return load_questions()


def by_path(qs, path: str):
    return next(q for q in qs.questions if q.path == path)


# ---------------------------------------------------------------- the data checks itself


def test_every_field_is_asked_or_explicitly_excluded(qs) -> None:
    asked = [q.path for q in qs.questions]
    assert len(asked) == len(set(asked))
    assert set(asked) <= set(PROFILE_PATHS)
    assert set(qs.not_asked) == NOT_ASKED
    assert set(asked) == set(PROFILE_PATHS) - NOT_ASKED


def test_help_choices_and_defaults_derive_from_the_model(qs) -> None:
    name = by_path(qs, "project.name")
    assert name.help == model_field("project.name")[1].description
    speed = by_path(qs, "priorities.raw_performance")
    assert "Training and inference speed." in speed.help and "5 (decisive)" in speed.help
    domains = by_path(qs, "domains")
    assert [v for v, _ in domains.choices] == [d.value for d in Domain]
    serving = by_path(qs, "deployment.serving")
    assert [v for v, _ in serving.choices] == [s.value for s in Serving]
    assert qs.base() == Profile().model_dump(mode="json")  # no question overrides a default
    assert derived_help("team.numpy") == "Fluent in NumPy."


def test_when_conditions_only_read_earlier_answers(qs) -> None:
    seen: set[str] = set()
    for question in qs.questions:
        assert question.when.fields() <= seen, question.path
        seen.add(question.path)


# ---------------------------------------------------------------- a broken questions file


def _write_questions(tmp_path: Path, questions: list[dict[str, Any]], **extra: Any) -> Path:
    asked = {q.get("field") for q in questions}
    data: dict[str, Any] = {
        "not_asked": {p: "not in this test" for p in PROFILE_PATHS if p not in asked},
        "questions": questions,
    }
    data.update(extra)
    path = tmp_path / "questions.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    return path


GOOD = [
    {"field": "purpose", "prompt": "Why?"},
    {"field": "deployment.targets", "prompt": "Where?"},
    {
        "field": "deployment.serving",
        "prompt": "How?",
        "when": {"field": "deployment.targets", "contains": "server"},
    },
]


def test_a_minimal_questions_file_loads(tmp_path: Path) -> None:
    loaded = load_questions(_write_questions(tmp_path, GOOD))
    assert [q.path for q in loaded.questions] == [
        "purpose",
        "deployment.targets",
        "deployment.serving",
    ]


@pytest.mark.parametrize(
    ("questions", "message"),
    [
        ([{"field": "deployment.target", "prompt": "x"}], "did you mean 'deployment.targets'"),
        ([{"field": "purpose"}], "needs a 'prompt'"),
        ([{"field": "purpose", "prompt": "x", "colour": 1}], "unknown key"),
        ([*GOOD, {"field": "purpose", "prompt": "again"}], "already asked"),
        (
            [
                {
                    "field": "purpose",
                    "prompt": "x",
                    "when": {"field": "deployment.targets", "contains": "server"},
                }
            ],
            "no earlier question asks",
        ),
        (
            [{"field": "purpose", "prompt": "x", "when": {"field": "purpose", "eq": "resarch"}}],
            "did you mean 'research'",
        ),
        (
            [{"field": "purpose", "prompt": "x", "choices": {"research": "r", "both": "b"}}],
            "missing: production",
        ),
        (
            [{"field": "purpose", "prompt": "x", "choices": {"reserch": "r"}}],
            "did you mean 'research'",
        ),
        ([{"field": "team.size", "prompt": "x", "choices": [1, 2]}], "only applies to enum"),
        ([{"field": "team.size", "prompt": "x", "default": 0}], "invalid default"),
        (
            [{"field": "team.size", "prompt": "x", "default": 2, "required": True}],
            "required question has no default",
        ),
        (
            [
                {
                    "field": "team.size",
                    "prompt": "x",
                    "validate": [{"require": {"field": "team.size", "gt": 1}}],
                }
            ],
            "exactly 'require' and 'message'",
        ),
    ],
)
def test_a_broken_questions_file_is_one_clear_error(
    tmp_path: Path, questions: list[dict[str, Any]], message: str
) -> None:
    with pytest.raises(InputError) as info:
        load_questions(_write_questions(tmp_path, questions))
    assert message in str(info.value)
    assert "\n" not in str(info.value)


def test_an_uncovered_field_is_an_error(tmp_path: Path) -> None:
    path = _write_questions(tmp_path, GOOD)
    data = yaml.safe_load(path.read_text())
    del data["not_asked"]["team.size"]
    path.write_text(yaml.safe_dump(data))
    with pytest.raises(InputError, match=r"team\.size neither asked nor listed under not_asked"):
        load_questions(path)


def test_not_asked_needs_a_reason(tmp_path: Path) -> None:
    path = _write_questions(tmp_path, GOOD)
    data = yaml.safe_load(path.read_text())
    data["not_asked"]["team.size"] = ""
    path.write_text(yaml.safe_dump(data))
    with pytest.raises(InputError, match="give the reason"):
        load_questions(path)


# ---------------------------------------------------------------- reading answers


def test_parsing_answers(qs) -> None:
    domains = by_path(qs, "domains")
    assert domains.parse("1,3") == ["vision", "speech"]
    assert domains.parse("nlp vision") == ["vision", "nlp"]  # shown in the enum's order
    assert domains.parse("2-4") == ["nlp", "speech", "rl"]
    assert domains.parse("none") == []
    assert by_path(qs, "purpose").parse("2") == "production"
    assert by_path(qs, "purpose").parse("Research") == "research"
    assert by_path(qs, "model.parameters").parse("7B") == 7e9
    assert by_path(qs, "team.numpy").parse("n") is False
    assert by_path(qs, "team.size").parse("12") == 12


@pytest.mark.parametrize(
    ("path", "raw", "reason"),
    [
        ("domains", "10", "there is no choice 10"),
        ("domains", "visoin", "did you mean 'vision'"),
        ("purpose", "1,2", "pick just one"),
        ("model.parameters", "lots", "expected a number such as"),
        ("model.parameters", "0", "greater than or equal to 1"),
        ("priorities.raw_performance", "9", "less than or equal to 5"),
        ("team.size", "two", "expected a whole number"),
        ("team.numpy", "maybe", "answer y or n"),
        ("project.name", "bad\x1b[2Jname", "control characters"),
        # found by the fuzzer: '²'.isdigit() is True but int('²') raises
        ("purpose", "\u00b2", "is not a choice"),
        ("domains", "\u00b2-3", "is not a choice"),
    ],
)
def test_invalid_answers_give_the_reason(qs, path: str, raw: str, reason: str) -> None:
    with pytest.raises(AnswerError, match=reason):
        by_path(qs, path).parse(raw)


@pytest.mark.parametrize(("path", "raw"), [("team.numpy", "y" * 5000), ("purpose", "r" * 5000)])
def test_a_long_wrong_answer_is_echoed_cut(qs, path: str, raw: str) -> None:
    """The yes/no question echoed a wrong answer whole (5,000 characters on the terminal);
    it is cut as the other kinds cut theirs."""
    with pytest.raises(AnswerError) as caught:
        by_path(qs, path).parse(raw)
    assert len(str(caught.value)) < 300, len(str(caught.value))


def test_a_validator_rejects_an_empty_training_hardware_list(qs) -> None:
    question = by_path(qs, "hardware.training")
    with pytest.raises(AnswerError, match="at least one"):
        question.check([], flatten(qs.base()))
    question.check(["cpu"], flatten(qs.base()))


def test_undecodable_input_is_reasked() -> None:
    raw = io.TextIOWrapper(io.BytesIO(b"caf\xe9\nCafe\n"), encoding="utf-8")
    out = io.StringIO()
    question = by_path(load_questions(), "project.name")
    from advisor.questionnaire import Session

    qs = load_questions()
    session = Session(qs, qs.base(), Terminal(stdin=raw, out=out))
    assert session.ask(question, 1, 1, flatten(qs.base())) == "Cafe"
    assert "not UTF-8 text" in out.getvalue()


def test_human_counts() -> None:
    assert human_count(1e8) == "100M"
    assert human_count(7e9) == "7B"
    assert human_count(1.5e11) == "150B"
    assert human_count(123456789.0) == "123456789"


# ---------------------------------------------------------------- a whole session, in memory


def _session(lines: list[str], **kwargs: Any) -> tuple[Profile, str]:
    out = io.StringIO()
    terminal = Terminal(stdin=io.StringIO("".join(f"{line}\n" for line in lines)), out=out)
    profile = run_questionnaire(terminal=terminal, **kwargs)
    return profile, out.getvalue()


def _enter_all(n: int = 60) -> list[str]:
    return [""] * n


def test_all_enter_gives_the_default_profile(qs) -> None:
    count = path_lengths(qs)["default"]
    profile, shown = _session([""] * count + ["y"])
    assert profile == Profile()
    assert f"Question {count} of {count} " in shown
    assert f"Question {count + 1} " not in shown


def _answers_until(path: str, answer: str) -> list[str]:
    """Enter for every default-path question before ``path``, then ``answer``."""
    qs = load_questions()
    relevant, _ = qs.walk({}, qs.base())
    paths = [qs.questions[i].path for i in relevant]
    return [""] * paths.index(path) + [answer]


def test_serving_is_asked_only_when_deploying_to_a_server() -> None:
    lines = _answers_until("deployment.targets", "mobile") + _enter_all(40) + ["y"]
    profile, shown = _session(lines)
    assert profile.deployment.targets == ["mobile"]
    assert "(deployment.serving)" not in shown
    lines = [*_answers_until("deployment.targets", "server"), "2", *_enter_all(40), "y"]
    profile, shown = _session(lines)
    assert "(deployment.serving)" in shown
    assert profile.deployment.serving == Serving.llm_serving


def test_nodes_are_asked_only_for_tpus_or_many_accelerators() -> None:
    _, shown = _session([*_enter_all(40), "y"])
    assert "(training.nodes)" not in shown
    lines = [*_answers_until("training.accelerators", "64"), "8", *_enter_all(40), "y"]
    profile, shown = _session(lines)
    assert "(training.nodes)" in shown
    assert (profile.training.accelerators, profile.training.nodes) == (64, 8)


def test_experience_is_skipped_for_a_team_new_to_deep_learning() -> None:
    lines = _answers_until("team.new_to_deep_learning", "y") + _enter_all(40) + ["y"]
    profile, shown = _session(lines)
    assert profile.team.new_to_deep_learning is True
    assert "(team.experience.pytorch)" not in shown


def test_help_invalid_input_and_going_back() -> None:
    lines = ["?", "My project", "x", "<", "", "2", *_enter_all(40), "y"]
    profile, shown = _session(lines)
    assert "A name for the report." in shown
    assert "Invalid answer: 'x' is not a choice" in shown
    assert shown.count("(project.name)") == 2
    assert profile.project.name == "My project"
    assert profile.purpose.value == "production"


def test_summary_revises_an_answer_and_asks_new_follow_ups() -> None:
    qs = load_questions()
    default_count = path_lengths(qs)["default"]
    relevant, _ = qs.walk({}, qs.base())
    number = [qs.questions[i].path for i in relevant].index("priorities.raw_performance") + 1
    # raw performance at 5 brings the batch size and precision (the model family is asked of
    # every project since round 91)
    lines = [""] * default_count + [str(number), "5", "256", "bfloat16", "y"]
    profile, shown = _session(lines)
    assert profile.priorities.raw_performance == 5
    assert profile.workload.batch_size == 256
    assert profile.workload.dtype.value == "bfloat16"
    assert shown.count("Your answers:") == 2


def test_a_skipped_question_drops_its_answer() -> None:
    qs = load_questions()
    relevant, _ = qs.walk({}, qs.base())
    paths = [qs.questions[i].path for i in relevant]
    number = paths.index("deployment.targets") + 1
    lines = _answers_until("deployment.serving", "online_api") + _enter_all(40)
    # online_api brings one follow-up (the serving stack in place)
    lines = [*lines[: len(paths) + 1], str(number), "batch", "y"]
    profile, _ = _session(lines)
    assert profile.deployment.targets == ["batch"]
    assert profile.deployment.serving == Serving.none  # serving no longer applies


def test_eof_and_cancel_stop_without_a_profile() -> None:
    with pytest.raises(QuestionnaireStopped, match="input ended"):
        _session(["", ""])
    with pytest.raises(QuestionnaireStopped, match="cancelled"):
        _session([*_enter_all(path_lengths()["default"]), "n"])


def test_prompts_never_go_to_stdout(capsys: pytest.CaptureFixture[str]) -> None:
    terminal = Terminal(stdin=io.StringIO("\n" * 40 + "y\n"))
    run_questionnaire(terminal=terminal)
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "Question 1 of" in captured.err


REVISED = Profile.model_validate(
    {
        "project": {"name": "Pod trainer", "notes": "kept as is"},
        "purpose": "research",
        "domains": ["nlp", "generative"],
        "model": {"parameters": "7B"},
        "training": {"accelerators": 256, "nodes": 32},
        "hardware": {"training": ["tpu"], "inference": ["nvidia_gpu", "cpu"]},
        "deployment": {"targets": ["server", "batch"], "serving": "llm_serving"},
        "team": {
            "size": 12,
            "experience": {"jax": "expert", "pytorch": "some"},
            "functional_programming": True,
        },
        "ecosystem": {"huggingface": True, "libraries": ["nlp", "probabilistic"]},
        "existing_code": ["jax", "numpy"],
        "priorities": {"raw_performance": 5, "learning_curve": 1},
        "determinism": "preferred",
        "workload": {
            "model_family": "transformer",
            "batch_size": 1024,
            "dtype": "bfloat16",
            "higher_order_derivatives": True,
        },
    }
)


@pytest.mark.parametrize("profile", [Profile(), REVISED], ids=["defaults", "revised"])
def test_revising_with_all_enter_changes_nothing(profile: Profile, qs) -> None:
    # one Enter per question this profile is asked (counted, so a new question fits)
    asked, _ = qs.walk({}, qs.base(profile))
    revised, _ = _session([*_enter_all(len(asked)), "y"], base=profile)
    assert revised == profile
    assert run_questionnaire(base=profile, defaults=True) == profile


def test_defaults_mode_fails_on_a_question_without_default(tmp_path: Path) -> None:
    questions = [{"field": "project.name", "prompt": "Name?", "required": True}, *GOOD]
    qs = load_questions(_write_questions(tmp_path, questions))
    with pytest.raises(InputError, match="has no default") as info:
        run_questionnaire(defaults=True, questions=qs)
    assert info.value.field == "project.name"
    # With a profile to revise, that profile supplies the answer.
    base = Profile.model_validate({"project": {"name": "Given"}})
    assert run_questionnaire(defaults=True, questions=qs, base=base).project.name == "Given"
    # Interactively, Enter is refused until there is an answer.
    profile, shown = _session(["", "Typed", "", "", "", "y"], questions=qs)
    assert "has no default" in shown
    assert profile.project.name == "Typed"


# ---------------------------------------------------------------- the written file


def test_written_yaml_has_help_comments_and_loads_back(tmp_path: Path) -> None:
    text = profile_yaml(REVISED)
    said = said_paths(REVISED)
    for path in PROFILE_PATHS:
        description = model_field(path)[1].description
        # the answers the profile gives are written with their help; the rest stay unsaid
        assert (f"# {description}" in text) == (path in said), path
    target = tmp_path / "p.yaml"
    target.write_text(text)
    assert load_profile(target) == REVISED
    assert said_paths(load_profile(target)) == said


def test_path_lengths(qs) -> None:
    lengths = path_lengths(qs)
    relevant, _ = qs.walk({}, qs.base())
    assert lengths["default"] == len(relevant)
    assert lengths["shortest"] < lengths["default"] < lengths["longest"]
    # Every question is reachable: the longest path asks them all.
    assert lengths["longest"] == len(qs.questions) == len(PROFILE_PATHS) - len(NOT_ASKED)


def test_the_questionnaire_imports_no_framework() -> None:
    import subprocess
    import sys

    code = (
        "import sys, advisor.questionnaire as q; q.load_questions(); q.path_lengths();"
        "print(sorted(m for m in ('torch', 'jax', 'tensorflow') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


# ---------------------------------------------------------------- the command, without a terminal


def test_ask_without_a_terminal_needs_defaults(cli) -> None:
    code, out, err = cli("ask")
    assert code == 2
    assert out == ""
    assert "--defaults" in err and len(err.strip().splitlines()) == 1


def test_ask_defaults_prints_a_profile(cli) -> None:
    code, out, err = cli("ask", "--defaults")
    assert code == 0, err
    assert Profile.model_validate(yaml.safe_load(out)) == Profile()
    assert "Question" not in err


def test_ask_keeps_an_existing_file(cli, tmp_path: Path) -> None:
    target = tmp_path / "p.yaml"
    target.write_text("keep me\n")
    code, _, err = cli("ask", "--defaults", "-o", str(target))
    assert code == 2 and "file exists" in err
    assert target.read_text() == "keep me\n"
    code, _, err = cli("ask", "--defaults", "-o", str(target), "--force")
    assert code == 0, err
    assert load_profile(target) == Profile()


def test_ask_from_a_profile_with_defaults_replays_it(cli, tmp_path: Path) -> None:
    source = tmp_path / "in.yaml"
    source.write_text("purpose: research\nhardware: {training: [tpu, cpu]}\n")
    target = tmp_path / "out.yaml"
    code, _, err = cli("ask", "--from", str(source), "--defaults", "-o", str(target))
    assert code == 0, err
    assert load_profile(target) == load_profile(source)
    assert load_profile(target).hardware.training == [Hardware.tpu, Hardware.cpu]


def test_ask_from_a_bad_profile_is_exit_2(cli, tmp_path: Path) -> None:
    source = tmp_path / "bad.yaml"
    source.write_text("purpos: research\n")
    code, _, err = cli("ask", "--from", str(source), "--defaults")
    assert code == 2 and "did you mean 'purpose'" in err


def test_every_bundled_example_survives_a_revision_unchanged() -> None:
    from advisor.io.profiles import list_examples

    examples = list_examples()
    if not examples:
        pytest.skip("no bundled examples yet")
    qs = load_questions()
    for example in examples:
        profile = load_profile(example.path)
        asked, _ = qs.walk({}, qs.base(profile))  # one Enter per question it is asked
        revised, _ = _session([*_enter_all(len(asked)), "y"], base=profile)
        assert revised == profile, example.name
        replayed = run_questionnaire(base=profile, defaults=True)
        assert replayed == profile, example.name
        # round 16: the replay must not turn the defaults it was never asked into answers
        assert said_paths(replayed) == said_paths(profile), example.name
