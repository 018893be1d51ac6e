"""Red-team rounds 53 to 56, and the error labels left open after round 48."""

from __future__ import annotations

from pathlib import Path

import pytest
from hostile_support import run

_RULE = """rules:
  - {head}
    title: A test rule
{extra}    criterion: ecosystem
    when: {{field: purpose, eq: research}}
    effects: {{pytorch: 1}}
    why: Because this test says so and nothing else.
    evidence:
      - {{title: A note, source: me, year: 2024, claim: Said here.}}
"""


@pytest.mark.parametrize(
    ("head", "label"), [("id: USR001", "rule USR001: title"), ("idx: 1", "rules[1]: title")]
)
def test_a_duplicate_key_in_a_rule_file_names_the_rule_by_its_id(
    tmp_path: Path, head: str, label: str
) -> None:
    """A duplicate key had said `rules.0.title`, every other error of a rule `rule ID: x`."""
    pack = tmp_path / "pack"
    pack.mkdir()
    (pack / "extra.yaml").write_text(_RULE.format(head=head, extra="    title: Again\n"))
    result = run("rules", "check", "pack", cwd=tmp_path)
    assert result.code == 2
    assert f"extra.yaml:4: {label}: duplicate key 'title'" in result.err, result.err
    assert "rules.0" not in result.err


def test_a_duplicate_key_in_a_consistency_check_names_the_check(tmp_path: Path) -> None:
    (tmp_path / "pack" / "data").mkdir(parents=True)
    text = "checks:\n  - id: CON901\n    title: One\n    title: Two\n"
    (tmp_path / "pack" / "data" / "consistency.yaml").write_text(text)
    result = run("rules", "check", "pack", cwd=tmp_path)
    assert result.code == 2
    said = "consistency.yaml:4: check CON901: title: duplicate key 'title'"
    assert said in result.err, result.err


def test_a_duplicate_key_inside_a_condition_keeps_its_path_after_the_id(tmp_path: Path) -> None:
    (tmp_path / "pack").mkdir()
    text = "rules:\n  - id: USR002\n    when: {field: purpose, eq: research, eq: x}\n"
    (tmp_path / "pack" / "extra.yaml").write_text(text)
    result = run("rules", "check", "pack", cwd=tmp_path)
    assert result.code == 2
    assert "extra.yaml:3: rule USR002: when.eq: duplicate key 'eq'" in result.err, result.err


_PACK_RULE = _RULE.format(head="id: ECO903", extra="") + (
    "    examples: {fire: [{purpose: research}], ok: [{purpose: production}]}\n"
)


@pytest.mark.parametrize(
    "links", [{"loop.yaml": "loop.yaml"}, {"a.yml": "b.yml", "b.yml": "a.yml"}]
)
@pytest.mark.parametrize(
    "command", [["rules", "check", "pack"], ["recommend", "--example", "student-starter",
                "--probes", "none", "--rules", "pack"], ["rules", "list", "--rules", "pack"]]
)  # fmt: skip
def test_a_link_loop_named_like_a_rule_file_is_one_line_not_a_traceback(
    tmp_path: Path, links: dict[str, str], command: list[str]
) -> None:
    """Round 53: pathlib's resolve() raised RuntimeError('Symlink loop') for a loop in a
    pack: a traceback and exit 1 from every pack command."""
    pack = tmp_path / "pack"
    pack.mkdir()
    (pack / "r.yaml").write_text(_PACK_RULE)
    for name, target in links.items():
        (pack / name).symlink_to(target)
    result = run(*command, cwd=tmp_path)
    assert result.code == 2, result.err
    assert "too many levels of symbolic links" in result.err
    assert "Traceback" not in result.err and len(result.err.strip().splitlines()) == 1


def test_rules_show_never_sends_the_raw_bytes_of_a_name_that_is_not_utf8(tmp_path: Path) -> None:
    """Round 53: a pack file named with bytes 0x9b ('8-bit CSI') reached stdout raw, and a
    strict UTF-8 stdout refused the valid pack with exit 2."""
    import os
    import subprocess
    import sys

    from hostile_support import ROOT

    pack = tmp_path / "pack"
    pack.mkdir()
    name = os.fsdecode(b"\x9b2J\x9bH.yaml")
    (pack / name).write_text(_PACK_RULE)
    for encoding in ("utf-8", "utf-8:strict"):
        env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONIOENCODING": encoding}
        proc = subprocess.run(
            [sys.executable, "-m", "advisor", "rules", "show", "ECO903", "--rules", "pack"],
            cwd=tmp_path, env=env, capture_output=True, timeout=60,
        )  # fmt: skip
        assert proc.returncode == 0, proc.stderr
        assert b"\x9b" not in proc.stdout
        assert b"pack/\\udc9b2J\\udc9bH.yaml" in proc.stdout


@pytest.mark.parametrize(
    ("make", "below", "said"),
    [("loop", "", "is a link that loops"), ("loop", "/sub", "is a link that loops"),
     ("dangling", "", "is a link to nothing"), ("dangling", "/sub", "is a link to nothing")],
)  # fmt: skip
def test_a_cache_folder_at_a_broken_link_is_refused_before_any_work(
    tmp_path: Path, make: str, below: str, said: str
) -> None:
    """Round 53: pathlib's exists() reads a link loop or a dangling link as missing, so the
    whole probe run happened and the cache was silently not written (exit 0)."""
    link = tmp_path / "cache"
    link.symlink_to("cache" if make == "loop" else str(tmp_path / "nowhere" / "x"))
    result = run(
        "recommend", "--example", "student-starter", "--probes", "quick", "-o", "r.md",
        cwd=tmp_path, env={"ADVISOR_CACHE_DIR": f"{link}{below}"},
    )  # fmt: skip
    assert result.code == 2, result.err
    assert "can never be made" in result.err and said in result.err
    assert len(result.err.strip().splitlines()) == 1
    assert not (tmp_path / "r.md").exists()


def test_a_cached_comparison_must_belong_to_its_run() -> None:
    """Round 53: a hand-edited cache compared JAX with PyTorch 'significantly' in a run that
    found neither installed, beside a log saying the machine was too busy to compare."""
    import copy
    import json

    from hostile_support import ROOT

    from probes.run.consistency import comparisons_match_run

    real = json.loads((ROOT / "tests" / "fixtures" / "probes_standard_v2.json").read_text())
    assert comparisons_match_run(real)
    edits = {
        "not installed": lambda r: r["environment"]["frameworks"]["jax"].update(installed=False),
        "not in the run": lambda r: r.update(frameworks=["pytorch", "tensorflow"]),
        "itself": lambda r: r["comparisons"][0].update(denominator="jax"),
        "no such probe": lambda r: r["comparisons"][0].update(probe="attention"),
        "calm rounds": lambda r: r["comparisons"][0].update(distorted=False, reason=None),
        "other reason": lambda r: r["comparisons"][0].update(reason="a different reason"),
    }
    for what, edit in edits.items():
        run_ = copy.deepcopy(real)
        edit(run_)
        assert not comparisons_match_run(run_), what


@pytest.mark.parametrize("char", ["\x85", "\x9b", "\udc9b"])
def test_a_typed_answer_with_a_c1_control_or_a_byte_that_is_not_utf8_is_refused(char: str) -> None:
    from advisor.questionnaire.loader import load_questions
    from advisor.questionnaire.spec import AnswerError

    question = next(q for q in load_questions().questions if q.path == "project.name")
    with pytest.raises(AnswerError):
        question.parse(f"my{char}project")
    assert question.parse("پروژه\u200cما") == "پروژه\u200cما"  # a Persian ZWNJ stays


def test_a_long_word_from_a_pack_wraps_in_an_html_table_cell(tmp_path: Path) -> None:
    """Round 54: a 4,900-character word in a veto reason made the HTML page thousands of
    pixels wide (only headings, paragraphs and list items wrapped long words). The layout
    itself was checked in headless Chromium; this keeps the rule in the stylesheet."""
    import re

    pack = tmp_path / "pack"
    pack.mkdir()
    word = "TensorFlow_is_the_only_choice_" * 160
    rule = _PACK_RULE.replace("    effects: {pytorch: 1}\n", f"    veto: {{pytorch: {word}}}\n")
    (pack / "r.yaml").write_text(rule)
    result = run(
        "recommend", "--example", "student-starter", "--probes", "none", "--rules", "pack",
        "--format", "html", cwd=tmp_path,
    )  # fmt: skip
    assert result.code == 0, result.err
    assert word in result.out
    style = re.search(r"<style>(.*?)</style>", result.out, re.S)
    assert style and re.search(r"\btd\s*\{[^}]*overflow-wrap:\s*anywhere", style.group(1))


@pytest.mark.parametrize("variable", ["ADVISOR_CACHE_DIR", "XDG_CACHE_HOME", "HOME"])
def test_a_cache_folder_name_over_the_system_limit_is_one_line(
    tmp_path: Path, variable: str
) -> None:
    """Round 55: pathlib's exists() raised 'File name too long' (a traceback, exit 1)."""
    env = {"ADVISOR_CACHE_DIR": "", "XDG_CACHE_HOME": ""}
    env[variable] = str(tmp_path / ("a" * 300) / "x")
    result = run("probe", "--level", "quick", "--framework", "jax", cwd=tmp_path, env=env)
    assert result.code == 2, result.err
    assert f"${variable}" in result.err and "too long" in result.err
    assert len(result.err.strip().splitlines()) == 1


@pytest.mark.parametrize("path", ["/tmp/" + "a" * 300 + "/python", "./" + "a" * 300])
def test_a_python_path_over_the_system_limit_is_one_line(tmp_path: Path, path: str) -> None:
    result = run("probe", "--level", "quick", "--python", path, cwd=tmp_path)
    assert result.code == 2, result.err
    assert "--python" in result.err and "Traceback" not in result.err
    assert len(result.err.strip().splitlines()) == 1


@pytest.mark.parametrize("rid", ["USR001_" + "X" * 130, '"PROD106: evidence[3].url"'])
def test_an_id_that_is_not_one_names_the_rule_by_position(tmp_path: Path, rid: str) -> None:
    """Round 55: a long id pushed the field out of the message, and an id holding ': '
    named the bundled PROD106 and another field."""
    pack = tmp_path / "pack"
    pack.mkdir()
    (pack / "r.yaml").write_text(_RULE.format(head=f"id: {rid}", extra="    title: Again\n"))
    result = run("rules", "check", "pack", cwd=tmp_path)
    assert result.code == 2
    assert "r.yaml:4: rules[1]: title: duplicate key 'title'" in result.err, result.err


def test_github_short_issue_references_are_broken_too() -> None:
    """Round 55: GitHub documents '#26', 'GH-26' and 'owner/repo#26' as issue references."""
    from advisor.model.terminal_text import JOINER
    from advisor.report.text import md_inline

    assert md_inline("see GH-7 and gh-12") == f"see GH-{JOINER}7 and gh-{JOINER}12"
    assert JOINER not in md_inline("xGH-3 and GH-x")  # not a reference: left alone


def _json_report(tmp_path: Path, profile: str) -> dict:
    import json

    (tmp_path / "p.yaml").write_text(profile)
    result = run("recommend", "p.yaml", "--probes", "none", "--format", "json", cwd=tmp_path)
    assert result.code == 0, result.err
    return json.loads(result.out)


def test_the_thin_sentence_counts_what_the_thin_rule_counts(tmp_path: Path) -> None:
    """Round 56: six priorities left at 3 made the sentence say '8 answers given', and a
    decisive lead 46.9 points wide was called 'close to the prior'."""
    neutral = "priorities: {" + ", ".join(
        f"{p}: 3" for p in ("prototyping_speed", "raw_performance", "production_maturity",
                            "ecosystem_breadth", "learning_curve", "long_term_stability")
    ) + "}\n"  # fmt: skip
    data = _json_report(tmp_path, "ecosystem: {huggingface: true}\ndomains: [nlp]\n" + neutral)
    assert data["thin_profile"] and data["telling_answers"] == 2
    assert "2 answers given (and 6 priorities left at neutral)" in data["report"]["basis"]["thin"]
    data = _json_report(tmp_path, "existing_code: [jax]\nexisting_code_size: large\n")
    thin = data["report"]["basis"]["thin"]
    assert data["thin_profile"] and "close to the prior" not in thin
    assert "rests on a decisive fact" in thin


def test_a_sub_megabyte_budget_for_a_large_model_on_an_edge_device_is_inconsistent(
    tmp_path: Path,
) -> None:
    """Round 56: 'what would change the verdict' offered a 10 KB budget for a 70B edge
    model, since CON004 left budgets of 1 MB or less to the microcontroller check."""
    base = "deployment: {targets: [edge], serving_stack: triton}\nmodel: {parameters: 70B}\n"
    assert _json_report(tmp_path, base)["inconsistencies"] == []
    tiny = base.replace("serving_stack: triton}", "serving_stack: triton, device_memory_mb: 0.01}")
    assert [c["id"] for c in _json_report(tmp_path, tiny)["inconsistencies"]] == ["CON004"]
    flips = str(_json_report(tmp_path, base + "training: {federated: true}\n")["report"])
    assert "device_memory_mb: 0.0100" not in flips
