"""The bad-input corpus: every case gives exit 2, one clear line, and touches nothing.

Each file in tests/bad_inputs/ is listed here with the fragments its message must hold
(the file name is always required). A new file without an entry fails the suite.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

CORPUS = Path(__file__).resolve().parent / "bad_inputs"

PROFILES: dict[str, list[str]] = {
    "malformed.yaml": [":3:", "invalid YAML"],
    "tabs.yaml": [":2:", "tab"],
    "list_top_level.yaml": [":1:", "mapping"],
    "scalar_top_level.yaml": [":1:", "mapping"],
    "empty.yaml": ["empty"],
    "only_comments.yaml": ["empty"],
    "two_documents.yaml": ["single document"],
    "python_tag.yaml": [":1:", "not allowed", "python/object"],
    "python_name_tag.yaml": [":1:", "not allowed"],
    "custom_tag.yaml": [":1:", "not allowed"],
    # explicit tags reach PyYAML's constructors (tracebacks, quadratic base-60, octal/hex)
    "tag_int_hex.yaml": [":1:", "'!!int' is not allowed"],
    "tag_timestamp.yaml": [":1:", "'!!timestamp' is not allowed"],
    "tag_bool.yaml": [":1:", "'!!bool' is not allowed"],
    "tag_base60.yaml": [":1:", "'!!int' is not allowed"],
    "decimal_comma.yaml": [":2:", "model.parameters", "only separate thousands"],
    "wrong_type_list.yaml": [":1:", "domains", "list"],
    "wrong_type_int.yaml": [":2:", "team.size", "integer"],
    "wrong_type_section.yaml": [":1:", "team"],
    "out_of_range_priority.yaml": [":2:", "priorities.raw_performance", "5"],
    "negative_nodes.yaml": [":2:", "training.nodes"],
    "huge_parameters.yaml": [":2:", "model.parameters"],
    "unknown_key.yaml": [":2:", "deploymnet", "unknown key", "did you mean 'deployment'"],
    "unknown_nested_key.yaml": [
        ":3:",
        "team.experience.pytorh",
        "did you mean 'team.experience.pytorch'",
    ],
    "enum_typo.yaml": [":2:", "hardware.training[2]", "'tpuu'", "did you mean 'tpu'"],
    # what an option means, as the field's description explains it: pointed to the options
    "enum_by_meaning.yaml": [":2:", "existing_code[1]", "did you mean 'tf1' or 'tf2_keras'?"],
    "facts_in_profile.yaml": [":1:", "facts", "measured by the probes"],
    "bool_typo.yaml": [":2:", "team.new_to_deep_learning", "bool"],
    "duplicate_key.yaml": [":2:", "duplicate key 'purpose'"],
    "binary.yaml": ["UTF-8"],
    "invalid_utf8.yaml": [":2:", "UTF-8"],
    "utf16.yaml": ["UTF-8"],
    "deep_nesting.yaml": [":1:", "nesting"],
    "deep_mapping.yaml": ["nesting"],
    "billion_laughs.yaml": ["too many nodes"],
}


def test_every_corpus_file_has_an_expectation() -> None:
    files = {p.name for p in (CORPUS / "profiles").iterdir()}
    assert files == set(PROFILES)


def assert_clean_failure(code: int, out: str, err: str, name: str, fragments: list[str]) -> None:
    assert code == 2, (name, code, err)
    assert out == "", out
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    line = lines[0]
    assert "Traceback" not in err and line.startswith("advisor: error: ")
    assert name in line, line
    for fragment in fragments:
        assert fragment in line, (fragment, line)


@pytest.mark.parametrize("name", sorted(PROFILES))
def test_bad_profile(cli, tmp_path: Path, name: str) -> None:
    source = CORPUS / "profiles" / name
    profile = tmp_path / name
    shutil.copy(source, profile)
    existing = tmp_path / "existing.md"
    existing.write_text("keep me")
    fresh = tmp_path / "fresh.md"
    for target, extra in ((existing, ["--force"]), (fresh, [])):
        code, out, err = cli(
            "recommend", str(profile), "--probes", "none", "-o", str(target), *extra
        )
        assert_clean_failure(code, out, err, name, PROFILES[name])
    assert existing.read_text() == "keep me"
    assert not fresh.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([name, "existing.md"])
    assert not Path("/tmp/advisor-pwned").exists()


def test_directory_and_missing_path_as_profile(cli, tmp_path: Path) -> None:
    code, out, err = cli("recommend", str(tmp_path), "--probes", "none")
    assert_clean_failure(code, out, err, str(tmp_path), ["directory"])
    missing = tmp_path / "missing.yaml"
    code, out, err = cli("recommend", str(missing), "--probes", "none")
    assert_clean_failure(code, out, err, "missing.yaml", ["no such file"])


def test_output_into_missing_directory(cli, tmp_path: Path) -> None:
    profile = tmp_path / "p.yaml"
    profile.write_text("purpose: research\n")
    code, out, err = cli(
        "recommend", str(profile), "--probes", "none", "-o", str(tmp_path / "no" / "r.md")
    )
    assert_clean_failure(code, out, err, "r.md", ["directory does not exist"])
    code, out, err = cli("recommend", str(profile), "--probes", "none", "-o", str(tmp_path))
    assert_clean_failure(code, out, err, str(tmp_path), ["directory"])


RULE_PACKS: dict[str, list[str]] = {
    "bad_enum_literal.yaml": [":7:", "rule ECO902: when", "'mobil'", "did you mean 'mobile'"],
    "bad_id.yaml": [":2:", "rules[1]: id", "pattern", "eco-1"],  # a malformed id: by position
    "duplicate_id.yaml": [":", "rule ECO950: id", "duplicate rule id"],
    "effect_out_of_range.yaml": [":9:", "rule ECO911: effects.jax", "5"],
    "effect_unknown_framework.yaml": [
        ":9:",
        "effects.mxnet",
        "unknown key",
    ],
    "veto_unknown_framework.yaml": ["veto.caffe", "unknown key"],
    "empty_evidence.yaml": ["rule ECO905: evidence", "at least 1"],
    "missing_evidence.yaml": [":2:", "rule ECO904: evidence", "missing"],
    "evidence_without_claim.yaml": ["rule ECO906: evidence[1].claim", "missing"],
    "only_superseded.yaml": ["rule ECO907", "current claim"],
    "superseded_without_note.yaml": ["rule ECO908: evidence[2]", "superseded_by"],
    "example_does_not_fire.yaml": ["rule ECO913: examples.fire[1]", "did not fire"],
    "ok_example_fires.yaml": ["rule ECO914: examples.ok[1]", "should not fire"],
    "example_invalid_profile.yaml": [
        "examples.ok[1]: ecosystem.hugging",
        "did you mean 'ecosystem.huggingface'",
    ],
    "no_effect.yaml": [":2:", "rule ECO912", "non-zero effect or a veto"],
    "unknown_criterion.yaml": [":4:", "rule ECO916: criterion", "'popularity'"],
    "unknown_field.yaml": [":6:", "rule ECO900: when", "did you mean 'ecosystem.huggingface'"],
    "unknown_operator.yaml": [":7:", "rule ECO901: when", "unknown operator 'is'"],
    "unknown_rule_key.yaml": ["rule ECO919: evidense", "unknown key"],
    "when_is_code.yaml": [":5:", "rule ECO903: when", "must be a mapping"],
    "wrong_prefix.yaml": [":2:", "rule PERF901: id", "prefix ECO"],
    "malformed.yaml": [":4:", "invalid YAML"],
    "not_a_mapping.yaml": [":1:", "single key 'rules'"],
    "no_rules_key.yaml": [":1:", "single key 'rules'"],
    "rules_not_list.yaml": [":1:", "must be a list"],
    "rule_not_mapping.yaml": [":2:", "must be a mapping"],
    "python_tag.yaml": [":1:", "not allowed"],
    "tag_in_condition.yaml": [":7:", "'!!int' is not allowed"],
}


def test_every_rule_corpus_file_has_an_expectation() -> None:
    assert {p.name for p in (CORPUS / "rules").iterdir()} == set(RULE_PACKS)


@pytest.mark.parametrize("name", sorted(RULE_PACKS))
def test_bad_rule_pack(cli, tmp_path: Path, name: str) -> None:
    pack = tmp_path / "pack"
    pack.mkdir()
    shutil.copy(CORPUS / "rules" / name, pack / name)
    code, out, err = cli("rules", "check", str(pack))
    assert_clean_failure(code, out, err, name, RULE_PACKS[name])
    profile = tmp_path / "p.yaml"
    profile.write_text("purpose: research\n")
    report = tmp_path / "r.md"
    code, out, err = cli(
        "recommend", str(profile), "--probes", "none", "--rules", str(pack), "-o", str(report)
    )
    assert_clean_failure(code, out, err, name, RULE_PACKS[name])
    assert not report.exists()
    assert not Path("/tmp/advisor-pwned").exists()


CHECK_FILES: dict[str, list[str]] = {
    "bad_id.yaml": [":2:", "checks[1]: id", "pattern", "CHECK1"],
    "checks_not_list.yaml": [":1:", "'checks' must be a list"],
    "duplicate_core_id.yaml": [":2:", "check CON001: id", "already defined in"],
    "empty.yaml": [":1:", "the file is empty"],
    "escape_and_unknown_key.yaml": [":6:", "check CON901: mesage", "did you mean 'message'"],
    "example_does_not_trip.yaml": [":8:", "examples.trip[1]", "does not trip"],
    "facts_in_when.yaml": [":4:", "check CON901: when", "not measured facts"],
    "holds_full_date.yaml": [":7:", "holds.until", "quoted 'YYYY-MM'"],
    "holds_starts_after_knowledge.yaml": [":7:", "holds.since", "after the knowledge's date"],
    "malformed.yaml": [":4:", "invalid YAML"],
    "no_basis_or_evidence.yaml": [":2:", "evidence or a basis"],
    "not_a_mapping.yaml": [":1:", "single key 'checks'"],
    "ok_example_trips.yaml": [":9:", "examples.ok[1]", "trips the check"],
    "python_tag.yaml": [":1:", "not allowed"],
    "ratio_nan.yaml": [":4:", "ratio.gt", "finite number"],
    "unknown_field.yaml": [":4:", "check CON901: when", "did you mean 'deployment.targets'"],
}


def test_every_check_corpus_file_has_an_expectation() -> None:
    assert {p.name for p in (CORPUS / "checks").iterdir()} == set(CHECK_FILES)


@pytest.mark.parametrize("name", sorted(CHECK_FILES))
def test_bad_consistency_file_in_a_user_pack(cli, tmp_path: Path, name: str) -> None:
    """A user pack's data/consistency.yaml: one line naming file, line and field, exit 2,
    nothing written, nothing run."""
    pack = tmp_path / "pack"
    (pack / "data").mkdir(parents=True)
    (pack / "mine.yaml").write_text("rules: []\n")
    shutil.copy(CORPUS / "checks" / name, pack / "data" / "consistency.yaml")
    expected = ["consistency.yaml", *CHECK_FILES[name]]
    code, out, err = cli("rules", "check", str(pack))
    assert_clean_failure(code, out, err, "consistency.yaml", expected)
    profile = tmp_path / "p.yaml"
    profile.write_text("purpose: research\n")
    report = tmp_path / "r.md"
    code, out, err = cli(
        "recommend", str(profile), "--probes", "none", "--rules", str(pack), "-o", str(report)
    )
    assert_clean_failure(code, out, err, "consistency.yaml", expected)
    assert not report.exists()
    assert not Path("/tmp/advisor-pwned").exists()


def test_user_rule_cannot_reuse_a_bundled_id(cli, tmp_path: Path) -> None:
    code, out, _ = cli("rules", "list")
    core_id = out.split()[0]
    criterion = out.split()[1]
    source = (CORPUS / "rules" / "unknown_field.yaml").read_text()
    text = (
        source.replace("ECO900", core_id)
        .replace("criterion: ecosystem", f"criterion: {criterion}")
        .replace("ecosystem.hugingface", "ecosystem.huggingface")
    )
    pack = tmp_path / "pack"
    pack.mkdir()
    (pack / "mine.yaml").write_text(text)
    code, out, err = cli("rules", "check", str(pack))
    assert_clean_failure(code, out, err, "mine.yaml", [f"rule {core_id}: id", "duplicate rule id"])


def test_rule_pack_path_missing(cli, tmp_path: Path) -> None:
    code, out, err = cli("rules", "check", str(tmp_path / "nope"))
    assert_clean_failure(code, out, err, "nope", ["no such rule pack"])


QUESTION_FILES: dict[str, list[str]] = {
    "bad_default.yaml": [":14:", "questions[2] (purpose).default", "invalid default"],
    "bad_when.yaml": ["(domains).when", "'reserch'", "did you mean 'research'"],
    "binary.yaml": ["UTF-8"],
    "duplicate_field.yaml": ["(purpose).field", "already asked"],
    "empty.yaml": ["empty"],
    "field_not_covered.yaml": ["project.name", "neither asked nor listed"],
    "when_reads_a_later_answer.yaml": [".when", "no earlier question asks"],
    "malformed.yaml": [":4:", "invalid YAML"],
    "missing_prompt.yaml": [":8:", "(purpose).prompt", "needs a 'prompt'"],
    "not_a_mapping.yaml": [":1:", "must be a mapping"],
    "python_tag.yaml": [":1:", "not allowed"],
    "tag_in_prompt.yaml": [":3:", "'!!bool' is not allowed"],
    "questions_empty.yaml": ["questions", "non-empty list"],
    "tabs.yaml": [":2:", "tab"],
    "unknown_field.yaml": [":8:", "questions[2].field", "did you mean 'purpose'"],
    "unknown_question_key.yaml": ["questions[2].promt", "did you mean 'prompt'"],
    "unknown_top_key.yaml": ["questionz", "did you mean 'questions'"],
    "when_is_code.yaml": ["(domains).when", "must be a mapping"],
}

TEMPLATES: dict[str, list[str]] = {
    "binary.md.j2": [":1:", "UTF-8"],
    "dunder_escape.md.j2": [":1:", "sandbox", "__class__"],
    "extends_report.md.j2": [":1:", "cannot extend, include or import"],
    "globals_escape.md.j2": [":1:", "sandbox"],
    "huge_power.md.j2": [":1:", "exponent"],
    "huge_string.md.j2": [":1:", "'*' would build"],
    "import_macro.md.j2": [":1:", "cannot extend, include or import"],
    "include_file.md.j2": [":1:", "cannot extend, include or import"],
    "runtime_error.md.j2": [":1:", "ZeroDivisionError"],
    "syntax_error.md.j2": [":1:", "syntax error"],
    "undefined_variable.md.j2": [":2:", "'no_such_variable' is undefined"],
}


def test_every_question_and_template_case_has_an_expectation() -> None:
    assert {p.name for p in (CORPUS / "questions").iterdir()} == set(QUESTION_FILES)
    assert {p.name for p in (CORPUS / "templates").iterdir()} == set(TEMPLATES)


@pytest.mark.parametrize("name", sorted(QUESTION_FILES))
def test_bad_question_file(cli, tmp_path: Path, name: str) -> None:
    questions = tmp_path / name
    shutil.copy(CORPUS / "questions" / name, questions)
    out = tmp_path / "profile.yaml"
    code, stdout, err = cli("ask", "--defaults", "--questions", str(questions), "-o", str(out))
    assert_clean_failure(code, stdout, err, name, QUESTION_FILES[name])
    assert not out.exists()
    assert not Path("/tmp/advisor-pwned").exists()


@pytest.mark.parametrize("name", sorted(TEMPLATES))
@pytest.mark.parametrize("fmt", ["markdown", "html"])
def test_bad_template(cli, tmp_path: Path, name: str, fmt: str) -> None:
    template = tmp_path / name
    shutil.copy(CORPUS / "templates" / name, template)
    profile = tmp_path / "p.yaml"
    profile.write_text("purpose: research\n")
    existing = tmp_path / ("report.html" if fmt == "html" else "report.out")  # HTML: a page
    existing.write_text("keep me")
    code, out, err = cli(
        "recommend",
        str(profile),
        "--probes",
        "none",
        "--format",
        fmt,
        "--template",
        str(template),
        "-o",
        str(existing),
        "--force",
    )
    assert_clean_failure(code, out, err, name, TEMPLATES[name])
    assert existing.read_text() == "keep me"
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([name, "p.yaml", existing.name])
    assert not Path("/tmp/advisor-pwned").exists()


def test_directory_or_missing_path_as_template_or_questions(cli, tmp_path: Path) -> None:
    profile = tmp_path / "p.yaml"
    profile.write_text("purpose: research\n")
    for args in (
        ("recommend", str(profile), "--probes", "none", "--template", str(tmp_path)),
        ("recommend", str(profile), "--probes", "none", "--template", str(tmp_path / "no.j2")),
        ("ask", "--defaults", "--questions", str(tmp_path)),
        ("ask", "--defaults", "--questions", str(tmp_path / "no.yaml")),
    ):
        code, out, err = cli(*args)
        assert_clean_failure(code, out, err, args[-1], [])
