"""JAX probes (imported only inside a worker subprocess)."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from probes import workloads as W
from probes.common import (
    CHAIN,
    CHAIN_SIZE,
    CHAIN_STEPS,
    GELU_C,
    MATMUL_N,
    SWEEP_SIZES,
    Context,
    Recorder,
    batch_size,
    cpu_threads_available,
    failed,
    model_family,
    ok,
    workload_dtype,
)
from probes.stats import exact, ratio, single
from probes.timing import measure

DTYPES = {"float32": jnp.float32, "bfloat16": jnp.bfloat16, "float16": jnp.float16}


def device_kind(device: Any) -> str:
    """Map a JAX device to the advisor's accelerator kinds."""
    platform = str(getattr(device, "platform", "cpu")).lower()
    if platform == "tpu":
        return "tpu"
    if platform in ("gpu", "cuda", "rocm"):
        version = str(getattr(getattr(device, "client", None), "platform_version", "")).lower()
        return "amd_gpu" if (platform == "rocm" or "rocm" in version) else "nvidia_gpu"
    if platform == "metal":
        return "apple_silicon"
    return "cpu"


DEVICE = jax.devices()[0]  # the default backend: TPU or GPU when present, else CPU


def sync(out: Any) -> Any:
    """block_until_ready on every array in ``out`` (JAX dispatches asynchronously)."""
    return jax.block_until_ready(out)


def environment() -> dict[str, Any]:
    devices = [{"kind": device_kind(d), "name": str(getattr(d, "device_kind", d.platform)),
                "platform": d.platform, "index": int(d.id)} for d in jax.devices()]
    return {
        "version": jax.__version__,
        "devices": devices,
        "build": {"backend": jax.default_backend(),
                  "x64": bool(jax.config.jax_enable_x64)},
        "threads": {"xla_cpu": cpu_threads_available(),
                    "xla_flags": os.environ.get("XLA_FLAGS", "")},
    }


def _params(**extra: Any) -> dict[str, Any]:
    threads = cpu_threads_available() if DEVICE.platform == "cpu" else None
    base: dict[str, Any] = {"device": f"{DEVICE.platform}:{DEVICE.id}", "threads": threads}
    base.update(extra)
    return base


def _put(a: np.ndarray, dtype: Any = jnp.float32) -> jax.Array:
    return jax.device_put(jnp.asarray(a, dtype=dtype), DEVICE)


# -- matmul -------------------------------------------------------------------------------

def probe_matmul(ctx: Context) -> dict[str, Any]:
    rec = Recorder()
    mm = jax.jit(jnp.matmul)
    a_np, b_np = W.matrices(MATMUL_N)
    a, b = _put(a_np), _put(b_np)
    flop = 2.0 * MATMUL_N**3
    t = measure(lambda: mm(a, b), sync, ctx.budget)  # the first (compiling) call is warm-up
    rec.time("seconds", t)
    rec.rate("gflops", t, flop / 1e9, "GFLOP/s")
    check = W.matmul_check(np.asarray(mm(a, b), dtype=np.float32))
    dtypes = ["float32"]
    if ctx.standard:
        a16, b16 = a.astype(jnp.bfloat16), b.astype(jnp.bfloat16)
        t16 = measure(lambda: mm(a16, b16), sync, ctx.budget)
        rec.rate("gflops_bf16", t16, flop / 1e9, "GFLOP/s")
        dtypes.append("bfloat16")
        for n in SWEEP_SIZES:
            x_np, y_np = W.matrices(n)
            x, y = _put(x_np), _put(y_np)
            tn = measure(lambda x=x, y=y: mm(x, y), sync, ctx.budget)
            rec.rate(f"gflops_n{n}", tn, 2.0 * n**3 / 1e9, "GFLOP/s")
    params = _params(dtype="float32", shape=[MATMUL_N, MATMUL_N], dtypes=dtypes,
                     sweep=list(SWEEP_SIZES) if ctx.standard else [],
                     op="jax.jit(jnp.matmul), block_until_ready", blocks=rec.blocks,
                     # On NVIDIA GPUs JAX's default float32 matmul may use TF32; the
                     # cross-framework check then shows how far its results drift.
                     default_matmul_precision=str(jax.config.jax_default_matmul_precision))
    return ok(rec.metrics, params, noisy=rec.noisy, check=check)


# -- jit ----------------------------------------------------------------------------------

def chain(x: jax.Array) -> jax.Array:
    for _ in range(CHAIN_STEPS):  # tanh-approximated GELU plus a residual, written out
        x = 0.5 * x * (1.0 + jnp.tanh(GELU_C * (x + 0.044715 * x * x * x))) + 0.1 * x
    return x


def probe_jit(ctx: Context) -> dict[str, Any]:
    rec = Recorder()
    x = _put(W.chain_input(CHAIN_SIZE))
    eager = measure(lambda: chain(x), sync, ctx.budget)  # op-by-op dispatch
    rec.time("eager_ms", eager, 1e3, "ms")
    start = time.perf_counter()
    compiled_fn = jax.jit(chain).lower(x).compile()  # ahead-of-time: compile time on its own
    compile_s = time.perf_counter() - start
    compiled = measure(lambda: compiled_fn(x), sync, ctx.budget)
    rec.time("compiled_ms", compiled, 1e3, "ms")
    rec.put("speedup", ratio(rec.metrics["eager_ms"], rec.metrics["compiled_ms"], "x"))
    rec.put("compile_s", single(compile_s, "s"))
    out = np.asarray(compiled_fn(x))
    params = _params(dtype="float32", shape=[CHAIN_SIZE], chain=CHAIN,
                     compiler="jax.jit (XLA), lower().compile()", blocks=rec.blocks)
    if not np.allclose(out, np.asarray(chain(x)), rtol=1e-4, atol=1e-5):
        return failed("jax.jit's result differs from eager", rec.metrics, params)
    check = W.array_check("chain output", out, 1e-4)
    return ok(rec.metrics, params, noisy=rec.noisy, check=check)


# -- autodiff -----------------------------------------------------------------------------

def probe_autodiff(ctx: Context) -> dict[str, Any]:
    rec = Recorder()
    x = jnp.float32(2.0)
    first = float(jax.grad(W.polynomial)(x))
    second = float(jax.grad(jax.grad(W.polynomial))(x))
    rec.put("grad_at_2", exact(first, "value"))
    rec.put("second_derivative", exact(second, "value"))
    params = _params(dtype="float32", function="x^2 + 3x + 5 at x=2", method="jax.grad")
    check = None
    if ctx.standard:
        model = W.spec("mlp")
        weights = [_put(p) for p in W.init_params(model)]
        xb, yb = W.batch(model, 64)
        xj, yj = _put(xb), jax.device_put(jnp.asarray(yb), DEVICE)
        grad_fn = jax.jit(jax.grad(lambda p, a, b: _loss("mlp", p, a, b)))
        t = measure(lambda: grad_fn(weights, xj, yj), sync, ctx.budget)
        rec.time("mlp_grad_ms", t, 1e3, "ms")
        grads = [np.asarray(g, dtype=np.float32) for g in grad_fn(weights, xj, yj)]
        check = W.grads_check("MLP gradient norms and sums", grads, 1e-3)
        params.update(mlp="784-512-512-10, batch 64", mlp_mode="jax.jit(jax.grad)",
                      blocks=rec.blocks)
    result = ok(rec.metrics, params, noisy=rec.noisy, check=check)
    if first != 7.0 or second != 2.0:
        result.update(status="failed", reason=f"f'(2) = {first!r} and f''(2) = {second!r}; "
                      "expected exactly 7.0 and 2.0")
    return result


# -- models -------------------------------------------------------------------------------

def _layer_norm(x: jax.Array) -> jax.Array:
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    return (x - mean) / jnp.sqrt(var + 1e-5)


def _conv(x: jax.Array, w: jax.Array, b: jax.Array, stride: int) -> jax.Array:
    out = jax.lax.conv_general_dilated(x, w, (stride, stride), [(1, 1), (1, 1)],
                                       dimension_numbers=("NCHW", "OIHW", "NCHW"))
    return out + b[None, :, None, None]


def forward(family: str, p: list[jax.Array], x: jax.Array) -> jax.Array:
    if family == "cnn":
        h = jax.nn.relu(_conv(x, p[0], p[1], 1))
        h = jax.nn.relu(_conv(h, p[2], p[3], 2))
        h = jax.nn.relu(_conv(h, p[4], p[5], 2))
        return h.mean(axis=(2, 3)) @ p[6] + p[7]
    if family == "transformer":
        wq, wk, wv, wo, w1, b1, w2, b2, w, b = p
        bsz, seq, d = x.shape
        heads = W.TRANSFORMER_HEADS

        def split(t: jax.Array) -> jax.Array:
            return t.reshape(bsz, seq, heads, d // heads).transpose(0, 2, 1, 3)

        h = _layer_norm(x)
        q, k, v = split(h @ wq), split(h @ wk), split(h @ wv)
        att = jax.nn.softmax(q @ k.transpose(0, 1, 3, 2) / (d // heads) ** 0.5, axis=-1) @ v
        x = x + att.transpose(0, 2, 1, 3).reshape(bsz, seq, d) @ wo
        h = _layer_norm(x)
        x = x + jax.nn.gelu(h @ w1 + b1, approximate=True) @ w2 + b2
        return x.mean(axis=1) @ w + b
    if family == "rnn":
        wx, wh, bh, w, b = p

        def cell(h: jax.Array, xt: jax.Array) -> tuple[jax.Array, None]:
            return jnp.tanh(xt @ wx + h @ wh + bh), None

        h0 = jnp.zeros((x.shape[0], wh.shape[0]), dtype=x.dtype)
        h, _ = jax.lax.scan(cell, h0, x.transpose(1, 0, 2))
        return h @ w + b
    h = jax.nn.relu(x @ p[0] + p[1])
    h = jax.nn.relu(h @ p[2] + p[3])
    return h @ p[4] + p[5]


def _loss(family: str, p: list[jax.Array], x: jax.Array, y: jax.Array) -> jax.Array:
    logits = forward(family, p, x).astype(jnp.float32)
    logp = jax.nn.log_softmax(logits, axis=-1)
    return -jnp.take_along_axis(logp, y[:, None], axis=-1).mean()


LEARNING_RATE = 0.01


def make_step(family: str) -> Callable[..., tuple[list[jax.Array], jax.Array]]:
    """One SGD training step (not yet jitted)."""

    def step(p: list[jax.Array], x: jax.Array, y: jax.Array) -> tuple[list[jax.Array], jax.Array]:
        loss, grads = jax.value_and_grad(lambda q: _loss(family, q, x, y))(p)
        new = [w - (LEARNING_RATE * g).astype(w.dtype) for w, g in zip(p, grads, strict=True)]
        return new, loss

    return step


# -- vmap ---------------------------------------------------------------------------------

def _example_loss(p: list[jax.Array], x: jax.Array, y: jax.Array) -> jax.Array:
    w1, b1, w2, b2 = p
    return (jnp.tanh(x @ w1 + b1) @ w2 + b2 - y) ** 2


def probe_vmap(ctx: Context) -> dict[str, Any]:
    rec = Recorder()
    size, requested = batch_size(ctx, DEVICE.platform != "cpu")
    size = min(size, 256)
    params_np, x_np, y_np = W.vmap_problem(size)
    params = [_put(p) for p in params_np]
    x, y = _put(x_np), _put(y_np)
    xs, ys = [x[i] for i in range(size)], [y[i] for i in range(size)]
    one = jax.jit(jax.grad(_example_loss))
    per_example = jax.jit(jax.vmap(jax.grad(_example_loss), in_axes=(None, 0, 0)))

    def loop() -> list[list[jax.Array]]:
        return [one(params, xi, yi) for xi, yi in zip(xs, ys, strict=True)]

    tv = measure(lambda: per_example(params, x, y), sync, ctx.budget)
    tl = measure(loop, sync, ctx.budget)
    rec.time("vmap_ms", tv, 1e3, "ms")
    rec.time("loop_ms", tl, 1e3, "ms")
    rec.put("speedup", ratio(rec.metrics["loop_ms"], rec.metrics["vmap_ms"], "x"))
    batched = [np.asarray(g) for g in per_example(params, x, y)]
    looped_raw = loop()
    looped = [np.stack([np.asarray(g[i]) for g in looped_raw]) for i in range(len(params))]
    info = _params(dtype="float32", batch=size, requested_batch=requested,
                   model=f"{W.VMAP_IN}-{W.VMAP_HIDDEN}-1 tanh, squared error",
                   method="jax.jit(jax.vmap(jax.grad)) vs a Python loop of jax.jit(jax.grad)",
                   blocks=rec.blocks)
    pairs = zip(batched, looped, strict=True)
    if not all(np.allclose(b, lo, rtol=1e-4, atol=1e-6) for b, lo in pairs):
        return failed("vmap and loop per-example gradients differ", rec.metrics, info)
    check = W.grads_check("per-example gradient norms and sums", batched, 1e-3)
    return ok(rec.metrics, info, noisy=rec.noisy, check=check)


# -- train_step ---------------------------------------------------------------------------

def probe_train_step(ctx: Context) -> dict[str, Any]:
    rec = Recorder()
    family = model_family(ctx)
    dtype_name = workload_dtype(ctx)
    dtype = DTYPES[dtype_name]
    size, requested = batch_size(ctx, DEVICE.platform != "cpu")
    model = W.spec(family)
    weights = [_put(p, dtype) for p in W.init_params(model)]
    xb, yb = W.batch(model, size)
    x, y = _put(xb, dtype), jax.device_put(jnp.asarray(yb), DEVICE)
    initial_loss = float(jax.jit(lambda p: _loss(family, p, x, y))(weights))
    start = time.perf_counter()
    step = jax.jit(make_step(family)).lower(weights, x, y).compile()
    rec.put("compile_s", single(time.perf_counter() - start, "s"))
    state = [weights]

    def call() -> jax.Array:
        state[0], loss = step(state[0], x, y)
        return loss

    t = measure(call, sync, ctx.budget)
    check = rec.train_step(t, size=size, family=family, dtype_name=dtype_name,
                           initial_loss=initial_loss)
    params = _params(dtype=dtype_name, model=family, batch=size, requested_batch=requested,
                     example_shape=list(model.example), mode="jax.jit(value_and_grad + SGD)",
                     blocks=rec.blocks)
    return ok(rec.metrics, params, noisy=rec.noisy, check=check)


# -- scale --------------------------------------------------------------------------------

def probe_scale(ctx: Context) -> dict[str, Any]:
    from probes.scale_jax import run_local

    return run_local(ctx)


PROBES: dict[str, Callable[[Context], dict[str, Any]]] = {
    "matmul": probe_matmul,
    "jit": probe_jit,
    "autodiff": probe_autodiff,
    "vmap": probe_vmap,
    "train_step": probe_train_step,
    "scale": probe_scale,
}
