"""Time and peak memory of the CLI on each hostile input (tests/bad_inputs/hostile and the
generated floods), parse_count's time against input length, `rules check` on packs of
many numeric literals against their size, and `recommend` with packs of many rules (all
linear, not quadratic).

Usage: python benchmarks/hostile.py [--quick]
Each case runs `python -m advisor` in a subprocess under a 500 MB address-space limit; the
figures are wall seconds and the peak resident set (ru_maxrss from wait4, template
children included). On a shared machine, times include waiting for a CPU.
"""

from __future__ import annotations

import argparse
import contextlib
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from hostile_support import CORPUS, run
from test_hostile_corpus import GENERATED

from advisor.model.choices import _COUNT, parse_count

EXAMPLE = "r2-low-power-devices"


def _commands(kind: str, name: str) -> list[str]:
    if kind == "profiles":
        return ["recommend", name, "--probes", "none"]
    if kind == "rules":
        return ["rules", "check", name]
    if kind == "questions":
        return ["ask", "--defaults", "--questions", name]
    return ["recommend", "--example", EXAMPLE, "--probes", "none", "--template", name]


def corpus(quick: bool) -> None:
    print(f"{'case':<52} {'exit':>4} {'seconds':>8} {'peak MB':>8}")
    worst_s = worst_mb = 0.0
    cases: list[tuple[str, str, str | None]] = []
    for kind in ("profiles", "rules", "questions", "templates"):
        for path in sorted((CORPUS / kind).iterdir()):
            cases.append((kind, path.name, None))
    for name in sorted(GENERATED):
        cases.append(("profiles", name, "generated"))
    if quick:
        cases = cases[::4]
    for kind, name, generated in cases:
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp)
            if generated:
                (folder / name).write_text(GENERATED[name][0](), encoding="utf-8")
            else:
                shutil.copy(CORPUS / kind / name, folder / name)
            result = run(*_commands(kind, name), cwd=folder)
        worst_s, worst_mb = max(worst_s, result.seconds), max(worst_mb, result.max_rss_mb)
        label = f"{kind}/{name}"[:52]
        print(f"{label:<52} {result.code:>4} {result.seconds:>8.2f} {result.max_rss_mb:>8.0f}")
    print(f"worst: {worst_s:.2f} s, {worst_mb:.0f} MB peak over {len(cases)} cases")


def parse_count_scaling() -> None:
    print(f"\n{'digits + stray char':<22} {'parse_count seconds':>20} {'regex seconds':>16}")
    for n in (1_000, 10_000, 20_000, 60_000, 600_000):
        text = "1" * n + "x"
        start = time.perf_counter()
        for _ in range(10):
            with contextlib.suppress(ValueError):
                parse_count(text)
        capped = (time.perf_counter() - start) / 10
        start = time.perf_counter()
        _COUNT.fullmatch(text)  # the expression alone, without the length cap
        regex = time.perf_counter() - start
        print(f"{n:<22} {capped:>20.6f} {regex:>16.6f}")


def _literal_pack(folder: Path, files: int) -> int:
    """A valid pack of ``files`` files, each 4 rules of 248 ``in:`` conditions of 64 numbers
    (about 229 KB a file); returns the number of literals."""
    fields = ["team.size", "training.accelerators", "training.nodes", "model.parameters"]
    folder.mkdir()
    rid = 600
    for f in range(files):
        lines = ["rules:"]
        for _ in range(4):
            blocks = []
            for b in range(4):  # no condition twice in one list, which a pack may not hold
                values = [
                    ",".join(str(k) for k in range(2 + j + 70 * b, 66 + j + 70 * b))
                    for j in range(62)
                ]
                part = ",".join(
                    f"{{field: {fields[j % 4]}, in: [{v}]}}" for j, v in enumerate(values)
                )
                blocks.append("{any: [" + part + "]}")
            when = ",".join(blocks)
            lines.append(
                f"  - {{id: SCL{rid}, title: rule {rid}, criterion: scale, "
                f"when: {{any: [{when}]}}, effects: {{pytorch: 1}}, "
                "why: a rule with many thresholds, evidence: [{title: A source, "
                "source: A publisher, year: 2020, claim: A claim of the source.}], "
                "examples: {fire: [{team: {size: 10}}], ok: [{purpose: research}]}}"
            )
            rid += 1
        (folder / f"in{f}.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return files * 4 * 4 * 62 * 64


def pack_literal_scaling() -> None:
    """`rules check` on packs of many numeric literals: time in proportion to the size (each
    literal is read by its field's own parser, a few microseconds; PyYAML's parse is most)."""
    print(
        f"\n{'pack (files)':<14} {'size KB':>8} {'literals':>10} {'seconds':>8} {'us/literal':>11}"
    )
    for files in (1, 4, 8):
        with tempfile.TemporaryDirectory() as tmp:
            pack = Path(tmp) / "pack"
            literals = _literal_pack(pack, files)
            size = sum(p.stat().st_size for p in pack.iterdir()) / 1024
            result = run("rules", "check", "pack", cwd=Path(tmp))
        if result.code != 0:  # a pack the advisor refuses measures nothing
            raise SystemExit(f"the literal pack of {files} files was refused: {result.err}")
        per = result.seconds / literals * 1e6
        print(f"{files:<14} {size:>8.0f} {literals:>10,} {result.seconds:>8.2f} {per:>11.1f}")


def _rule_pack(folder: Path, per_criterion: int) -> int:
    """A valid pack of ``per_criterion`` simple rules in each criterion of the core, each
    with its own evidence and two examples (about 470 bytes a rule); returns the count."""
    import yaml

    from advisor.decide.rules import load_ruleset

    fields = ["priorities.prototyping_speed", "priorities.raw_performance", "team.size"]
    folder.mkdir()
    count = 0
    for c, crit in enumerate(load_ruleset().meta.criteria):
        rules = []
        for i in range(300, 300 + per_criterion):
            section, key = fields[(i + c) % len(fields)].split(".")
            rules.append(
                {
                    "id": f"{crit.prefix}{i:03d}",
                    "title": f"User rule {count}",
                    "criterion": crit.id,
                    "when": {"field": f"{section}.{key}", "gte": 2 + i % 4},
                    "effects": {"pytorch": 1} if i % 2 else {"jax": 1},
                    "why": "A rule of a large pack.",
                    "evidence": [
                        {
                            "title": "A source",
                            "source": "A publisher",
                            "year": 2024,
                            "claim": "A claim of the source.",
                        }
                    ],
                    "examples": {"fire": [{section: {key: 5}}], "ok": [{section: {key: 1}}]},
                }
            )
            count += 1
        (folder / f"{crit.id}.yaml").write_text(yaml.safe_dump({"rules": rules}, width=200))
    return count


def pack_rule_scaling() -> None:
    """`recommend --probes none` with a user pack of many rules: every rule is parsed,
    checked, its examples run, and scored in each of the sensitivity analysis's changes."""
    print(f"\n{'rules':>7} {'size KB':>8} {'seconds':>8} {'peak MB':>8} {'ms/rule':>8}")
    for per in (0, 50, 200, 400):  # 400 a criterion: 9,600 examples, under the 10,000
        with tempfile.TemporaryDirectory() as tmp:
            pack = Path(tmp) / "pack"
            rules = _rule_pack(pack, per)
            size = sum(p.stat().st_size for p in pack.iterdir()) / 1024
            args = ["recommend", "--example", EXAMPLE, "--probes", "none", "-o", "r.md"]
            result = run(*args, "--rules", "pack", cwd=Path(tmp), timeout=300)
            assert result.code == 0, result.err[-500:]
        per_rule = result.seconds / rules * 1e3 if rules else float("nan")
        print(
            f"{rules:>7,} {size:>8.0f} {result.seconds:>8.2f} {result.max_rss_mb:>8.0f} "
            f"{per_rule:>8.2f}"
        )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="every fourth case only")
    args = parser.parse_args()
    corpus(args.quick)
    parse_count_scaling()
    pack_literal_scaling()
    pack_rule_scaling()
