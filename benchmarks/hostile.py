"""Time and peak memory of the CLI on each hostile input (tests/bad_inputs/hostile and the
generated floods), and parse_count's time against input length (linear, not quadratic).

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

from advisor.model.profile import _COUNT, parse_count

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


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="every fourth case only")
    args = parser.parse_args()
    corpus(args.quick)
    parse_count_scaling()
