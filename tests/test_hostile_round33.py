"""Red-team round 33: error lines that named the wrong line, and `advisor schema` and the
reader disagreeing on numbers. Each finding, fixed, with the promise it broke: an error
names the file, the line and the field (README), and an editor that checks a profile
against the schema agrees with the advisor."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from pack_support import refusal, user_rule_pack

from advisor.cli.main import main as cli
from advisor.decide.rules import load_ruleset
from advisor.io.profiles import load_profile
from advisor.io.safe_yaml import load_yaml_text
from advisor.model.profile import COUNT_TEXT, SIZE_TEXT, Profile
from advisor.questionnaire.loader import load_questions
from advisor.questionnaire.spec import QUESTIONS_FILE

MOBILE = "- {field: deployment.targets, contains: mobile}\n- {field: team.size, gte: 2}\n"


def test_a_bad_condition_inside_all_is_named_at_its_own_line(tmp_path: Path) -> None:
    """The third condition of `all` is on line 9: the error named line 5, `when:`."""
    pack = user_rule_pack(tmp_path, MOBILE + "- field: team.sizee\n  gte: 3\n")
    message = refusal(lambda: load_ruleset([pack]))
    assert "r.yaml:9:" in message and "when.all[3]" in message, message
    assert "did you mean 'team.size'" in message


def test_a_bad_operand_inside_not_is_named_at_the_operators_line(tmp_path: Path) -> None:
    conditions = MOBILE + "- not:\n    field: deployment.targets\n    contains: mobil\n"
    message = refusal(lambda: load_ruleset([user_rule_pack(tmp_path, conditions)]))
    assert "r.yaml:11:" in message and "when.all[3].not" in message, message


def _questions_with(tmp_path: Path, validators: str) -> Path:
    """The bundled questions with the training-hardware question's validators replaced."""
    text = QUESTIONS_FILE.read_text(encoding="utf-8")
    start = text.index("    field: hardware.training\n")
    head, tail = text[:start], text[start:]
    block = re.search(r"\n    validate:\n(?:      .*\n)+", tail)
    assert block is not None
    tail = tail[: block.start()] + "\n    validate:\n" + validators + tail[block.end() :]
    path = tmp_path / "questions.yaml"
    path.write_text(head + tail, encoding="utf-8")
    return path


def _line_of(path: Path, fragment: str) -> int:
    lines = path.read_text(encoding="utf-8").splitlines()
    return next(n for n, line in enumerate(lines, 1) if fragment in line)


@pytest.mark.parametrize(
    ("validators", "marker", "where"),
    [
        (
            "      - require: {field: hardware.training, contains_any: [cpu]}\n"
            "        message: first\n"
            "      - require: {field: hardware.trainingg, contains: cpu}\n"
            "        message: second\n",
            "hardware.trainingg",
            "validate[2]",
        ),
        (
            "      - require: {field: hardware.training, contains_any: [cpu]}\n"
            "        message: 12\n",
            "message: 12",
            "validate[1]",
        ),
        (
            "      - require: {field: hardware.training, contains_any: [cpu]}\n"
            "        message: fine\n"
            "        extra: key\n",
            "extra: key",
            "validate[1]",
        ),
    ],
)
def test_a_bad_validator_is_named_at_its_own_line(
    tmp_path: Path, validators: str, marker: str, where: str
) -> None:
    """The error named the line where the question starts, whatever was wrong below it,
    and counted validators from 0 beside questions counted from 1."""
    path = _questions_with(tmp_path, validators)
    message = refusal(lambda: load_questions(path))
    assert f"questions.yaml:{_line_of(path, marker)}:" in message, message
    assert f"(hardware.training).{where}" in message, message


def test_a_list_item_written_as_an_alias_is_named_at_the_alias(tmp_path: Path) -> None:
    """The composed alias is the anchor's node, so the item took the anchor's line (1)."""
    path = tmp_path / "p.yaml"
    path.write_text("domains: &d [nlp, vision]\n\n\nhardware:\n  training: [cpu, *d]\n")
    message = refusal(lambda: load_profile(path))
    assert "p.yaml:5:" in message and "hardware.training[2]" in message, message


def test_aliases_after_an_anchored_key_keep_their_own_lines() -> None:
    """An anchored key is met before its alias: the walk must count it, or the aliases
    and their lines fall out of step."""
    doc = load_yaml_text("a: &k key\n&j b: 1\nc: *j\nd:\n  - x\n  - *k\n")
    assert doc.lines[("d", 1)] == 6 and doc.lines[("c",)] == 3


def test_a_repeated_list_item_is_named_at_the_repeat(tmp_path: Path) -> None:
    path = tmp_path / "p.yaml"
    path.write_text("hardware:\n  training:\n    - cpu\n    - tpu\n    - cpu\n")
    message = refusal(lambda: load_profile(path))
    assert "p.yaml:5:" in message and "'cpu' is listed twice" in message, message


def _schema() -> dict[str, Any]:
    done = CliRunner().invoke(cli, ["schema"])
    assert done.exit_code == 0, done.output
    return json.loads(done.output)


@pytest.mark.parametrize("text", ["1,000_000", "1_000,000", "2,000_000B"])
def test_one_thousands_separator_throughout_in_schema_and_reader(text: str) -> None:
    """The schema took '1,000_000' as a count; the reader refuses it."""
    assert re.match(COUNT_TEXT, text) is None and re.match(SIZE_TEXT, text) is None
    with pytest.raises(ValueError, match="may only separate thousands"):
        Profile.model_validate({"model": {"parameters": text}})
    pattern = _schema()["$defs"]["ModelScale"]["properties"]["parameters"]["anyOf"]
    texts = [p["pattern"] for p in pattern if p.get("type") == "string"]
    assert texts and all(re.match(p, text) is None for p in texts)


@pytest.mark.parametrize("text", ["1,000,000", "1_000_000", "7B"])
def test_one_separator_throughout_is_still_a_count(text: str) -> None:
    assert re.match(COUNT_TEXT, text)
    Profile.model_validate({"model": {"parameters": text}})


@pytest.mark.parametrize(
    ("written", "value"), [("1e1", 10), ("1E1", 10), ("30e-1", 3), ("1e-0", 1), ("10.0e0", 10)]
)
def test_an_exponent_is_a_number_as_json_and_the_schema_read_it(
    tmp_path: Path, written: str, value: int
) -> None:
    """`size: 1e1` is ten to JSON, YAML 1.2 and the schema; the reader took it as the text
    '1e1' and refused it."""
    path = tmp_path / "p.yaml"
    path.write_text(f"team:\n  size: {written}\nmodel:\n  parameters: {written}\n")
    profile = load_profile(path)
    assert profile.team.size == value and profile.model.parameters == value


@pytest.mark.parametrize(
    ("written", "fragment"),
    [
        ("1.5e0", "fractional part"),
        ("1e999", "finite"),
        ("1e-400", "whole number"),
        ('"1e1"', "whole number"),
    ],
)
def test_exponents_that_are_not_whole_or_not_finite_are_refused(
    tmp_path: Path, written: str, fragment: str
) -> None:
    path = tmp_path / "p.yaml"
    path.write_text(f"team:\n  size: {written}\n")
    message = refusal(lambda: load_profile(path))
    assert "p.yaml:2:" in message and fragment in message, message
