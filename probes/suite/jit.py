"""jit: an elementwise chain, eager against the framework's compiler."""

from __future__ import annotations

import os
import time
from typing import Any

import numpy as np

from probes.measure.stats import ratio, single
from probes.measure.timing import measure
from probes.suite import data as W
from probes.suite.backend import Array, Backend
from probes.suite.common import Context, Recorder, failed, ok, skipped

CHAIN_SIZE = 1 << 20  # elements
CHAIN_STEPS = 8
GELU_C = 0.7978845608  # sqrt(2/pi)
CHAIN = f"{CHAIN_STEPS} x (tanh-approximated GELU + 0.1x), elementwise"


def chain(b: Backend) -> Any:
    def fn(x: Array) -> Array:
        for _ in range(CHAIN_STEPS):  # tanh-approximated GELU plus a residual, written out
            x = 0.5 * x * (1.0 + b.tanh(GELU_C * (x + 0.044715 * x * x * x))) + 0.1 * x
        return x

    return fn


def run(b: Backend, ctx: Context) -> dict[str, Any]:
    mode = ctx.options.get("compile_mode")
    if mode == "skip":
        return skipped(
            str(ctx.options.get("compile_skip_reason") or "compiler cache is cold"),
            params={"compile_cache": "cold"},
        )
    rec = Recorder()
    fn = chain(b)
    x = b.put(W.chain_input(CHAIN_SIZE))
    eager = measure(lambda: fn(x), b.sync, ctx.budget)
    rec.time("eager_ms", eager, 1e3, "ms")
    start = time.perf_counter()
    compiled_fn, aot_seconds, compiler = b.compile(fn, x)
    first = b.sync(compiled_fn(x))
    first_call = time.perf_counter() - start
    compiled = measure(lambda: compiled_fn(x), b.sync, ctx.budget)
    rec.time("compiled_ms", compiled, 1e3, "ms")
    rec.put("speedup", ratio(rec.metrics["eager_ms"], rec.metrics["compiled_ms"], "x"))
    compile_s = aot_seconds if aot_seconds is not None else first_call - compiled.median
    rec.put("compile_s", single(max(compile_s, 0.0), "s"))
    out = b.numpy(first)
    extra: dict[str, Any] = {}
    if mode is not None:
        extra = {
            "compile_cache": mode,
            "inductor_cache_dir": os.environ.get("TORCHINDUCTOR_CACHE_DIR"),
        }
    params = b.params(
        dtype="float32",
        shape=[CHAIN_SIZE],
        chain=CHAIN,
        compiler=compiler,
        blocks=rec.blocks,
        **extra,
    )
    if not np.allclose(out, b.numpy(fn(x)), rtol=1e-4, atol=1e-5):
        return failed(f"{compiler}'s result differs from eager", rec.metrics, params)
    check = W.array_check("chain output", out, 1e-4)
    return ok(rec.metrics, params, noisy=rec.noisy, check=check)
