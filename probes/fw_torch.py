"""PyTorch probes (imported only inside a worker subprocess)."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import torch
import torch.nn.functional as F

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
    failed,
    model_family,
    ok,
    skipped,
    workload_dtype,
)
from probes.stats import exact, ratio, single
from probes.timing import measure

DTYPES = {"float32": torch.float32, "bfloat16": torch.bfloat16, "float16": torch.float16}


def _pick_device() -> torch.device:
    if torch.cuda.is_available():  # NVIDIA (CUDA) and AMD (ROCm/HIP) builds both answer here
        return torch.device("cuda", 0)
    mps = getattr(torch.backends, "mps", None)
    if mps is not None and mps.is_available():
        return torch.device("mps")
    return torch.device("cpu")


DEVICE = _pick_device()


def sync(out: Any = None) -> Any:
    """Wait for queued device work before the clock stops."""
    if DEVICE.type == "cuda":
        torch.cuda.synchronize(DEVICE)
    elif DEVICE.type == "mps":
        torch.mps.synchronize()
    return out


def device_kind() -> str:
    if DEVICE.type == "cuda":
        return "amd_gpu" if getattr(torch.version, "hip", None) else "nvidia_gpu"
    if DEVICE.type == "mps":
        return "apple_silicon"
    return "cpu"


def environment() -> dict[str, Any]:
    devices = []
    if torch.cuda.is_available():
        for i in range(torch.cuda.device_count()):
            devices.append({"kind": device_kind(), "name": torch.cuda.get_device_name(i),
                            "index": i})
    elif DEVICE.type == "mps":
        devices.append({"kind": "apple_silicon", "name": "mps", "index": 0})
    else:
        devices.append({"kind": "cpu", "name": "cpu", "index": 0})
    cpu = getattr(torch.backends, "cpu", None)
    return {
        "version": torch.__version__,
        "devices": devices,
        "build": {"cuda": torch.version.cuda, "hip": getattr(torch.version, "hip", None),
                  "cpu_capability": cpu.get_cpu_capability() if cpu else None,
                  "mkldnn": torch.backends.mkldnn.is_available()},
        "threads": {"intra_op": torch.get_num_threads(),
                    "inter_op": torch.get_num_interop_threads()},
    }


def _params(**extra: Any) -> dict[str, Any]:
    base = {"device": str(DEVICE), "threads": torch.get_num_threads()}
    base.update(extra)
    return base


def _tensor(a: np.ndarray, dtype: torch.dtype = torch.float32) -> torch.Tensor:
    return torch.from_numpy(np.array(a, order="C", copy=True)).to(DEVICE, dtype)


# -- matmul -------------------------------------------------------------------------------

def probe_matmul(ctx: Context) -> dict[str, Any]:
    rec = Recorder()
    a_np, b_np = W.matrices(MATMUL_N)
    a, b = _tensor(a_np), _tensor(b_np)
    flop = 2.0 * MATMUL_N**3
    t = measure(lambda: torch.matmul(a, b), sync, ctx.budget)
    rec.time("seconds", t)
    rec.rate("gflops", t, flop / 1e9, "GFLOP/s")
    check = W.matmul_check(torch.matmul(a, b).float().cpu().numpy())
    dtypes = ["float32"]
    if ctx.standard:
        a16, b16 = a.to(torch.bfloat16), b.to(torch.bfloat16)
        t16 = measure(lambda: torch.matmul(a16, b16), sync, ctx.budget)
        rec.rate("gflops_bf16", t16, flop / 1e9, "GFLOP/s")
        dtypes.append("bfloat16")
        for n in SWEEP_SIZES:
            x_np, y_np = W.matrices(n)
            x, y = _tensor(x_np), _tensor(y_np)
            tn = measure(lambda x=x, y=y: torch.matmul(x, y), sync, ctx.budget)
            rec.rate(f"gflops_n{n}", tn, 2.0 * n**3 / 1e9, "GFLOP/s")
    params = _params(dtype="float32", shape=[MATMUL_N, MATMUL_N], dtypes=dtypes,
                     sweep=list(SWEEP_SIZES) if ctx.standard else [],
                     op="torch.matmul (eager)", blocks=rec.blocks,
                     float32_matmul_precision=torch.get_float32_matmul_precision(),
                     cuda_allow_tf32=(torch.backends.cuda.matmul.allow_tf32
                                      if DEVICE.type == "cuda" else None))
    return ok(rec.metrics, params, noisy=rec.noisy, check=check)


# -- jit ----------------------------------------------------------------------------------

def chain(x: torch.Tensor) -> torch.Tensor:
    for _ in range(CHAIN_STEPS):  # tanh-approximated GELU plus a residual, written out
        x = 0.5 * x * (1.0 + torch.tanh(GELU_C * (x + 0.044715 * x * x * x))) + 0.1 * x
    return x


def probe_jit(ctx: Context) -> dict[str, Any]:
    mode = ctx.options.get("torch_compile", "cold")
    if mode == "skip":
        return skipped("torch.compile's cache is cold; run --level full to measure it")
    rec = Recorder()
    x = _tensor(W.chain_input(CHAIN_SIZE))
    eager = measure(lambda: chain(x), sync, ctx.budget)
    rec.time("eager_ms", eager, 1e3, "ms")
    torch._dynamo.reset()
    compiled_fn = torch.compile(chain)
    start = time.perf_counter()
    first = sync(compiled_fn(x))
    first_call = time.perf_counter() - start
    compiled = measure(lambda: compiled_fn(x), sync, ctx.budget)
    rec.time("compiled_ms", compiled, 1e3, "ms")
    rec.put("speedup", ratio(rec.metrics["eager_ms"], rec.metrics["compiled_ms"], "x"))
    rec.put("compile_s", single(max(first_call - compiled.median, 0.0), "s"))
    agree = torch.allclose(first, chain(x), rtol=1e-4, atol=1e-5)
    params = _params(dtype="float32", shape=[CHAIN_SIZE], chain=CHAIN,
                     compiler="torch.compile (inductor)", compile_cache=mode,
                     inductor_cache_dir=os.environ.get("TORCHINDUCTOR_CACHE_DIR"),
                     blocks=rec.blocks)
    if not agree:
        return failed("torch.compile's result differs from eager", rec.metrics, params)
    check = W.array_check("chain output", first.float().cpu().numpy(), 1e-4)
    return ok(rec.metrics, params, noisy=rec.noisy, check=check)


# -- autodiff -----------------------------------------------------------------------------

def probe_autodiff(ctx: Context) -> dict[str, Any]:
    rec = Recorder()
    x = torch.tensor(2.0, dtype=torch.float32, requires_grad=True)
    (first,) = torch.autograd.grad(W.polynomial(x), x, create_graph=True)
    (second,) = torch.autograd.grad(first, x)
    rec.put("grad_at_2", exact(first.item(), "value"))
    rec.put("second_derivative", exact(second.item(), "value"))
    params = _params(dtype="float32", function="x^2 + 3x + 5 at x=2",
                     method="torch.autograd.grad")
    check = None
    if ctx.standard:
        model = W.spec("mlp")
        weights = [_tensor(p).requires_grad_(True) for p in W.init_params(model)]
        xb, yb = W.batch(model, 64)
        xt, yt = _tensor(xb), torch.from_numpy(yb).long().to(DEVICE)

        def grad_call() -> tuple[torch.Tensor, ...]:
            return torch.autograd.grad(_loss("mlp", weights, xt, yt), weights)

        t = measure(grad_call, sync, ctx.budget)
        rec.time("mlp_grad_ms", t, 1e3, "ms")
        grads = [g.float().cpu().numpy() for g in grad_call()]
        check = W.grads_check("MLP gradient norms and sums", grads, 1e-3)
        params.update(mlp="784-512-512-10, batch 64", mlp_mode="eager autograd",
                      blocks=rec.blocks)
    result = ok(rec.metrics, params, noisy=rec.noisy, check=check)
    if first.item() != 7.0 or second.item() != 2.0:
        result.update(status="failed", reason=f"f'(2) = {first.item()!r} and f''(2) = "
                      f"{second.item()!r}; expected exactly 7.0 and 2.0")
    return result


# -- models -------------------------------------------------------------------------------

def _forward(family: str, p: list[torch.Tensor], x: torch.Tensor) -> torch.Tensor:
    if family == "cnn":
        h = F.relu(F.conv2d(x, p[0], p[1], stride=1, padding=1))
        h = F.relu(F.conv2d(h, p[2], p[3], stride=2, padding=1))
        h = F.relu(F.conv2d(h, p[4], p[5], stride=2, padding=1))
        return h.mean(dim=(2, 3)) @ p[6] + p[7]
    if family == "transformer":
        wq, wk, wv, wo, w1, b1, w2, b2, w, b = p
        bsz, seq, d = x.shape
        heads = W.TRANSFORMER_HEADS

        def split(t: torch.Tensor) -> torch.Tensor:
            return t.reshape(bsz, seq, heads, d // heads).transpose(1, 2)

        h = F.layer_norm(x, (d,))
        q, k, v = split(h @ wq), split(h @ wk), split(h @ wv)
        att = torch.softmax(q @ k.transpose(-1, -2) / (d // heads) ** 0.5, dim=-1) @ v
        x = x + att.transpose(1, 2).reshape(bsz, seq, d) @ wo
        h = F.layer_norm(x, (d,))
        x = x + F.gelu(h @ w1 + b1, approximate="tanh") @ w2 + b2
        return x.mean(dim=1) @ w + b
    if family == "rnn":
        wx, wh, bh, w, b = p
        h = torch.zeros(x.shape[0], wh.shape[0], dtype=x.dtype, device=x.device)
        for t in range(x.shape[1]):
            h = torch.tanh(x[:, t] @ wx + h @ wh + bh)
        return h @ w + b
    h = F.relu(x @ p[0] + p[1])
    h = F.relu(h @ p[2] + p[3])
    return h @ p[4] + p[5]


def _loss(family: str, p: list[torch.Tensor], x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    return F.cross_entropy(_forward(family, p, x).float(), y)


# -- vmap ---------------------------------------------------------------------------------

def _example_loss(p: tuple[torch.Tensor, ...], x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    w1, b1, w2, b2 = p
    return (torch.tanh(x @ w1 + b1) @ w2 + b2 - y) ** 2


def probe_vmap(ctx: Context) -> dict[str, Any]:
    from torch.func import grad, vmap

    rec = Recorder()
    size, requested = batch_size(ctx, DEVICE.type != "cpu")
    size = min(size, 256)
    params_np, x_np, y_np = W.vmap_problem(size)
    params = tuple(_tensor(p) for p in params_np)
    x, y = _tensor(x_np), _tensor(y_np)
    xs, ys = list(x.unbind(0)), list(y.unbind(0))
    per_example = vmap(grad(_example_loss), in_dims=(None, 0, 0))
    one = grad(_example_loss)

    def loop() -> list[tuple[torch.Tensor, ...]]:
        return [one(params, xi, yi) for xi, yi in zip(xs, ys, strict=True)]

    tv = measure(lambda: per_example(params, x, y), sync, ctx.budget)
    tl = measure(loop, sync, ctx.budget)
    rec.time("vmap_ms", tv, 1e3, "ms")
    rec.time("loop_ms", tl, 1e3, "ms")
    rec.put("speedup", ratio(rec.metrics["loop_ms"], rec.metrics["vmap_ms"], "x"))
    batched = [g.cpu().numpy() for g in per_example(params, x, y)]
    looped = [np.stack([g[i].cpu().numpy() for g in loop()]) for i in range(len(params))]
    info = _params(dtype="float32", batch=size, requested_batch=requested,
                   model=f"{W.VMAP_IN}-{W.VMAP_HIDDEN}-1 tanh, squared error",
                   method="torch.func.vmap(torch.func.grad) vs a Python loop of torch.func.grad",
                   blocks=rec.blocks)
    pairs = zip(batched, looped, strict=True)
    if not all(np.allclose(b, lo, rtol=1e-4, atol=1e-6) for b, lo in pairs):
        return failed("vmap and loop per-example gradients differ", rec.metrics, info)
    check = W.grads_check("per-example gradient norms and sums", batched, 1e-3)
    return ok(rec.metrics, info, noisy=rec.noisy, check=check)


# -- train_step ---------------------------------------------------------------------------

LEARNING_RATE = 0.01


def probe_train_step(ctx: Context) -> dict[str, Any]:
    rec = Recorder()
    family = model_family(ctx)
    dtype_name = workload_dtype(ctx)
    dtype = DTYPES[dtype_name]
    size, requested = batch_size(ctx, DEVICE.type != "cpu")
    model = W.spec(family)
    weights = [_tensor(p, dtype).requires_grad_(True) for p in W.init_params(model)]
    xb, yb = W.batch(model, size)
    x, y = _tensor(xb, dtype), torch.from_numpy(yb).long().to(DEVICE)
    with torch.no_grad():
        initial_loss = float(_loss(family, weights, x, y))

    def step() -> torch.Tensor:
        loss = _loss(family, weights, x, y)
        grads = torch.autograd.grad(loss, weights)
        with torch.no_grad():
            for w, g in zip(weights, grads, strict=True):
                w.sub_(LEARNING_RATE * g)
        return loss

    t = measure(step, sync, ctx.budget)
    check = rec.train_step(t, size=size, family=family, dtype_name=dtype_name,
                           initial_loss=initial_loss)
    params = _params(dtype=dtype_name, model=family, batch=size, requested_batch=requested,
                     example_shape=list(model.example), mode="eager autograd + SGD",
                     blocks=rec.blocks)
    return ok(rec.metrics, params, noisy=rec.noisy, check=check)


# -- scale --------------------------------------------------------------------------------

def probe_scale(ctx: Context) -> dict[str, Any]:
    from probes.scale_torch import run_local

    return run_local(ctx, accelerators=torch.cuda.device_count() if DEVICE.type == "cuda" else 0)


PROBES: dict[str, Callable[[Context], dict[str, Any]]] = {
    "matmul": probe_matmul,
    "jit": probe_jit,
    "autodiff": probe_autodiff,
    "vmap": probe_vmap,
    "train_step": probe_train_step,
    "scale": probe_scale,
}
