"""The command line as a user meets it: exit codes, messages, stdout hygiene, contracts."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from advisor import __version__
from advisor.frameworks import FRAMEWORKS

HEAVY = ("torch", "jax", "jaxlib", "tensorflow")


def write(tmp_path: Path, text: str, name: str = "profile.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def test_version_and_help(cli) -> None:
    code, out, _ = cli("--version")
    assert code == 0 and __version__ in out
    for command in ("recommend", "examples", "ask", "probe", "rules", "schema"):
        code, out, _ = cli(command, "--help")
        assert code == 0 and "Usage" in out


def test_recommend_json_contract_without_probes(cli, tmp_path: Path) -> None:
    profile = write(tmp_path, "purpose: research\ndeployment: {targets: [server]}\n")
    code, out, err = cli("recommend", str(profile), "--probes", "none", "--format", "json")
    assert code == 0, err
    data = json.loads(out)
    assert data["recommendation"]["framework"] in FRAMEWORKS
    assert sorted(r["framework"] for r in data["ranking"]) == sorted(FRAMEWORKS)
    assert all(isinstance(r["score"], (int, float)) for r in data["ranking"])
    scores = [r["score"] for r in data["ranking"] if not r["vetoed"]]
    assert scores == sorted(scores, reverse=True)
    for fired in data["rules"]:
        assert {"id", "criterion", "effects", "why", "evidence"} <= set(fired)
    assert data["probes"] == [] and "environment" in data
    assert "win_probability" in data["sensitivity"]


@pytest.mark.parametrize(
    ("text", "fragments"),
    [
        ("purpose: [research\n", ["profile.yaml:", "invalid YAML"]),
        (
            "purpose: research\nteam:\n  sise: 3\n",
            ["profile.yaml:3:", "team.sise", "did you mean 'team.size'"],
        ),
        (
            "deployment:\n  targets: [phone]\n",
            ["profile.yaml:2:", "deployment.targets[1]", "'phone'"],
        ),
        (
            "priorities:\n  raw_performance: 9\n",
            ["profile.yaml:2:", "priorities.raw_performance", "5"],
        ),
        ("- just\n- a list\n", ["profile.yaml:1:", "mapping"]),
        ("model:\n  parameters: lots\n", ["profile.yaml:2:", "model.parameters", "number"]),
    ],
)
def test_bad_profiles_give_exit_2_and_one_line(
    cli, tmp_path: Path, text: str, fragments: list[str]
) -> None:
    profile = write(tmp_path, text)
    code, out, err = cli("recommend", str(profile), "--probes", "none")
    assert code == 2
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err
    for fragment in fragments:
        assert fragment in lines[0]


def test_missing_file_and_directory(cli, tmp_path: Path) -> None:
    code, _, err = cli("recommend", str(tmp_path / "nope.yaml"), "--probes", "none")
    assert code == 2 and "no such file" in err
    code, _, err = cli("recommend", str(tmp_path), "--probes", "none")
    assert code == 2 and "directory" in err


def test_usage_errors_exit_2(cli) -> None:
    code, _, err = cli("recommend", "--format", "pdf")
    assert code == 2 and "pdf" in err
    for args in (("recommend", "--format", "pdf"), ("recommend", "--bogus"), ("nosuch",)):
        code, _, err = cli(*args)
        lines = err.strip().splitlines()
        assert code == 2 and len(lines) == 1, err  # one line, like every other input error
        assert lines[0].startswith("advisor: error: ") and "--help" in lines[0]
    code, _, err = cli("recommend", "--example", "no-such-example", "--probes", "none")
    assert code == 2 and "no bundled example" in err
    code, _, err = cli("rules", "show", "XYZ999")
    assert code == 2 and "no rule" in err


def test_output_file_is_written_atomically_and_never_clobbered(cli, tmp_path: Path) -> None:
    profile = write(tmp_path, "purpose: research\n")
    out_file = tmp_path / "report.md"
    out_file.write_text("my notes")
    code, _, err = cli("recommend", str(profile), "--probes", "none", "-o", str(out_file))
    assert code == 2 and "--force" in err
    assert out_file.read_text() == "my notes"
    code, _, err = cli(
        "recommend", str(profile), "--probes", "none", "-o", str(out_file), "--force"
    )
    assert code == 0, err
    assert out_file.read_text().startswith("#")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["profile.yaml", "report.md"]


def test_examples_listing_and_each_example_recommends(cli) -> None:
    code, out, _ = cli("examples")
    assert code == 0
    names = [line.split()[0] for line in out.splitlines() if line.strip()]
    assert names, "no bundled examples"
    for name in names:
        code, out, err = cli("recommend", "--example", name, "--probes", "none", "--format", "json")
        assert code == 0, (name, err)
        assert json.loads(out)["recommendation"]["framework"]


def test_schema_is_json_schema(cli) -> None:
    code, out, _ = cli("schema")
    schema = json.loads(out)
    assert code == 0 and schema["type"] == "object"
    assert {"purpose", "deployment", "priorities", "workload"} <= set(schema["properties"])
    assert schema["additionalProperties"] is False


def test_rules_commands(cli) -> None:
    code, out, _ = cli("rules", "check")
    assert code == 0 and out.startswith("ok:")
    code, out, _ = cli("rules", "list")
    first = out.split()[0]
    code, shown, _ = cli("rules", "show", first)
    assert code == 0 and shown.startswith(f"# {first}") and "## Evidence" in shown


def test_no_framework_import_without_probes(tmp_path: Path) -> None:
    """--probes none must not import torch, jax or tensorflow (they take seconds)."""
    profile = write(tmp_path, "purpose: research\n")
    code = (
        "import sys\n"
        "from advisor.cli import main\n"
        f"try:\n    main(['recommend', {str(profile)!r}, '--probes', 'none', '--format', 'json'])\n"
        "except SystemExit as e:\n    assert e.code in (0, None), e.code\n"
        f"loaded = [m for m in {HEAVY!r} if m in sys.modules]\n"
        "sys.stderr.write('LOADED=' + ','.join(loaded))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr
    assert "LOADED=" in proc.stderr and proc.stderr.strip().endswith("LOADED="), proc.stderr


def test_installed_program_works_from_any_directory(run_advisor, tmp_path: Path) -> None:
    proc = run_advisor("examples", cwd=tmp_path)
    assert proc.returncode == 0 and proc.stdout.strip()
    name = proc.stdout.split()[0]
    proc = run_advisor("recommend", "--example", name, "--probes", "none", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("#")
    assert "Traceback" not in proc.stderr


def test_to_reproduce_names_the_extra_rule_packs(cli, tmp_path: Path) -> None:
    pack = tmp_path / "my rules"
    pack.mkdir()
    (pack / "none.yaml").write_text("rules: []\n")
    code, out, err = cli(
        "recommend", "--example", "student-starter", "--probes", "none", "--rules", str(pack)
    )
    assert code == 0, err
    assert f"advisor recommend --example student-starter --rules '{pack}' --probes none" in out
