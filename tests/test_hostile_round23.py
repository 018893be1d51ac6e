"""Red-team round 23: bad input named where it is written, replays that agree with the
loader, and a JSON Schema that agrees with what the advisor reads."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from advisor.cli.main import main as cli
from advisor.io.profiles import load_profile
from advisor.model.errors import InputError
from advisor.model.profile import COUNT_TEXT, SIZE_TEXT, Profile


@pytest.mark.parametrize(
    ("text", "line", "field"),
    [
        ("purpose: both\nteam:\n  size: 3\n  yes: 4\n", 4, "team.yes"),
        ("purpose: both\nhardware:\n  On: [tpu]\n", 3, "hardware.On"),
        ("team:\n  ~: 4\n", 2, "team.~"),
        ("team:\n  1_000: 4\n", 2, "team.1_000"),
    ],
)
def test_a_key_yaml_reads_as_no_text_is_named_at_its_own_line(
    tmp_path: Path, text: str, line: int, field: str
) -> None:
    path = tmp_path / "p.yaml"
    path.write_text(text)
    with pytest.raises(InputError) as info:
        load_profile(path)
    assert info.value.line == line and info.value.field == field
    assert "Keys should be strings" in str(info.value)


def test_ask_replays_what_recommend_accepts(tmp_path: Path) -> None:
    source = tmp_path / "p.yaml"
    source.write_text("purpose: both\nhardware:\n  training: []\n")
    out = tmp_path / "o.yaml"
    done = CliRunner().invoke(cli, ["ask", "--from", str(source), "--defaults", "-o", str(out)])
    assert done.exit_code == 0, done.output
    assert load_profile(out).hardware.training == []


def test_a_parameter_count_that_underflows_is_refused_in_words(tmp_path: Path) -> None:
    path = tmp_path / "p.yaml"
    path.write_text("model: {parameters: 1e-400}\n")
    with pytest.raises(InputError, match="too small to hold"):
        load_profile(path)


def _loads(field: dict) -> bool:
    try:
        Profile.model_validate(field)
    except ValueError:
        return False
    return True


@pytest.mark.parametrize("text", ["7B", "1,000,000", "1.5e11", "e5", ".e5", "0,250", "0_999"])
def test_the_schema_pattern_for_counts_agrees_with_the_reader(text: str) -> None:
    assert bool(re.match(COUNT_TEXT, text)) == _loads({"model": {"parameters": text}})


@pytest.mark.parametrize("text", ["256KB", "256K", "256 Ki", "256 iB", "e5 MB", "0,256 MB", "1 B"])
def test_the_schema_pattern_for_sizes_agrees_with_the_reader(text: str) -> None:
    assert bool(re.match(SIZE_TEXT, text)) == _loads({"deployment": {"device_memory_mb": text}})


def test_the_schema_says_lists_hold_no_item_twice() -> None:
    schema = json.loads(CliRunner().invoke(cli, ["schema"]).output)
    domains = schema["properties"]["domains"]
    assert domains["uniqueItems"] is True and domains["maxItems"] == 64
