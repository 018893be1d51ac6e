"""train_step: one SGD step of a small model of the profile's family, the framework's usual way."""

from __future__ import annotations

from typing import Any

from probes.measure.stats import single
from probes.measure.timing import measure
from probes.suite import data as W
from probes.suite import models
from probes.suite.backend import Backend
from probes.suite.common import (
    Context,
    Kernel,
    Recorder,
    batch_size,
    model_family,
    ok,
    workload_dtype,
)


def run(b: Backend, ctx: Context) -> dict[str, Any]:
    rec = Recorder()
    family, dtype = model_family(ctx), workload_dtype(ctx)
    size, requested = batch_size(ctx, b.on_accelerator)
    model = W.spec(family)
    weights = [b.put(p, dtype) for p in W.init_params(model)]
    xb, yb = W.batch(model, size)
    x, y = b.put(xb, dtype), b.labels(yb)
    loss = models.loss(b, model)
    initial_loss = float(b.numpy(loss(weights, x, y)))
    step, compile_s, mode = b.train_step(
        loss, weights, x, y, models.LEARNING_RATE, compiled=b.usual_train_compiled
    )
    if compile_s is not None:
        rec.put("compile_s", single(compile_s, "s"))
    t = measure(step, b.sync, ctx.budget)
    ctx.kernels["train_step"] = Kernel(step, b.sync, t.block)
    check = rec.train_step(t, size=size, family=family, dtype_name=dtype, initial_loss=initial_loss)
    params = b.params(
        dtype=dtype,
        model=family,
        batch=size,
        requested_batch=requested,
        example_shape=list(model.example),
        mode=mode,
        blocks=rec.blocks,
    )
    return ok(rec.metrics, params, noisy=rec.noisy, check=check)
