"""workload: the profile's model family and dtype, compiled, sized to the hardware.

Reports step time, throughput, compile time, peak memory and the model's achieved
GFLOP/s (analytic FLOPs per step over the step time); the parent turns that into model
FLOP utilisation (MFU) against the best matmul rate any framework reached in the same
run. Equal work is checked: every framework reports the same FLOPs per step and the
initial loss of the same seeded parameters and batch.
"""

from __future__ import annotations

from typing import Any

from probes.measure.stats import single
from probes.measure.timing import measure
from probes.suite import data as W
from probes.suite import matmul, models
from probes.suite.backend import Backend
from probes.suite.common import (
    DEFAULT_BATCH,
    Context,
    Kernel,
    Recorder,
    model_family,
    ok,
    workload_dtype,
)

# Largest batch per family: on a CPU small enough that compiling and timing fit the
# standard level's budget; on an accelerator large enough to keep it busy.
MAX_BATCH = {
    "cpu": {"mlp": 256, "transformer": 8, "cnn": 32, "rnn": 32},
    "gpu": {"mlp": 4096, "transformer": 32, "cnn": 256, "rnn": 256},
}
PEAK_N = {"cpu": 1024, "gpu": 8192}  # square matmul that measures the roofline


def run(b: Backend, ctx: Context) -> dict[str, Any]:
    rec = Recorder()
    family, dtype = model_family(ctx), workload_dtype(ctx)
    hardware = "gpu" if b.on_accelerator else "cpu"
    note = None
    if dtype == "float16" and hardware == "cpu":
        dtype, note = "bfloat16", "float16 has no fast CPU kernels; measured in bfloat16"
    model = W.spec(family, hardware)
    requested = int(ctx.workload.get("batch_size") or DEFAULT_BATCH)
    size = max(1, min(requested, MAX_BATCH[hardware][model.family]))
    weights = [b.put(p, dtype) for p in W.init_params(model)]
    xb, yb = W.batch(model, size)
    x, y = b.put(xb, dtype), b.labels(yb)
    loss = models.loss(b, model)
    initial_loss = float(b.numpy(loss(weights, x, y)))
    compiled = bool(ctx.options.get("workload_compile", True))
    if not compiled:
        note = str(ctx.options.get("workload_skip_reason") or "not compiled")
    step, compile_s, compiler = b.train_step(
        loss, weights, x, y, models.LEARNING_RATE, compiled=compiled
    )
    if compile_s is not None:
        rec.put("compile_s", single(compile_s, "s"))
    t = measure(step, b.sync, ctx.budget)
    ctx.kernels["workload"] = Kernel(step, b.sync, t.block)
    flops = W.train_flops(model, size)
    rec.time("step_ms", t, 1e3, "ms")
    rec.rate("steps_per_s", t, 1.0, "steps/s")
    rec.rate("examples_per_s", t, float(size), "examples/s")
    rec.rate("model_gflops", t, flops / 1e9, "GFLOP/s")
    peak, n = matmul.peak(b, ctx, dtype, PEAK_N[hardware])
    rec.put("peak_gflops", single(peak, "GFLOP/s"))
    memory, memory_kind = b.peak_memory()
    if memory is not None:
        rec.put("peak_memory_mb", single(memory / 2**20, "MB"))
    _mm, _op, precision = b.matmul()
    params = b.params(
        dtype=dtype,
        requested_dtype=workload_dtype(ctx),
        model=model.family,
        batch=size,
        requested_batch=requested,
        example_shape=list(model.example),
        model_size=hardware,
        parameters=sum(int(_prod(s)) for _n, s in model.params),
        flops_per_step=flops,
        flops_method="analytic: 3 x forward matmul/conv "
        "FLOPs (backward = 2 x forward); elementwise work not counted",
        compiler=compiler,
        compiled=compiled,
        peak_matmul_n=n,
        memory_measure=memory_kind,
        blocks=rec.blocks,
        note=note,
        **precision,
    )
    rtol = 1e-3 if dtype == "float32" else 3e-2
    check = {
        "name": f"{model.family} workload: initial loss and FLOPs per step",
        "values": [initial_loss, flops],
        "scale": 1.0,
        "rtol": rtol,
    }
    return ok(rec.metrics, params, noisy=rec.noisy, check=check)


def _prod(shape: tuple[int, ...]) -> int:
    out = 1
    for dim in shape:
        out *= dim
    return out
