"""Red-team round 38: the questionnaire and user packs. Each finding, fixed, with the
promise it broke (SECURITY.md: bad input of any kind is exit 2 or a clean stop, one line,
no traceback; README: a `ref` a user's pack gives must resolve; a questions file's
`required: true` holds unless `--from PROFILE` supplies the answer)."""

from __future__ import annotations

import io
import os
import shlex
import sys
import time
from pathlib import Path

import pytest
import yaml
from pack_support import refusal

from advisor.decide.conditions import PROFILE_PATHS
from advisor.decide.rules import load_ruleset
from advisor.model.errors import InputError
from advisor.model.profile import Profile
from advisor.questionnaire import QuestionnaireStopped, load_questions, run_questionnaire
from advisor.questionnaire.terminal import Terminal

QUESTIONS = Path(__file__).parents[1] / "advisor" / "questionnaire" / "questions.yaml"


def _questions(tmp_path: Path, edit) -> Path:  # type: ignore[no-untyped-def]
    """The bundled questions file with ``edit`` applied to its loaded data."""
    data = yaml.safe_load(QUESTIONS.read_text(encoding="utf-8"))
    edit(data)
    path = tmp_path / "q.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return path


def test_a_questions_file_whose_questions_all_stay_hidden_ends_at_an_empty_summary(
    tmp_path: Path,
) -> None:
    """`max()` of no question paths had raised a traceback (exit 1) at the summary."""
    only = "purpose"
    data = {
        "questions": [{"field": only, "prompt": "Research or production?", "when": {"not": True}}],
        "not_asked": {path: "not asked here" for path in PROFILE_PATHS if path != only},
    }
    path = tmp_path / "hidden.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    out = io.StringIO()
    terminal = Terminal(stdin=io.StringIO("y\n"), out=out)
    profile = run_questionnaire(questions=load_questions(path), terminal=terminal)
    assert profile == Profile()
    assert "no question applies" in out.getvalue()


class _GoneTerminal(io.StringIO):
    """A terminal whose reads fail as a hung-up one does when SIGHUP is ignored."""

    def readline(self, *args: object) -> str:  # type: ignore[override]
        raise OSError(5, "Input/output error")


def test_a_terminal_that_cannot_be_read_stops_the_questionnaire_in_one_line() -> None:
    """An EIO from the terminal had escaped as a traceback (exit 1)."""
    terminal = Terminal(stdin=_GoneTerminal(), out=io.StringIO())
    with pytest.raises(QuestionnaireStopped) as info:
        run_questionnaire(terminal=terminal)
    message = info.value.format_message()
    assert "terminal could not be read" in message and "nothing was written" in message
    assert "\n" not in message


@pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pseudo-terminal")
def test_a_hangup_while_sighup_is_ignored_writes_nothing_and_no_traceback(tmp_path: Path) -> None:
    pexpect = pytest.importorskip("pexpect")
    script = Path(sys.executable).with_name("advisor")
    advisor = [str(script)] if script.exists() else [sys.executable, "-m", "advisor"]
    command = " ".join(shlex.quote(a) for a in [*advisor, "ask", "-o", "out.yaml"])
    child = pexpect.spawn(
        "/bin/sh",
        ["-c", f'trap "" HUP; exec {command} 2>err.txt'],
        cwd=str(tmp_path),
        env={**os.environ, "NO_COLOR": "1", "TERM": "dumb"},
        encoding="utf-8",
        timeout=45,
    )
    err_file = tmp_path / "err.txt"  # the questions go to stderr, here a file
    deadline = time.monotonic() + 30
    while "]: " not in (err_file.read_text() if err_file.exists() else ""):
        assert time.monotonic() < deadline, "no question was asked"
        time.sleep(0.05)
    os.close(child.child_fd)  # the terminal goes away
    status = None
    while status is None and time.monotonic() < deadline:
        pid, raw = os.waitpid(child.pid, os.WNOHANG)
        status = os.waitstatus_to_exitcode(raw) if pid else None
        time.sleep(0.05)
    assert status is not None, "the advisor kept running after its terminal went away"
    err = err_file.read_text(encoding="utf-8", errors="replace")
    assert status != 0 and "Traceback" not in err
    assert not (tmp_path / "out.yaml").exists()


def test_a_required_question_is_not_answered_by_the_revised_profile_s_silence(
    tmp_path: Path,
) -> None:
    """`--from P --defaults` had let a required question pass on the model's default when P
    did not say the field; the questions file promises it fails unless P supplies it."""

    def require_purpose(data: dict) -> None:  # type: ignore[type-arg]
        question = next(q for q in data["questions"] if q["field"] == "purpose")
        question.pop("default", None)
        question["required"] = True

    qs = load_questions(_questions(tmp_path, require_purpose))
    silent = Profile.model_validate({"project": {"name": "X"}})
    message = refusal(lambda: run_questionnaire(base=silent, defaults=True, questions=qs))
    assert "purpose" in message and "has no default" in message
    said = Profile.model_validate({"project": {"name": "X"}, "purpose": "research"})
    assert run_questionnaire(base=said, defaults=True, questions=qs).purpose == "research"


_BAD_REF_PACK = """\
rules:
  - id: PROD901
    title: A rule citing nothing
    criterion: production
    when: {{field: purpose, eq: production}}
    effects: {{tensorflow: 1}}
    why: Because a test needs a reason.
    evidence:
      - title: A source
        source: A publisher
        year: 2024
        ref: {ref}
        claim: A claim long enough.
    examples:
      fire: [{{purpose: production}}]
      ok: [{{purpose: research}}]
"""


@pytest.mark.parametrize(
    ("ref", "message"),
    [
        ("F-NOSUCH", "F-NOSUCH is not a claim id defined in docs/sources.md"),
        ("PKG:nosuchpkg", "PKG:nosuchpkg is not in the package-health snapshot"),
    ],
)
def test_a_user_pack_citing_what_does_not_exist_is_refused_wherever_it_is_loaded(
    tmp_path: Path, ref: str, message: str
) -> None:
    """`rules check` refused it, but `recommend --rules` and `rules show --rules` printed
    the bogus id in the report as if it were a source."""
    pack = tmp_path / "pack"
    pack.mkdir()
    (pack / "mine.yaml").write_text(_BAD_REF_PACK.format(ref=ref), encoding="utf-8")
    with pytest.raises(InputError) as info:
        load_ruleset([pack])
    error = info.value
    assert error.line == 12 and error.field == "rule PROD901: evidence[1].ref"
    assert message in str(error)


def test_a_user_pack_citing_a_real_claim_still_loads(tmp_path: Path) -> None:
    pack = tmp_path / "pack"
    pack.mkdir()
    (pack / "mine.yaml").write_text(_BAD_REF_PACK.format(ref="A1"), encoding="utf-8")
    assert "PROD901" in {rule.id for rule in load_ruleset([pack]).all_rules}


def test_rules_check_names_the_first_problem_in_one_line(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    pack = tmp_path / "pack"
    pack.mkdir()
    text = _BAD_REF_PACK.format(ref="F-NOSUCH").replace(
        "        ref: F-NOSUCH\n", "        ref: F-NOSUCH\n        checked: 2999-01-01\n"
    )
    (pack / "mine.yaml").write_text(text, encoding="utf-8")
    code, out, err = cli("rules", "check", str(pack))
    assert code == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "mine.yaml:13: rule PROD901: evidence[1].checked: 2999-01-01" in lines[0]
    assert lines[0].endswith("(and 1 more problem)")
