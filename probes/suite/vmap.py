"""vmap: per-example gradients, vectorised against a Python loop."""

from __future__ import annotations

from typing import Any

import numpy as np

from probes.measure.stats import ratio
from probes.measure.timing import measure
from probes.suite import data as W
from probes.suite import models
from probes.suite.backend import Backend
from probes.suite.common import Context, Recorder, batch_size, failed, ok

MAX_BATCH = 256


def run(b: Backend, ctx: Context) -> dict[str, Any]:
    rec = Recorder()
    size, requested = batch_size(ctx, b.on_accelerator)
    size = min(size, MAX_BATCH)
    params_np, x_np, y_np = W.vmap_problem(size)
    params = [b.put(p) for p in params_np]
    x, y = b.put(x_np), b.put(y_np)
    per_example, loop, method = b.per_example_grads(models.example_loss(b), params, x, y)
    tv = measure(per_example, b.sync, ctx.budget)
    tl = measure(loop, b.sync, ctx.budget)
    rec.time("vmap_ms", tv, 1e3, "ms")
    rec.time("loop_ms", tl, 1e3, "ms")
    rec.put("speedup", ratio(rec.metrics["loop_ms"], rec.metrics["vmap_ms"], "x"))
    batched = [b.numpy(g) for g in per_example()]
    looped_raw = loop()
    looped = [np.stack([b.numpy(g[i]) for g in looped_raw]) for i in range(len(params))]
    info = b.params(
        dtype="float32",
        batch=size,
        requested_batch=requested,
        model=f"{W.VMAP_IN}-{W.VMAP_HIDDEN}-1 tanh, squared error",
        method=method,
        blocks=rec.blocks,
    )
    pairs = zip(batched, looped, strict=True)
    if not all(np.allclose(g, lo, rtol=1e-4, atol=1e-6) for g, lo in pairs):
        return failed("vmap and loop per-example gradients differ", rec.metrics, info)
    check = W.grads_check("per-example gradient norms and sums", batched, 1e-3)
    return ok(rec.metrics, info, noisy=rec.noisy, check=check)
