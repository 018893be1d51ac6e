"""Round 12 of attacks on SECURITY.md: cached runs that passed the trust check and still
crashed the reports, a zero median from a foreign interpreter, YAML 1.1's `1_5` read as
15, long values echoed unclipped, and template output or HTML-like names that escaped the
format rules. Each test fails without its fix."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hostile_support import assert_refused, run

from advisor import pipeline
from advisor.decide.engine import decide
from advisor.decide.rules import load_ruleset
from advisor.model.profile import Profile
from advisor.model.terminal_text import json_document
from advisor.report.render import render_data, render_template, report_data
from probes.records import ProbeRun
from probes.run import trust
from probes.run.cache import now_iso

FIXTURE = Path(__file__).parent / "fixtures" / "probes_standard_v2.json"
PROFILE = Profile.model_validate({"hardware": {"training": ["cpu"]}, "purpose": "research"})


def _run() -> dict[str, Any]:
    return json.loads(FIXTURE.read_text(encoding="utf-8"))


def _set(path: tuple[Any, ...], value: Any) -> Callable[[dict[str, Any]], None]:
    def damage(run: dict[str, Any]) -> None:
        node = run
        for part in path[:-1]:
            node = node[part]
        node[path[-1]] = value

    return damage


def _drop(path: tuple[Any, ...]) -> Callable[[dict[str, Any]], None]:
    def damage(run: dict[str, Any]) -> None:
        node = run
        for part in path[:-1]:
            node = node[part]
        del node[path[-1]]

    return damage


def _reports(run: dict[str, Any]) -> None:
    """Everything the advisor makes from a run: `probe` in both formats and a report."""
    render_template("probe.md.j2", run)
    json_document(run)
    probe_run, measured = pipeline.facts(run)
    decision = decide(PROFILE, measured, load_ruleset(), with_sensitivity=False)
    data = report_data(decision, PROFILE, probe_run, probe_level="standard")
    for fmt in ("markdown", "html", "json"):
        render_data(data, fmt=fmt)


def _as_cached(run: dict[str, Any]) -> dict[str, Any] | None:
    """What the cache hands back for ``run``: None if it is not trusted (cache.load)."""
    if not trust.valid_run(run, now_iso()):
        return None
    return ProbeRun.from_json(run).to_json()


ENV = ("environment",)
DAMAGES = {
    "framework threads as a number": _set((*ENV, "threads", "pytorch"), 0),
    "benchmark detail null": _set((*ENV, "benchmark_index_detail"), None),
    "benchmark detail after -1": _set((*ENV, "benchmark_index_detail", "after"), -1),
    "benchmark detail missing": _drop((*ENV, "benchmark_index_detail")),
    "interpreter not a mapping": _set((*ENV, "interpreters", 0), []),
    "interpreter frameworks a list": _set((*ENV, "interpreters", 0, "frameworks"), []),
    "check empty text": _set(("probes", 0, "check"), ""),
    "check a number": _set(("probes", 0, "check"), 3),
    "check without a name": _set(("probes", 0, "check"), {"a": 1}),
    "noisy metrics true": _set(("probes", 0, "noisy_metrics"), True),
    "comparison confidence a mapping": _set(("comparisons", 0, "confidence"), {}),
    "comparison threshold 7": _set(("comparisons", 0, "threshold"), 7),
    "median zero": _set(("probes", 0, "metrics", "gflops", "median"), 0.0),
}


@pytest.mark.parametrize("name", sorted(DAMAGES))
def test_a_cached_run_that_would_crash_a_report_is_not_used(name: str) -> None:
    run = _run()
    assert _as_cached(run) is not None
    DAMAGES[name](run)
    assert _as_cached(run) is None


@pytest.mark.parametrize(
    "missing",
    [("level",), ("probes", 0, "reason"), ("probes", 0, "params"),
     ("probes", 0, "metrics", "gflops", "iqr"), ("probes", 0, "metrics", "gflops", "unit")],
)  # fmt: skip
def test_a_cached_run_missing_a_key_a_live_run_has_gets_it_back(missing: tuple) -> None:
    run = _run()
    _drop(missing)(run)
    cached = _as_cached(run)
    assert cached is not None
    _reports(cached)


def _leaves(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [path] if path else []
    items = (
        node.items()
        if isinstance(node, dict)
        else enumerate(node[:1] if isinstance(node, list) else [])
    )
    for key, value in items:
        out += _leaves(value, (*path, key))
    return out


def _measure(monkeypatch: pytest.MonkeyPatch, cached: dict[str, Any]) -> tuple[dict, list]:
    """pipeline.measure when the cache hands back ``cached``; the calls to the probes."""
    import probes.api

    calls: list[bool] = []

    def run_probes(level: str, *, refresh: bool = False, **_: Any) -> dict[str, Any]:
        calls.append(refresh)
        return _run() if refresh else {**cached, "cache": {"used": True}}

    monkeypatch.setattr(probes.api, "run_probes", run_probes)
    return pipeline.measure("standard", PROFILE), calls


@pytest.mark.parametrize(
    "damage",
    [_set(("probes", 5, "params", "flops_per_step"), ""), _drop(("probes", 4, "params")),
     _set(("environment", "frameworks", "pytorch", "devices", 0), {}),
     _drop(("environment", "cpu", "model")), _set(("probes", 0, "seconds"), "x")],
)  # fmt: skip
def test_a_cached_run_no_report_can_be_made_from_is_measured_again(
    monkeypatch: pytest.MonkeyPatch, damage: Callable[[dict[str, Any]], None]
) -> None:
    bad = _run()  # probes 4 and 5: PyTorch's train_step and workload
    damage(bad)
    run, calls = _measure(monkeypatch, bad)
    assert calls == [False, True]  # the cached run was refused, the probes measured again
    _reports(run)


def test_no_mutation_of_a_cached_run_crashes_a_report(monkeypatch: pytest.MonkeyPatch) -> None:
    """A seeded sample of one-place damages to a real run read from the cache: whatever the
    trust check lets through, the advisor either reads it back or measures again, and every
    report comes out (tests/fixtures/probes_standard_v2.json)."""
    base = _run()
    paths = _leaves(base)
    values: list[Any] = [None, 0, -1, True, "", [], {}, "x", [1], {"a": 1}]
    rng = random.Random(12)
    for path in rng.sample(paths, 30):
        for value in rng.sample(values, 2):
            run = copy.deepcopy(base)
            _set(path, value)(run)
            cached = _as_cached(run)
            if cached is not None:
                measured, _ = _measure(monkeypatch, cached)
                _reports(measured)


def test_a_zero_median_from_a_worker_is_a_failed_probe() -> None:
    metric = {"median": 0.0, "iqr": 0.0, "n": 5, "unit": "s"}
    assert not trust.valid_result({"status": "ok", "metrics": {"seconds": metric}})
    metric["median"] = 1e-6
    assert trust.valid_result({"status": "ok", "metrics": {"seconds": metric}})


@pytest.mark.parametrize(
    "text",
    ["model: {parameters: 1_5}\n", "team: {size: 1_0}\n", "training: {accelerators: 1_6}\n",
     "deployment: {device_memory_mb: 2_5.5}\n", "team: {size: '1_0'}\n"],
)  # fmt: skip
def test_an_underscore_that_does_not_separate_thousands_is_an_error(
    tmp_path: Path, text: str
) -> None:
    (tmp_path / "p.yaml").write_text(text)
    result = run("recommend", "p.yaml", "--probes", "none", cwd=tmp_path)
    assert_refused(result, "p.yaml:1", "may only separate thousands")


def test_thousands_with_underscores_still_read(tmp_path: Path) -> None:
    (tmp_path / "p.yaml").write_text("model: {parameters: 7_000_000_000}\nteam: {size: 1_200}\n")
    result = run("recommend", "p.yaml", "--probes", "none", "--format", "json", cwd=tmp_path)
    assert result.code == 0, result.err
    profile = json.loads(result.out)["profile"]
    assert profile["model"]["parameters"] == 7e9 and profile["team"]["size"] == 1200


def test_an_underscore_in_a_numeric_setting_is_refused(tmp_path: Path) -> None:
    env = {"ADVISOR_PROBE_TIME_SCALE": "1_0", "ADVISOR_CACHE_DIR": str(tmp_path / "c")}
    assert_refused(run("probe", cwd=tmp_path, env=env), "ADVISOR_PROBE_TIME_SCALE")


def test_an_underscore_in_a_rule_threshold_is_refused(tmp_path: Path) -> None:
    (tmp_path / "pk").mkdir()
    (tmp_path / "pk" / "mine.yaml").write_text(
        "rules:\n  - id: TEAM951\n    title: A user rule here\n    criterion: team_style\n"
        "    when: {field: team.size, gt: 1_0}\n    effects: {pytorch: 1}\n"
        "    why: Because the test says so.\n    evidence:\n"
        "      - {title: A source, source: Tests, year: 2024, claim: A claim long enough.}\n"
        "    examples: {fire: [{team: {size: 20}}], ok: [{}]}\n"
    )
    assert_refused(run("rules", "check", "pk", cwd=tmp_path), "mine.yaml:5")


LONG = "Z" * 300


def test_a_long_choice_key_in_a_question_file_is_clipped(tmp_path: Path) -> None:
    (tmp_path / "q.yaml").write_text(
        f'questions:\n  - field: purpose\n    prompt: hi\n    choices: {{"{LONG}": x}}\n'
    )
    line = assert_refused(run("ask", "--questions", "q.yaml", "--defaults", cwd=tmp_path))
    assert LONG not in line and "ZZZ…" in line


def test_a_long_unknown_venue_and_release_token_are_clipped(tmp_path: Path) -> None:
    (tmp_path / "pk").mkdir()
    (tmp_path / "pk" / "jax.yaml").write_text(
        f'routes:\n  "{LONG}":\n'
        '    - {route: abc, maturity: mature, url: "https://x.org", checked: "2024-01-01"}\n'
    )
    line = assert_refused(run("rules", "check", "pk", cwd=tmp_path), "unknown venue")
    assert LONG not in line
    (tmp_path / "pk" / "jax.yaml").unlink()
    (tmp_path / "pk" / "mine.yaml").write_text(
        "rules:\n  - id: ECO951\n    title: A user rule here\n    criterion: ecosystem\n"
        "    when: {field: ecosystem.huggingface, eq: true}\n    effects: {pytorch: 1}\n"
        f'    why: "A reason {{release:{LONG.lower()}}} x"\n    evidence:\n'
        "      - {title: A source, source: Tests, year: 2024, claim: A claim long enough.}\n"
        "    examples: {fire: [{ecosystem: {huggingface: true}}], ok: [{}]}\n"
    )
    line = assert_refused(run("rules", "check", "pk", cwd=tmp_path), "{release:zzz")
    assert LONG.lower() not in line


def test_a_template_report_is_never_written_to_a_json_name(tmp_path: Path) -> None:
    (tmp_path / "t.j2").write_text("{{ recommendation.framework }}\n")
    result = run(
        "recommend", "--example", "student-starter", "--probes", "none",
        "--template", "t.j2", "-o", "out.json", cwd=tmp_path,
    )  # fmt: skip
    assert_refused(result, "--output", ".json")
    assert not (tmp_path / "out.json").exists()


@pytest.mark.parametrize("suffix", ["shtml", "mhtml", "svg"])
def test_html_like_names_escape_for_html(tmp_path: Path, suffix: str) -> None:
    (tmp_path / "p.yaml").write_text('project: {name: "<img src=x onerror=alert(1)>"}\n')
    (tmp_path / f"t.{suffix}").write_text("{{ profile.project.name }}\n")
    result = run(
        "recommend", "p.yaml", "--probes", "none", "--template", f"t.{suffix}",
        "-o", "out.html", cwd=tmp_path,  # its HTML goes to an HTML page only (round 79)
    )  # fmt: skip
    assert result.code == 0, result.err
    text = (tmp_path / "out.html").read_text()
    assert "<img" not in text and "&lt;img" in text


# --------------------------------------------------------------------------- round 13


@pytest.mark.parametrize(
    "text",
    ["deployment: {device_memory_mb: 0,250}\n", "model: {parameters: '0,500B'}\n",
     "deployment: {device_memory_mb: '0,256 GB'}\n", f"team: {{size: '{' ' * 70}1_0'}}\n",
     f"team: {{size: {'0' * 70}1_0}}\n"],
)  # fmt: skip
def test_a_decimal_comma_or_a_padded_underscore_is_an_error(tmp_path: Path, text: str) -> None:
    (tmp_path / "p.yaml").write_text(text)
    result = run("recommend", "p.yaml", "--probes", "none", cwd=tmp_path)
    assert_refused(result, "p.yaml:1")


def _threshold_pack(tmp_path: Path, when: str, fire: str) -> Path:
    (tmp_path / "pk").mkdir(exist_ok=True)
    (tmp_path / "pk" / "mine.yaml").write_text(
        "rules:\n  - id: DEP951\n    title: A user rule here\n    criterion: deployment\n"
        f"    when: {when}\n    effects: {{pytorch: 1}}\n"
        "    why: Because the test says so.\n    evidence:\n"
        "      - {title: A source, source: Tests, year: 2024, claim: A claim long enough.}\n"
        f"    examples: {{fire: [{fire}], ok: [{{}}]}}\n"
    )
    return tmp_path / "pk"


def test_a_rule_literal_means_what_it_means_in_a_profile(tmp_path: Path) -> None:
    memory = "{field: deployment.device_memory_mb, gt: 256KB}"  # 0.25 MB, as in a profile
    pack = _threshold_pack(tmp_path, memory, "{deployment: {device_memory_mb: 1}}")
    assert run("rules", "check", str(pack), cwd=tmp_path).code == 0
    huge = "{field: deployment.device_memory_mb, lt: 1M}"  # 1 MB in a profile, not a million
    pack = _threshold_pack(tmp_path, huge, "{deployment: {device_memory_mb: 1000}}")
    assert_refused(run("rules", "check", str(pack), cwd=tmp_path), "DEP951")


def test_an_outsized_cache_file_is_not_read(tmp_path: Path) -> None:
    from probes.run import cache

    key = {"level": "quick"}
    path = tmp_path / "c" / "probes.json"
    run_ = _run()
    run_["environment"]["warnings"] = ["{" * 3990] * 300  # 1.2 MB, every piece within bounds
    cache.save(path, key, run_, now_iso())
    assert trust.valid_run(run_, now_iso()) and cache.load(path, key) is None


@pytest.mark.parametrize("name", ["r.ehtml", "r.xsl", "r.mml"])
def test_more_names_browsers_render_as_markup_escape_for_html(tmp_path: Path, name: str) -> None:
    (tmp_path / "p.yaml").write_text('project: {name: "<img src=x onerror=alert(1)>"}\n')
    result = run("recommend", "p.yaml", "--probes", "none", "-o", name, cwd=tmp_path)
    assert result.code == 0, result.err
    assert "<img" not in (tmp_path / name).read_text()
