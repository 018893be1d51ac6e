"""The hostile corpus: every case is refused with exit 2 and one short, inert line that names
the file (and the field), within 5 s and 500 MB, writing, overwriting and running nothing.

Files live in tests/bad_inputs/hostile/; inputs too large for a repository are generated
here (GENERATED). A corpus file without an expectation fails the suite.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from hostile_support import CORPUS, assert_refused, run, snapshot

ALIAS = "recursive YAML alias"
BOOL = "got the boolean"
LONG_NUMBER = "number is too long"

PROFILES: dict[str, list[str]] = {
    "recursive_alias_list.yaml": [":1:", ALIAS],
    "recursive_alias_mapping.yaml": [":3:", ALIAS],
    "recursive_alias_nested.yaml": [":2:", ALIAS],
    "alias_bomb_mappings.yaml": ["too many nodes"],
    "long_plain_integer.yaml": [":2:", LONG_NUMBER],
    "long_plain_float.yaml": [":2:", LONG_NUMBER],
    "long_count_string.yaml": [":2:", "model.parameters", "expected a number", "…"],
    "repeated_domains_10000.yaml": [":1:", "domains", "too many items (10000, limit 64)"],
    "repeated_domain_twice.yaml": [":1:", "domains", "'nlp' is listed twice"],
    "repeated_existing_code.yaml": [":1:", "existing_code", "listed twice"],
    "yaml11_yes_priority.yaml": [":2:", "priorities.production_maturity", BOOL],
    "yaml11_on_team_size.yaml": [":2:", "team.size", BOOL],
    "yaml11_true_batch_size.yaml": [":2:", "workload.batch_size", BOOL],
    "yaml11_off_accelerators.yaml": [":2:", "training.accelerators", BOOL],
    "yaml11_y_parameters.yaml": [":2:", "model.parameters", "expected a number"],
    "yaml11_base60_accelerators.yaml": [":2:", "training.accelerators", "'1:0'"],
    "yaml11_hex_team_size.yaml": [":2:", "team.size", "'0x10'"],
    "yaml11_binary_team_size.yaml": [":2:", "team.size", "'0b101'"],
    "nan_parameters.yaml": [":2:", "model.parameters", "finite"],
    "inf_parameters.yaml": [":2:", "model.parameters", "finite"],
    "escape_in_key.yaml": [":1:", "unknown key", "\\x1b]0;pwned\\x07"],
    "escape_in_enum_value.yaml": [":1:", "purpose", "\\x1b[2J"],
    "bidi_in_key.yaml": [":3:", "team.experience.pytorch\\u202e", "unknown key"],
    "raw_escape_byte.yaml": [":1:", "control characters are not allowed", "U+001B"],
    "c1_csi_in_list.yaml": [":2:", "hardware.training[2]", "\\x9b2J"],
    "flood_text.yaml": [":2:", "project.name", "text is too long", "…"],
    "number_as_key.yaml": [":4:", "Keys should be strings"],
}

RULES: dict[str, list[str]] = {
    "recursive_alias.yaml": [":2:", ALIAS],
    "recursive_alias_in_when.yaml": [":6:", ALIAS],
    "yaml11_yes_effect.yaml": [":9:", "rule ECO931: effects.pytorch", BOOL],
    "yaml11_on_year.yaml": [":14:", "evidence[1].year", BOOL],
    "yaml11_bool_literal.yaml": [":7:", "rule ECO933: when", "got a boolean"],
    "nan_literal.yaml": [":7:", "rule ECO934: when", "finite"],
    "out_of_range_literal.yaml": [":7:", "rule ECO944: when", "outside the range", "1e+14"],
    "long_count_literal.yaml": [":7:", "rule ECO935: when", "expected a number"],
    "long_plain_literal.yaml": [":7:", LONG_NUMBER],
    "too_many_literals.yaml": [":7:", "contains_any", "too many items (100, limit 64)"],
    "repeated_literal.yaml": [":7:", "'research' is listed twice"],
    "too_many_conditions.yaml": [":6:", "when.any", "too many items"],
    "escape_in_id.yaml": [":2:", "\\x1b]0;pwned\\x07ECO940", "id"],
    "escape_in_field.yaml": [":6:", "unknown field", "\\x1b[2J"],
    "flood_title.yaml": [":3:", "rule ECO942: title", "text is too long", "…"],
    "markdown_in_bad_url.yaml": [":15:", "evidence[1].url", "https?"],
}

QUESTIONS: dict[str, list[str]] = {
    "recursive_alias.yaml": [":2:", ALIAS],
    "yaml11_bool_default.yaml": [":4:", "questions[1] (team.size).default", BOOL],
    "nan_default.yaml": [":4:", "(model.parameters).default", "finite"],
    "long_count_default.yaml": [":4:", "(model.parameters).default", "expected a number"],
    "escape_in_field.yaml": [":2:", "questions[1].field", "\\x1b]0;pwned\\x07"],
    "escape_in_default.yaml": [":4:", "(purpose).default", "invalid default"],
    "repeated_default.yaml": [":4:", "(domains).default", "listed twice"],
    "flood_prompt.yaml": [":3:", "(purpose).prompt", "text is too long"],
    "flood_choice.yaml": [":4:", "(purpose).choices", "is too long"],
    "list_as_field.yaml": [":2:", "questions[1].field", "is not a profile field"],
    "list_as_choice.yaml": [":4:", "(purpose).choices", "as text"],
}

SANDBOX = "template blocked by the sandbox"
TEMPLATES: dict[str, list[str]] = {
    "concat_doubling.md.j2": [":1:", SANDBOX, "1000000"],
    "plus_doubling.md.j2": [":1:", SANDBOX, "'+'"],
    "int_squaring.md.j2": [":1:", SANDBOX, "4096 bits"],
    "chained_power.md.j2": [":1:", SANDBOX],
    "power_of_power.md.j2": [":1:", SANDBOX, "4096 bits"],
    "percent_width.md.j2": [":1:", SANDBOX, "format width"],
    "format_filter_width.md.j2": [":1:", SANDBOX, "format width"],
    "str_format_width.md.j2": [":1:", SANDBOX, "format width"],
    "center_width.md.j2": [":1:", SANDBOX, "center width"],
    "ljust_width.md.j2": [":1:", SANDBOX, "ljust width"],
    "indent_width.md.j2": [SANDBOX, "indent width"],
    "lipsum_huge.md.j2": [":1:", SANDBOX, "lipsum"],
    "replace_blowup.md.j2": [":1:", SANDBOX, "'replace'"],
    "nested_loops.md.j2": ["CPU time"],
    "output_flood.md.j2": ["output is larger than 5000000 characters"],
    "recursive_macro.md.j2": [":1:", SANDBOX, "'~' would build more than"],
    "mutate_display_names.md.j2": [":1:", "no attribute 'update'"],
    "mutate_data_list.md.j2": [":1:", SANDBOX, "'append'"],
    "mutate_data_dict.md.j2": [":1:", SANDBOX, "'update'"],
    "os_via_globals.md.j2": [":1:", SANDBOX],
    "escape_in_error.md.j2": [":2:", "syntax error", "\\x1b"],
    "nested_format_width.md.j2": [":1:", SANDBOX, "taken from an argument"],
    "memory_hog.md.j2": ["template needs too much memory"],
    "star_width_filter.md.j2": [":1:", SANDBOX, "taken from an argument"],
    "star_precision_percent.md.j2": [":1:", SANDBOX, "taken from an argument"],
    "nested_brace_width.md.j2": [":1:", SANDBOX, "taken from an argument"],
    "sum_of_lists.md.j2": [":1:", SANDBOX, "'sum' adds numbers only"],
    "tilde_concat.md.j2": [":1:", SANDBOX, "'~' would build more than 1000000"],
    "deep_parentheses.md.j2": ["deep_parentheses.md.j2", "nests too deeply"],
}


def _flood_value() -> str:
    return "purpose: " + "x" * 1_000_000 + "\n"


def _flood_key() -> str:
    return "team:\n  experience:\n    " + "k" * 200_000 + ": expert\n"


def _list_190k() -> str:
    return "domains:\n" + "- nlp\n" * 190_000


def _list_10k() -> str:
    return "domains:\n" + "- nlp\n" * 10_000


def _alias_chain() -> str:
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    for i in range(1, 12):
        lines.append(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]")
    return "\n".join(lines) + "\n"


def _string_bomb(key: str = "purpose", token: str = "") -> str:
    """A 1 MB string aliased 20 times in a list aliased 20 times: 400 MB of text."""
    inner = '&L [&x "' + token + "A" * 2**20 + '"' + ", *x" * 19 + "]"
    return f"{key}: [" + inner + ", *L" * 19 + "]\n"


def _long_digits_stray() -> str:
    return 'model:\n  parameters: "' + "1" * 60_000 + '!"\n'


def _padded_separator() -> str:  # round 15: the separator check was quadratic in padding
    return 'team: {size: "1,000' + " " * 1_000_000 + '!"}\n'


GENERATED: dict[str, tuple[Callable[[], str], list[str]]] = {
    "padded_separator_1mb.yaml": (_padded_separator, [":1:", "team.size", "separate thousands"]),
    "flood_enum_value.yaml": (_flood_value, [":1:", "purpose", "text is too long", "…"]),
    "flood_key.yaml": (_flood_key, ["flood_key.yaml"]),
    "list_190000_domains.yaml": (_list_190k, [":10002:", "more than 10000 entries"]),
    "list_10000_domains.yaml": (_list_10k, ["domains", "too many items (10000, limit 64)"]),
    "alias_chain_10e12.yaml": (_alias_chain, ["too many nodes"]),
    "digits_60k_stray.yaml": (_long_digits_stray, [":2:", "model.parameters", "…"]),
    "alias_string_bomb.yaml": (_string_bomb, [":1:", "too much text"]),
}


@pytest.mark.parametrize(
    ("where", "text"),
    [
        ("bomb.yaml", _string_bomb("junk", "{release:tensorflow} ") + "rules: []\n"),
        ("data/consistency.yaml", _string_bomb("checks")),
    ],
)
def test_an_aliased_string_bomb_in_a_rule_pack_is_refused(
    tmp_path: Path, where: str, text: str
) -> None:
    """Aliases to one long string cost the whole string each time (the guard counts text)."""
    file = tmp_path / "pack" / where
    file.parent.mkdir(parents=True, exist_ok=True)
    file.write_text(text, encoding="utf-8")
    name = Path(where).name
    args = ["recommend", "--example", "r2-low-power-devices", "--probes", "none", "--rules", "pack"]
    _check_untouched(tmp_path, args, name, [":1:", "too much text"])
    assert_refused(run("rules", "check", "pack", cwd=tmp_path), name, ":1:", "too much text")


def test_every_hostile_file_has_an_expectation() -> None:
    for folder, table in (
        ("profiles", PROFILES),
        ("rules", RULES),
        ("questions", QUESTIONS),
        ("templates", TEMPLATES),
    ):
        assert {p.name for p in (CORPUS / folder).iterdir()} == set(table), folder


def _check_untouched(tmp_path: Path, args: list[str], name: str, fragments: list[str]) -> None:
    """Run with --force over an existing file: refused, and nothing in the folder moves."""
    existing = tmp_path / "existing.md"
    existing.write_text("keep me")
    before = snapshot(tmp_path)
    result = run(*args, "-o", str(existing), "--force", cwd=tmp_path)
    assert_refused(result, name, *fragments)
    assert snapshot(tmp_path) == before  # nothing written, overwritten, or left behind
    assert not (tmp_path / "pwned").exists()  # nothing executed


@pytest.mark.parametrize("name", sorted(PROFILES))
def test_hostile_profile(tmp_path: Path, name: str) -> None:
    shutil.copy(CORPUS / "profiles" / name, tmp_path / name)
    _check_untouched(tmp_path, ["recommend", name, "--probes", "none"], name, PROFILES[name])


@pytest.mark.parametrize("name", sorted(GENERATED))
def test_generated_hostile_profile(tmp_path: Path, name: str) -> None:
    make, fragments = GENERATED[name]
    (tmp_path / name).write_text(make(), encoding="utf-8")
    _check_untouched(tmp_path, ["recommend", name, "--probes", "none"], name, fragments)


@pytest.mark.parametrize("name", sorted(PROFILES)[:6])
def test_hostile_profile_as_ask_from(tmp_path: Path, name: str) -> None:
    shutil.copy(CORPUS / "profiles" / name, tmp_path / name)
    _check_untouched(tmp_path, ["ask", "--defaults", "--from", name], name, PROFILES[name])


@pytest.mark.parametrize("name", sorted(RULES))
def test_hostile_rule_pack(tmp_path: Path, name: str) -> None:
    pack = tmp_path / "pack"
    pack.mkdir()
    shutil.copy(CORPUS / "rules" / name, pack / name)
    args = ["recommend", "--example", "r2-low-power-devices", "--probes", "none", "--rules", "pack"]
    _check_untouched(tmp_path, args, name, RULES[name])
    before = snapshot(tmp_path)
    assert_refused(run("rules", "check", f"pack/{name}", cwd=tmp_path), name, *RULES[name])
    assert snapshot(tmp_path) == before


@pytest.mark.parametrize("name", sorted(QUESTIONS))
def test_hostile_question_file(tmp_path: Path, name: str) -> None:
    shutil.copy(CORPUS / "questions" / name, tmp_path / name)
    _check_untouched(tmp_path, ["ask", "--defaults", "--questions", name], name, QUESTIONS[name])


@pytest.mark.parametrize("name", sorted(TEMPLATES))
def test_hostile_template(tmp_path: Path, name: str) -> None:
    shutil.copy(CORPUS / "templates" / name, tmp_path / name)
    args = ["recommend", "--example", "r2-low-power-devices", "--probes", "none"]
    _check_untouched(tmp_path, [*args, "--template", name], name, TEMPLATES[name])
