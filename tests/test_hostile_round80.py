"""Red-team round 80 (security): regression tests, each failing before its fix."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hostile_support import run

from advisor.decide import conditions
from advisor.decide.said_context import SaidContext
from advisor.decide.scoring import criterion_weights, evaluate
from advisor.decide.sensitivity import candidate_changes, find_flips
from advisor.io.profiles import example_path, load_profile
from advisor.pipeline import load_rules

CRITERIA = (("scale", "SCL"), ("hardware", "HW"), ("deployment", "DEP"), ("ecosystem", "ECO"))
# each numeric answer with its bounds: a rule `lte` a threshold fires at the low one only
FIELDS = (
    ("team", "size", 1, 100000),
    ("training", "accelerators", 0, 1000000),
    ("training", "nodes", 1, 100000),
    ("model", "parameters", 1, 100000000000000),
    ("deployment", "device_memory_mb", 0, 10000000),
)


def merged_pack(folder: Path, per_criterion: int) -> Path:
    """A valid pack whose rules are one written rule per numeric answer and, for the rest,
    a YAML merge of it with its own id and threshold: about 60 bytes a rule."""
    folder.mkdir()
    for criterion, prefix in CRITERIA:
        lines = ["rules:"]
        for k, (section, key, low, high) in enumerate(FIELDS):
            lines += [
                f"  - &R{k}",
                f"    id: {prefix}{300 + k}",
                "    title: a rule of a large pack",
                f"    criterion: {criterion}",
                f"    when: {{field: {section}.{key}, lte: 2}}",
                "    effects: {pytorch: 1}",
                "    why: one of many rules",
                "    evidence: [{title: A source, source: A publisher, year: 2020, "
                "claim: A claim of the source.}]",
                f"    examples: {{fire: [{{{section}: {{{key}: {low}}}}}], "
                f"ok: [{{{section}: {{{key}: {high}}}}}]}}",
            ]
        for i in range(len(FIELDS), per_criterion):
            section, key, _, _ = FIELDS[i % len(FIELDS)]
            lines.append(
                f"  - {{<<: *R{i % len(FIELDS)}, id: {prefix}{300 + i}, "
                f"when: {{field: {section}.{key}, lte: {3 + i}}}}}"
            )
        (folder / f"{criterion}.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return folder


def test_what_would_change_the_verdict_scores_only_the_rules_a_change_touches(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Finding 1: the search for what would change the verdict scored every rule of every
    pack once per change it tried (about 400), so a pack of 4,900 rules written as YAML
    merges (356 KB, under the 1 MB of a small input) ran `recommend --probes none` for
    13 s, and a 127 KB one for 8.6 s. A rule that reads none of the answers a change
    touches keeps its status now: each rule's condition is read about once."""
    ruleset = load_rules([merged_pack(tmp_path / "pack", 200)])
    profile = load_profile(str(example_path("r6b-research-top-performance")))
    base = SaidContext(profile, None)
    calls = 0
    original = conditions.Compare.evaluate

    def counted(self: Any, context: dict[str, Any]) -> bool | None:
        nonlocal calls
        calls += 1
        return original(self, context)

    monkeypatch.setattr(conditions.Compare, "evaluate", counted)
    tried = len(candidate_changes(base, ruleset))
    find_flips(base, ruleset, "pytorch")
    rules = len(ruleset.rules)
    assert tried > 300 and rules > 800
    assert calls < tried * rules / 4, f"{calls} conditions read for {rules} rules"


@pytest.mark.parametrize(
    "example", ["r6b-research-top-performance", "r2-low-power-devices", "tpu-research-lab"]
)
def test_reused_statuses_give_the_evaluation_a_full_one_gives(tmp_path: Path, example: str) -> None:
    """The shortcut is exact: for every change the search tries, the evaluation it gives
    is the one scoring every rule gives (rules fired and skipped, scores, vetoes)."""
    from advisor.decide.reuse import Evaluator

    ruleset = load_rules([merged_pack(tmp_path / "pack", 40)])
    base = SaidContext(load_profile(str(example_path(example))), None)
    fast = Evaluator(ruleset)
    for path, _old, new, _kind, _cost in candidate_changes(base, ruleset):
        context, priorities = base.changed(path, new)
        weights = criterion_weights(ruleset, priorities)
        got, want = fast.evaluate(context, weights), evaluate(ruleset, context, weights)
        assert [r.id for r in got.fired] == [r.id for r in want.fired], path
        assert [r.id for r in got.skipped] == [r.id for r in want.skipped], path
        for name in ("raw", "vetoes", "support", "soft", "decisive", "favoured", "answers"):
            assert getattr(got, name) == getattr(want, name), (path, name)


def test_a_small_merged_pack_of_thousands_of_rules_runs_as_any_pack(tmp_path: Path) -> None:
    """The CLI with such a pack: its report, exit 0 (the time is benchmarks/hostile.py's)."""
    merged_pack(tmp_path / "pack", 300)
    size = sum(p.stat().st_size for p in (tmp_path / "pack").iterdir())
    assert size < 100_000
    result = run(
        "recommend",
        "--example",
        "r6b-research-top-performance",
        "--probes",
        "none",
        "--rules",
        "pack",
        "-o",
        "r.md",
        cwd=tmp_path,
        timeout=120,
    )
    assert result.code == 0, result.err[-500:]
    assert "1200 rules of your own" in (tmp_path / "r.md").read_text(encoding="utf-8")


def test_a_custom_markdown_templates_own_control_characters_never_reach_the_file(
    tmp_path: Path,
) -> None:
    """The template's own text is cleaned like the data: an OSC title sequence a downloaded
    template writes would retitle the terminal of whoever `cat`s the report (it had been
    written as is); line breaks, tabs and the zero-width joiner real text needs stay."""
    template = tmp_path / "t.md.j2"
    template.write_bytes(
        b"Title \x1b]0;pwned\x07 \x1b[2J\xc2\x9b{{ 1 }}\r\nB\t\xe2\x80\x8d\xf0\x9f\x91\xa9\rC\n"
    )
    result = run(
        "recommend", "--example", "student-starter", "--probes", "none",
        "--template", str(template), "-o", "r.md", cwd=tmp_path,
    )  # fmt: skip
    assert result.code == 0, result.err
    assert (tmp_path / "r.md").read_text() == "Title ]0;pwned [2J1\nB\t\u200d\U0001f469\nC\n"
