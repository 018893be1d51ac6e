"""Red-team round 21: a foreign interpreter's comparison rounds are read as input, a silent
worker is not asked again, and `ask -o` writes YAML only where YAML belongs."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from hostile_support import fake_interpreter, run

from advisor.cli.main import main as cli
from probes.run.launcher import NoRound, _seconds

ROUND = """
if os.environ.get("SILENT"):
    continue
emit('{"event": "round", "kernel": "matmul", "per_call": %s}' % os.environ["PER_CALL"])
"""


@pytest.mark.parametrize(
    "samples", [["x"], [float("inf")], [float("nan")], [10**400], [True], [0], [5e-324], [[1]]]
)
def test_a_round_answer_that_is_not_a_time_is_no_round(samples: list) -> None:
    assert isinstance(_seconds(samples), NoRound)


def test_a_round_answer_of_times_is_read() -> None:
    assert _seconds([0.01, 2, 1e-6]) == [0.01, 2.0, 1e-6]


@pytest.fixture
def fake(tmp_path: Path) -> Path:
    return fake_interpreter(tmp_path, ROUND)


@pytest.mark.skipif(os.name != "posix", reason="a fake interpreter script needs a shebang")
@pytest.mark.parametrize("per_call", ['["x"]', "[1e400]", "[1" + "0" * 400 + "]", "[true]"])
def test_hostile_rounds_neither_crash_nor_leak_non_json(
    tmp_path: Path, fake: Path, per_call: str
) -> None:
    env = {"PER_CALL": per_call, "ADVISOR_CACHE_DIR": str(tmp_path / "cache")}
    result = run("probe", "--python", str(fake), "--format", "json", cwd=tmp_path, env=env)
    assert result.code == 0, result.err
    assert "Traceback" not in result.err
    json.loads(result.out, parse_constant=lambda c: pytest.fail(f"{c} in the JSON"))


@pytest.mark.skipif(os.name != "posix", reason="a fake interpreter script needs a shebang")
def test_a_worker_that_stops_answering_rounds_is_not_asked_again(
    tmp_path: Path, fake: Path
) -> None:
    env = {
        "SILENT": "1",
        "PER_CALL": "[0.01]",
        "ADVISOR_PROBE_TIMEOUT": "2",
        "ADVISOR_CACHE_DIR": str(tmp_path / "cache"),
    }
    start = time.monotonic()
    result = run("probe", "--python", str(fake), cwd=tmp_path, env=env, timeout=120)
    assert result.code == 0, result.err
    assert time.monotonic() - start < 60  # was 313 s: 10 rounds of 31 s each


@pytest.mark.parametrize("name", ["p.html", "p.SVG", "p.yaml.html", "p.json"])
def test_ask_writes_yaml_only_under_a_yaml_name(tmp_path: Path, name: str) -> None:
    result = CliRunner().invoke(cli, ["ask", "--defaults", "-o", str(tmp_path / name)])
    assert result.exit_code == 2 and "YAML profile" in result.output
    assert not (tmp_path / name).exists()


def test_a_missing_interpreter_is_refused_before_any_question() -> None:
    result = CliRunner().invoke(cli, ["recommend", "--probes", "quick", "--python", "/nonexist"])
    assert result.exit_code == 2 and "--python" in result.output and "no such file" in result.output


def test_the_advisor_s_own_code_is_never_an_output(tmp_path: Path) -> None:
    import advisor

    target = Path(advisor.__file__).parent / "zz_written_by_a_test.yaml"
    result = CliRunner().invoke(cli, ["ask", "--defaults", "-o", str(target), "--force"])
    assert result.exit_code == 2 and "folder the advisor reads" in result.output
    assert not target.exists()
