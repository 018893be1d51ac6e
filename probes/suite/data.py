"""Seeded inputs and model definitions shared by every framework (NumPy only).

Every framework gets the same arrays, so results can be compared before speed is.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

SEED = 20240917
CLASSES = 10


def matrices(n: int, seed: int = SEED) -> tuple[np.ndarray, np.ndarray]:
    """Two n x n float32 matrices with standard normal entries."""
    rng = np.random.default_rng(seed + n)
    return (
        rng.standard_normal((n, n), dtype=np.float32),
        rng.standard_normal((n, n), dtype=np.float32),
    )


def matmul_check(product: np.ndarray) -> dict[str, object]:
    """A few entries and the norm of A@B, to compare across frameworks."""
    c = np.asarray(product, dtype=np.float64)
    n = c.shape[0]
    values = [c[0, 0], c[n // 3, n // 2], c[-1, -1], float(np.linalg.norm(c))]
    return {
        "name": "matmul fp32: C[0,0], C[n/3,n/2], C[-1,-1] and the norm of C",
        "values": [float(v) for v in values],
        "scale": float(np.sqrt(n)),
        "rtol": 1e-3,
    }


def chain_input(size: int) -> np.ndarray:
    rng = np.random.default_rng(SEED + 1)
    return rng.uniform(-2.0, 2.0, size).astype(np.float32)


def array_check(name: str, array: np.ndarray, rtol: float) -> dict[str, object]:
    """Sum, sum of absolute values and two entries of an array."""
    a = np.asarray(array, dtype=np.float64).ravel()
    values = [float(a.sum()), float(np.abs(a).sum()), float(a[0]), float(a[-1])]
    scale = float(np.abs(a).mean()) if a.size else 1.0
    return {"name": name, "values": values, "scale": max(scale, 1e-12), "rtol": rtol}


@dataclass(frozen=True)
class ModelSpec:
    """A model family at one size: parameter shapes and the shape of one input example."""

    family: str
    params: tuple[tuple[str, tuple[int, ...]], ...]
    example: tuple[int, ...]
    heads: int = 4


# Sizes per family: "toy" is the train_step probe's; "cpu" and "gpu" the workload probe's.
SIZES: dict[str, dict[str, dict[str, int]]] = {
    "toy": {
        "mlp": {"d_in": 784, "hidden": 512},
        "transformer": {"d": 128, "hidden": 512, "seq": 64, "heads": 4},
        "cnn": {"c1": 16, "c2": 32, "c3": 64, "image": 32},
        "rnn": {"d_in": 64, "hidden": 128, "steps": 32},
    },
    "cpu": {
        "mlp": {"d_in": 784, "hidden": 1024},
        "transformer": {"d": 256, "hidden": 1024, "seq": 64, "heads": 4},
        "cnn": {"c1": 32, "c2": 64, "c3": 128, "image": 32},
        "rnn": {"d_in": 128, "hidden": 256, "steps": 32},
    },
    "gpu": {
        "mlp": {"d_in": 4096, "hidden": 8192},
        "transformer": {"d": 1024, "hidden": 4096, "seq": 512, "heads": 16},
        "cnn": {"c1": 128, "c2": 256, "c3": 512, "image": 64},
        "rnn": {"d_in": 1024, "hidden": 1024, "steps": 64},
    },
}


def spec(family: str, size: str = "toy") -> ModelSpec:
    """The model of ``family`` at ``size`` (toy, cpu or gpu)."""
    if family not in SIZES[size]:
        family = "mlp"
    s = SIZES[size][family]
    if family == "cnn":
        c1, c2, c3 = s["c1"], s["c2"], s["c3"]
        return ModelSpec(
            "cnn",
            (
                ("c1", (c1, 3, 3, 3)),
                ("c1b", (c1,)),
                ("c2", (c2, c1, 3, 3)),
                ("c2b", (c2,)),
                ("c3", (c3, c2, 3, 3)),
                ("c3b", (c3,)),
                ("w", (c3, CLASSES)),
                ("b", (CLASSES,)),
            ),
            (3, s["image"], s["image"]),
        )
    if family == "transformer":
        d, hidden = s["d"], s["hidden"]
        return ModelSpec(
            "transformer",
            (
                ("wq", (d, d)),
                ("wk", (d, d)),
                ("wv", (d, d)),
                ("wo", (d, d)),
                ("w1", (d, hidden)),
                ("b1", (hidden,)),
                ("w2", (hidden, d)),
                ("b2", (d,)),
                ("w", (d, CLASSES)),
                ("b", (CLASSES,)),
            ),
            (s["seq"], d),
            heads=s["heads"],
        )
    if family == "rnn":
        h = s["hidden"]
        return ModelSpec(
            "rnn",
            (
                ("wx", (s["d_in"], h)),
                ("wh", (h, h)),
                ("bh", (h,)),
                ("w", (h, CLASSES)),
                ("b", (CLASSES,)),
            ),
            (s["steps"], s["d_in"]),
        )
    h = s["hidden"]
    return ModelSpec(
        "mlp",
        (
            ("w1", (s["d_in"], h)),
            ("b1", (h,)),
            ("w2", (h, h)),
            ("b2", (h,)),
            ("w3", (h, CLASSES)),
            ("b3", (CLASSES,)),
        ),
        (s["d_in"],),
    )


def forward_flops(model: ModelSpec, batch: int) -> float:
    """Multiply-add FLOPs (2 per multiply-add) of one forward pass of ``batch`` examples.

    Matrix products and convolutions only; elementwise work, norms and softmax are not
    counted (the usual convention for model FLOP utilisation).
    """
    shapes = dict(model.params)
    if model.family == "cnn":
        size, total = model.example[1], 0.0
        for name, stride in (("c1", 1), ("c2", 2), ("c3", 2)):
            c_out, c_in, kh, kw = shapes[name]
            size = (size + 2 - kh) // stride + 1
            total += 2.0 * c_out * size * size * c_in * kh * kw
        return batch * (total + 2.0 * shapes["w"][0] * shapes["w"][1])
    if model.family == "transformer":
        seq, d = model.example
        hidden = shapes["w1"][1]
        per_token = 8.0 * d * d + 4.0 * d * hidden + 4.0 * seq * d
        return batch * (seq * per_token + 2.0 * d * shapes["w"][1])
    if model.family == "rnn":
        steps, d_in = model.example
        h = shapes["wh"][0]
        return batch * (steps * 2.0 * (d_in * h + h * h) + 2.0 * h * shapes["w"][1])
    return batch * sum(2.0 * shape[0] * shape[1] for _n, shape in model.params if len(shape) == 2)


def train_flops(model: ModelSpec, batch: int) -> float:
    """One training step: forward plus backward, counted as three forward passes."""
    return 3.0 * forward_flops(model, batch)


def init_params(model: ModelSpec, seed: int = SEED) -> list[np.ndarray]:
    """Normal(0, 1/fan_in) weights, zero biases, float32."""
    rng = np.random.default_rng(seed)
    out = []
    for _name, shape in model.params:
        if len(shape) == 1:
            out.append(np.zeros(shape, dtype=np.float32))
            continue
        fan_in = int(np.prod(shape[1:])) if len(shape) == 4 else shape[0]
        out.append((rng.standard_normal(shape) / np.sqrt(fan_in)).astype(np.float32))
    return out


def batch(model: ModelSpec, size: int, seed: int = SEED) -> tuple[np.ndarray, np.ndarray]:
    """Synthetic inputs (float32) and integer labels."""
    rng = np.random.default_rng(seed + 7)
    x = rng.standard_normal((size, *model.example)).astype(np.float32)
    y = rng.integers(0, CLASSES, size=size).astype(np.int32)
    return x, y


# The per-example gradient model of the vmap probe: d -> hidden (tanh) -> 1, squared error.
VMAP_IN, VMAP_HIDDEN = 32, 64


def vmap_problem(size: int) -> tuple[list[np.ndarray], np.ndarray, np.ndarray]:
    rng = np.random.default_rng(SEED + 11)
    params = [
        (rng.standard_normal((VMAP_IN, VMAP_HIDDEN)) / np.sqrt(VMAP_IN)).astype(np.float32),
        np.zeros(VMAP_HIDDEN, dtype=np.float32),
        (rng.standard_normal((VMAP_HIDDEN,)) / np.sqrt(VMAP_HIDDEN)).astype(np.float32),
        np.zeros((), dtype=np.float32),
    ]
    x = rng.standard_normal((size, VMAP_IN)).astype(np.float32)
    y = rng.standard_normal(size).astype(np.float32)
    return params, x, y


def grads_check(name: str, grads: list[np.ndarray], rtol: float) -> dict[str, object]:
    """Norm and sum of each gradient array."""
    values: list[float] = []
    for g in grads:
        a = np.asarray(g, dtype=np.float64)
        values += [float(np.linalg.norm(a)), float(a.sum())]
    scale = max(float(np.mean(np.abs(values))), 1e-12) if values else 1.0
    return {"name": name, "values": values, "scale": scale, "rtol": rtol}


def polynomial(x: Any) -> Any:
    """The article's f(x) = x^2 + 3x + 5; f'(2) = 7 and f''(2) = 2 exactly."""
    return x * x + 3.0 * x + 5.0
