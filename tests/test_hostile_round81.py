"""Red-team round 81: the questionnaire on a terminal that another program left non-blocking.

A terminal's open file is shared by every program started from the shell, and some (Node
programs, a few editors and pagers when killed) leave it with O_NONBLOCK set. `advisor ask`
then read "nothing typed yet" as the end of the input: it stopped at the first question
with "input ended before the questionnaire was finished" and exit 1, before anyone could
answer. It now waits for the line, as a blocking terminal does; Ctrl-D still ends it.
"""

from __future__ import annotations

import fcntl
import os
import pty
import select
import signal
import sys
import time
from pathlib import Path

import pytest

from advisor.io.profiles import load_profile

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pseudo-terminal")

_SCRIPT = Path(sys.executable).with_name("advisor")
ADVISOR = [str(_SCRIPT)] if _SCRIPT.exists() else [sys.executable, "-m", "advisor"]
PROMPT = b"]: "


def _ask_on_a_non_blocking_terminal(tmp_path: Path, key: bytes) -> tuple[int, bytes]:
    """Run ``advisor ask -o`` in a pseudo-terminal whose file is non-blocking, typing ``key``
    at every prompt; the exit code and what the terminal showed."""
    pid, fd = pty.fork()
    if pid == 0:  # the child: the terminal as another program left it
        try:
            flags = fcntl.fcntl(0, fcntl.F_GETFL)
            fcntl.fcntl(0, fcntl.F_SETFL, flags | os.O_NONBLOCK)
            os.chdir(tmp_path)
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            env = {**os.environ, "NO_COLOR": "1", "TERM": "dumb"}
            os.execve(ADVISOR[0], [*ADVISOR, "ask", "-o", "p.yaml"], env)
        finally:
            os._exit(127)
    shown, answered, deadline = b"", 0, time.monotonic() + 60
    try:
        while time.monotonic() < deadline:
            if select.select([fd], [], [], 0.5)[0]:
                try:
                    data = os.read(fd, 65536)
                except OSError:  # the child closed the terminal: it has ended
                    break
                if not data:
                    break
                shown += data
            if shown.count(PROMPT) > answered:
                answered = shown.count(PROMPT)
                time.sleep(0.05)
                os.write(fd, key)
        else:
            os.kill(pid, signal.SIGKILL)
        return os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]), shown
    finally:
        os.close(fd)


def test_ask_waits_for_the_answers_on_a_non_blocking_terminal(tmp_path: Path) -> None:
    code, shown = _ask_on_a_non_blocking_terminal(tmp_path, b"\n")
    assert b"input ended" not in shown, shown[-400:]
    assert code == 0, shown[-400:]
    assert b"these answers?" in shown  # every question was put, then the summary
    assert load_profile(str(tmp_path / "p.yaml")) is not None


def test_ctrl_d_still_ends_the_questionnaire_on_a_non_blocking_terminal(tmp_path: Path) -> None:
    started = time.monotonic()
    code, shown = _ask_on_a_non_blocking_terminal(tmp_path, b"\x04")
    assert code == 1, shown[-400:]
    assert b"input ended before the questionnaire was finished" in shown
    assert not (tmp_path / "p.yaml").exists()
    assert time.monotonic() - started < 30
