"""TensorFlow probes: matmul, jit and autodiff (imported only inside a worker subprocess)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import numpy as np
import tensorflow as tf

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
    cpu_threads_available,
    failed,
    ok,
)
from probes.stats import exact, ratio, single
from probes.timing import measure


def _devices() -> list[Any]:
    return tf.config.list_logical_devices()


def _pick_device() -> str:
    for kind in ("TPU", "GPU"):
        found = tf.config.list_logical_devices(kind)
        if found:
            return found[0].name
    return "/device:CPU:0"


DEVICE = _pick_device()
ON_ACCELERATOR = "CPU" not in DEVICE


def sync(out: Any = None) -> Any:
    """Eager CPU ops are synchronous; on accelerators wait for queued work."""
    if ON_ACCELERATOR:
        sync_devices = getattr(getattr(tf.test, "experimental", None), "sync_devices", None)
        if sync_devices is not None:
            sync_devices()
        elif out is not None:
            _ = out.numpy() if hasattr(out, "numpy") else out
    return out


def _kind(device_type: str) -> str:
    if device_type == "TPU":
        return "tpu"
    if device_type == "GPU":
        rocm = bool(tf.sysconfig.get_build_info().get("is_rocm_build", False))
        return "amd_gpu" if rocm else "nvidia_gpu"
    return "cpu"


def environment() -> dict[str, Any]:
    devices = []
    for index, physical in enumerate(tf.config.list_physical_devices()):
        if physical.device_type not in ("CPU", "GPU", "TPU"):
            continue
        name = physical.name
        if physical.device_type == "GPU":
            details = tf.config.experimental.get_device_details(physical)
            name = details.get("device_name", name)
        devices.append({"kind": _kind(physical.device_type), "name": name, "index": index})
    if any(d["kind"] != "cpu" for d in devices):
        devices = [d for d in devices if d["kind"] != "cpu"]
    build = tf.sysconfig.get_build_info()
    return {
        "version": tf.__version__,
        "devices": devices,
        "build": {"cuda": build.get("cuda_version"), "rocm": build.get("is_rocm_build", False)},
        "threads": {"intra_op": tf.config.threading.get_intra_op_parallelism_threads() or
                    cpu_threads_available(),
                    "inter_op": tf.config.threading.get_inter_op_parallelism_threads()},
    }


def _params(**extra: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "device": DEVICE,
        "threads": tf.config.threading.get_intra_op_parallelism_threads() or
        cpu_threads_available(),
    }
    base.update(extra)
    return base


def _tensor(a: np.ndarray, dtype: tf.DType = tf.float32) -> tf.Tensor:
    with tf.device(DEVICE):
        return tf.cast(tf.constant(a), dtype)


# -- matmul -------------------------------------------------------------------------------

def probe_matmul(ctx: Context) -> dict[str, Any]:
    rec = Recorder()
    a_np, b_np = W.matrices(MATMUL_N)
    a, b = _tensor(a_np), _tensor(b_np)
    flop = 2.0 * MATMUL_N**3
    with tf.device(DEVICE):
        t = measure(lambda: tf.linalg.matmul(a, b), sync, ctx.budget)
        rec.time("seconds", t)
        rec.rate("gflops", t, flop / 1e9, "GFLOP/s")
        check = W.matmul_check(tf.linalg.matmul(a, b).numpy())
        dtypes = ["float32"]
        if ctx.standard:
            a16, b16 = tf.cast(a, tf.bfloat16), tf.cast(b, tf.bfloat16)
            t16 = measure(lambda: tf.linalg.matmul(a16, b16), sync, ctx.budget)
            rec.rate("gflops_bf16", t16, flop / 1e9, "GFLOP/s")
            dtypes.append("bfloat16")
            for n in SWEEP_SIZES:
                x_np, y_np = W.matrices(n)
                x, y = _tensor(x_np), _tensor(y_np)
                tn = measure(lambda x=x, y=y: tf.linalg.matmul(x, y), sync, ctx.budget)
                rec.rate(f"gflops_n{n}", tn, 2.0 * n**3 / 1e9, "GFLOP/s")
    params = _params(dtype="float32", shape=[MATMUL_N, MATMUL_N], dtypes=dtypes,
                     sweep=list(SWEEP_SIZES) if ctx.standard else [],
                     op="tf.linalg.matmul (eager)", blocks=rec.blocks)
    return ok(rec.metrics, params, noisy=rec.noisy, check=check)


# -- jit ----------------------------------------------------------------------------------

def chain(x: tf.Tensor) -> tf.Tensor:
    for _ in range(CHAIN_STEPS):  # tanh-approximated GELU plus a residual, written out
        x = 0.5 * x * (1.0 + tf.tanh(GELU_C * (x + 0.044715 * x * x * x))) + 0.1 * x
    return x


def probe_jit(ctx: Context) -> dict[str, Any]:
    rec = Recorder()
    x = _tensor(W.chain_input(CHAIN_SIZE))
    with tf.device(DEVICE):
        eager = measure(lambda: chain(x), sync, ctx.budget)
        rec.time("eager_ms", eager, 1e3, "ms")
        compiled_fn = tf.function(chain, jit_compile=True)
        start = time.perf_counter()
        first = sync(compiled_fn(x))  # traces and compiles with XLA
        first_call = time.perf_counter() - start
        compiled = measure(lambda: compiled_fn(x), sync, ctx.budget)
        rec.time("compiled_ms", compiled, 1e3, "ms")
        reference = chain(x).numpy()
    rec.put("speedup", ratio(rec.metrics["eager_ms"], rec.metrics["compiled_ms"], "x"))
    rec.put("compile_s", single(max(first_call - compiled.median, 0.0), "s"))
    out = first.numpy()
    params = _params(dtype="float32", shape=[CHAIN_SIZE], chain=CHAIN,
                     compiler="tf.function(jit_compile=True) (XLA)", blocks=rec.blocks)
    if not np.allclose(out, reference, rtol=1e-4, atol=1e-5):
        return failed("tf.function's result differs from eager", rec.metrics, params)
    check = W.array_check("chain output", out, 1e-4)
    return ok(rec.metrics, params, noisy=rec.noisy, check=check)


# -- autodiff -----------------------------------------------------------------------------

def _mlp_loss(p: list[tf.Variable], x: tf.Tensor, y: tf.Tensor) -> tf.Tensor:
    h = tf.nn.relu(x @ p[0] + p[1])
    h = tf.nn.relu(h @ p[2] + p[3])
    logits = h @ p[4] + p[5]
    return tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(y, logits))


def probe_autodiff(ctx: Context) -> dict[str, Any]:
    rec = Recorder()
    x = tf.Variable(2.0, dtype=tf.float32)
    with tf.GradientTape() as outer:
        with tf.GradientTape() as inner:
            y = W.polynomial(x)
        first_t = inner.gradient(y, x)
    second_t = outer.gradient(first_t, x)
    first, second = float(first_t.numpy()), float(second_t.numpy())
    rec.put("grad_at_2", exact(first, "value"))
    rec.put("second_derivative", exact(second, "value"))
    params = _params(dtype="float32", function="x^2 + 3x + 5 at x=2",
                     method="tf.GradientTape")
    check = None
    if ctx.standard:
        model = W.spec("mlp")
        with tf.device(DEVICE):
            weights = [tf.Variable(p) for p in W.init_params(model)]
            xb, yb = W.batch(model, 64)
            xt, yt = _tensor(xb), tf.constant(yb.astype(np.int64))

            @tf.function
            def grad_call() -> list[tf.Tensor]:
                with tf.GradientTape() as tape:
                    loss = _mlp_loss(weights, xt, yt)
                return tape.gradient(loss, weights)

            t = measure(grad_call, sync, ctx.budget)
            rec.time("mlp_grad_ms", t, 1e3, "ms")
            grads = [g.numpy() for g in grad_call()]
        check = W.grads_check("MLP gradient norms and sums", grads, 1e-3)
        params.update(mlp="784-512-512-10, batch 64",
                      mlp_mode="tf.function(GradientTape), no XLA", blocks=rec.blocks)
    result = ok(rec.metrics, params, noisy=rec.noisy, check=check)
    if first != 7.0 or second != 2.0:
        result.update(status="failed", reason=f"f'(2) = {first!r} and f''(2) = {second!r}; "
                      "expected exactly 7.0 and 2.0")
    return result


PROBES: dict[str, Callable[[Context], dict[str, Any]]] = {
    "matmul": probe_matmul,
    "jit": probe_jit,
    "autodiff": probe_autodiff,
}
