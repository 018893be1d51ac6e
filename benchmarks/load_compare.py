"""Does a busy machine distort the PyTorch/JAX comparison? Prints the figures, idle and busy.

Runs the ``standard`` probes (fresh, cache bypassed) twice: on the machine as it is, then
with one (or --busy N) CPU-bound process running beside them
(``python -c "while True: pass"``, bounded in time and always killed). For each run it
prints the JAX/PyTorch train_step ratio measured two ways (separate probe medians, as the
probes used to compare; interleaved rounds, as they compare now), whether that
comparison was marked distorted and why, and the workload probe's MFU per framework.
Issue 13's criterion: the busy ratio stays within 1.5x of the idle ratio, or the
comparison is marked distorted.

Usage: python benchmarks/load_compare.py [--family mlp] [--busy 1] [--frameworks pytorch jax]
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

ROOT = Path(__file__).resolve().parent.parent
BUSY_LIMIT_S = 600  # a busy process ends by itself after this long, whatever happens here
RUN = """
import json, sys
from probes import run_probes
run = run_probes("standard", refresh=True, frameworks=sys.argv[1].split(","),
                 workload={"model_family": sys.argv[2], "batch_size": 64, "dtype": "float32"},
                 progress=lambda line: print(line, file=sys.stderr))
print(json.dumps(run))
"""


def probe_run(frameworks: list[str], family: str) -> tuple[float, dict[str, Any]]:
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, ADVISOR_CACHE_DIR=cache)
        env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]).strip(
            os.pathsep
        )
        start = time.perf_counter()
        proc = subprocess.run(
            [sys.executable, "-c", RUN, ",".join(frameworks), family],
            capture_output=True,
            text=True,
            env=env,
            cwd=ROOT,
            check=False,
        )
        wall = time.perf_counter() - start
    if proc.returncode != 0:
        raise SystemExit(f"probe run failed: {proc.stderr[-2000:]}")
    return wall, json.loads(proc.stdout)


def busy_processes(count: int) -> list[subprocess.Popen[bytes]]:
    code = f"import time\nend = time.time() + {BUSY_LIMIT_S}\nwhile time.time() < end: pass\n"
    return [subprocess.Popen([sys.executable, "-c", code]) for _ in range(count)]


def median(run: dict[str, Any], probe: str, fw: str, metric: str) -> float | None:
    for p in run["probes"]:
        if p["id"] == probe and p["framework"] == fw and p["status"] == "ok":
            m = p["metrics"].get(metric)
            return float(m["median"]) if m else None
    return None


def summary(label: str, wall: float, run: dict[str, Any]) -> dict[str, Any]:
    load = run["environment"].get("load", {})
    comp = next(
        (
            c
            for c in run.get("comparisons", [])
            if c["probe"] == "train_step"
            and c["numerator"] == "jax"
            and c["denominator"] == "pytorch"
        ),
        None,
    )
    pt, jx = (median(run, "train_step", fw, "steps_per_s") for fw in ("pytorch", "jax"))
    separate = jx / pt if pt and jx else None
    print(f"\n## {label} ({wall:.0f} s wall)")
    print(
        f"- other work on our CPUs before: {load.get('other_busy_cpus')} CPU(s); "
        f"threads per framework: {load.get('threads')}; pinned: {load.get('pinned_cpus')}; "
        f"OpenMP wait policy: {load.get('omp_wait_policy')}"
    )
    print(
        f"- train_step steps/s: PyTorch {pt}, JAX {jx}; JAX/PyTorch from separate probe "
        f"medians: {separate and round(separate, 3)}"
    )
    if comp:
        print(
            f"- JAX/PyTorch in {comp['rounds']} interleaved rounds: {comp['ratio']} "
            f"(interval {comp['interval']}), significant: {comp['significant']}, "
            f"distorted: {comp['distorted']}" + (f" ({comp['reason']})" if comp["reason"] else "")
        )
    else:
        print("- no interleaved train_step comparison (a framework did not run)")
    for p in run["probes"]:
        if p["id"] == "workload" and p["status"] == "ok":
            mfu = p["metrics"].get("mfu", {}).get("median")
            print(
                f"- workload MFU {p['framework']}: {mfu if mfu is None else f'{mfu:.1%}'} "
                f"({p['params'].get('compiler')}, {p['metrics']['model_gflops']['median']} "
                f"GFLOP/s of {p['params'].get('machine_peak_gflops')} peak)"
            )
    return {
        "ratio": comp["ratio"] if comp else None,
        "distorted": bool(comp and comp["distorted"]),
        "separate": separate,
    }


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--family", default="mlp", choices=("mlp", "cnn", "transformer", "rnn"))
    parser.add_argument("--busy", type=int, default=1, help="CPU-bound processes beside the run")
    parser.add_argument("--frameworks", nargs="+", default=["pytorch", "jax"])
    args = parser.parse_args()
    print(
        f"# Load comparison: {args.family}, {', '.join(args.frameworks)}, "
        f"{os.cpu_count()} logical CPUs"
    )
    idle = summary("as the machine is", *probe_run(args.frameworks, args.family))
    workers = busy_processes(args.busy)
    try:
        busy = summary(
            f"with {args.busy} busy process(es)", *probe_run(args.frameworks, args.family)
        )
    finally:
        for proc in workers:
            proc.kill()
            proc.wait()
    print("\n## Verdict")
    if idle["ratio"] and busy["ratio"]:
        drift = max(idle["ratio"], busy["ratio"]) / min(idle["ratio"], busy["ratio"])
        ok = drift <= 1.5 or busy["distorted"]
        print(
            f"- interleaved JAX/PyTorch ratio: idle {idle['ratio']}, busy {busy['ratio']} "
            f"({drift:.2f}x apart); busy run marked distorted: {busy['distorted']}; "
            f"criterion (within 1.5x, or marked distorted): {'met' if ok else 'MISSED'}"
        )
        return 0 if ok else 1
    print("- no ratio to compare")
    return 1


if __name__ == "__main__":
    raise SystemExit(main())
