"""The ``scale`` probe for PyTorch: a DistributedDataParallel step, launched by torchrun.

Each rank trains the same MLP on its own batch; gradients are all-reduced by DDP
(gloo on CPU, NCCL on GPU). Rank 0 first times the step alone on one device (the
others wait at a barrier), then every rank times the DDP step in lock-step. Weak-scaling
efficiency = step time alone / step time with N devices (1.0 is perfect).

Across nodes, start it yourself on every node (see docs/probes.md)::

    torchrun --nnodes 2 --nproc-per-node 8 --rdzv-backend c10d \\
        --rdzv-endpoint HOST:29500 -m probes.backends.scale_torch

Rank 0 prints the result as JSON on stdout (or writes it to --out).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from probes.catalog import LEVELS, budget, timeout_for
from probes.measure.timing import measure
from probes.suite.common import (
    DEFAULT_BATCH,
    Context,
    batch_size,
    cpu_threads_available,
    failed,
    ok,
    skipped,
)
from probes.suite.scale import scaling_metrics


def run_local(ctx: Context, backend: Any) -> dict[str, Any]:
    """Launch torchrun on this machine (called inside the PyTorch worker)."""
    import torch

    cuda = backend.device.type == "cuda"
    accelerators = torch.cuda.device_count() if cuda else 0
    if accelerators == 1:
        return skipped("only one GPU is visible: data parallelism needs two or more devices")
    devices = accelerators if accelerators >= 2 else int(ctx.options.get("scale_devices", 2))
    batch, _requested = batch_size(ctx, on_accelerator=accelerators > 0)
    deadline = time.monotonic() + max(10.0, timeout_for("scale", ctx.level) - 15)
    return run_with_retry(lambda: _launch(devices, ctx.level, batch, deadline), deadline)


Launch = Callable[[], tuple[dict[str, Any] | None, str]]
TIMED_OUT = "torchrun did not finish in time"  # such a failure is not retried


def run_with_retry(launch: Launch, deadline: float) -> dict[str, Any]:
    """Run torchrun, once more if a rank died (not on a timeout, nor without time left).

    A rank can die of a transient fault on a busy host; the retry is recorded in the
    result's params (``attempts``, ``first_attempt_failed``), never hidden.
    """
    failures: list[str] = []
    for attempt in (1, 2):
        data, failure = launch()
        if data is not None:
            data["params"]["launcher"] = "python -m torch.distributed.run --standalone"
            if failures:
                data["params"]["attempts"] = attempt
                data["params"]["first_attempt_failed"] = failures[0]
            return ok(data["metrics"], data["params"], noisy=data["noisy_metrics"])
        failures.append(failure)
        if failure.startswith(TIMED_OUT) or time.monotonic() > deadline - 10:
            break
    if len(failures) == 1:
        return failed(failures[0])
    return failed(f"two attempts failed: {failures[1]} (first: {failures[0]})")


def _launch(
    devices: int, level: str, batch: int, deadline: float
) -> tuple[dict[str, Any] | None, str]:
    """One torchrun: (the result, "") or (None, why it failed)."""
    with tempfile.TemporaryDirectory(prefix="advisor-ddp-") as tmp:
        out = Path(tmp) / "result.json"
        log = Path(tmp) / "torchrun.log"
        command = [
            sys.executable,
            "-m",
            "torch.distributed.run",
            "--standalone",
            "--nnodes=1",
            f"--nproc-per-node={devices}",
            "-m",
            "probes.backends.scale_torch",
            "--out",
            str(out),
            "--level",
            level,
            "--batch",
            str(batch),
        ]
        with open(log, "wb") as handle:
            try:
                proc = subprocess.run(
                    command,
                    stdin=subprocess.DEVNULL,
                    stdout=handle,
                    stderr=subprocess.STDOUT,
                    check=False,
                    timeout=max(5.0, deadline - time.monotonic()),
                )
            except subprocess.TimeoutExpired:
                return None, f"{TIMED_OUT}; log: {_tail(log)}"
        if proc.returncode != 0 or not out.exists():
            return None, f"torchrun exited with status {proc.returncode}; log: {_tail(log)}"
        return json.loads(out.read_text(encoding="utf-8")), ""


_CAUSE = ("terminate called", "Error", "error:", "Exception", "Killed", "signal")


def _tail(path: Path) -> str:
    """The log's first lines that name a cause, then its last lines (torchrun's summary)."""
    try:
        lines = [ln.strip() for ln in path.read_text(errors="replace").splitlines() if ln.strip()]
    except OSError:
        return ""
    causes = [ln for ln in lines if any(mark in ln for mark in _CAUSE)][:2]
    last = [ln for ln in lines[-3:] if ln not in causes]
    return " | ".join(ln[:300] for ln in causes + last)[-900:]


def main(argv: list[str] | None = None) -> int:
    """One rank of the DDP measurement (started by torchrun)."""
    parser = argparse.ArgumentParser(prog="torchrun ... -m probes.backends.scale_torch")
    parser.add_argument("--out", help="file for rank 0's JSON result (default: stdout)")
    parser.add_argument("--level", default="full", choices=LEVELS)
    parser.add_argument("--batch", type=int, default=DEFAULT_BATCH, help="per-device batch")
    args = parser.parse_args(argv)
    result = _measure(args.level, args.batch)
    if result is not None:
        text = json.dumps(result)
        if args.out:
            partial = Path(args.out + ".partial")
            partial.write_text(text, encoding="utf-8")
            partial.replace(args.out)
        else:
            print(text)
    sys.stdout.flush()
    sys.stderr.flush()
    # The process group is destroyed and the result is written. Leave without running
    # C++ static destructors: in torch 2.13 a gloo thread still joinable at interpreter
    # exit intermittently aborts the rank ("terminate called without an active
    # exception", SIGABRT), which failed the whole torchrun after a good measurement.
    os._exit(0)


def _measure(level: str, batch: int) -> dict[str, Any] | None:
    import numpy as np
    import torch
    import torch.distributed as dist
    from torch.nn.parallel import DistributedDataParallel as DDP

    from probes.suite import data as W

    rank, world = int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])
    local_rank = int(os.environ.get("LOCAL_RANK", "0"))
    local_world = int(os.environ.get("LOCAL_WORLD_SIZE", str(world)))
    if torch.cuda.is_available():
        device = torch.device("cuda", local_rank)
        torch.cuda.set_device(device)
        backend = "nccl"

        def sync(out: Any = None) -> Any:
            torch.cuda.synchronize(device)
            return out
    else:
        device = torch.device("cpu")
        backend = "gloo"
        cpus = cpu_threads_available()
        torch.set_num_threads(max(1, cpus // local_world))

        def sync(out: Any = None) -> Any:
            return out

    dist.init_process_group(backend, init_method="env://")
    spec = W.spec("mlp")

    def build() -> torch.nn.Module:
        dims = [784, 512, 512, W.CLASSES]
        layers: list[torch.nn.Module] = []
        for i in range(3):
            layers.append(torch.nn.Linear(dims[i], dims[i + 1]))
            if i < 2:
                layers.append(torch.nn.ReLU())
        model = torch.nn.Sequential(*layers)
        weights = W.init_params(spec)
        linears = [m for m in model if isinstance(m, torch.nn.Linear)]
        with torch.no_grad():
            for j, lin in enumerate(linears):
                lin.weight.copy_(torch.from_numpy(np.ascontiguousarray(weights[2 * j].T)))
                lin.bias.copy_(torch.from_numpy(weights[2 * j + 1]))
        return model.to(device)

    xb, yb = W.batch(spec, batch, seed=W.SEED + rank)
    x = torch.from_numpy(xb).to(device)
    y = torch.from_numpy(yb).long().to(device)

    def stepper(model: torch.nn.Module) -> Any:
        opt = torch.optim.SGD(model.parameters(), lr=0.01)

        def step() -> torch.Tensor:
            opt.zero_grad(set_to_none=True)
            loss = torch.nn.functional.cross_entropy(model(x), y)
            loss.backward()
            opt.step()
            return loss

        return step

    plan = budget(level)
    decision = [0, 0, 0.0]
    t1_samples: list[float] = []
    if rank == 0:
        alone = measure(stepper(build()), sync, plan)
        t1_samples = alone.per_call
        per_step = max(alone.median, 1e-6)
        count = max(1, math.ceil(2e-2 / per_step))
        reps = max(plan.min_reps, min(200, math.ceil(plan.min_time / (count * per_step))))
        decision = [count, reps, per_step]
    dist.barrier()
    shared = [decision]
    dist.broadcast_object_list(shared, src=0)
    count, reps = int(shared[0][0]), int(shared[0][1])

    ddp = DDP(build(), device_ids=[local_rank] if device.type == "cuda" else None)
    step = stepper(ddp)
    for _ in range(3):
        sync(step())

    def run_block(k: int) -> float:
        import time

        start = time.perf_counter()
        for _ in range(k):
            sync(step())
        return time.perf_counter() - start

    dist.barrier()
    tn_samples = [run_block(count) / count for _ in range(reps)]
    dist.barrier()
    dist.destroy_process_group()
    if rank != 0:
        return None
    metrics, noisy = scaling_metrics(t1_samples, tn_samples, world, batch)
    params = {
        "engine": "torch.nn.parallel.DistributedDataParallel",
        "backend": backend,
        "device": str(device),
        "world_size": world,
        "nodes": world // max(local_world, 1),
        "threads": torch.get_num_threads() if device.type == "cpu" else None,
        "model": "MLP 784-512-512-10, SGD",
        "dtype": "float32",
        "per_device_batch": batch,
        "global_batch": batch * world,
        "efficiency": "weak scaling: step time on one device alone / step time with all "
        "devices (same per-device batch)",
        "blocks": count,
    }
    if device.type == "cpu":
        params["note"] = (
            "CPU: each rank is a process with 1/N of the cores; the figure shows "
            "the cost of gradient all-reduce and shared memory bandwidth, "
            "not the gain of real accelerators"
        )
    return {"metrics": metrics, "params": params, "noisy_metrics": noisy}


if __name__ == "__main__":
    sys.exit(main())
