"""JAX behind the Backend protocol (imported only inside a worker subprocess)."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from probes.suite.common import cpu_threads_available, max_rss_bytes

_CONFIG: Any = jax.config  # its flags are dynamic attributes
DTYPES = {"float32": jnp.float32, "bfloat16": jnp.bfloat16, "float16": jnp.float16}


def device_kind(device: Any) -> str:
    """Map a JAX device to the advisor's accelerator kinds."""
    platform = str(getattr(device, "platform", "cpu")).lower()
    if platform == "tpu":
        return "tpu"
    if platform in ("gpu", "cuda", "rocm"):
        version = str(getattr(getattr(device, "client", None), "platform_version", "")).lower()
        return "amd_gpu" if (platform == "rocm" or "rocm" in version) else "nvidia_gpu"
    return "apple_silicon" if platform == "metal" else "cpu"


class JaxBackend:
    """JAX: every computation under ``jax.jit``; the first (compiling) call is warm-up."""

    name = "jax"
    usual_train_compiled = True
    on_accelerator: bool
    autodiff_method = "jax.grad, jax.grad(jax.grad)"

    def __init__(self, threads: int | None = None) -> None:
        self.device = jax.devices()[0]  # the default backend: TPU or GPU when present, else CPU
        self.on_accelerator = self.device.platform != "cpu"
        self._mm = jax.jit(jnp.matmul)

    def environment(self) -> dict[str, Any]:
        devices = [
            {
                "kind": device_kind(d),
                "name": str(getattr(d, "device_kind", d.platform)),
                "platform": d.platform,
                "index": int(d.id),
            }
            for d in jax.devices()
        ]
        return {
            "version": jax.__version__,
            "devices": devices,
            "build": {
                "backend": jax.default_backend(),
                "x64": bool(_CONFIG.jax_enable_x64),
                "jaxlib": getattr(getattr(jax, "lib", None), "__version__", None),
            },
            "threads": {
                "xla_cpu": cpu_threads_available(),
                "xla_flags": os.environ.get("XLA_FLAGS", ""),
            },
        }

    def params(self, **extra: Any) -> dict[str, Any]:
        threads = cpu_threads_available() if not self.on_accelerator else None
        return {"device": f"{self.device.platform}:{self.device.id}", "threads": threads, **extra}

    def put(self, a: np.ndarray, dtype: str = "float32") -> jax.Array:
        return jax.device_put(jnp.asarray(a, dtype=DTYPES[dtype]), self.device)

    def labels(self, y: np.ndarray) -> jax.Array:
        return jax.device_put(jnp.asarray(y), self.device)

    def numpy(self, x: Any) -> np.ndarray:
        return np.asarray(jnp.asarray(x).astype(jnp.float32))

    def sync(self, out: Any = None) -> Any:
        return jax.block_until_ready(out)

    # -- compute ---------------------------------------------------------------------------
    def matmul(self) -> tuple[Callable[..., Any], str, dict[str, Any]]:
        # On NVIDIA GPUs JAX's default float32 matmul may use TF32; the cross-framework
        # check then shows how far its results drift.
        return (
            self._mm,
            "jax.jit(jnp.matmul), block_until_ready",
            {"default_matmul_precision": str(_CONFIG.jax_default_matmul_precision)},
        )

    def compile(
        self, fn: Callable[..., Any], *example: Any
    ) -> tuple[Callable[..., Any], float | None, str]:
        start = time.perf_counter()
        compiled = jax.jit(fn).lower(*example).compile()  # ahead of time: compile time alone
        return compiled, time.perf_counter() - start, "jax.jit (XLA), lower().compile()"

    def derivatives(self, f: Callable[[Any], Any], x0: float) -> tuple[float, float]:
        x = jnp.float32(x0)
        return float(jax.grad(f)(x)), float(jax.grad(jax.grad(f))(x))

    def grad(
        self, loss: Callable[..., Any], params: list[Any], *args: Any
    ) -> tuple[Callable[[], Sequence[Any]], str]:
        fn = jax.jit(jax.grad(loss))
        return (lambda: fn(params, *args)), "jax.jit(jax.grad)"

    def per_example_grads(
        self, loss: Callable[..., Any], params: list[Any], x: Any, y: Any
    ) -> tuple[Callable[[], Any], Callable[[], list[Any]], str]:
        one = jax.jit(jax.grad(loss))
        per_example = jax.jit(jax.vmap(jax.grad(loss), in_axes=(None, 0, 0)))
        xs, ys = [x[i] for i in range(x.shape[0])], [y[i] for i in range(y.shape[0])]

        def loop() -> list[Any]:
            return [one(params, xi, yi) for xi, yi in zip(xs, ys, strict=True)]

        return (
            (lambda: per_example(params, x, y)),
            loop,
            ("jax.jit(jax.vmap(jax.grad)) vs a Python loop of jax.jit(jax.grad)"),
        )

    def train_step(
        self, loss: Callable[..., Any], params: list[Any], x: Any, y: Any, lr: float, compiled: bool
    ) -> tuple[Callable[[], Any], float | None, str]:
        step_fn = make_step(loss, lr)
        start = time.perf_counter()
        step = jax.jit(step_fn).lower(params, x, y).compile() if compiled else step_fn
        compile_s = time.perf_counter() - start if compiled else None
        state = [params]

        def call() -> Any:
            state[0], value = step(state[0], x, y)
            return value

        mode = "jax.jit(value_and_grad + SGD)" if compiled else "eager value_and_grad + SGD"
        return call, compile_s, mode

    def peak_memory(self) -> tuple[float | None, str]:
        stats = self.device.memory_stats() if self.on_accelerator else None
        if stats and "peak_bytes_in_use" in stats:
            return float(stats["peak_bytes_in_use"]), "device memory_stats()['peak_bytes_in_use']"
        return max_rss_bytes(), "peak resident set of the worker process"

    # -- model operations ----------------------------------------------------------------
    def relu(self, x: Any) -> Any:
        return jax.nn.relu(x)

    def tanh(self, x: Any) -> Any:
        return jnp.tanh(x)

    def gelu(self, x: Any) -> Any:
        return jax.nn.gelu(x, approximate=True)

    def layer_norm(self, x: Any) -> Any:
        mean = x.mean(-1, keepdims=True)
        var = ((x - mean) ** 2).mean(-1, keepdims=True)
        return (x - mean) / jnp.sqrt(var + 1e-5)

    def softmax(self, x: Any) -> Any:
        return jax.nn.softmax(x, axis=-1)

    def conv2d(self, x: Any, w: Any, b: Any, stride: int) -> Any:
        out = jax.lax.conv_general_dilated(
            x, w, (stride, stride), [(1, 1), (1, 1)], dimension_numbers=("NCHW", "OIHW", "NCHW")
        )
        return out + b[None, :, None, None]

    def mean(self, x: Any, axes: tuple[int, ...]) -> Any:
        return x.mean(axis=axes)

    def reshape(self, x: Any, shape: tuple[int, ...]) -> Any:
        return x.reshape(shape)

    def transpose(self, x: Any, perm: tuple[int, ...]) -> Any:
        return x.transpose(perm)

    def cross_entropy(self, logits: Any, y: Any) -> Any:
        logp = jax.nn.log_softmax(logits.astype(jnp.float32), axis=-1)
        return -jnp.take_along_axis(logp, y[:, None], axis=-1).mean()

    def rnn(self, x: Any, wx: Any, wh: Any, bh: Any) -> Any:
        def cell(h: Any, xt: Any) -> tuple[Any, None]:
            return jnp.tanh(xt @ wx + h @ wh + bh), None

        h0 = jnp.zeros((x.shape[0], wh.shape[0]), dtype=x.dtype)
        h, _ = jax.lax.scan(cell, h0, x.transpose(1, 0, 2))
        return h


def make_step(loss: Callable[..., Any], lr: float) -> Callable[..., Any]:
    """One SGD step (not yet jitted): (params, x, y) -> (new params, loss)."""

    def step(p: list[Any], x: Any, y: Any) -> tuple[list[Any], Any]:
        value, grads = jax.value_and_grad(loss)(p, x, y)
        return [w - (lr * g).astype(w.dtype) for w, g in zip(p, grads, strict=True)], value

    return step


def load(threads: int | None = None) -> JaxBackend:
    return JaxBackend(threads)
