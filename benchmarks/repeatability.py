"""Do repeated measurements give the same reasons? Issue 13's repeatability check.

For every bundled example, runs the probes ``--runs`` times with the cache bypassed (one
set of runs per distinct workload: examples that share a workload share its runs, exactly
as the advisor's cache would) and decides each example on each run. It prints, per
example: the winner of every run, the probe-aware rules that fired (the same set every run,
or not), and the spread of the winner's score.

Most bundled examples train on GPUs or TPUs, so on a CPU-only machine their probe-aware
rules stand aside ("measured on another kind of machine"). Each example is therefore also
decided as a ``cpu`` variant (training and inference hardware set to ``cpu``), where the
measurements are scored: that is where a noisy measurement could change the reasons.

Usage: python benchmarks/repeatability.py [--runs 3] [--level standard]
       [--frameworks pytorch jax tensorflow] [--examples NAME ...]
Run it on an idle machine; it takes about (distinct workloads x runs x one cold run).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from advisor.decide.engine import decide  # noqa: E402
from advisor.decide.rules import load_ruleset  # noqa: E402
from advisor.io.profiles import example_path, list_examples, load_profile  # noqa: E402
from advisor.model.profile import Profile  # noqa: E402
from advisor.pipeline import facts  # noqa: E402
from probes import run_probes  # noqa: E402


def cpu_variant(profile: Profile) -> Profile:
    """The same profile, trained and served on CPUs (so measurements here are scored)."""
    data = profile.model_dump(mode="json", exclude_unset=True)
    data.setdefault("hardware", {})
    data["hardware"]["training"] = ["cpu"]
    data["hardware"]["inference"] = ["cpu"]
    return Profile.model_validate(data)


def outcome(
    profile: Profile, run: dict[str, Any], ruleset: Any
) -> tuple[str, float, tuple[str, ...]]:
    """Winner, its score, and the probe-aware rules that fired, for one run."""
    _, measured = facts(run)
    decision = decide(profile, measured, ruleset, with_sensitivity=False)
    rec = decision.recommendation
    winner = rec.framework or "none"
    top = next((r.score for r in decision.ranking if r.framework == rec.framework), 0.0)
    fired = tuple(sorted(r.id for r in decision.rules if r.facts_used))
    return winner, top, fired


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--level", default="standard", choices=["quick", "standard", "full"])
    parser.add_argument("--frameworks", nargs="*", default=None)
    parser.add_argument("--examples", nargs="*", default=None)
    args = parser.parse_args()

    ruleset = load_ruleset()
    names = args.examples or [ex.name for ex in list_examples()]
    profiles = {name: load_profile(example_path(name)) for name in names}
    groups: dict[str, list[str]] = defaultdict(list)
    for name, profile in profiles.items():
        key = json.dumps(profile.workload.model_dump(mode="json"), sort_keys=True)
        groups[key].append(name)

    runs: dict[str, list[dict[str, Any]]] = {}
    for key, members in groups.items():
        workload = json.loads(key)
        runs[key] = []
        for i in range(args.runs):
            start = time.perf_counter()
            run = run_probes(
                args.level, refresh=True, workload=workload, frameworks=args.frameworks
            )
            wall = time.perf_counter() - start
            load = (run.get("environment") or {}).get("load") or {}
            print(
                f"probes {args.level} run {i + 1}/{args.runs} for {', '.join(members)}: "
                f"{wall:.1f} s cold; other busy CPUs {load.get('other_busy_cpus')}",
                file=sys.stderr,
            )
            runs[key].append(run)

    print(
        f"{args.runs} refreshed `{args.level}` runs per workload; probe-aware rules = rules "
        "whose condition read a measured fact"
    )
    print(
        f"{'example':40} {'variant':8} {'winners':28} {'same rules':10} {'score spread':>12}  rules"
    )
    stable = True
    for key, members in groups.items():
        for name in members:
            for variant, profile in (
                ("as is", profiles[name]),
                ("cpu", cpu_variant(profiles[name])),
            ):
                results = [outcome(profile, run, ruleset) for run in runs[key]]
                winners = [w for w, _, _ in results]
                scores = [s for _, s, _ in results]
                rule_sets = {r for _, _, r in results}
                same = len(set(winners)) == 1 and len(rule_sets) == 1
                stable &= same
                spread = max(scores) - min(scores)
                shown = " | ".join(",".join(r) or "-" for r in sorted(rule_sets))
                print(
                    f"{name:40} {variant:8} {','.join(winners):28} {'yes' if same else 'NO':10} "
                    f"{spread:12.2f}  {shown}"
                )
    print("all examples: same winner and same probe-aware rules in every run:", stable)
    return 0 if stable else 1


if __name__ == "__main__":
    raise SystemExit(main())
