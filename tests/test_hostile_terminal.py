"""Text from files reaches a terminal inert, and Markdown outside the report stays inert.

Escape sequences (window title, clear screen, OSC 8 hyperlinks, C1 CSI, bidi overrides)
in a question file's prompt, help, section, choices and default, in a rule's title, or
in a profile printed to a terminal come out as visible escapes; `rules show` and
`advisor probe` output parse as Markdown without raw HTML or live non-http links.
"""

from __future__ import annotations

import io
import json
import os
import pty
import select
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hostile_support import RAW_CONTROL, ROOT, assert_clean, run
from markdown_it import MarkdownIt

from advisor.model.terminal_text import for_terminal, inert
from advisor.questionnaire import Terminal, load_questions, run_questionnaire
from advisor.report.render import render_template

HOSTILE = "\x1b]0;pwned\x07\x1b[2J\x1b]8;;http://evil.example/\x1b\\link\x1b]8;;\x1b\\\x9b31m\u202e"
YAML_HOSTILE = (
    '"\\e]0;pwned\\a\\e[2J\\e]8;;http://evil.example/\\e\\\\link\\e]8;;\\e\\\\\\x9b31m\\u202e"'
)


def test_inert_shows_every_control_as_a_visible_escape() -> None:
    text = inert(HOSTILE + "\n\t\x00\x7f\u2066\ufeff\u061c")
    assert not RAW_CONTROL.search(text)
    assert "\\x1b]0;pwned\\x07" in text and "\\x9b" in text and "\\u202e" in text
    assert "\\u061c" in text  # the Arabic letter mark is a bidi control too
    assert "\\x0a" in text  # one line: newlines too


def test_for_terminal_keeps_lines_and_json_valid() -> None:
    doc = json.dumps({"name": "a\x9bb\u202ec"}, ensure_ascii=False) + "\n"
    safe = for_terminal(doc)
    assert not RAW_CONTROL.search(safe)
    assert json.loads(safe) == {"name": "a\x9bb\u202ec"}


def _hostile_questions(tmp_path: Path) -> Path:
    """The bundled question file with escape sequences in every displayed string."""
    bundled = next((ROOT / "advisor").rglob("questions.yaml"))
    text = bundled.read_text(encoding="utf-8")
    text = text.replace("section: Project", f"section: {YAML_HOSTILE}", 1)
    text = text.replace(
        "prompt: What is the project called?",
        f"prompt: {YAML_HOSTILE}\n    help: {YAML_HOSTILE}\n    default: {YAML_HOSTILE}",
        1,
    )
    text = text.replace(
        "research: experiments, papers, new methods", f"research: {YAML_HOSTILE}", 1
    )
    path = tmp_path / "questions.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_questionnaire_prints_file_text_inert(tmp_path: Path) -> None:
    questions = load_questions(_hostile_questions(tmp_path))
    answers = io.StringIO("?\n" + "\n" * 400)
    out = io.StringIO()
    profile = run_questionnaire(questions=questions, terminal=Terminal(stdin=answers, out=out))
    assert profile.project.name.startswith("\x1b]0;pwned")  # the data is kept, only shown inert
    shown = out.getvalue()
    assert "\\x1b]0;pwned\\x07" in shown  # the prompt, its help, section and [default]
    assert shown.count("\\x1b]0;pwned") >= 4
    assert not RAW_CONTROL.search(shown.replace("\x1b[1m", "").replace("\x1b[0m", ""))


def _rule_pack(tmp_path: Path, title: str, why: str, evidence_title: str) -> Path:
    pack = tmp_path / "pack"
    pack.mkdir()
    (pack / "r.yaml").write_text(
        f"""rules:
- id: ECO950
  title: {title}
  criterion: ecosystem
  when: {{field: ecosystem.huggingface, eq: true}}
  effects: {{jax: 1}}
  why: {why}
  evidence:
  - title: {evidence_title}
    source: "<b>Tests</b>"
    year: 2025
    url: "https://example.org/a)b](javascript:alert(1))"
    claim: "A claim with [a link](javascript:alert(1)) and <img src=x onerror=alert(1)>."
  examples:
    fire: [{{ecosystem: {{huggingface: true}}}}]
    ok: [{{}}]
""",
        encoding="utf-8",
    )
    return pack


def test_rules_list_and_show_are_inert_on_a_terminal(tmp_path: Path) -> None:
    _rule_pack(tmp_path, YAML_HOSTILE, YAML_HOSTILE, YAML_HOSTILE)
    listed = run("rules", "list", "--rules", "pack", cwd=tmp_path)
    assert listed.code == 0, listed.err
    assert_clean(listed)
    assert "ECO950" in listed.out and "\\x1b]0;pwned" in listed.out
    shown = run("rules", "show", "ECO950", "--rules", "pack", cwd=tmp_path)
    assert shown.code == 0, shown.err
    assert_clean(shown)


def _live_html(markdown: str) -> list[str]:
    """Raw HTML and non-http link targets in the rendered Markdown."""
    md = MarkdownIt("commonmark").enable("table")
    problems = []
    for token in md.parse(markdown):
        for child in [token, *(token.children or [])]:
            if child.type in ("html_inline", "html_block"):
                problems.append(child.content)
            href = child.attrGet("href") if child.type == "link_open" else None
            if href is not None and not str(href).startswith(("http://", "https://")):
                problems.append(str(href))
    return problems


def test_rules_show_escapes_markdown_and_html(tmp_path: Path) -> None:
    why = '"Click [here](javascript:alert(1)) or <script>alert(1)</script> `x` | a |"'
    _rule_pack(tmp_path, '"Title <img src=x onerror=alert(1)> [x](javascript:y)"', why, '"E ```"')
    shown = run("rules", "show", "ECO950", "--rules", "pack", cwd=tmp_path)
    assert shown.code == 0, shown.err
    assert _live_html(shown.out) == []
    rendered = MarkdownIt("commonmark").render(shown.out)
    assert (
        'href="javascript' not in rendered and "<script" not in rendered and "<img" not in rendered
    )


def _hostile_run() -> dict[str, Any]:
    """A probe run whose every string comes from a hostile environment or cache."""
    evil = "x` </code><script>alert(1)</script> [l](javascript:alert(1)) | cell | " + HOSTILE
    return {
        "level": evil,
        "wall_seconds": 1.0,
        "cache": {"created": evil, "used": True, "age_seconds": 5.0},
        "environment": {
            "os": evil,
            "python": evil,
            "cpu": {
                "model": evil,
                "cores": evil,
                "logical_cpus": 2,
                "available_cpus": 2,
                "flags": [evil],
            },
            "memory_gb": evil,
            "accelerator": {"kind": evil, "count": 1, "names": [evil]},
            "benchmark_index": 1.0,
            "benchmark_index_detail": {"unit": evil, "after": {"median": 1.0}},
            "load_average": None,
            "noisy": False,
            "frameworks": {
                evil: {
                    "installed": True,
                    "version": evil,
                    "devices": [{"kind": evil, "name": evil + "2"}],
                    "import_s": 1.0,
                }
            },
            "threads": {evil: {evil: evil}},
            "env_vars": {"OMP_NUM_THREADS": evil, evil: "1"},
            "warnings": [evil],
            "interpreters": [
                {"path": evil, "version": evil, "numpy": evil, "frameworks": {evil: evil}}
            ],
            "load": {
                "other_busy_cpus": 1.0,
                "available_cpus": evil,
                "threads": evil,
                "pinned_cpus": [evil],
                "omp_wait_policy": "passive",
            },
        },
        "comparisons": [
            {
                "probe": evil,
                "ratio": 1.0,
                "numerator": evil,
                "denominator": evil,
                "interval": [0.9, 1.1],
                "rounds": 3,
                "verdict": evil,
                "confidence": 0.95,
                "threshold": 0.05,
            }
        ],
        "probes": [
            {
                "id": evil,
                "framework": evil,
                "status": "ok",
                "reason": None,
                "metrics": {evil: {"median": evil, "iqr": 1.0, "n": 3, "unit": evil}},
                "params": {evil: evil, "shape": [evil, 2]},
                "noisy_metrics": [],
                "check": {"name": evil, "reference": evil, "max_rel_diff": 0.0},
            },
            {
                "id": evil,
                "framework": evil,
                "status": evil,
                "reason": evil,
                "metrics": {},
                "params": {},
            },
            {
                "id": "workload",
                "framework": evil,
                "status": "ok",
                "reason": None,
                "metrics": {
                    "mfu": {"median": 1e300, "iqr": 0.0, "n": 3, "unit": evil},
                    "step_ms": {"median": 1.0, "iqr": 0.0, "n": 3, "unit": "ms"},
                    "model_gflops": {"median": 1.0, "iqr": 0.0, "n": 3, "unit": "x"},
                },
                "params": {
                    "model": evil,
                    "dtype": evil,
                    "batch": 1,
                    "flops_per_step": 1e9,
                    "machine_peak_gflops": 1.0,
                    "machine_peak_source": evil,
                    "compiler": evil,
                },
            },
        ],
    }


def test_probe_markdown_escapes_environment_cpu_and_cached_strings() -> None:
    text = render_template("probe.md.j2", _hostile_run())
    assert not RAW_CONTROL.search(text)
    assert _live_html(text) == []
    rendered = MarkdownIt("commonmark").enable("table").render(text)
    assert "<script" not in rendered and 'href="javascript' not in rendered


def _run_on_a_terminal(args: list[str], cwd: Path) -> str:
    """The advisor with stdout on a pseudo-terminal; returns what the terminal received."""
    master, slave = pty.openpty()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "advisor", *args],
        cwd=cwd,
        stdout=slave,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        env=env,
    )
    os.close(slave)
    chunks = []
    while True:
        ready, _, _ = select.select([master], [], [], 60)
        if not ready:
            break
        try:
            chunk = os.read(master, 65536)
        except OSError:
            break
        if not chunk:
            break
        chunks.append(chunk)
    proc.wait(timeout=60)
    os.close(master)
    assert proc.returncode == 0, proc.stderr.read()
    return b"".join(chunks).decode("utf-8", "replace")


@pytest.mark.parametrize("fmt", ["markdown", "json"])
def test_report_printed_to_a_terminal_is_inert(tmp_path: Path, fmt: str) -> None:
    (tmp_path / "p.yaml").write_text(
        f"project:\n  name: {YAML_HOSTILE}\n  notes: {YAML_HOSTILE}\n", encoding="utf-8"
    )
    shown = _run_on_a_terminal(
        ["recommend", "p.yaml", "--probes", "none", "--format", fmt], tmp_path
    )
    assert not RAW_CONTROL.search(shown.replace("\r", ""))
    if fmt == "json":
        data = json.loads(shown.replace("\r\n", "\n"))
        assert data["profile"]["project"]["name"].startswith("\x1b]0;pwned")


def test_the_joiner_that_stops_mentions_is_in_the_file_not_on_the_terminal(
    tmp_path: Path,
) -> None:
    (tmp_path / "p.yaml").write_text('project: {name: "cc @octocat, bob@example.com, o/r#1"}\n')
    shown = _run_on_a_terminal(["recommend", "p.yaml", "--probes", "none"], tmp_path)
    assert "cc @octocat, bob@example.com, o/r\\#1" in shown and "\\u2060" not in shown
    args = ["recommend", "p.yaml", "--probes", "none", "-o", "r.md"]
    _run_on_a_terminal(args, tmp_path)
    saved = (tmp_path / "r.md").read_text(encoding="utf-8")
    assert "cc @\u2060octocat, bob@\u2060example.com, o/r\\#\u20601" in saved


def test_a_json_file_holds_the_same_data_with_every_control_escaped(tmp_path: Path) -> None:
    """JSON written with -o escapes C1 controls and bidi marks as \\uXXXX, like JSON on a
    terminal: the data parses back identical, and `cat report.json` is inert."""
    (tmp_path / "p.yaml").write_text('project: {name: "a\\x9bb\\u202ec\\u061cd"}\n')
    result = run("recommend", "p.yaml", "--probes", "none", "--format", "json", "-o", "r.json",
                 cwd=tmp_path)  # fmt: skip
    assert result.code == 0, result.err
    text = (tmp_path / "r.json").read_text(encoding="utf-8")
    assert not RAW_CONTROL.search(text.replace("\n", ""))
    assert json.loads(text)["profile"]["project"]["name"] == "a\x9bb\u202ec\u061cd"


def test_invisible_characters_are_escaped_and_astral_ones_stay_valid_json() -> None:
    """Tag characters can hide text in a report; they are escaped on terminals (as
    \\U........, unambiguous), dropped from reports, and escaped in JSON as a surrogate
    pair so the data parses back identical."""
    from advisor.model.terminal_text import for_terminal
    from advisor.report.text import md_inline

    hidden = "N\U000e0041\U000e0042\u206a\u00ad\u034f\u180e\ufff9\u2060\u2028x"
    shown = inert(hidden)
    assert "\\U000e0041" in shown and "\\u206a" in shown and "\\xad" in shown
    assert md_inline(hidden) == "Nx"
    doc = for_terminal(json.dumps({"name": hidden}, ensure_ascii=False))
    assert "\\udb40\\udc41" in doc and json.loads(doc) == {"name": hidden}
