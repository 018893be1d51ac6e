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
    return (rng.standard_normal((n, n), dtype=np.float32),
            rng.standard_normal((n, n), dtype=np.float32))


def matmul_check(product: np.ndarray) -> dict[str, object]:
    """A few entries and the norm of A@B, to compare across frameworks."""
    c = np.asarray(product, dtype=np.float64)
    n = c.shape[0]
    values = [c[0, 0], c[n // 3, n // 2], c[-1, -1], float(np.linalg.norm(c))]
    return {"name": "matmul fp32: C[0,0], C[n/3,n/2], C[-1,-1] and the norm of C",
            "values": [float(v) for v in values], "scale": float(np.sqrt(n)), "rtol": 1e-3}


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
    """A small model family: parameter shapes and the shape of one input example."""

    family: str
    params: tuple[tuple[str, tuple[int, ...]], ...]
    example: tuple[int, ...]


def spec(family: str) -> ModelSpec:
    """The model the train_step probe imitates for a workload's model family."""
    if family == "cnn":
        return ModelSpec("cnn", (
            ("c1", (16, 3, 3, 3)), ("c1b", (16,)),
            ("c2", (32, 16, 3, 3)), ("c2b", (32,)),
            ("c3", (64, 32, 3, 3)), ("c3b", (64,)),
            ("w", (64, CLASSES)), ("b", (CLASSES,)),
        ), (3, 32, 32))
    if family == "transformer":
        d, hidden = 128, 512
        return ModelSpec("transformer", (
            ("wq", (d, d)), ("wk", (d, d)), ("wv", (d, d)), ("wo", (d, d)),
            ("w1", (d, hidden)), ("b1", (hidden,)), ("w2", (hidden, d)), ("b2", (d,)),
            ("w", (d, CLASSES)), ("b", (CLASSES,)),
        ), (64, d))
    if family == "rnn":
        return ModelSpec("rnn", (
            ("wx", (64, 128)), ("wh", (128, 128)), ("bh", (128,)),
            ("w", (128, CLASSES)), ("b", (CLASSES,)),
        ), (32, 64))
    return ModelSpec("mlp", (
        ("w1", (784, 512)), ("b1", (512,)),
        ("w2", (512, 512)), ("b2", (512,)),
        ("w3", (512, CLASSES)), ("b3", (CLASSES,)),
    ), (784,))


TRANSFORMER_HEADS = 4


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
