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


def test_every_whole_number_field_also_takes_text_of_a_whole_number() -> None:
    text = json.dumps(_schema())
    assert '"type": "integer"' in text
    assert text.count('"type": "integer"') == text.count(json.dumps(WHOLE_TEXT))


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
    """In range, a text is read exactly when the pattern takes it (the range is checked
    on the number, as for counts written as text)."""
    matches = len(text) <= MAX_WHOLE_CHARS and bool(re.match(WHOLE_TEXT, text))  # as the schema
    for section, key in WHOLE_FIELDS:
        assert matches == _reads(section, key, text), (section, key, text)


def test_the_text_form_keeps_each_field_s_range_on_the_number() -> None:
    props = _schema()["$defs"]["Team"]["properties"]["size"]["anyOf"]
    number = next(a for a in props if a["type"] == "integer")
    assert (number["minimum"], number["maximum"]) == (1, 100_000)
    assert not _reads("team", "size", "0") and _reads("team", "size", "1")
