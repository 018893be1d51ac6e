"""The ``scale`` probe for JAX: one jax.jit training step sharded over a device Mesh.

Parameters are replicated and the batch is split along a ``data`` axis with
NamedSharding; XLA inserts the gradient all-reduce. The step is first timed on one
device with the per-device batch, then on all N devices with N times that batch.
Weak-scaling efficiency = step time on one device / step time on N devices.

On a CPU the N devices are host devices made by
``XLA_FLAGS=--xla_force_host_platform_device_count=N`` (the parent sets it). Across
hosts, run ``python -m probes.backends.scale_jax --coordinator HOST:PORT --num-processes P
--process-id I`` on every host (see docs/probes.md); it calls jax.distributed.initialize.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
from typing import Any

from probes.catalog import LEVELS, Budget, budget
from probes.measure.timing import measure
from probes.suite.common import (
    DEFAULT_BATCH,
    Context,
    batch_size,
    cpu_threads_available,
    ok,
    skipped,
)
from probes.suite.scale import scaling_metrics


def run_local(ctx: Context, backend: Any) -> dict[str, Any]:
    """Measure on this process's devices (called inside the JAX worker)."""
    import jax

    if jax.device_count() < 2:
        return skipped("only one device is visible: data parallelism needs two or more")
    on_cpu = jax.devices()[0].platform == "cpu"
    batch, _requested = batch_size(ctx, on_accelerator=not on_cpu)
    data = measure_scale(budget(ctx.level), batch)
    return ok(data["metrics"], data["params"], noisy=data["noisy_metrics"])


def measure_scale(plan: Budget, batch: int) -> dict[str, Any]:
    """Time one device alone, then the sharded step over every device (all processes)."""
    import jax
    import jax.numpy as jnp
    import numpy as np
    from jax.sharding import Mesh, NamedSharding, PartitionSpec

    from probes.backends.jax_backend import JaxBackend, make_step
    from probes.suite import data as W
    from probes.suite import models

    devices = jax.devices()
    n = len(devices)
    spec = W.spec("mlp")
    weights = W.init_params(spec)
    step = make_step(models.loss(JaxBackend(), spec), models.LEARNING_RATE)

    # One device alone, per-device batch.
    local = jax.local_devices()[0]
    x1, y1 = W.batch(spec, batch)
    p1 = [jax.device_put(w, local) for w in weights]
    xd, yd = jax.device_put(x1, local), jax.device_put(y1, local)
    alone = jax.jit(step).lower(p1, xd, yd).compile()
    state1 = [p1]

    def call1() -> Any:
        state1[0], loss = alone(state1[0], xd, yd)
        return loss

    multi = jax.process_count() > 1
    t1 = measure(call1, jax.block_until_ready, plan)

    # All devices: replicate parameters, split the global batch along 'data'.
    mesh = Mesh(np.array(devices), ("data",))
    replicated = NamedSharding(mesh, PartitionSpec())
    split = NamedSharding(mesh, PartitionSpec("data"))
    xg, yg = W.batch(spec, batch * n)

    def place(array: np.ndarray, sharding: NamedSharding) -> jax.Array:
        return jax.make_array_from_callback(array.shape, sharding, lambda idx: array[idx])

    pn = [place(w, replicated) for w in weights]
    xs, ys = place(xg, split), place(yg, split)
    sharded = (
        jax.jit(
            step, in_shardings=(replicated, split, split), out_shardings=(replicated, replicated)
        )
        .lower(pn, xs, ys)
        .compile()
    )
    staten = [pn]

    def calln() -> Any:
        staten[0], loss = sharded(staten[0], xs, ys)
        return loss

    if multi:  # every process must make the same number of calls: process 0 decides
        from jax.experimental import multihost_utils

        per_step = max(t1.median, 1e-6)
        count = max(1, math.ceil(2e-2 / per_step))
        reps = max(plan.min_reps, min(200, math.ceil(plan.min_time / (count * per_step))))
        count, reps = (
            int(v) for v in multihost_utils.broadcast_one_to_all(np.array([count, reps]))
        )
        for _ in range(3):
            jax.block_until_ready(calln())
        tn_samples = []
        for _ in range(reps):
            import time

            start = time.perf_counter()
            for _ in range(count):
                jax.block_until_ready(calln())
            tn_samples.append((time.perf_counter() - start) / count)
    else:
        tn_samples = measure(calln, jax.block_until_ready, plan).per_call
    loss = float(jnp.asarray(calln()).astype(jnp.float32))
    metrics, noisy = scaling_metrics(t1.per_call, tn_samples, n, batch)
    platform = devices[0].platform
    params: dict[str, Any] = {
        "engine": "jax.jit with NamedSharding over a Mesh('data')",
        "device": platform,
        "devices": n,
        "processes": jax.process_count(),
        "model": "MLP 784-512-512-10, SGD",
        "dtype": "float32",
        "per_device_batch": batch,
        "global_batch": batch * n,
        "threads": cpu_threads_available() if platform == "cpu" else None,
        "xla_flags": os.environ.get("XLA_FLAGS", ""),
        "efficiency": "weak scaling: step time on one device alone / step time with all "
        "devices (same per-device batch)",
        "final_loss": loss,
    }
    if platform == "cpu":
        params["note"] = (
            "CPU: the devices are host devices "
            "(--xla_force_host_platform_device_count) sharing the same cores; "
            "the figure shows the cost of sharding on this CPU, not the gain of "
            "real accelerators"
        )
    return {"metrics": metrics, "params": params, "noisy_metrics": noisy}


def main(argv: list[str] | None = None) -> int:
    """Run the measurement by hand, on one host or (with a coordinator) across hosts."""
    parser = argparse.ArgumentParser(prog="python -m probes.backends.scale_jax")
    parser.add_argument("--coordinator", help="HOST:PORT of process 0 (multi-host)")
    parser.add_argument("--num-processes", type=int)
    parser.add_argument("--process-id", type=int)
    parser.add_argument(
        "--auto",
        action="store_true",
        help="jax.distributed.initialize() with no arguments (TPU pods, SLURM)",
    )
    parser.add_argument(
        "--cpu-devices",
        type=int,
        default=0,
        help="on a CPU host, split it into this many host devices",
    )
    parser.add_argument("--batch", type=int, default=DEFAULT_BATCH, help="per-device batch")
    parser.add_argument("--level", default="full", choices=LEVELS)
    args = parser.parse_args(argv)
    if args.cpu_devices:
        flags = os.environ.get("XLA_FLAGS", "")
        os.environ["XLA_FLAGS"] = (
            f"{flags} --xla_force_host_platform_device_count={args.cpu_devices}".strip()
        )
    import jax

    if args.coordinator:
        jax.distributed.initialize(
            coordinator_address=args.coordinator,
            num_processes=args.num_processes,
            process_id=args.process_id,
        )
    elif args.auto:
        jax.distributed.initialize()
    result = measure_scale(budget(args.level), args.batch)
    if jax.process_index() == 0:
        print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
