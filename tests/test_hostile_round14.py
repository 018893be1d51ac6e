"""Red-team round 14: what a worker writes is bounded, and pack literals cost microseconds."""

from __future__ import annotations

import json
import os
import signal
import sys
from pathlib import Path

import pytest

from probes.run import launcher, protocol
from probes.run.protocol import EventReader

EVENT = {"event": "result", "probe": "matmul", "record": {}}


def test_an_endless_event_line_is_dropped_without_being_held(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(protocol, "MAX_LINE", 1000)
    monkeypatch.setattr(protocol, "MAX_READ", 700)
    path = tmp_path / "events"
    reader = EventReader(path)
    with open(path, "ab") as out:
        out.write(b"{" + b"x" * 5000)  # no newline yet: a worker flooding one line
    while reader.read_new() == [] and reader._offset < 5001:
        assert len(reader._partial) <= 1000 + 700  # never more than a line and a read
    with open(path, "ab") as out:
        out.write(b"x" * 3000 + b"\n" + json.dumps(EVENT).encode() + b"\n")
    seen = []
    for _ in range(20):
        seen += reader.read_new()
        assert len(reader._partial) <= 1000 + 700
    assert seen == [EVENT]  # the next whole line is read as before


def test_deeply_nested_garbage_is_ignored(tmp_path: Path) -> None:
    path = tmp_path / "events"
    path.write_bytes(b"[" * 100_000 + b"\n" + json.dumps(EVENT).encode() + b"\n")
    assert EventReader(path).read_new() == [EVENT]


@pytest.mark.skipif(not hasattr(os, "fork"), reason="RLIMIT_FSIZE is POSIX")
def test_a_worker_that_floods_its_output_is_stopped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(launcher, "MAX_FILE", 1 << 20)  # read in the child, after fork
    flood = "import sys\nwhile True: sys.stdout.write('x' * 65536)\n"
    attempt = launcher.run_attempt(
        [sys.executable, "-c", flood],
        tmp_path / "w.events",
        dict(os.environ),
        lambda probe: 30.0,
        lambda probe, record: None,
    )
    # Python ignores SIGXFSZ, so its write fails (EFBIG); other programs die of it
    assert attempt.returncode != 0 and not attempt.timed_out
    assert "File too large" in attempt.tail
    assert (tmp_path / "w.stdout").stat().st_size <= 1 << 20
    assert "over 1 MB (SIGXFSZ)" in launcher.describe_exit(-signal.SIGXFSZ)


def test_every_invisible_format_character_is_shown_as_an_escape() -> None:
    import re
    import unicodedata

    from advisor.model.terminal_text import INVISIBLE, inert

    # Default_Ignorable_Code_Point characters the list once missed
    for char in "\u180b\u180c\u180d\u180f\u17b4\u17b5\ufff0\U0001bca0\U0001d173\U000e0fff":
        assert inert(f"a{char}b") == "a" + ascii(char)[1:-1] + "b"
    # every format character (Cf) is in the list, except those that print a visible mark:
    # prepended concatenation marks (Arabic number signs, Syriac and Kaithi marks) and
    # Egyptian hieroglyph format controls
    visible = {*range(0x600, 0x606), 0x6DD, 0x70F, 0x890, 0x891, 0x8E2, 0x110BD, 0x110CD}
    visible |= set(range(0x13430, 0x13440))
    listed = re.compile(f"[{INVISIBLE}]")
    missed = {
        code
        for code in range(sys.maxunicode + 1)
        if unicodedata.category(chr(code)) == "Cf" and not listed.match(chr(code))
    }
    assert missed <= visible, sorted(hex(c) for c in missed - visible)


# ('r.html ' reads as HTML too, but since round 46 a name ending in blank space is refused)
@pytest.mark.parametrize("name", ["r.hta", "r.HTC", "r.html. .", "r.html::$DATA"])
def test_names_windows_opens_as_html_get_the_html_report(tmp_path: Path, name: str) -> None:
    from hostile_support import run

    from advisor.cli.output import named_html

    assert named_html(name) and not named_html("r.md") and not named_html("r. html")
    (tmp_path / "p.yaml").write_text('project: {name: "<img src=x onerror=alert(1)>"}\n')
    result = run("recommend", "p.yaml", "--probes", "none", "-o", name, cwd=tmp_path)
    assert result.code == 0, result.err
    text = (tmp_path / name).read_text(encoding="utf-8")
    assert text.lstrip().lower().startswith("<!doctype html")
    assert "<img" not in text and "&lt;img src=x" in text


def test_a_worker_that_keeps_starting_probes_still_times_out(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # round 15: every `start` event used to move the deadline on, with no overall cap
    import time

    monkeypatch.setattr(launcher, "GAP_TIMEOUT", 0.5)
    events = tmp_path / "w.events"
    start = json.dumps({"event": "start", "probe": "matmul"}) + "\n"
    loop = (
        "import time\n"
        "while True:\n"
        f"    open({str(events)!r}, 'a').write({start!r})\n"
        "    time.sleep(0.2)\n"
    )
    began = time.monotonic()
    attempt = launcher.run_attempt(
        [sys.executable, "-c", loop],
        events,
        dict(os.environ),
        lambda probe: 1.0,
        lambda probe, record: None,
        probes=["matmul"],
    )
    assert attempt.timed_out and time.monotonic() - began < 15  # allowance: 1 + 1 + 2 * 0.5 s
    assert "ran past the whole attempt's allowance of 3 s" in attempt.death()


def test_events_after_a_flood_are_read_once_the_worker_has_exited(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(protocol, "MAX_READ", 1000)
    events = tmp_path / "w.events"
    done = json.dumps({"event": "done", "kernels": []}) + "\n"
    write = f"open({str(events)!r}, 'a').write('x' * 5000 + '\\n' + {done!r})"
    attempt = launcher.run_attempt(
        [sys.executable, "-c", write], events, dict(os.environ), lambda p: 30.0, lambda p, r: None
    )
    assert attempt.done and not attempt.timed_out


# --- round 16 ------------------------------------------------------------------------------


@pytest.mark.skipif(not hasattr(os, "fork"), reason="RLIMIT_FSIZE is POSIX")
def test_a_stdout_that_fills_up_is_exit_2_not_a_silently_cut_file(tmp_path: Path) -> None:
    import resource
    import subprocess

    def small_files() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (1000, 1000))

    args = ["recommend", "--example", "r1-text-image-research-to-production", "--probes", "none"]
    with open(tmp_path / "r.json", "wb") as out:
        done = subprocess.run(
            [sys.executable, "-m", "advisor", *args, "--format", "json"],
            stdout=out,
            stderr=subprocess.PIPE,
            preexec_fn=small_files,
            env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)},
            timeout=120,
            check=False,
        )
    err = done.stderr.decode()
    assert done.returncode == 2, err
    assert err.strip().splitlines() == [
        "advisor: error: stdout: cannot write to standard output: File too large"
    ]


def test_a_choice_number_of_thousands_of_digits_is_an_answer_error() -> None:
    from advisor.questionnaire import AnswerError, load_questions

    questions = {q.path: q for q in load_questions().questions}
    with pytest.raises(AnswerError, match="is not a choice"):
        questions["purpose"].parse("5" * 5000)
    with pytest.raises(AnswerError, match="is not a choice"):
        questions["domains"].parse("1-" + "9" * 5000)
    assert questions["domains"].parse("1-2") == ["vision", "nlp"]


def test_a_revision_drops_the_answers_its_changes_hid() -> None:
    from advisor.model.profile import Profile
    from advisor.model.said import said_paths
    from advisor.questionnaire import load_questions
    from advisor.questionnaire.session import Session

    qs = load_questions()
    base = Profile.model_validate(
        {
            "deployment": {"targets": ["server"], "serving": "online_api"},
            "hardware": {"training": ["nvidia_gpu"]},
            "training": {"accelerators": 64, "nodes": 8},
        }
    )
    session = Session(qs, qs.base(base), None)  # type: ignore[arg-type]
    session.said = said_paths(base)
    session.answers = {"deployment.targets": ["mobile"], "hardware.training": ["cpu"]}
    said = said_paths(session.profile())
    assert "deployment.serving" not in said and "training.accelerators" not in said
    assert "training.nodes" not in said
    session.answers = {}  # nothing changed: everything the profile said stays
    assert said_paths(base) <= said_paths(session.profile())


def test_the_command_to_reproduce_a_report_keeps_as_of_and_seed() -> None:
    from advisor.decide.engine import decide
    from advisor.decide.rules import load_ruleset
    from advisor.io.profiles import load_profile
    from advisor.report.command import source

    path = (
        Path(__file__).resolve().parent.parent
        / "examples"
        / "r1-text-image-research-to-production.yaml"
    )
    decision = decide(load_profile(path), None, load_ruleset().at("2020-01"), seed=7)
    command = source(str(path), "none", (), decision)["command"]
    assert command.endswith("--as-of 2020-01 --seed 7 --probes none")


def test_the_command_to_reproduce_a_measured_report_keeps_its_interpreters() -> None:
    from advisor.decide.engine import decide
    from advisor.decide.rules import load_ruleset
    from advisor.model.profile import Profile
    from advisor.report.command import source

    decision = decide(Profile(), None, load_ruleset())
    venv = "/srv/my env/bin/python"
    measured = source("p.yaml", "quick", (), decision, (venv, "/usr/bin/python3"))
    tail = "--python '/srv/my env/bin/python' --python /usr/bin/python3 --probes quick"
    assert measured["command"].endswith(tail)
    assert measured["measure_command"].endswith(tail)
    unmeasured = source("p.yaml", "none", (), decision, (venv,))
    assert "--python" not in unmeasured["command"]  # --python without probes is refused
    assert unmeasured["measure_command"].endswith(f"--python '{venv}' --probes quick")


@pytest.mark.skipif(not hasattr(os, "fork"), reason="O_NONBLOCK pipes are POSIX")
def test_a_non_blocking_stdout_whose_reader_is_slow_gets_every_byte() -> None:
    import fcntl
    import json
    import subprocess
    import time

    read_end, write_end = os.pipe()
    flags = fcntl.fcntl(write_end, fcntl.F_GETFL)
    fcntl.fcntl(write_end, fcntl.F_SETFL, flags | os.O_NONBLOCK)
    args = ["recommend", "--example", "r1-text-image-research-to-production", "--probes", "none"]
    child = subprocess.Popen(
        [sys.executable, "-m", "advisor", *args, "--format", "json"],
        stdout=write_end,
        stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)},
    )
    os.close(write_end)
    time.sleep(3)  # the report (~95 KB) outgrows the pipe (64 KB) while nobody reads
    data = b""
    while chunk := os.read(read_end, 1 << 16):
        data += chunk
    os.close(read_end)
    assert child.wait(timeout=120) == 0, child.stderr.read().decode() if child.stderr else ""
    assert len(data) > 1 << 16 and json.loads(data)["recommendation"]
