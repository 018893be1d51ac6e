"""The recommendation report: structure, golden files, measurements, claims and injection.

Golden files live in tests/golden/. After an intended change to the report, the rules or
the examples, regenerate them and review the diff:

    UPDATE_GOLDEN=1 python -m pytest tests/test_report.py -k golden
"""

from __future__ import annotations

import datetime as dt
import html
import json
import os
import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from markdown_it import MarkdownIt

from advisor.decide.engine import decide
from advisor.decide.rules import load_ruleset
from advisor.io.profiles import list_examples, load_profile
from advisor.model.measurements import facts_from_probes
from advisor.model.profile import Profile
from advisor.model.said import said_paths
from advisor.pipeline import unasked_fields
from advisor.report.render import render_report, report_data, tidy_markdown

HERE = Path(__file__).parent
FIXTURES = HERE / "fixtures"
GOLDEN = HERE / "golden"
UPDATE = os.environ.get("UPDATE_GOLDEN") == "1"
# the day the reports are rendered on: the staleness warning must not depend on the clock
REPORT_DAY = dt.date(2026, 11, 30)
SECTIONS = [  # the report's contract; a changed heading is changed here too
    "1. Verdict",
    "2. Recommended stack and first steps",
    "3. Why",
    "4. Score breakdown",
    "5. Measurements on this machine",
    "6. The articles' claims on your machine",
    "7. What would change the verdict",
    "8. Risks and caveats",
    "9. Appendix",
]
INJECTION = FIXTURES / "report_injection.yaml"
FIXTURE_PROFILES = sorted(FIXTURES.glob("report_*.yaml"))
EXAMPLES = [e.name for e in list_examples()]


# --- helpers ------------------------------------------------------------------------------


def md_parser() -> MarkdownIt:
    """CommonMark with GFM tables and raw HTML on, as GitHub reads a file."""
    return MarkdownIt("commonmark", {"html": True}).enable("table")


def render(
    profile_path: Path,
    probes: dict[str, Any] | None = None,
    fmt: str = "markdown",
    level: str | None = None,
    shown_path: str | None = None,
) -> str:
    profile = load_profile(str(profile_path))
    unasked = unasked_fields(profile)  # as `advisor recommend` does
    decision = decide(profile, facts_from_probes(probes), load_ruleset([]), unasked=unasked)
    return render_report(
        decision,
        profile,
        probes,
        fmt=fmt,
        profile_path=shown_path or str(profile_path),
        probe_level=level or ("quick" if probes else "none"),
        today=REPORT_DAY,
    )


def load_probes(name: str) -> dict[str, Any]:
    return json.loads((FIXTURES / name).read_text(encoding="utf-8"))


def unescaped_pipes(line: str) -> int:
    """Cell separators in a GFM table row: pipes not preceded by a backslash."""
    return len(re.findall(r"(?<!\\)\|", line))


def check_tables(text: str) -> int:
    """Every table row keeps the header's column count; returns the number of tables."""
    tokens = md_parser().parse(text)
    lines = text.split("\n")
    tables = 0
    for token in tokens:
        if token.type != "table_open":
            continue
        tables += 1
        start, end = token.map
        rows = [line for line in lines[start:end] if line.strip()]
        header = unescaped_pipes(rows[0])
        cols = [cell for cell in rows[1].strip().strip("|").split("|")]
        assert len(cols) == header - 1, f"delimiter row differs from header: {rows[:2]}"
        for row in rows:
            assert unescaped_pipes(row) == header, f"row has a different column count:\n{row}"
    return tables


def headings(text: str, level: int) -> list[str]:
    tokens = md_parser().parse(text)
    out = []
    for i, token in enumerate(tokens):
        if token.type == "heading_open" and token.tag == f"h{level}":
            out.append(tokens[i + 1].content)
    return out


def section(text: str, number: int) -> str:
    """The Markdown of one numbered section."""
    start = text.index(f"\n## {number}. ")
    end = text.find(f"\n## {number + 1}. ", start + 1)
    return text[start : end if end != -1 else len(text)]


class _Tags(HTMLParser):
    """Collects the tags and attributes of an HTML document."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def html_tags(text: str) -> _Tags:
    parser = _Tags()
    parser.feed(text)
    parser.close()
    return parser


class _Balance(HTMLParser):
    """Checks that every opened element is closed in order."""

    VOID = frozenset({"meta", "br", "hr", "img", "input", "link"})

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[str] = []
        self.errors: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if self.stack and self.stack[-1] == tag:
            self.stack.pop()
        else:
            self.errors.append(f"</{tag}> at {self.getpos()} closes {self.stack[-1:]}")


def assert_self_contained(page: str) -> None:
    """Balanced tags, no script, no external resource, links only to http(s) pages."""
    balance = _Balance()
    balance.feed(page)
    balance.close()
    assert not balance.errors and not balance.stack, (balance.errors[:3], balance.stack)
    parsed = html_tags(page)
    for tag, attrs in parsed.tags:
        assert tag not in ("script", "link", "iframe", "img", "object", "embed"), tag
        assert "src" not in attrs, (tag, attrs)
        assert not any(k.startswith("on") for k in attrs), (tag, attrs)
        if tag == "a":
            assert (attrs.get("href") or "").startswith(("https://", "http://")), attrs
    assert "@import" not in page and "url(" not in page


# --- structure ----------------------------------------------------------------------------


REPORT_CASES = [pytest.param(p, id=p.stem) for p in FIXTURE_PROFILES] + [
    pytest.param(e, id=f"example-{e}") for e in EXAMPLES
]


def _profile_path(case: Path | str) -> Path:
    if isinstance(case, Path):
        return case
    return next(e.path for e in list_examples() if e.name == case)


@pytest.mark.parametrize("case", REPORT_CASES)
def test_markdown_report_parses_with_sections_in_order(case: Path | str) -> None:
    text = render(_profile_path(case))
    assert headings(text, 2) == SECTIONS, "section headings changed: update SECTIONS above"
    assert check_tables(text) >= 5
    for token in md_parser().parse(text):
        if token.type == "fence" and token.info == "mermaid":
            assert token.content.split("\n", 1)[0] in ("xychart-beta", "pie showData")


@pytest.mark.parametrize("case", REPORT_CASES)
def test_report_with_probes_parses(case: Path | str) -> None:
    for fixture in ("probes_quick.json", "probes_standard.json"):
        text = render(_profile_path(case), load_probes(fixture))
        assert headings(text, 2) == SECTIONS, "section headings changed: update SECTIONS above"
        check_tables(text)
        assert_self_contained(render(_profile_path(case), load_probes(fixture), fmt="html"))


def test_every_chart_has_a_table_beside_it() -> None:
    text = render(INJECTION, load_probes("probes_standard.json"))
    tokens = md_parser().parse(text)
    for i, token in enumerate(tokens):
        if token.type == "fence" and token.info == "mermaid":
            following = [t.type for t in tokens[i + 1 : i + 4]]
            assert "table_open" in following or tokens[i + 1].type == "paragraph", following
            assert any(t.type == "table_open" for t in tokens[i + 1 : i + 8])


def test_verdict_is_one_sentence_with_confidence_and_margin() -> None:
    text = render(INJECTION)
    verdict = section(text, 1).split("\n")[3]
    assert verdict.startswith("**Build on ") and verdict.endswith(".**")
    assert "confidence: " in verdict and "points ahead of" in verdict
    assert verdict.count(". ") == 0


def test_no_probes_says_so_and_lists_rules_that_stood_aside() -> None:
    text = render(INJECTION)
    measurements = section(text, 5)
    assert "Nothing was measured" in measurements
    assert "--probes quick" in measurements
    data = report_data(
        decide(load_profile(str(INJECTION)), None, load_ruleset([])),
        load_profile(str(INJECTION)),
        None,
    )
    for skipped in data["skipped_rules"]:
        assert f"`{skipped['id']}`" in measurements
    claims = section(text, 6)
    assert claims.count("**not checked**") == 4


def test_markdown_output_is_deterministic() -> None:
    assert render(INJECTION) == render(INJECTION)
    assert render(INJECTION, fmt="html") == render(INJECTION, fmt="html")


# --- golden files ------------------------------------------------------------------------


GOLDEN_CASES = [pytest.param(e, id=e) for e in EXAMPLES] + [
    pytest.param(p.stem, id=p.stem) for p in FIXTURE_PROFILES
]


def _golden_render(name: str, fmt: str) -> str:
    """What `advisor recommend --example NAME --probes none` prints (or the fixture's)."""
    if name in EXAMPLES:
        return render(_profile_path(name), fmt=fmt)
    # a fixture is shown by its repository path, wherever pytest runs from
    return render(FIXTURES / f"{name}.yaml", fmt=fmt, shown_path=f"tests/fixtures/{name}.yaml")


@pytest.mark.parametrize("fmt", ["md", "html"])
@pytest.mark.parametrize("name", GOLDEN_CASES)
def test_golden(name: str, fmt: str) -> None:
    actual = _golden_render(name, "markdown" if fmt == "md" else "html")
    golden = GOLDEN / f"{name}.{fmt}"
    if UPDATE:
        GOLDEN.mkdir(exist_ok=True)
        golden.write_text(actual, encoding="utf-8")
        return
    assert golden.exists(), (
        f"no golden file {golden.name}; create it with "
        "UPDATE_GOLDEN=1 python -m pytest tests/test_report.py -k golden"
    )
    expected = golden.read_text(encoding="utf-8")
    assert actual == expected, (
        f"{golden.name} differs from the rendered report; if the change is intended, run "
        "UPDATE_GOLDEN=1 python -m pytest tests/test_report.py -k golden and review the diff"
    )


def test_no_stale_golden_files() -> None:
    names = {p.values[0] for p in GOLDEN_CASES}
    stale = [p.name for p in GOLDEN.glob("*.*") if p.stem not in names]
    if UPDATE:
        for name in stale:
            (GOLDEN / name).unlink()
        return
    assert not stale, f"golden files without an example: {stale} (UPDATE_GOLDEN=1 removes them)"


def test_cli_markdown_matches_render(cli) -> None:
    if not EXAMPLES:
        pytest.skip("no bundled examples yet")
    name = EXAMPLES[0]
    code, out, _ = cli("recommend", "--example", name, "--probes", "none")
    assert code == 0
    assert out == _golden_render(name, "markdown")
    code, out, _ = cli("recommend", "--example", name, "--probes", "none", "--format", "html")
    assert code == 0
    assert out.startswith("<!DOCTYPE html>")
    assert_self_contained(out)


# --- measurements and the articles' claims ------------------------------------------------


def test_quick_probes_fill_measurements_and_claims() -> None:
    probes = load_probes("probes_quick.json")
    text = render(INJECTION, probes)
    measurements = section(text, 5)
    assert "Measured fresh for this report" in measurements
    # medians, IQRs and n from the fixture, formatted
    assert "| Matrix multiply | PyTorch | float32 rate | 154 | 6.10 (4%) | 41 | GFLOP/s |" in (
        measurements
    )
    assert "| Matrix multiply | JAX | time per call | 0.0128 | 0.000610 (5%) | 39 | s |" in (
        measurements
    )
    # share of the best rate, per rate
    assert "| float32 rate | PyTorch | 154 | 6.10 | 99% |" in measurements
    assert "| bfloat16 rate | JAX | 105 | 3.20 | 35% |" in measurements
    assert "tensorflow is not installed" in measurements
    assert "Only 2 CPU cores" in measurements  # the environment's warning
    assert "```mermaid\nxychart-beta" in measurements

    claims = section(text, 6)
    # the article's figures next to ours
    assert "| JAX | 0.00590 | 0.0128 | 0.000610 | 39 | 156 |" in claims
    assert "| PyTorch | 0.0170 | 0.0130 | 0.000510 | 41 | 154 |" in claims
    assert "### The 1000x1000 matmul experiment: does not hold" in claims
    assert "single timed call mostly measures noise" in claims
    assert "### The f'(2) = 7 check: holds" in claims
    assert "| PyTorch | 7 | 2 | yes |" in claims
    assert "JIT makes code several times faster”: not checked" in claims
    assert "--probes standard" in claims


def test_standard_probes_jit_cache_noise_and_failures() -> None:
    probes = load_probes("probes_standard.json")
    text = render(INJECTION, probes, level="standard")
    measurements = section(text, 5)
    assert "from the probe cache, measured 1.5 h ago" in measurements
    assert "--refresh-probes" in measurements
    assert "Noisy figures from the matmul probe for PyTorch" in measurements
    assert "The machine looks slow" in measurements
    assert "| JIT compilation | PyTorch | timed out |" in measurements
    assert "XLA \\| \\<b>not\\</b> available" in measurements  # escaped probe reason
    assert "| JAX | 0.210 | 0.0200 | 2.90x | 111 calls |" in measurements
    claims = section(text, 6)
    assert "### The 1000x1000 matmul experiment: holds" in claims
    # the article's claim is about JAX and PyTorch (this run has no PyTorch figure); a broken
    # TensorFlow is named beside it
    assert "### The f'(2) = 7 check: not checked" in claims
    assert "TensorFlow gave 6.5, not 7: check its installation" in claims
    assert "JIT makes code several times faster”: partly holds" in claims
    assert "4-5x faster in JAX”: partly holds" in claims
    risks = section(text, 8)
    assert "timed out for PyTorch" in risks and "noisy" in risks


def test_claim_verdicts_follow_the_numbers() -> None:
    """JAX clearly 3x faster: the matmul claim holds; within noise: it does not."""
    probes = load_probes("probes_quick.json")
    data = _data(probes)
    assert data["report"]["claims"][0]["verdict"] == "does not hold"
    for p in probes["probes"]:
        if p["id"] == "matmul" and p["framework"] == "jax":
            p["metrics"]["seconds"] = {"median": 0.004, "iqr": 0.0001, "n": 30, "unit": "s"}
    data = _data(probes)
    assert data["report"]["claims"][0]["verdict"] == "holds"
    for p in probes["probes"]:
        if p["id"] == "matmul" and p["framework"] == "jax":
            p["metrics"]["seconds"] = {"median": 0.02, "iqr": 0.0001, "n": 30, "unit": "s"}
    data = _data(probes)
    assert data["report"]["claims"][0]["verdict"] == "does not hold"
    assert "PyTorch is" in data["report"]["claims"][0]["finding"]
    # torch at 0.011 s: JAX 6% faster with tight spreads is still "about the same", not
    # a partial confirmation of the article's 2.9x; 30% faster is a partial one
    torch_s = next(
        p["metrics"]["seconds"]["median"]
        for p in probes["probes"]
        if p["id"] == "matmul" and p["framework"] == "pytorch"
    )
    for factor, verdict in ((1.06, "does not hold"), (1.3, "partly holds")):
        for p in probes["probes"]:
            if p["id"] == "matmul" and p["framework"] == "jax":
                p["metrics"]["seconds"] = {
                    "median": torch_s / factor,
                    "iqr": torch_s * 0.001,
                    "n": 30,
                    "unit": "s",
                }
        claim = _data(probes)["report"]["claims"][0]
        assert claim["verdict"] == verdict, (factor, claim["finding"])


def _compared(ratio: float, low: float, high: float, *, significant: bool, distorted: bool):  # type: ignore[no-untyped-def]
    """An interleaved comparison of JAX's matmul rate against PyTorch's, as probes write it."""
    verdict = (
        "distorted: the machine was too busy to compare"
        if distorted
        else f"JAX {ratio:.2f}x PyTorch"
        if significant
        else "no measurable difference"
    )
    return {
        "probe": "matmul",
        "metric": "gflops",
        "unit": "GFLOP/s",
        "numerator": "jax",
        "denominator": "pytorch",
        "ratio": ratio,
        "interval": [low, high],
        "confidence": 0.95,
        "rounds": 12,
        "round_ratios": [ratio] * 12,
        "sign_agreement": 1.0,
        "threshold": 0.1,
        "significant": significant,
        "distorted": distorted,
        "reason": None,
        "verdict": verdict,
        "threads": 2,
        "decides": significant and not distorted,
    }


def test_speed_claims_follow_the_interleaved_comparison_not_the_medians() -> None:
    """Round 39: the medians of separate runs said JAX 1.1x or 1.6x faster while the report's
    own interleaved comparison said "no measurable difference" or "distorted"."""
    probes = load_probes("probes_quick.json")
    for p in probes["probes"]:  # medians: JAX about 3x faster
        if p["id"] == "matmul" and p["framework"] == "jax":
            p["metrics"]["seconds"] = {"median": 0.004, "iqr": 0.0001, "n": 30, "unit": "s"}
    cases = [
        ((3.0, 2.7, 3.3), True, False, "holds", "Holds here"),
        ((3.0, 1.1, 3.6), False, True, "not checked", "Cannot tell here"),  # a busy machine
        ((0.8, 0.75, 0.85), True, False, "does not hold", "PyTorch is 1.25x faster"),
        ((1.02, 0.95, 1.1), False, False, "does not hold", "no difference of the article"),
        ((1.5, 0.9, 2.5), False, False, "not checked", "Cannot tell here"),  # too wide to tell
    ]
    for (ratio, low, high), significant, distorted, verdict, words in cases:
        probes["comparisons"] = [
            _compared(ratio, low, high, significant=significant, distorted=distorted)
        ]
        claims = {c["id"]: c for c in _data(probes)["report"]["claims"]}
        matmul, perf = claims["A-MATMUL"], claims["A-PERF"]
        assert matmul["verdict"] == verdict and words in matmul["finding"], matmul["finding"]
        assert f"{ratio:.2f}x" in perf["finding"] and "interleaved rounds" in perf["finding"]
        if distorted:
            assert perf["verdict"] == "not checked" and perf["finding"].startswith("Cannot tell")


def _data(probes: dict[str, Any] | None) -> dict[str, Any]:
    profile = load_profile(str(INJECTION))
    decision = decide(profile, facts_from_probes(probes), load_ruleset([]))
    return report_data(decision, profile, probes, probe_level="quick")


def test_json_carries_contract_and_report_content() -> None:
    probes = load_probes("probes_quick.json")
    data = json.loads(render(INJECTION, probes, fmt="json"))
    assert data["recommendation"]["framework"] in ("pytorch", "jax", "tensorflow")
    assert [r["framework"] for r in data["ranking"]] and all(
        isinstance(r["score"], float) for r in data["ranking"]
    )
    assert all("id" in r for r in data["rules"])
    assert {p["status"] for p in data["probes"]} <= {"ok", "skipped", "failed", "timeout"}
    assert data["environment"]["python"] == "3.11.9"
    report = data["report"]
    assert report["verdict"].startswith("Build on ")
    assert [c["id"] for c in report["claims"]] == ["A-MATMUL", "A-GRAD", "A-JIT", "A-PERF"]
    assert report["measurements"]["matmul"]["rows"]


def test_hedge_shown_only_when_confidence_is_not_high() -> None:
    profile = load_profile(str(INJECTION))
    decision = decide(profile, None, load_ruleset([]))
    hedge = decision.recommendation.hedge
    assert hedge
    for confidence, shown in (("high", False), ("medium", True), ("low", True)):
        decision.recommendation.confidence = confidence
        text = render_report(decision, profile, None)
        assert ("**Not sure yet?**" in text) is shown


def test_profile_appendix_is_valid_yaml_of_the_profile() -> None:
    import yaml

    text = render(INJECTION)
    appendix = section(text, 9)
    fence = next(t for t in md_parser().parse(appendix) if t.type == "fence" and t.info == "yaml")
    profile = load_profile(str(INJECTION))
    back = Profile.model_validate(yaml.safe_load(fence.content))
    assert back == profile and said_paths(back) == said_paths(profile)  # it reruns the same
    # fields the profile did not give are shown commented out, so the reader sees every value
    assert "# not said" in fence.content


# --- injection ---------------------------------------------------------------------------


def test_injection_is_inert_in_markdown() -> None:
    profile = load_profile(str(INJECTION))
    name, notes = profile.project.name, profile.project.notes
    text = render(INJECTION)
    check_tables(text)
    rendered = md_parser().render(text)
    # no HTML, link or emphasis came from the data
    assert "<b>" not in rendered and "<script>" not in rendered
    assert "javascript:" not in re.findall(r'href="([^"]*)"', rendered).__str__()
    h1 = re.search(r"<h1>(.*?)</h1>", rendered, re.S).group(1)
    assert html.unescape(h1) == f"Framework recommendation: {name}"
    assert "<em>" not in h1 and "<code>" not in h1 and "<a " not in h1
    # the notes come out as one quote, every line literal, with no heading or list inside
    quote = re.search(r"<blockquote>(.*?)</blockquote>", rendered, re.S).group(1)
    assert "<h1>" not in quote and "<li>" not in quote and "<pre>" not in quote
    plain = html.unescape(re.sub(r"<[^>]+>", "", quote))
    for line in notes.strip().split("\n"):
        assert " ".join(line.split()) in plain
    # {{ 7*7 }} survives as text: never evaluated, never a bare {{ in the Markdown source
    assert "{{ 7*7 }}" in html.unescape(rendered)
    assert "49" not in h1
    body = text.split("````yaml")[0]  # the appendix fence holds the profile verbatim
    assert "{{" not in body and "{%" not in body
    # the tables still parse with the pipe in the name
    assert check_tables(text)


def test_injection_is_inert_in_html() -> None:
    page = render(INJECTION, load_probes("probes_standard.json"), fmt="html")
    assert_self_contained(page)
    assert "<b>" not in page and "<script>" not in page
    assert "{{" not in page and "{%" not in page
    assert (
        "&lt;b&gt;bold&lt;/b&gt; &#123;&#8203;&#123;&#8203; 7*7 &#8203;&#125;&#8203;&#125;" in page
    )
    assert "{{" not in html.unescape(page)  # what a client-side template engine reads
    parsed = html_tags(page)
    shown = "".join(parsed.text).replace("\u200b", "")  # the braces are kept apart
    assert "Demo | <b>bold</b> {{ 7*7 }}" in shown


def test_hostile_rule_text_is_escaped(tmp_path: Path) -> None:
    """Rule packs are untrusted too: a rule's reason and evidence cannot inject."""
    pack = tmp_path / "pack"
    pack.mkdir()
    (pack / "evil.yaml").write_text(
        """
rules:
  - id: PROTO901
    title: "Evil | <img src=x onerror=alert(1)> title"
    criterion: prototyping
    when: {field: purpose, eq: research}
    effects: {jax: 5}
    why: "Because [click](javascript:alert(1)) | {{ 7*7 }} <script>x</script>"
    evidence:
      - title: "A title ) with [brackets]"
        source: "Src | <i>x</i>"
        year: 2024
        url: "https://example.org/a)b<c>"
        claim: "A claim that is long enough."
    examples:
      fire: [{purpose: research}]
      ok: [{purpose: production}]
""",
        encoding="utf-8",
    )
    profile = load_profile(str(INJECTION))
    decision = decide(profile, None, load_ruleset([pack]))
    text = render_report(decision, profile, None)
    check_tables(text)
    rendered = md_parser().render(text)
    assert "<img" not in rendered and "<script>" not in rendered and "<i>" not in rendered
    assert "javascript:" not in " ".join(re.findall(r'href="([^"]*)"', rendered))
    assert 'href="https://example.org/a%29b%3Cc%3E"' in rendered
    page = render_report(decision, profile, None, fmt="html")
    assert_self_contained(page)
    assert "<img" not in page


def test_tidy_keeps_blank_lines_inside_fences() -> None:
    text = "a\n\n\n\nb  \n```python\nx = 1\n\n\n\ny = 2\n```\n\n\n\nc\n"
    assert tidy_markdown(text) == "a\n\nb\n```python\nx = 1\n\n\n\ny = 2\n```\n\nc\n"


def test_default_profile_renders() -> None:
    profile = Profile()
    decision = decide(profile, None, load_ruleset([]))
    text = render_report(decision, profile, None)
    assert headings(text, 2) == SECTIONS, "section headings changed: update SECTIONS above"
    assert "answers to the questionnaire" in text


def test_the_environment_table_rows() -> None:
    from advisor.report.environment import environment

    env = json.loads((FIXTURES / "probes_standard.json").read_text())["environment"]
    rows = [(r["item"], r["value"]) for r in environment(env)]
    assert rows == [
        ("Operating system", "Linux"),
        ("Python", "3.11.9"),
        ("CPU", "Test CPU (2 cores, 4 logical CPUs)"),
        ("Memory", "16.0 GB"),
        ("Accelerator", "none (CPU only)"),
        ("PyTorch", "2.13.0 on cpu"),
        ("JAX", "0.10.0 on cpu"),
        ("TensorFlow", "2.21.0 on cpu"),
        ("Threads", "4"),
        ("Benchmark index", "0.400 loop iterations per ms (higher is faster)"),
    ]
    gpu = {**env, "accelerator": {"kind": "nvidia_gpu", "count": 2, "names": ["H200"]}}
    assert ("Accelerator", "2 x NVIDIA GPU (H200)") in [
        (r["item"], r["value"]) for r in environment(gpu)
    ]
    assert environment({}) == []


def test_every_report_key_is_documented_and_used_by_both_templates() -> None:
    """A value a section derives must reach both reports and the template contract: a
    line added to the Markdown template alone had passed every test."""
    root = Path(__file__).resolve().parent.parent / "templates"
    profile = load_profile(str(root.parent / "examples" / "r4-product-team-vision-nlp.yaml"))
    decision = decide(profile, None, load_ruleset([]), with_sensitivity=False)
    keys = report_data(decision, profile, None)["report"].keys()
    texts = {
        name: (root / name).read_text(encoding="utf-8")
        for name in ("report.md.j2", "report.html.j2", "README.md")
    }
    missing = {
        name: [k for k in keys if not re.search(rf"\b{k}\b", text)] for name, text in texts.items()
    }
    assert keys and missing == {name: [] for name in texts}
