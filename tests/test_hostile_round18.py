"""Red-team round 18: a worker cannot trap the parent through the files it can replace,
its env event cannot crash a report, and templates, output names and encodings that
Python itself refuses are one-line errors with exit 2."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from advisor.cli.output import named_json
from advisor.model.errors import InputError
from advisor.report.template_sandbox import render_in_sandbox
from probes.run import launcher, trust

ROOT = Path(__file__).resolve().parent.parent
SWAP = """
import os, sys
out = sys.argv[1]
mode = sys.argv[2]
os.remove(out) if os.path.exists(out) else None
if mode == "zero":
    os.symlink("/dev/zero", out)
elif mode == "fifo":
    os.mkfifo(out)
elif mode == "stderr":
    err = out[: -len(".jsonl")] + ".stderr"
    os.remove(err) if os.path.exists(err) else None
    os.mkfifo(err)
"""


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="links and FIFOs as POSIX has them")
@pytest.mark.parametrize("mode", ["zero", "fifo", "stderr"])
def test_a_worker_that_swaps_its_files_cannot_hold_the_parent(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, mode: str
) -> None:
    monkeypatch.setattr(launcher, "GAP_TIMEOUT", 1.0)
    events = tmp_path / "pytorch-matmul-1.jsonl"
    events.touch()

    def hung(*_: object) -> None:
        raise AssertionError(f"run_attempt was still running ({mode})")

    previous = signal.signal(signal.SIGALRM, hung)
    signal.alarm(30)  # the allowance is 4 s; before the fix 'zero' spun and FIFOs blocked
    try:
        start = time.monotonic()
        launcher.run_attempt(
            [sys.executable, "-c", SWAP, str(events), mode],
            events,
            dict(os.environ),
            lambda probe: 1.0,
            lambda probe, record: None,
            probes=["matmul"],
        )
        assert time.monotonic() - start < 20
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def test_an_env_event_of_the_wrong_shape_keeps_nothing_a_report_would_trip_on() -> None:
    env = trust.clean_env({"event": "env", "threads": 5, "devices": [{}]})
    assert "threads" not in env and env["devices"] == []
    kept = trust.clean_env(
        {
            "event": "env",
            "threads": {"intra_op": 2, "inter_op": 2},
            "devices": [{"kind": "cpu", "name": "cpu", "index": 0}],
        }
    )
    assert kept["threads"] == {"intra_op": 2, "inter_op": 2} and len(kept["devices"]) == 1


@pytest.mark.parametrize(
    ("source", "message"),
    [
        ("{% for a in [1] %}" * 21 + "x" + "{% endfor %}" * 21, "cannot be compiled"),
        ("{% if true %}" * 101 + "x" + "{% endif %}" * 101, "cannot be compiled"),
        ("{{ " + "9" * 5000 + " }}", "cannot be read"),
    ],
)
def test_a_template_python_refuses_is_named_as_such(source: str, message: str) -> None:
    with pytest.raises(InputError, match=message):
        render_in_sandbox(source, "t.md.j2", {}, html=False, parse_only=True)


def test_an_output_that_windows_opens_as_json_counts_as_json() -> None:
    for name in ("r.json", "r.JSON", "r.json.", "r.json ", "r.json::$DATA", "d/r.json. ."):
        assert named_json(name), name
    for name in ("r.jsonl", "r.md", "json", "r.json.md"):
        assert not named_json(name), name


def test_an_undefined_stdout_encoding_is_exit_2_for_every_command() -> None:
    env = {**os.environ, "PYTHONIOENCODING": "undefined", "PYTHONPATH": str(ROOT)}
    for args in (["--version"], ["schema"], ["rules", "list"]):
        done = subprocess.run(
            [sys.executable, "-m", "advisor", *args],
            capture_output=True,
            env=env,
            timeout=120,
            check=False,
        )
        assert done.returncode == 2, (args, done.returncode)


def test_the_json_schema_accepts_the_sizes_a_profile_may_write() -> None:
    from advisor.model.profile import Profile

    schema = Profile.model_json_schema()
    parameters = schema["$defs"]["ModelScale"]["properties"]["parameters"]
    text = [a for a in parameters["anyOf"] if a.get("type") == "string"]
    assert len(text) == 1 and text[0]["maxLength"] == 64 and text[0]["pattern"]
    assert json.dumps(parameters).count('"number"') == 1
