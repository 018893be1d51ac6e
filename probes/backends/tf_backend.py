"""TensorFlow behind the Backend protocol (imported only inside a worker subprocess)."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import tensorflow as tf

from probes.suite.common import cpu_threads_available, max_rss_bytes

DTYPES = {"float32": tf.float32, "bfloat16": tf.bfloat16, "float16": tf.float16}


def _pick_device() -> str:
    for kind in ("TPU", "GPU"):
        found = tf.config.list_logical_devices(kind)
        if found:
            return str(found[0].name)
    return "/device:CPU:0"


def _kind(device_type: str) -> str:
    if device_type == "TPU":
        return "tpu"
    if device_type == "GPU":
        rocm = bool(tf.sysconfig.get_build_info().get("is_rocm_build", False))
        return "amd_gpu" if rocm else "nvidia_gpu"
    return "cpu"


class TensorFlowBackend:
    """TensorFlow: eager ops, ``tf.function`` graphs, XLA with ``jit_compile=True``."""

    name = "tensorflow"
    usual_train_compiled = True
    on_accelerator: bool
    autodiff_method = "tf.GradientTape"

    def __init__(self, threads: int | None = None) -> None:
        if threads:
            tf.config.threading.set_intra_op_parallelism_threads(threads)
        self.device = _pick_device()
        self.on_accelerator = "CPU" not in self.device

    def environment(self) -> dict[str, Any]:
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
            "threads": {
                "intra_op": self._threads(),
                "inter_op": tf.config.threading.get_inter_op_parallelism_threads(),
            },
        }

    def _threads(self) -> int:
        return tf.config.threading.get_intra_op_parallelism_threads() or cpu_threads_available()

    def params(self, **extra: Any) -> dict[str, Any]:
        return {"device": self.device, "threads": self._threads(), **extra}

    def put(self, a: np.ndarray, dtype: str = "float32") -> Any:
        with tf.device(self.device):
            return tf.cast(tf.constant(a), DTYPES[dtype])

    def labels(self, y: np.ndarray) -> Any:
        with tf.device(self.device):
            return tf.constant(np.asarray(y).astype(np.int64))

    def numpy(self, x: Any) -> np.ndarray:
        return np.asarray(tf.cast(x, tf.float32).numpy())

    def sync(self, out: Any = None) -> Any:
        """Eager CPU ops are synchronous; on accelerators wait for queued work."""
        if self.on_accelerator:
            experimental = getattr(tf.test, "experimental", None)
            sync_devices = getattr(experimental, "sync_devices", None)
            if sync_devices is not None:
                sync_devices()
            elif out is not None and hasattr(out, "numpy"):
                out.numpy()
        return out

    # -- compute ---------------------------------------------------------------------------
    def matmul(self) -> tuple[Callable[..., Any], str, dict[str, Any]]:
        return (
            tf.linalg.matmul,
            "tf.linalg.matmul (eager)",
            {
                "tf32": tf.config.experimental.tensor_float_32_execution_enabled()
                if self.on_accelerator
                else None
            },
        )

    def compile(
        self, fn: Callable[..., Any], *example: Any
    ) -> tuple[Callable[..., Any], float | None, str]:
        return tf.function(fn, jit_compile=True), None, "tf.function(jit_compile=True) (XLA)"

    def derivatives(self, f: Callable[[Any], Any], x0: float) -> tuple[float, float]:
        x = tf.Variable(x0, dtype=tf.float32)
        with tf.GradientTape() as outer:
            with tf.GradientTape() as inner:
                y = f(x)
            first = inner.gradient(y, x)
        second = outer.gradient(first, x)
        return float(first.numpy()), float(second.numpy())

    def grad(
        self, loss: Callable[..., Any], params: list[Any], *args: Any
    ) -> tuple[Callable[[], Sequence[Any]], str]:
        with tf.device(self.device):
            weights = [tf.Variable(p) for p in params]

        @tf.function
        def call() -> Any:
            with tf.GradientTape() as tape:
                value = loss(weights, *args)
            return tape.gradient(value, weights)

        return call, "tf.function(GradientTape), no XLA"

    def per_example_grads(
        self, loss: Callable[..., Any], params: list[Any], x: Any, y: Any
    ) -> tuple[Callable[[], Any], Callable[[], list[Any]], str]:
        raise NotImplementedError("the vmap probe does not run on TensorFlow")

    def train_step(
        self, loss: Callable[..., Any], params: list[Any], x: Any, y: Any, lr: float, compiled: bool
    ) -> tuple[Callable[[], Any], float | None, str]:
        with tf.device(self.device):
            weights = [tf.Variable(p) for p in params]

        def step() -> Any:
            with tf.GradientTape() as tape:
                value = loss(weights, x, y)
            for w, g in zip(weights, tape.gradient(value, weights), strict=True):
                w.assign_sub(tf.cast(lr, w.dtype) * g)
            return value

        fast = tf.function(step, jit_compile=compiled)
        start = time.perf_counter()
        with tf.device(self.device):
            self.sync(fast())
        label = "tf.function(jit_compile=True) (XLA)" if compiled else "tf.function, no XLA"
        return fast, time.perf_counter() - start, label

    def peak_memory(self) -> tuple[float | None, str]:
        if self.on_accelerator:
            info = tf.config.experimental.get_memory_info(self.device.split("device:")[-1])
            return float(info["peak"]), "tf.config.experimental.get_memory_info()['peak']"
        return max_rss_bytes(), "peak resident set of the worker process"

    # -- model operations ----------------------------------------------------------------
    def relu(self, x: Any) -> Any:
        return tf.nn.relu(x)

    def tanh(self, x: Any) -> Any:
        return tf.tanh(x)

    def gelu(self, x: Any) -> Any:
        return tf.nn.gelu(x, approximate=True)

    def layer_norm(self, x: Any) -> Any:
        mean = tf.reduce_mean(x, -1, keepdims=True)
        var = tf.reduce_mean((x - mean) ** 2, -1, keepdims=True)
        return (x - mean) / tf.sqrt(var + 1e-5)

    def softmax(self, x: Any) -> Any:
        return tf.nn.softmax(x, axis=-1)

    def conv2d(self, x: Any, w: Any, b: Any, stride: int) -> Any:
        # CPU kernels need NHWC: convert, convolve with explicit symmetric padding, convert back.
        nhwc = tf.transpose(x, (0, 2, 3, 1))
        out = tf.nn.conv2d(
            nhwc,
            tf.transpose(w, (2, 3, 1, 0)),
            strides=stride,
            padding=[[0, 0], [1, 1], [1, 1], [0, 0]],
        )
        return tf.transpose(out + b, (0, 3, 1, 2))

    def mean(self, x: Any, axes: tuple[int, ...]) -> Any:
        return tf.reduce_mean(x, axis=list(axes))

    def reshape(self, x: Any, shape: tuple[int, ...]) -> Any:
        return tf.reshape(x, shape)

    def transpose(self, x: Any, perm: tuple[int, ...]) -> Any:
        return tf.transpose(x, perm)

    def cross_entropy(self, logits: Any, y: Any) -> Any:
        logits = tf.cast(logits, tf.float32)
        return tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(y, logits))

    def rnn(self, x: Any, wx: Any, wh: Any, bh: Any) -> Any:
        h = tf.zeros((tf.shape(x)[0], wh.shape[0]), dtype=x.dtype)
        for t in range(x.shape[1]):
            h = tf.tanh(x[:, t] @ wx + h @ wh + bh)
        return h


def load(threads: int | None = None) -> TensorFlowBackend:
    return TensorFlowBackend(threads)
