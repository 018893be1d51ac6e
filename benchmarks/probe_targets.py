"""Measure the probe targets of issue 4 and PRINT the figures (no pass/fail test).

Targets, on a 2-core CPU:
- ``advisor probe --level quick`` for PyTorch and JAX, cold imports included: <= 15 s wall;
- ``--level standard``: <= 60 s wall;
- a cached rerun: <= 1.5 s wall;
- the matmul probe's GFLOP/s within +-10% of torch.utils.benchmark's ``blocked_autorange``
  for the same operation (1000x1000 float32), measured in the same run.

Usage: python benchmarks/probe_targets.py [--all-frameworks] [--skip-standard] [--with-full]
Each command runs with a fresh, temporary $ADVISOR_CACHE_DIR.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

GFLOP = 2 * 1000**3 / 1e9  # one 1000x1000 matmul
TARGETS = {"quick": 15.0, "standard": 60.0, "cached": 1.5, "matmul_tolerance": 0.10}

REFERENCE = r"""
import json, sys
import numpy as np
framework = sys.argv[1]
from torch.utils.benchmark import Timer
rng = np.random.default_rng(0)
a_np = rng.standard_normal((1000, 1000), dtype=np.float32)
b_np = rng.standard_normal((1000, 1000), dtype=np.float32)
if framework == "pytorch":
    import torch
    a, b = torch.from_numpy(a_np), torch.from_numpy(b_np)
    timer = Timer("torch.matmul(a, b)", globals={"torch": torch, "a": a, "b": b},
                  num_threads=torch.get_num_threads())
else:
    import jax, jax.numpy as jnp
    f = jax.jit(jnp.matmul)
    a, b = jnp.asarray(a_np), jnp.asarray(b_np)
    f(a, b).block_until_ready()
    timer = Timer("f(a, b).block_until_ready()", globals={"f": f, "a": a, "b": b})
m = timer.blocked_autorange(min_run_time=1.0)
print(json.dumps({"median_s": m.median, "iqr_s": m.iqr, "runs": len(m.times)}))
"""


def advisor(args: list[str], cache: Path) -> tuple[float, dict[str, Any], str]:
    """Run the advisor CLI; return (wall seconds, parsed JSON stdout, stderr)."""
    env = dict(os.environ, ADVISOR_CACHE_DIR=str(cache))
    start = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-m", "advisor", "probe", "--format", "json", *args],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    wall = time.perf_counter() - start
    if proc.returncode != 0:
        raise SystemExit(f"advisor probe failed ({proc.returncode}): {proc.stderr[-2000:]}")
    return wall, json.loads(proc.stdout), proc.stderr


def reference(framework: str) -> dict[str, Any]:
    proc = subprocess.run(
        [sys.executable, "-c", REFERENCE, framework], capture_output=True, text=True, check=False
    )
    if proc.returncode != 0:
        return {"error": proc.stderr.strip().splitlines()[-1:]}
    return json.loads(proc.stdout.strip().splitlines()[-1])


def compare_matmul(frameworks: list[str], rounds: int) -> None:
    """Probe vs blocked_autorange, interleaved (reference, probe, reference) in each round."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from probes.run.orchestrate import run_selected

    print(
        "matmul 1000x1000 float32: probe vs torch.utils.benchmark blocked_autorange "
        f"({rounds} interleaved rounds: reference, probe, reference)"
    )
    for fw in frameworks:
        deviations = []
        for number in range(1, rounds + 1):
            before = reference(fw)
            (record,) = run_selected(fw, "quick", ["matmul"])
            after = reference(fw)
            if "median_s" not in before or "median_s" not in after or record["status"] != "ok":
                print(
                    f"  {fw} round {number}: not comparable "
                    f"({before.get('error') or after.get('error') or record['reason']})"
                )
                continue
            ref = GFLOP / ((before["median_s"] + after["median_s"]) / 2)
            drift = abs(before["median_s"] / after["median_s"] - 1.0)
            mine = record["metrics"]["gflops"]
            deviation = float(mine["median"]) / ref - 1.0
            disturbed = drift > TARGETS["matmul_tolerance"]
            if not disturbed:
                deviations.append(deviation)
            print(
                f"  {fw:<8} round {number}: probe {mine['median']:7.1f} GFLOP/s "
                f"(IQR {mine['iqr']:.1f}, n={mine['n']}); blocked_autorange "
                f"{GFLOP / before['median_s']:7.1f} before, {GFLOP / after['median_s']:7.1f} "
                f"after; deviation {deviation:+.1%}"
                + (
                    f"  [disturbed: the two references differ by {drift:.0%}; round not counted]"
                    if disturbed
                    else ""
                )
            )
        if deviations:
            middle = sorted(deviations)[len(deviations) // 2]
            verdict = "met" if abs(middle) <= TARGETS["matmul_tolerance"] else "MISSED"
            print(
                f"  {fw:<8} median deviation over {len(deviations)} undisturbed round(s): "
                f"{middle:+.1%} (target +-10%: {verdict})"
            )
        else:
            print(f"  {fw:<8} no undisturbed round: the machine was too busy to compare")


def frameworks_args(names: list[str]) -> list[str]:
    return [part for name in names for part in ("--framework", name)]


def line(label: str, value: float, target: float | None, unit: str = "s") -> None:
    met = "met" if target is not None and value <= target else "MISSED"
    verdict = "" if target is None else f"  (target <= {target:g} {unit}: {met})"
    print(f"{label:<48} {value:8.2f} {unit}{verdict}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--all-frameworks",
        action="store_true",
        help="also time the levels with TensorFlow included",
    )
    parser.add_argument("--skip-standard", action="store_true")
    parser.add_argument("--rounds", type=int, default=3, help="matmul comparison rounds")
    parser.add_argument(
        "--with-full",
        action="store_true",
        help="also time --level full (cold torch.compile: minutes), then "
        "standard again with torch.compile's cache warm",
    )
    args = parser.parse_args()
    pair = ["pytorch", "jax"]
    with open("/proc/loadavg", encoding="ascii") as handle:
        print(f"load average before: {handle.read().split()[0]}")
    with tempfile.TemporaryDirectory() as tmp:
        cache = Path(tmp) / "cache"
        wall, run, _ = advisor(["--level", "quick", *frameworks_args(pair)], cache)
        env = run["environment"]
        print(
            f"machine: {env['cpu']['model']}, {env['cpu']['cores']} cores, "
            f"benchmark index {env['benchmark_index']}, noisy={env['noisy']}"
        )
        line("quick, pytorch+jax, cold (wall)", wall, TARGETS["quick"])
        cached_wall, cached, _ = advisor(["--level", "quick", *frameworks_args(pair)], cache)
        line("quick, cached rerun (wall)", cached_wall, TARGETS["cached"])
        print(f"  cache used: {cached['cache']['used']}, age {cached['cache']['age_seconds']} s")
        compare_matmul(pair, args.rounds)
        if args.all_frameworks:
            wall, _, _ = advisor(["--level", "quick", "--refresh-probes"], Path(tmp) / "all")
            line("quick, all three frameworks, cold (wall)", wall, None)
        if not args.skip_standard:
            wall, run, _ = advisor(["--level", "standard", *frameworks_args(pair)], cache)
            line("standard, pytorch+jax (wall)", wall, TARGETS["standard"])
            skipped = [f"{p['framework']} {p['id']}" for p in run["probes"] if p["status"] != "ok"]
            print(f"  not ok: {', '.join(skipped) or 'none'}")
            if args.all_frameworks:
                wall, _, _ = advisor(["--level", "standard"], Path(tmp) / "all")
                line("standard, all three frameworks (wall)", wall, None)
        if args.with_full:
            wall, run, _ = advisor(["--level", "full", *frameworks_args(pair)], cache)
            line("full, pytorch+jax, cold torch.compile (wall)", wall, None)
            for p in run["probes"]:
                if p["id"] in ("jit", "scale") and p["status"] == "ok":
                    m = p["metrics"]
                    name = "compile_s" if p["id"] == "jit" else "efficiency"
                    print(
                        f"  {p['framework']} {p['id']}: {name} {m[name]['median']} "
                        f"{m[name]['unit']}"
                    )
            wall, run, _ = advisor(
                ["--level", "standard", "--refresh-probes", *frameworks_args(pair)], cache
            )
            line("standard, pytorch+jax, warm torch.compile (wall)", wall, TARGETS["standard"])
    with open("/proc/loadavg", encoding="ascii") as handle:
        print(f"load average after: {handle.read().split()[0]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
