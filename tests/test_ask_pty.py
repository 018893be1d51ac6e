"""`advisor ask` driven through a real pseudo-terminal, as a person would use it.

Each test starts the installed program under pexpect, so prompts, Enter, `?`, Ctrl-C
and Ctrl-D all travel through a real terminal and its line discipline.
"""

from __future__ import annotations

import io
import os
import re
import shlex
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from advisor.io.profile_writer import profile_yaml
from advisor.io.profiles import load_profile
from advisor.model.profile import Profile
from advisor.model.said import said_paths
from advisor.questionnaire import load_questions, path_lengths

pexpect = pytest.importorskip("pexpect")
pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pseudo-terminal")

_SCRIPT = Path(sys.executable).with_name("advisor")
ADVISOR = [str(_SCRIPT)] if _SCRIPT.exists() else [sys.executable, "-m", "advisor"]

HEADER = r"Question (\d+) of (\d+)  \(([\w.]+)\)"
PROMPT = r"\]: "
SUMMARY = r"(Write|Use) these answers\?[^\n]*\[y\]: "


def _as_a_terminal_starts_it() -> None:
    """Start the program with SIGINT and SIGQUIT at their defaults, as an interactive shell
    does: a runner that launched the tests in the background without job control ignores
    SIGINT, and the advisor keeps a signal it was started ignoring (SECURITY.md, nohup)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGQUIT, signal.SIG_DFL)


class Person:
    """A person at a terminal running one advisor command."""

    def __init__(self, *args: str, cwd: Path, shell_redirect: str | None = None) -> None:
        env = {**os.environ, "NO_COLOR": "1", "TERM": "dumb", "PYTHONUNBUFFERED": "1"}
        self.log = io.StringIO()
        if shell_redirect:
            command = " ".join(shlex.quote(a) for a in [*ADVISOR, *args])
            self.child = pexpect.spawn(
                "/bin/sh",
                ["-c", f"exec {command} > {shlex.quote(shell_redirect)}"],
                cwd=str(cwd),
                env=env,
                encoding="utf-8",
                codec_errors="replace",
                timeout=45,
                dimensions=(50, 140),
                preexec_fn=_as_a_terminal_starts_it,
            )
        else:
            self.child = pexpect.spawn(
                ADVISOR[0],
                [*ADVISOR[1:], *args],
                cwd=str(cwd),
                env=env,
                encoding="utf-8",
                codec_errors="replace",
                timeout=45,
                dimensions=(50, 140),
                preexec_fn=_as_a_terminal_starts_it,
            )
        self.child.logfile_read = self.log
        self.child.delaybeforesend = None  # we always wait for the prompt before typing
        self.asked: list[str] = []

    def next_question(self) -> str | None:
        """Wait for the next question (its field path), or None at the summary."""
        if self.child.expect([SUMMARY, HEADER]) == 0:
            return None
        path = self.child.match.group(3)
        self.child.expect(PROMPT)
        self.asked.append(path)
        return path

    def enter_until(self, stop: str | None = None) -> str | None:
        """Press Enter on every question until ``stop`` is asked (or the summary)."""
        while True:
            path = self.next_question()
            if path is None or path == stop:
                return path
            self.child.sendline("")

    def finish(self) -> int:
        """Wait for the program to end; its exit status."""
        self.child.expect(pexpect.EOF)
        self.child.close()
        return self.child.exitstatus if self.child.exitstatus is not None else -1

    @property
    def output(self) -> str:
        return self.log.getvalue()


def test_all_defaults_through_a_terminal_give_a_profile_recommend_accepts(tmp_path: Path) -> None:
    person = Person("ask", "-o", "profile.yaml", cwd=tmp_path)
    assert person.enter_until() is None
    person.child.sendline("")
    assert person.finish() == 0
    assert len(person.asked) == path_lengths()["default"]
    assert "Question 1 of " in person.output and "Traceback" not in person.output
    profile_file = tmp_path / "profile.yaml"
    text = profile_file.read_text()
    assert "# Hardware you train on." in text
    assert load_profile(profile_file) == Profile()
    report = subprocess.run(
        [*ADVISOR, "recommend", str(profile_file), "--probes", "none"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert report.returncode == 0, report.stderr
    assert report.stdout.startswith("# ")


def test_a_follow_up_appears_only_after_the_answer_that_enables_it(tmp_path: Path) -> None:
    person = Person("ask", "-o", "p.yaml", cwd=tmp_path)
    assert person.enter_until("deployment.targets") == "deployment.targets"
    person.child.sendline("mobile")
    assert person.next_question() == "hardware.inference"  # no serving question
    person.child.sendline("<")  # back to the targets
    assert person.next_question() == "deployment.targets"
    person.child.sendline("1,2")  # server and mobile
    assert person.next_question() == "deployment.serving"
    person.child.sendline("online_api")
    assert person.enter_until() is None
    person.child.sendline("y")
    assert person.finish() == 0
    profile = load_profile(tmp_path / "p.yaml")
    assert [t.value for t in profile.deployment.targets] == ["server", "mobile"]
    assert profile.deployment.serving.value == "online_api"
    assert person.asked.count("deployment.serving") == 1


def test_a_team_with_code_can_say_it_is_weighing_a_move(tmp_path: Path) -> None:
    person = Person("ask", "-o", "p.yaml", cwd=tmp_path)
    assert person.enter_until("existing_code") == "existing_code"
    person.child.sendline("tf2_keras")
    assert person.next_question() == "existing_code_size"
    person.child.sendline("large")
    assert person.next_question() == "migrating_away"
    person.child.sendline("n")
    assert person.next_question() == "weighing_a_move"  # only after "not decided to leave"
    person.child.sendline("y")
    assert person.enter_until() is None
    person.child.sendline("y")
    assert person.finish() == 0
    profile = load_profile(tmp_path / "p.yaml")
    assert profile.weighing_a_move is True and profile.migrating_away is False
    assert profile.existing_code_size.value == "large"


def test_tpu_training_brings_the_nodes_question_and_drops_free_access(tmp_path: Path) -> None:
    person = Person("ask", cwd=tmp_path)
    person.enter_until("hardware.training")
    person.child.sendline("tpu")
    assert person.next_question() == "training.accelerators"
    person.child.sendline("")
    assert person.next_question() == "training.nodes"
    totals = [int(n) for n in _totals(person.output)]
    # the nodes question joins; free TPU access leaves (HW106 reads it only for projects
    # that do not train on TPUs already), and so does the native-Windows question (asked
    # only of NVIDIA GPU training, the default answer): one question fewer
    assert totals[-1] == totals[0] - 1
    person.child.sendline("")
    assert person.next_question() == "deployment.targets"
    person.child.sendintr()
    assert person.finish() == 130


def _totals(text: str) -> list[str]:
    return re.findall(r"Question \d+ of (\d+)", text)


def test_help_and_invalid_input_are_reasked_with_the_reason(tmp_path: Path) -> None:
    person = Person("ask", cwd=tmp_path)
    assert person.next_question() == "project.name"
    os.write(person.child.child_fd, b"caf\xe9\n")  # Latin-1 bytes from an odd terminal
    person.child.expect("Invalid answer: the answer holds control characters or is not UTF-8")
    person.child.expect(PROMPT)
    person.child.sendline("?")
    person.child.expect("A name for the report.")
    person.child.expect(r"Answer \[Unnamed project\]: ")
    person.child.sendline("Pty project")
    assert person.next_question() == "purpose"
    person.child.sendline("7")
    person.child.expect("Invalid answer: there is no choice 7; pick 1 to 3")
    person.child.expect(r"Pick 1-3 or a name \[both\]: ")
    person.child.sendline("research")
    assert person.enter_until("model.parameters") == "model.parameters"
    person.child.sendline("a lot")
    person.child.expect("Invalid answer: expected a number such as")
    person.child.expect(PROMPT)
    person.child.sendline("7B")
    assert person.enter_until("team.size") == "team.size"
    person.child.sendline("0")
    person.child.expect("Invalid answer: input should be greater than or equal to 1")
    person.child.sendintr()
    assert person.finish() == 130
    assert person.asked.count("purpose") == 1  # re-asked in place, not as a new question


def test_ctrl_c_halfway_leaves_nothing_behind(tmp_path: Path) -> None:
    person = Person("ask", "-o", "p.yaml", cwd=tmp_path)
    for _ in range(10):
        person.next_question()
        person.child.sendline("")
    person.next_question()
    person.child.sendintr()
    person.child.expect("interrupted; nothing was written")
    assert person.finish() == 130
    assert "Traceback" not in person.output
    assert list(tmp_path.iterdir()) == []


def test_ctrl_d_halfway_leaves_nothing_behind(tmp_path: Path) -> None:
    person = Person("ask", "-o", "p.yaml", cwd=tmp_path)
    person.next_question()
    person.child.sendline("")
    person.next_question()
    person.child.sendeof()
    person.child.expect("input ended before the questionnaire was finished; nothing was written")
    assert person.finish() == 1
    assert "Traceback" not in person.output
    assert list(tmp_path.iterdir()) == []


def test_from_round_trips_a_profile_unchanged(tmp_path: Path) -> None:
    source = tmp_path / "in.yaml"
    source.write_text(
        "project: {name: Round trip, notes: keep these notes}\n"
        "purpose: research\n"
        "domains: [scientific, rl]\n"
        "model: {parameters: 350M}\n"
        "training: {accelerators: 64, nodes: 8}\n"
        "hardware: {training: [tpu, nvidia_gpu], inference: [cpu]}\n"
        "deployment: {targets: [server, edge], serving: online_api}\n"
        "team: {size: 7, experience: {jax: expert}, functional_programming: true}\n"
        "priorities: {raw_performance: 5, learning_curve: 0}\n"
        "workload: {model_family: cnn, batch_size: 512, dtype: bfloat16,"
        " per_example_gradients: true}\n"
    )
    person = Person("ask", "--from", "in.yaml", "-o", "out.yaml", cwd=tmp_path)
    assert person.enter_until() is None
    person.child.sendline("y")
    assert person.finish() == 0
    assert {"training.nodes", "workload.dtype", "deployment.serving"} <= set(person.asked)
    assert load_profile(tmp_path / "out.yaml") == load_profile(source)


def test_an_existing_file_is_kept_before_any_question(tmp_path: Path) -> None:
    (tmp_path / "p.yaml").write_text("keep me\n")
    person = Person("ask", "-o", "p.yaml", cwd=tmp_path)
    person.child.expect("file exists; use --force")
    assert person.finish() == 2
    assert "Question" not in person.output
    assert (tmp_path / "p.yaml").read_text() == "keep me\n"


def test_prompts_stay_off_stdout_when_the_profile_goes_there(tmp_path: Path) -> None:
    person = Person("ask", cwd=tmp_path, shell_redirect="out.yaml")
    assert person.enter_until() is None
    person.child.sendline("")
    assert person.finish() == 0
    text = (tmp_path / "out.yaml").read_text()
    assert "Question" not in text and text.startswith("# Project profile")
    assert load_profile(tmp_path / "out.yaml") == Profile()


def test_recommend_without_a_profile_asks_then_reports(tmp_path: Path) -> None:
    person = Person("recommend", "--probes", "none", cwd=tmp_path, shell_redirect="report.md")
    assert person.enter_until("purpose") == "purpose"
    person.child.sendline("production")
    assert person.enter_until() is None
    person.child.sendline("y")
    assert person.finish() == 0
    report = (tmp_path / "report.md").read_text()
    assert report.startswith("# Framework recommendation")
    assert "Question" not in report


def test_defaults_without_a_terminal_work(tmp_path: Path) -> None:
    done = subprocess.run(
        [*ADVISOR, "ask", "--defaults", "-o", "p.yaml"],
        cwd=tmp_path,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    written = load_profile(tmp_path / "p.yaml")
    assert written == Profile()
    # the default path's questions were answered (with their defaults), nothing else
    assert len(said_paths(written)) == path_lengths()["default"]
    assert (tmp_path / "p.yaml").read_text() == profile_yaml(written)


def test_no_terminal_and_no_defaults_is_exit_2(tmp_path: Path) -> None:
    done = subprocess.run(
        [*ADVISOR, "ask", "-o", "p.yaml"],
        cwd=tmp_path,
        input="\n" * 50,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    assert done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "--defaults" in lines[0] and "not a terminal" in lines[0]
    assert not (tmp_path / "p.yaml").exists()


def test_the_bundled_questions_are_what_the_program_asks() -> None:
    """Guard against the pty tests silently passing on an empty questionnaire."""
    assert len(load_questions().questions) > 20
