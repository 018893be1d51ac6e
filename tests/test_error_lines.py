"""Error lines: line numbers as an editor shows them, merge keys that are not duplicates,
and usage errors that stay short whatever value they quote."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hostile_support import run

from advisor.io.safe_yaml import load_yaml_text
from advisor.model.errors import InputError


@pytest.mark.parametrize("odd", ["\u2028", "\u2029"])
def test_yaml_only_line_breaks_do_not_shift_field_lines(odd: str) -> None:
    doc = load_yaml_text(f'project:\n  name: "a{odd}b"\npurpose: research\nteam:\n  size: 3\n')
    assert doc.lines[("team", "size")] == 5
    assert doc.lines[("purpose",)] == 3


@pytest.mark.parametrize(
    "text", ["a: 1\r\nb: 2\r\nc: 3\r\n", "a: 1\rb: 2\rc: 3", "a: 1\nb: 2\nc: 3"]
)
def test_crlf_and_lone_cr_end_lines(text: str) -> None:
    assert load_yaml_text(text).lines[("c",)] == 3


def test_a_lone_carriage_return_among_newlines_is_refused() -> None:
    """`cat` would show `b: 2` over `hidden: 1`; diffs show one line."""
    with pytest.raises(InputError, match="carriage return") as err:
        load_yaml_text("a: 1\nhidden: 1\rb: 2\n")
    assert ":2:" in str(err.value)


def test_a_hidden_break_after_a_backslash_is_refused() -> None:
    """In double quotes `\\<U+2028>` is an escaped line break: YAML drops both."""
    with pytest.raises(InputError, match="after a backslash"):
        load_yaml_text('a: "x\\\u2028b"\n')


def test_a_parser_error_after_a_hidden_break_names_both_lines() -> None:
    with pytest.raises(InputError) as err:
        load_yaml_text("# c\u2028omment\npurpose: research\n")
    message = str(err.value)
    assert ":2:" in message and "line 1 holds U+2028 LINE SEPARATOR" in message


@pytest.mark.parametrize(
    ("text", "line", "what"),
    [
        # a NEL in a comment starts a line YAML reads as a key: a hidden prototyping_speed
        ("priorities:\n  production_maturity: 1  # ok\x85  prototyping_speed: 1\n", 2, "NEL"),
        ("a: 1\n\u2028b: 2\n", 2, "U+2028 LINE SEPARATOR outside quoted text"),
        ("a: plain\u2029text\n", 2, "line 1 holds U+2029"),  # a parser error, with a note
        ('a: "x\x85y"\n', 1, "NEL (U+0085) in the file"),  # folded to a space even in quotes
    ],
)
def test_a_hidden_line_break_outside_quotes_is_refused(text: str, line: int, what: str) -> None:
    with pytest.raises(InputError, match=re.escape(what)) as err:
        load_yaml_text(text)
    assert f":{line}:" in str(err.value)


def test_a_bom_does_not_shift_lines() -> None:
    doc = load_yaml_text("\ufeffproject:\n  name: demo\npurpose: research\ncolour: blue\n")
    assert doc.lines[("colour",)] == 4


def test_the_cli_names_the_line_the_editor_shows(tmp_path: Path) -> None:
    profile = tmp_path / "p.yaml"
    profile.write_text('project:\n  name: "a\u2028b"\npurpose: research\nteam:\n  size: lots\n')
    result = run("recommend", str(profile), "--probes", "none", cwd=tmp_path)
    assert result.code == 2 and "p.yaml:5: team.size" in result.err, result.err


def test_a_key_written_over_a_merge_is_not_a_duplicate() -> None:
    doc = load_yaml_text("base: &b {x: 1, y: 2}\nuse:\n  <<: *b\n  x: 3\n")
    assert doc.data["use"] == {"x": 3, "y": 2}
    assert doc.lines[("use", "x")] == 4 and doc.lines[("use", "y")] == 1


def test_merges_from_a_list_and_real_duplicates() -> None:
    doc = load_yaml_text("a: &a {x: 1}\nb: &b {y: 2}\nc:\n  <<: [*a, *b]\n  y: 5\n")
    assert doc.data["c"] == {"x": 1, "y": 5}
    quoted = load_yaml_text("b: &b {x: 1}\nu:\n  <<: *b\n  '<<': 3\n")  # text, not a merge
    assert quoted.data["u"] == {"x": 1, "<<": 3}
    for text, message in [
        ("u:\n  x: 1\n  x: 2\n", "duplicate key 'x'"),
        ("b: &b {x: 1}\nu:\n  <<: *b\n  <<: *b\n", "duplicate key '<<'"),
        ("p:\n  <<: {name: A, name: B}\n", "duplicate key 'name'"),  # inside the merge value
        ("t:\n  <<:\n    - size: 3\n    - size: 40\n", "comes from two merged mappings"),
        ("b: &b {<<: {x: 1}, x: 2}\nu:\n  <<: *b\n", "may not use '<<' itself"),
    ]:
        with pytest.raises(InputError, match=message):
            load_yaml_text(text)


def test_different_complex_keys_are_not_duplicates() -> None:
    with pytest.raises(InputError) as err:
        load_yaml_text("? [a]\n: 1\n? [b]\n: 2\n")
    assert "duplicate" not in str(err.value) and "SequenceNode" not in str(err.value)


@pytest.mark.parametrize("option", ["--seed", "--format", "--probes"])
def test_a_huge_option_value_gives_a_short_usage_error(tmp_path: Path, option: str) -> None:
    """Click quotes the whole value; the line is cut to 600 characters, the value to 80."""
    args = ("recommend", "--example", "r2-low-power-devices", option, "9" * 5000)
    result = run(*args, "--probes" if option != "--probes" else "--seed", "1", cwd=tmp_path)
    line = result.err.rstrip("\n")
    assert result.code == 2 and "\n" not in line and len(line) <= 600, line
    assert "9" * 81 not in line and "--help)" in line, line


def test_a_folder_swapped_for_a_link_after_the_check_is_caught_at_the_write(
    tmp_path: Path,
) -> None:
    """`-o out/r.yaml` was checked before the probes ran; out/ then became a link into a
    rule pack. The write checks again and refuses, so the pack gains no rule file."""
    from advisor.cli.output import check_destination, emit

    pack, out = tmp_path / "pack", tmp_path / "out"
    (pack / "data").mkdir(parents=True)
    out.mkdir()
    destination = check_destination(str(out / "r.yaml"), packs=[str(pack)])
    out.rmdir()
    out.symlink_to(pack)
    with pytest.raises(InputError, match="would become part of the rule pack"):
        emit("rules: []\n", destination)
    assert not (pack / "r.yaml").exists()


@pytest.mark.parametrize(
    "args",
    [
        ("recommend", "--seed", "9'" * 300),  # click quotes it with "…" when it holds a '
        ("recommend", "--format", ("A" * 50 + "'" + "B" * 50 + '"') * 10),  # both: \' inside
        ("recommend", "--example", "r2-low-power-devices", *["b"] * 200),  # extra arguments
        ("recommend", "--example", "x" * 400),
        ("recommend", "p.yaml", "a)", "x" * 300),  # extra arguments with a ) inside
        (
            "recommend",
            "--example",
            "r2-low-power-devices",
            "--probes",
            "none",
            "--as-of",
            "2" * 300,
        ),
        ("rules", "show", "Q" * 400),
    ],
)
def test_every_echoed_value_is_cut_to_80(tmp_path: Path, args: tuple[str, ...]) -> None:
    result = run(*args, cwd=tmp_path)
    line = result.err.rstrip("\n")
    assert result.code == 2 and "\n" not in line and len(line) <= 600, line
    assert not any(len(word) > 90 for word in line.replace("'", " ").split()), line
    assert len(line) <= 300, line  # the value cut to 80, not the line to 600


def test_an_error_line_with_long_paths_stays_within_600(tmp_path: Path) -> None:
    deep = tmp_path.joinpath(*["d" * 200] * 5)
    deep.mkdir(parents=True)
    profile = deep / "p.yaml"
    profile.write_text("purpose: research\n")
    result = run(
        "recommend", str(profile), "--probes", "none", "-o", str(profile), "--force", cwd=tmp_path
    )
    line = result.err.rstrip("\n")
    assert result.code == 2 and len(line) <= 600 and "\n" not in line, line


def test_hidden_breaks_between_an_anchor_and_its_quoted_value_are_refused() -> None:
    """The span of a quoted text starts at its quote, not at the anchor before it: a
    comment there could otherwise hide the value behind a break no editor shows."""
    for text in (
        'project:\n  name: &n # (name withheld)\u2028   "Hidden name"\n',
        '- &x # nothing\u2028  "evil"\n',
        'a: [1, &x # 2\u2028"3"]\n',
    ):
        with pytest.raises(InputError, match="outside quoted text"):
            load_yaml_text(text)
    assert load_yaml_text('a: &q "x\u2028y"\n').data == {"a": "x\u2028y"}


@pytest.mark.parametrize(
    "text",
    ["1: a\n+1: b\n", "1: a\n1.0: b\n", "yes: a\non: b\n", "~: a\nnull: b\n"],
)
def test_two_spellings_of_one_key_are_refused(text: str) -> None:
    """Round 23: a key YAML reads as a number, boolean or null is refused at its own line
    (no input has one), so two spellings of one such key cannot both stand either."""
    with pytest.raises(InputError, match="Keys should be strings") as info:
        load_yaml_text(text)
    assert info.value.line == 1
    assert load_yaml_text('"1": a\n"+1": b\n').data == {"1": "a", "+1": "b"}  # texts stay texts
