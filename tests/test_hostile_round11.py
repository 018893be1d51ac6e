"""Round 11 of attacks on SECURITY.md: future dates `rules check` missed, lenient yes/no
literals, report text that needs variation selectors, probe caches and worker events of
the wrong shape, and `probe -o x.html`. Each test fails without its fix."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from hostile_support import run

from advisor.report.text import html_text, md_inline
from probes.run import trust
from probes.run.cache import now_iso
from probes.run.protocol import EventReader

RULE = """rules:
  - id: ECO901
    title: A user rule here
    criterion: ecosystem
    when: {field: ecosystem.huggingface, eq: WHEN}
    effects: {pytorch: 2}
    why: Because the test says so.
    evidence:
      - {title: A test source, source: Tests, year: YEAR, claim: A claim that is long enough.}
HOLDS    examples: {fire: [{ecosystem: {huggingface: true}}], ok: [{}]}
"""
HOLDS = """    holds:
      until: "2099-12"
      basis: Announced deprecation in the release notes.
      source: {title: Release notes, url: "https://example.org/notes", year: 2099}
"""


def _pack(tmp_path: Path, year: int = 2020, holds: str = "", when: str = "true") -> None:
    (tmp_path / "pk").mkdir(exist_ok=True)
    text = RULE.replace("YEAR", str(year)).replace("HOLDS", holds).replace("WHEN", when)
    (tmp_path / "pk" / "mine.yaml").write_text(text)
    (tmp_path / "hf.yaml").write_text("ecosystem: {huggingface: true}\n")


def _refused(result, *needles: str) -> None:
    assert result.code == 2 and result.out == "", (result.code, result.out, result.err)
    assert result.err.count("\n") == 1 and "Traceback" not in result.err, result.err
    for needle in needles:
        assert needle in result.err, result.err


@pytest.mark.parametrize(
    ("year", "holds", "field"),
    [(2099, "", "evidence[1].year"), (2020, HOLDS, "holds.source.year")],
)
def test_future_years_are_refused_by_rules_check_and_recommend(
    tmp_path: Path, year: int, holds: str, field: str
) -> None:
    _pack(tmp_path, year, holds)
    _refused(run("rules", "check", "pk", cwd=tmp_path), field, "2099 is in the future")
    args = ("recommend", "hf.yaml", "--rules", "pk", "--probes", "none")
    _refused(run(*args, cwd=tmp_path), field, "2099 is in the future")


@pytest.mark.parametrize("literal", ['"off"', '"yes"', "1", "0"])
def test_a_yes_no_field_compares_only_with_a_boolean(tmp_path: Path, literal: str) -> None:
    _pack(tmp_path, when=literal)
    _refused(run("rules", "check", "pk", cwd=tmp_path), "ecosystem.huggingface", "true or false")


TEXT = (
    "Rainbow \U0001f3f3\ufe0f\u200d\U0001f308 love \u2764\ufe0f key 1\ufe0f\u20e3 "
    "\ud55c\uad6d\uc5b4 \u2813\u2811\u2807\u2807\u2815\u2800\u283a\u2815\u2817\u2807\u2819 "
    "\u845b\U000e0100\u57ce\u5e02"
)


def test_report_text_keeps_emoji_braille_and_ideograph_variants() -> None:
    assert md_inline(TEXT) == TEXT
    assert str(html_text(TEXT)) == TEXT
    assert md_inline("a\u200bb\u3164c") == "abc"  # invisible on their own: still dropped


def _real_run() -> dict:
    environment = {
        "os": "Linux",
        "python": "3.11.9",
        "cpu": {"model": "x", "cores": 2},
        "memory_gb": 24.0,
        "frameworks": {"jax": {"installed": True, "version": "0.10.0", "devices": [],
                               "probed": True, "import_s": 0.5}},
        "accelerator": {"kind": "cpu", "count": 0, "names": []},
        "threads": {"available_cpus": 2, "jax": {"intra_op": 1}},
        "benchmark_index_detail": {"unit": "loops per ms", "before": {"median": 9.0},
                                   "after": {"median": 9.5}},
        "env_vars": {},
        "benchmark_index": 10.0,
        "noisy": False,
        "warnings": [],
    }  # fmt: skip
    metric = {"median": 1.0, "iqr": 0.1, "n": 3, "unit": "GFLOP/s"}
    probe = {"id": "matmul", "framework": "jax", "status": "ok", "metrics": {"gflops": metric},
             "params": {"n": 1000}}  # fmt: skip
    comparison = {"probe": "matmul", "metric": "gflops", "numerator": "jax",
                  "denominator": "pytorch", "ratio": 1.1, "interval": [1.0, 1.2],
                  "round_ratios": [1.1, 1.1]}  # fmt: skip
    return {"probes": [probe], "environment": environment, "comparisons": [comparison]}


@pytest.mark.parametrize(
    "damage",
    [
        lambda r: r["environment"].__setitem__("frameworks", []),
        lambda r: r["environment"].__setitem__("cpu", "x"),
        lambda r: r.__setitem__("environment", {}),
        lambda r: r.__setitem__("comparisons", [{}]),
        lambda r: r["environment"].__setitem__("threads", {"pytorch": [1]}),
        lambda r: r["environment"]["accelerator"].__setitem__("names", 5),
        lambda r: r["probes"][0].__setitem__("params", {"n": "x"}),
        lambda r: r["environment"]["frameworks"]["jax"].__setitem__("import_s", "slow"),
    ],
)
def test_a_cached_run_of_the_wrong_nested_shape_is_not_used(damage) -> None:
    good = _real_run()
    assert trust.valid_run(good, now_iso())
    bad = copy.deepcopy(good)
    damage(bad)
    assert not trust.valid_run(bad, now_iso())


def test_worker_events_of_the_wrong_shape(tmp_path: Path) -> None:
    stream = tmp_path / "events"
    stream.write_text(
        '{"event": "result", "probe": "matmul", "metrics": {"g": {"median": NaN}}}\n'
        '{"event": "done"}\n'
    )
    assert EventReader(stream).read_new() == [{"event": "done"}]  # NaN is not JSON
    env = trust.clean_env({"event": "env", "import_s": "slow", "devices": 5, "version": 3})
    assert "import_s" not in env and env["devices"] == [] and "version" not in env
    metric = {"median": float("inf"), "n": 3, "unit": "s"}
    assert not trust.valid_result({"status": "ok", "metrics": {"t": metric}})
    assert not trust.valid_result({"status": "ok", "metrics": {}, "params": {"n": "x"}})
    assert trust.valid_result({"status": "ok", "metrics": {}, "params": {"n": 10}})


@pytest.mark.parametrize("name", ["probe.html", "probe.html.md"])
def test_probe_refuses_an_html_output_name(tmp_path: Path, name: str) -> None:
    env = {"ADVISOR_PROBE_HIDE": "all", "ADVISOR_CACHE_DIR": str(tmp_path / "c")}
    _refused(run("probe", "-o", name, cwd=tmp_path, env=env), "--output", "not HTML")
    assert not (tmp_path / name).exists()


def test_probe_writes_json_to_a_json_name(tmp_path: Path) -> None:
    env = {"ADVISOR_PROBE_HIDE": "all", "ADVISOR_CACHE_DIR": str(tmp_path / "c")}
    result = run("probe", "-o", "p.json", cwd=tmp_path, env=env)
    assert result.code == 0, result.err
    assert json.loads((tmp_path / "p.json").read_text())["level"] == "quick"


def test_a_date_is_in_the_future_only_if_it_is_everywhere() -> None:
    from datetime import datetime, timedelta, timezone

    from advisor.decide.dating import today_anywhere

    now = datetime.now(timezone.utc)
    assert today_anywhere() in {(now + timedelta(hours=h)).date() for h in (13, 14, 15)}
    assert today_anywhere() >= now.date()
