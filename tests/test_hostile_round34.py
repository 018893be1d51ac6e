"""Red-team round 34: a profile `advisor ask` wrote that it then refused to read, alias
lines thrown off by merges, repeats named at the list's line, a repeated condition, and
JSON names beyond `.json`. Each finding, fixed, with the promise it broke (SECURITY.md)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from pack_support import refusal, user_rule_pack

from advisor.cli.main import main as cli
from advisor.cli.output import named_json
from advisor.decide.rules import load_ruleset
from advisor.io.profiles import load_profile
from advisor.io.safe_yaml import load_yaml_text
from advisor.io.yaml_dump import dump_yaml
from advisor.questionnaire.loader import load_questions
from advisor.questionnaire.spec import QUESTIONS_FILE

TEXTS = ["1e3", "2.5e10", "1.e3", "3E8", "-1e+2", "010", "0x10", "yes", "Off", "2024-01-01", "~"]


@pytest.mark.parametrize("text", TEXTS)
def test_written_texts_read_back_as_the_same_text(text: str) -> None:
    """`1e3` is a number to the reader since round 33; the writer left it unquoted."""
    assert load_yaml_text(dump_yaml({"name": text})).data == {"name": text}


def test_ask_replays_a_name_that_looks_like_a_number(tmp_path: Path) -> None:
    (tmp_path / "in.yaml").write_text("project: {name: '1e3', notes: '2.5e10'}\n")
    out = tmp_path / "out.yaml"
    args = ["ask", "--from", str(tmp_path / "in.yaml"), "--defaults", "-o", str(out)]
    done = CliRunner().invoke(cli, args)
    assert done.exit_code == 0, done.output
    profile = load_profile(out)
    assert (profile.project.name, profile.project.notes) == ("1e3", "2.5e10")


MERGES = """\
team:
  <<: &e []
ecosystem:
  <<: &s [{}, {}]
deployment:
  targets: *e
project:
  name: &d nlp
domains:
  - vision
  - nlp
  - *d
training:
  <<: *s
"""


@pytest.mark.parametrize(
    "head", [MERGES, "workload: {<<: &t [{}, {}]}\nmodel: {<<: *t}\n" + MERGES]
)
def test_an_alias_item_keeps_its_line_whatever_merges_come_before(
    tmp_path: Path, head: str
) -> None:
    """Aliases were paired with their lines by order; a merge of a list of mappings, or an
    anchor inside a merge, put them out of step (another field's line, or the anchor's)."""
    path = tmp_path / "p.yaml"
    path.write_text(head)
    line = head.splitlines().index("  - *d") + 1
    message = refusal(lambda: load_profile(path))
    assert f"p.yaml:{line}:" in message and "'nlp' is listed twice" in message, message


MOBILE = "- {field: deployment.targets, contains: mobile}\n"


def test_a_repeated_literal_is_named_at_the_repeat(tmp_path: Path) -> None:
    """`2e0` repeats `2` on line 12; the error named line 9, the `in:` line."""
    last = "- field: team.size\n  in:\n    - 2\n    - 3\n    - 2e0"
    message = refusal(lambda: load_ruleset([user_rule_pack(tmp_path, MOBILE + last)]))
    assert "r.yaml:12:" in message and "listed twice" in message, message


def test_the_same_condition_twice_in_all_is_refused(tmp_path: Path) -> None:
    """SECURITY.md: all/any lists hold no item twice; a repeated condition was accepted."""
    message = refusal(lambda: load_ruleset([user_rule_pack(tmp_path, MOBILE + MOBILE)]))
    assert "r.yaml:8:" in message and "the same condition twice" in message, message
    assert "when.all[2]" in message


def test_a_repeated_default_item_is_named_at_the_repeat(tmp_path: Path) -> None:
    text = QUESTIONS_FILE.read_text(encoding="utf-8")
    marker = "    field: hardware.training\n"
    assert marker in text
    default = "    default:\n      - cpu\n      - tpu\n      - cpu\n"
    path = tmp_path / "questions.yaml"
    path.write_text(text.replace(marker, marker + default, 1), encoding="utf-8")
    lines = path.read_text(encoding="utf-8").splitlines()
    repeat = next(n for n, line in enumerate(lines, 1) if line == "      - cpu") + 2
    message = refusal(lambda: load_questions(path))
    assert f"questions.yaml:{repeat}:" in message and "listed twice" in message, message


@pytest.mark.parametrize("name", ["p.geojson", "p.jsonld", "p.webmanifest", "p.GeoJSON."])
def test_names_the_mime_table_gives_a_json_type_promise_json(name: str) -> None:
    assert named_json(name)


@pytest.mark.parametrize("name", ["p.yaml", "p.md", "p.json.yaml", "json"])
def test_other_names_do_not(name: str) -> None:
    assert not named_json(name)
