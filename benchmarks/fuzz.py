"""Long fuzz run: 10,000 examples per target (CI runs a few hundred of each in tests/test_fuzz.py;
the targets are listed once, in tests/fuzz_targets.py).

Usage: python benchmarks/fuzz.py [--examples N]
Prints, per target, how many inputs were tried, accepted and rejected with an InputError.
Any other exception fails the run with hypothesis's minimal failing example.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from fuzz_targets import TARGETS, run_target


def run(examples: int, only: list[str] | None = None) -> None:
    """Run every target (or those named in ``only``) and print what was accepted."""
    print(f"{'target':<22} {'tried':>7} {'accepted':>9} {'rejected':>9} {'seconds':>8}")
    for target in TARGETS:
        if only and target.name not in only:
            continue
        start = time.perf_counter()
        counts = run_target(target, examples)
        secs = time.perf_counter() - start
        acc, rej = counts[True], counts[False]
        print(f"{target.name:<22} {acc + rej:>7} {acc:>9} {rej:>9} {secs:>8.1f}")
    print("no exception other than InputError/ConditionError escaped")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--examples", type=int, default=10_000)
    parser.add_argument(
        "--only",
        action="append",
        choices=[t.name for t in TARGETS],
        help="run only this target (repeatable)",
    )
    args = parser.parse_args()
    run(args.examples, args.only)
