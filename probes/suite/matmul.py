"""matmul: the article's experiment (1000x1000 float32), and at standard bf16 and a size sweep."""

from __future__ import annotations

import functools
from typing import Any

from probes.measure.timing import measure
from probes.suite import data as W
from probes.suite.backend import Backend
from probes.suite.common import Context, Kernel, Recorder, ok

MATMUL_N = 1000
SWEEP_SIZES = (256, 512, 2000)


def run(b: Backend, ctx: Context) -> dict[str, Any]:
    rec = Recorder()
    mm, op, extra = b.matmul()
    a_np, b_np = W.matrices(MATMUL_N)
    x, y = b.put(a_np), b.put(b_np)
    flop = 2.0 * MATMUL_N**3
    t = measure(lambda: mm(x, y), b.sync, ctx.budget)  # the first (compiling) call is warm-up
    rec.time("seconds", t)
    rec.rate("gflops", t, flop / 1e9, "GFLOP/s")
    ctx.kernels["matmul"] = Kernel(lambda: mm(x, y), b.sync, t.block)
    check = W.matmul_check(b.numpy(mm(x, y)))
    dtypes = ["float32"]
    if ctx.standard:
        x16, y16 = b.put(a_np, "bfloat16"), b.put(b_np, "bfloat16")
        t16 = measure(lambda: mm(x16, y16), b.sync, ctx.budget)
        rec.rate("gflops_bf16", t16, flop / 1e9, "GFLOP/s")
        ctx.kernels["matmul_bf16"] = Kernel(lambda: mm(x16, y16), b.sync, t16.block)
        dtypes.append("bfloat16")
        for n in SWEEP_SIZES:
            p_np, q_np = W.matrices(n)
            p, q = b.put(p_np), b.put(q_np)
            tn = measure(functools.partial(mm, p, q), b.sync, ctx.budget)
            rec.rate(f"gflops_n{n}", tn, 2.0 * n**3 / 1e9, "GFLOP/s")
    params = b.params(
        dtype="float32",
        shape=[MATMUL_N, MATMUL_N],
        dtypes=dtypes,
        sweep=list(SWEEP_SIZES) if ctx.standard else [],
        op=op,
        blocks=rec.blocks,
        **extra,
    )
    return ok(rec.metrics, params, noisy=rec.noisy, check=check)


def peak(b: Backend, ctx: Context, dtype: str, n: int) -> tuple[float, int]:
    """GFLOP/s of an n x n matmul in ``dtype`` (the roofline the workload probe is held to)."""
    mm, _op, _extra = b.matmul()
    a_np, b_np = W.matrices(n)
    x, y = b.put(a_np, dtype), b.put(b_np, dtype)
    t = measure(lambda: mm(x, y), b.sync, ctx.budget)
    return 2.0 * n**3 / 1e9 / t.median, n
