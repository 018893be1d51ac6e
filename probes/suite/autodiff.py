"""autodiff: exact derivatives of the article's polynomial; at standard, an MLP's gradient."""

from __future__ import annotations

from typing import Any

from probes.measure.stats import exact
from probes.measure.timing import measure
from probes.suite import data as W
from probes.suite import models
from probes.suite.backend import Backend
from probes.suite.common import Context, Recorder, ok

GRAD_BATCH = 64


def run(b: Backend, ctx: Context) -> dict[str, Any]:
    rec = Recorder()
    first, second = b.derivatives(W.polynomial, 2.0)
    rec.put("grad_at_2", exact(first, "value"))
    rec.put("second_derivative", exact(second, "value"))
    params = b.params(dtype="float32", function="x^2 + 3x + 5 at x=2", method=b.autodiff_method)
    check = None
    if ctx.standard:
        model = W.spec("mlp")
        weights = [b.put(p) for p in W.init_params(model)]
        xb, yb = W.batch(model, GRAD_BATCH)
        x, y = b.put(xb), b.labels(yb)
        grad_call, mode = b.grad(models.loss(b, model), weights, x, y)
        t = measure(grad_call, b.sync, ctx.budget)
        rec.time("mlp_grad_ms", t, 1e3, "ms")
        grads = [b.numpy(g) for g in grad_call()]
        check = W.grads_check("MLP gradient norms and sums", grads, 1e-3)
        params.update(mlp=f"784-512-512-10, batch {GRAD_BATCH}", mlp_mode=mode, blocks=rec.blocks)
    result = ok(rec.metrics, params, noisy=rec.noisy, check=check)
    if first != 7.0 or second != 2.0:
        result.update(
            status="failed",
            reason=f"f'(2) = {first!r} and f''(2) = {second!r}; expected exactly 7.0 and 2.0",
        )
    return result
