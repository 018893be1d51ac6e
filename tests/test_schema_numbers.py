"""The JSON Schema takes the whole numbers the reader takes written as text ('3' for 3),
so an editor that checks a profile against `advisor schema` agrees with `advisor`."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from click.testing import CliRunner

from advisor.cli.main import main as cli
from advisor.model.field_guards import MAX_WHOLE_CHARS, WHOLE_TEXT
from advisor.model.profile import Profile

WHOLE_FIELDS = (
    ("team", "size"),
    ("training", "accelerators"),
    ("training", "nodes"),
    ("priorities", "raw_performance"),
    ("workload", "batch_size"),
)


def _reads(section: str, key: str, value: Any) -> bool:
    try:
        Profile.model_validate({section: {key: value}})
    except ValueError:
        return False
    return True


def _schema() -> dict[str, Any]:
    done = CliRunner().invoke(cli, ["schema"])
    assert done.exit_code == 0, done.output
    return json.loads(done.output)


def _text_patterns() -> dict[tuple[str, str], tuple[dict[str, Any], str]]:
    """(section, key) -> (the number branch, the text branch's pattern) of each field."""
    defs = _schema()["$defs"]
    sections = {"team": "Team", "training": "TrainingScale", "priorities": "Priorities"}
    sections["workload"] = "Workload"
    out = {}
    for section, key in WHOLE_FIELDS:
        branches = defs[sections[section]]["properties"][key]["anyOf"]
        number = next(b for b in branches if b["type"] == "integer")
        text = next(b for b in branches if b["type"] == "string")
        assert text["maxLength"] == MAX_WHOLE_CHARS
        out[(section, key)] = (number, text["pattern"])
    return out


def test_every_whole_number_field_also_takes_text_of_a_whole_number() -> None:
    text = json.dumps(_schema())
    prefix = json.dumps(WHOLE_TEXT.split("[0-9]")[0])[1:-1]  # the spaces and the sign
    assert '"type": "integer"' in text
    assert text.count('"type": "integer"') == text.count(f'"pattern": "{prefix}')


def test_the_text_pattern_carries_the_field_s_range() -> None:
    """'6' for a 0-5 priority, '0' for a team size or '70000' for a batch size fail the
    schema as they fail the reader; every value near the bounds and a spread between them,
    written plainly, with leading zeros, a sign and a '.0' tail, agrees."""
    for (section, key), (number, pattern) in _text_patterns().items():
        low, high = number["minimum"], number["maximum"]
        values = {low, high, low + 1, high - 1, high + 1, high * 10, (low + high) // 2}
        values |= {low - 1} if low else set()
        values |= {v for v in range(0, 40)} | {10**k for k in range(7)}
        for value in values:
            for text in (str(value), f"00{value}", f" +{value}.00 "):
                in_schema = bool(re.match(pattern, text))
                assert in_schema == _reads(section, key, text), (section, key, text)
                assert in_schema == (low <= value <= high), (section, key, text)


@pytest.mark.parametrize(
    "text",
    [
        "3",
        " 3",
        "3 ",
        "+3",
        "03",
        "3.0",
        "3.00",
        "\t3\n",
        "3.",
        "3.5",
        "1_0",
        "3e0",
        "0x3",
        "++3",
        "+ 3",
        ".0",
        "3 .0",
        "",
        "three",
        "١٢",
        "\ufeff3",  # JavaScript's \s takes U+FEFF and Python's \x1c: the pattern names its spaces
        "\x1c3",
        "-0",
        "-0.0",
        "3\x85",
        "1_000",
        "1,000",
        " " * 70 + "3",  # longer than maxLength
        "1e2",
    ],
)
def test_the_schema_pattern_for_whole_numbers_agrees_with_the_reader(text: str) -> None:
    """In range, a text is read exactly when the pattern takes it, the general one and
    each field's ranged one (every sample text here is 3, or no number)."""
    matches = len(text) <= MAX_WHOLE_CHARS and bool(re.match(WHOLE_TEXT, text))  # as the schema
    for section, key in WHOLE_FIELDS:
        assert matches == _reads(section, key, text), (section, key, text)
    for (section, key), (_, pattern) in _text_patterns().items():  # in range, one verdict
        in_schema = len(text) <= MAX_WHOLE_CHARS and bool(re.match(pattern, text))
        assert in_schema == matches, (section, key, text)


def test_the_text_form_keeps_each_field_s_range_on_the_number() -> None:
    props = _schema()["$defs"]["Team"]["properties"]["size"]["anyOf"]
    number = next(a for a in props if a["type"] == "integer")
    assert (number["minimum"], number["maximum"]) == (1, 100_000)
    assert not _reads("team", "size", "0") and _reads("team", "size", "1")
