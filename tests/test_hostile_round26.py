"""Red-team round 26: the reproduce command quotes every character reports alter, the
repeat check covers `advisor rules` commands, and `rules show` keeps its own word joiner."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from hostile_support import assert_refused, run

from advisor.report.command import shell_word

PACK = """rules:
  - id: DEP901
    title: Phone apps at Acme
    criterion: deployment
    when: {field: deployment.targets, contains: mobile}
    effects: {pytorch: 1}
    why: Ask ml-team@example.com or @acme-ml before shipping a phone model.
    evidence:
      - {title: Internal note, source: Acme ML, year: 2024, claim: The team owns the runtime.}
    examples:
      fire: [{deployment: {targets: [mobile]}}]
      ok: [{deployment: {targets: [server]}}]
"""


@pytest.mark.parametrize(
    "ch", ["\u3164", "\u115f", "\uffa0", "\u034f", "\u17b4", "\u180b", "\u2800", "\ufe0f"]
)
def test_every_character_reports_alter_is_quoted_by_its_bytes(tmp_path: Path, ch: str) -> None:
    name = f"team{ch}.yaml"
    word = shell_word(name)
    assert word.startswith("$'") and ch not in word
    (tmp_path / name).write_text("purpose: research\n")
    named = subprocess.run(
        ["bash", "-c", f"printf %s {word}"], capture_output=True, check=True, cwd=tmp_path
    ).stdout
    assert os.fsdecode(named) == name


def test_the_report_command_names_the_file_with_a_hangul_filler(tmp_path: Path) -> None:
    name = "team\u3164.yaml"
    (tmp_path / name).write_text("purpose: research\nhardware: {training: [tpu]}\n")
    (tmp_path / "team.yaml").write_text("deployment: {targets: [microcontroller]}\n")
    done = run("recommend", "--probes", "none", "--", name, cwd=tmp_path)
    assert done.code == 0, done.err
    assert "advisor recommend 'team.yaml'" not in done.out
    assert "advisor recommend $'team\\xe3\\x85\\xa4.yaml'" in done.out


@pytest.mark.parametrize(
    "args", [["--stale", "0", "--stale", "100000"], ["--stale=1", "--stale=2"]]
)
def test_a_rules_check_option_given_twice_is_a_usage_error(tmp_path: Path, args: list[str]) -> None:
    assert_refused(run("rules", "check", *args, cwd=tmp_path), "given twice")


def test_rules_show_keeps_the_word_joiner_as_a_character_not_an_escape(tmp_path: Path) -> None:
    (tmp_path / "pk").mkdir()
    (tmp_path / "pk" / "r.yaml").write_text(PACK)
    done = run("rules", "show", "DEP901", "--rules", "pk", cwd=tmp_path)
    assert done.code == 0, done.err
    assert "\\u2060" not in done.out
    assert "ml-team@\u2060example.com" in done.out
