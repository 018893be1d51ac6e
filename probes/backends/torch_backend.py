"""PyTorch behind the Backend protocol (imported only inside a worker subprocess)."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import torch
import torch.nn.functional as F

from probes.suite.common import max_rss_bytes

DTYPES = {"float32": torch.float32, "bfloat16": torch.bfloat16, "float16": torch.float16}


def _pick_device() -> torch.device:
    if torch.cuda.is_available():  # NVIDIA (CUDA) and AMD (ROCm/HIP) builds both answer here
        return torch.device("cuda", 0)
    mps = getattr(torch.backends, "mps", None)
    if mps is not None and mps.is_available():
        return torch.device("mps")
    return torch.device("cpu")


class TorchBackend:
    """PyTorch: eager by default, ``torch.compile`` (inductor) when asked to compile."""

    name = "pytorch"
    usual_train_compiled = False
    on_accelerator: bool
    autodiff_method = "torch.autograd.grad"

    def __init__(self, threads: int | None = None) -> None:
        if threads:
            torch.set_num_threads(threads)
        self.device = _pick_device()
        self.on_accelerator = self.device.type != "cpu"

    # -- place, wait, read back ----------------------------------------------------------
    def kind(self) -> str:
        if self.device.type == "cuda":
            return "amd_gpu" if getattr(torch.version, "hip", None) else "nvidia_gpu"
        return "apple_silicon" if self.device.type == "mps" else "cpu"

    def environment(self) -> dict[str, Any]:
        if torch.cuda.is_available():
            devices = [
                {"kind": self.kind(), "name": torch.cuda.get_device_name(i), "index": i}
                for i in range(torch.cuda.device_count())
            ]
        elif self.device.type == "mps":
            devices = [{"kind": "apple_silicon", "name": "mps", "index": 0}]
        else:
            devices = [{"kind": "cpu", "name": "cpu", "index": 0}]
        cpu = getattr(torch.backends, "cpu", None)
        return {
            "version": torch.__version__,
            "devices": devices,
            "build": {
                "cuda": torch.version.cuda,
                "hip": getattr(torch.version, "hip", None),
                "cpu_capability": cpu.get_cpu_capability() if cpu else None,
                "mkldnn": torch.backends.mkldnn.is_available(),
                "openmp": torch.backends.openmp.is_available(),
            },
            "threads": {
                "intra_op": torch.get_num_threads(),
                "inter_op": torch.get_num_interop_threads(),
            },
        }

    def params(self, **extra: Any) -> dict[str, Any]:
        return {"device": str(self.device), "threads": torch.get_num_threads(), **extra}

    def put(self, a: np.ndarray, dtype: str = "float32") -> torch.Tensor:
        t = torch.from_numpy(np.array(a, order="C", copy=True))
        return t.to(self.device, DTYPES[dtype])

    def labels(self, y: np.ndarray) -> torch.Tensor:
        return torch.from_numpy(np.asarray(y)).long().to(self.device)

    def numpy(self, x: Any) -> np.ndarray:
        return x.detach().float().cpu().numpy()

    def sync(self, out: Any = None) -> Any:
        if self.device.type == "cuda":
            torch.cuda.synchronize(self.device)
        elif self.device.type == "mps":
            torch.mps.synchronize()
        return out

    # -- compute ---------------------------------------------------------------------------
    def matmul(self) -> tuple[Callable[..., Any], str, dict[str, Any]]:
        cuda = self.device.type == "cuda"
        return (
            torch.matmul,
            "torch.matmul (eager)",
            {
                "float32_matmul_precision": torch.get_float32_matmul_precision(),
                "cuda_allow_tf32": torch.backends.cuda.matmul.allow_tf32 if cuda else None,
            },
        )

    def compile(
        self, fn: Callable[..., Any], *example: Any
    ) -> tuple[Callable[..., Any], float | None, str]:
        torch._dynamo.reset()
        return torch.compile(fn), None, "torch.compile (inductor)"

    def derivatives(self, f: Callable[[Any], Any], x0: float) -> tuple[float, float]:
        x = torch.tensor(x0, dtype=torch.float32, requires_grad=True)
        (first,) = torch.autograd.grad(f(x), x, create_graph=True)
        (second,) = torch.autograd.grad(first, x)
        return first.item(), second.item()

    def grad(
        self, loss: Callable[..., Any], params: list[Any], *args: Any
    ) -> tuple[Callable[[], Sequence[Any]], str]:
        weights = [p.requires_grad_(True) for p in params]
        return (lambda: torch.autograd.grad(loss(weights, *args), weights)), "eager autograd"

    def per_example_grads(
        self, loss: Callable[..., Any], params: list[Any], x: Any, y: Any
    ) -> tuple[Callable[[], Any], Callable[[], list[Any]], str]:
        from torch.func import grad, vmap

        per_example = vmap(grad(loss), in_dims=(None, 0, 0))
        one = grad(loss)
        xs, ys = list(x.unbind(0)), list(y.unbind(0))

        def loop() -> list[Any]:
            return [one(params, xi, yi) for xi, yi in zip(xs, ys, strict=True)]

        return (
            (lambda: per_example(params, x, y)),
            loop,
            ("torch.func.vmap(torch.func.grad) vs a Python loop of torch.func.grad"),
        )

    def train_step(
        self, loss: Callable[..., Any], params: list[Any], x: Any, y: Any, lr: float, compiled: bool
    ) -> tuple[Callable[[], Any], float | None, str]:
        weights = [p.requires_grad_(True) for p in params]

        def step() -> Any:
            value = loss(weights, x, y)
            grads = torch.autograd.grad(value, weights)
            with torch.no_grad():
                for w, g in zip(weights, grads, strict=True):
                    w.sub_(lr * g)
            return value

        if not compiled:
            return step, None, "eager autograd + SGD"
        torch._dynamo.reset()
        fast = torch.compile(step)
        start = time.perf_counter()
        self.sync(fast())
        return fast, time.perf_counter() - start, "torch.compile (inductor) of the whole step"

    def peak_memory(self) -> tuple[float | None, str]:
        if self.device.type == "cuda":
            return float(torch.cuda.max_memory_allocated(self.device)), (
                "torch.cuda.max_memory_allocated"
            )
        return max_rss_bytes(), "peak resident set of the worker process"

    # -- model operations ----------------------------------------------------------------
    def relu(self, x: Any) -> Any:
        return F.relu(x)

    def tanh(self, x: Any) -> Any:
        return torch.tanh(x)

    def gelu(self, x: Any) -> Any:
        return F.gelu(x, approximate="tanh")

    def layer_norm(self, x: Any) -> Any:
        return F.layer_norm(x, (x.shape[-1],))

    def softmax(self, x: Any) -> Any:
        return torch.softmax(x, dim=-1)

    def conv2d(self, x: Any, w: Any, b: Any, stride: int) -> Any:
        return F.conv2d(x, w, b, stride=stride, padding=1)

    def mean(self, x: Any, axes: tuple[int, ...]) -> Any:
        return x.mean(dim=axes)

    def reshape(self, x: Any, shape: tuple[int, ...]) -> Any:
        return x.reshape(shape)

    def transpose(self, x: Any, perm: tuple[int, ...]) -> Any:
        return x.permute(perm)

    def cross_entropy(self, logits: Any, y: Any) -> Any:
        return F.cross_entropy(logits.float(), y)

    def rnn(self, x: Any, wx: Any, wh: Any, bh: Any) -> Any:
        h = torch.zeros(x.shape[0], wh.shape[0], dtype=x.dtype, device=x.device)
        for t in range(x.shape[1]):
            h = torch.tanh(x[:, t] @ wx + h @ wh + bh)
        return h


def load(threads: int | None = None) -> TorchBackend:
    return TorchBackend(threads)
