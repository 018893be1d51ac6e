"""The decision benchmark (benchmarks/decisions.py): floors, split rule, baselines, inputs."""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "benchmarks" / "decisions.py"
_spec = importlib.util.spec_from_file_location("decisions", SCRIPT)
assert _spec and _spec.loader
decisions = importlib.util.module_from_spec(_spec)
sys.modules["decisions"] = decisions
_spec.loader.exec_module(decisions)


def _case_yaml(case_id: str, chosen: str, profile: str = "{}", **extra: str) -> str:
    fields = {
        "id": case_id,
        "name": "Synthetic",
        "year": "2024",
        "source": "{url: https://example.org, title: Example, publisher: Nobody}",
        "chosen": chosen,
        "acceptable": f"[{chosen}]",
        "description": "A synthetic case for the tests.",
        "decisive_facts": "[nothing]",
        **extra,
    }
    body = "".join(f"{key}: {value}\n" for key, value in fields.items())
    return body + f"profile: {profile}\n"


def _write(directory: Path, case_id: str, text: str) -> Path:
    path = directory / f"{case_id}.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_check_passes_on_the_repository_cases_and_json_has_the_issue_shape() -> None:
    """One run of the script as CI runs it (the benchmark takes half a minute): the test
    split's figures hold their floors, and `--json` prints the object the issue asked for."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run(
        [sys.executable, str(SCRIPT), "--check", "--json"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert set(data) == {"cases", "by_framework", "dev", "test"}
    assert sum(data["by_framework"].values()) == data["cases"] >= 60
    for split in ("dev", "test"):
        assert set(data[split]) == {"advisor", "advisor_as_of", "rule_of_thumb", "always_pytorch"}
        for name, figures in data[split].items():
            assert set(figures) == {"top1", "acceptable", "recall", "calibration"}
            assert 0 <= figures["top1"] <= figures["acceptable"] <= 1
            assert set(figures["recall"]) == {"pytorch", "jax", "tensorflow"}
            if name.startswith("advisor"):
                assert set(figures["calibration"]) == {"high", "medium", "low"}
            else:
                assert figures["calibration"] is None
        assert data[split]["always_pytorch"]["recall"]["pytorch"] == 1.0
        assert data[split]["always_pytorch"]["recall"]["jax"] in (0.0, None)


@pytest.mark.parametrize(
    ("case_id", "split"),
    [("jax-maxtext", "test"), ("twin-b", "test"), ("pt-nanogpt", "dev"), ("twin-a", "dev")],
)
def test_split_rule_is_the_stated_hash(case_id: str, split: str) -> None:
    assert decisions.split_of(case_id) == split


def test_split_rule_holds_out_about_a_third() -> None:
    ids = [f"case-{i}" for i in range(600)]
    test = [i for i in ids if decisions.split_of(i) == "test"]
    assert 0.28 < len(test) / len(ids) < 0.39
    assert all(int(hashlib.sha256(i.encode()).hexdigest(), 16) % 3 == 0 for i in test)


@pytest.mark.parametrize(
    ("profile", "expected"),
    [
        ({}, "pytorch"),
        ({"deployment": {"targets": ["server", "browser"]}}, "tensorflow"),
        ({"deployment": {"targets": ["microcontroller"]}}, "tensorflow"),
        ({"deployment": {"targets": ["mobile", "edge"]}}, "pytorch"),
        ({"team": {"experience": {"tensorflow": "expert"}}}, "tensorflow"),
        ({"team": {"experience": {"tensorflow": "some"}}}, "pytorch"),
        ({"existing_code": ["tf1"]}, "tensorflow"),
        ({"existing_code": ["numpy", "tf2_keras"]}, "tensorflow"),
        ({"hardware": {"training": ["tpu"]}}, "jax"),
        ({"hardware": {"inference": ["tpu"]}}, "pytorch"),
        ({"team": {"experience": {"jax": "expert"}}}, "jax"),
        ({"team": {"experience": {"jax": "some"}}}, "pytorch"),
        ({"existing_code": ["jax"]}, "jax"),
        ({"team": {"functional_programming": True}}, "jax"),
        ({"hardware": {"training": ["tpu"]}, "existing_code": ["tf1"]}, "tensorflow"),
        ({"hardware": {"training": ["tpu"]}, "deployment": {"targets": ["browser"]}}, "tensorflow"),
    ],
)
def test_rule_of_thumb(profile: dict[str, Any], expected: str) -> None:
    assert decisions.rule_of_thumb(profile).framework == expected
    assert decisions.rule_of_thumb(profile).confidence is None


@pytest.mark.parametrize("profile", [{}, {"hardware": {"training": ["tpu"]}}])
def test_always_pytorch(profile: dict[str, Any]) -> None:
    assert decisions.always_pytorch(profile) == ("pytorch", None, ())


def _case(case_id: str, chosen: str, acceptable: tuple[str, ...] = ()) -> Any:
    accept = acceptable or (chosen,)
    return decisions.Case(case_id, chosen, accept, {}, "x.yaml", {}, decisions.split_of(case_id))


def test_metrics_on_synthetic_verdicts() -> None:
    V = decisions.Verdict
    rows = [
        (_case("a", "pytorch"), V("pytorch", "high")),
        (_case("b", "pytorch"), V("jax", "high")),
        (_case("c", "jax", ("jax", "pytorch")), V("pytorch", "medium")),
        (_case("d", "jax"), V("jax", "low")),
    ]
    m = decisions.metrics(rows, calibrated=True)
    assert (m["top1"], m["acceptable"]) == (0.5, 0.75)
    assert m["recall"] == {"pytorch": 0.5, "jax": 0.5, "tensorflow": None}
    assert m["confusion"]["pytorch"] == {"pytorch": 1, "jax": 1, "tensorflow": 0}
    assert m["calibration"]["high"] == {"n": 2, "correct": 0.5}
    assert m["calibration"]["medium"] == {"n": 1, "correct": 0.0}
    assert decisions.metrics(rows, calibrated=False)["calibration"] is None


def test_a_bad_case_file_is_one_line_naming_file_line_and_field(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(tmp_path, "bad-one", _case_yaml("bad-one", "keras"))
    assert decisions.main(["--cases", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip()
    assert err == f"{path}:5: chosen: expected one of pytorch, jax, tensorflow"


def test_a_bad_profile_field_names_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = _case_yaml("bad-two", "pytorch", profile="\n  team:\n    sise: 3")
    path = _write(tmp_path, "bad-two", text)
    assert decisions.main(["--cases", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(f"{path}:11: profile.team.sise:")


def test_check_fails_and_names_each_figure_below_its_floor(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Two test-split cases with the same profile and different choices: top-1 cannot be 1.
    cases = tmp_path / "cases"
    cases.mkdir()
    _write(cases, "twin-b", _case_yaml("twin-b", "pytorch"))
    _write(cases, "twin-c", _case_yaml("twin-c", "jax"))
    floors = tmp_path / "floors.yaml"
    floors.write_text(
        "top1: 1.0\nacceptable: 1.0\nrecall: {pytorch: 0, jax: 0, tensorflow: 0}\n"
        "high_confidence_correct: 0\n",
        encoding="utf-8",
    )
    code = decisions.main(["--cases", str(cases), "--floors", str(floors), "--check"])
    out, err = capsys.readouterr()
    assert code == 1
    assert "== test:" in out and "rule_of_thumb" in out  # the table is printed all the same
    assert "advisor top1: 0.5 < floor 1.0" in err
    assert "advisor acceptable: 0.5 < floor 1.0" in err
    assert "recall" not in err


def test_a_floors_file_with_an_unknown_key_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    floors = tmp_path / "floors.yaml"
    floors.write_text("top1: 0.5\ntop5: 0.9\n", encoding="utf-8")
    assert decisions.main(["--floors", str(floors), "--check"]) == 2
    assert "expected exactly the keys" in capsys.readouterr().err


def test_a_yaml_syntax_error_is_one_line_with_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(tmp_path, "broken", "id: broken\nsource: {url: https://x.org/watch?v=1, t: 2}\n")
    assert decisions.main(["--cases", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(f"{path}:2: cannot read:")
