"""The probes' models, written once against the Backend's operations (and ``@``).

mlp: two ReLU layers and a classifier; cnn: three 3x3 convolutions (stride 1, 2, 2) and
global average pooling; transformer: one pre-norm block (multi-head attention and a GELU
MLP) with mean pooling; rnn: a tanh RNN over the sequence. Same seeded parameters and
inputs in every framework, so every framework computes the same loss.
"""

from __future__ import annotations

from typing import Any

from probes.suite.backend import Array, Backend
from probes.suite.data import ModelSpec

LEARNING_RATE = 0.01


def forward(b: Backend, model: ModelSpec, p: list[Array], x: Array) -> Array:
    """Logits of ``x`` under parameters ``p``."""
    if model.family == "cnn":
        h = b.relu(b.conv2d(x, p[0], p[1], 1))
        h = b.relu(b.conv2d(h, p[2], p[3], 2))
        h = b.relu(b.conv2d(h, p[4], p[5], 2))
        return b.mean(h, (2, 3)) @ p[6] + p[7]
    if model.family == "transformer":
        return _transformer(b, model, p, x)
    if model.family == "rnn":
        wx, wh, bh, w, bias = p
        return b.rnn(x, wx, wh, bh) @ w + bias
    h = b.relu(x @ p[0] + p[1])
    h = b.relu(h @ p[2] + p[3])
    return h @ p[4] + p[5]


def _transformer(b: Backend, model: ModelSpec, p: list[Array], x: Array) -> Array:
    wq, wk, wv, wo, w1, b1, w2, b2, w, bias = p
    seq, d = model.example
    heads = model.heads
    batch = -1

    def split(t: Array) -> Array:
        return b.transpose(b.reshape(t, (batch, seq, heads, d // heads)), (0, 2, 1, 3))

    h = b.layer_norm(x)
    q, k, v = split(h @ wq), split(h @ wk), split(h @ wv)
    scores = (q @ b.transpose(k, (0, 1, 3, 2))) * (1.0 / (d // heads) ** 0.5)
    att = b.softmax(scores) @ v
    x = x + b.reshape(b.transpose(att, (0, 2, 1, 3)), (batch, seq, d)) @ wo
    h = b.layer_norm(x)
    x = x + b.gelu(h @ w1 + b1) @ w2 + b2
    return b.mean(x, (1,)) @ w + bias


def loss(b: Backend, model: ModelSpec) -> Any:
    """The cross-entropy loss of ``model`` as a function (params, x, y) -> scalar."""

    def fn(p: list[Array], x: Array, y: Array) -> Array:
        return b.cross_entropy(forward(b, model, p, x), y)

    return fn


def example_loss(b: Backend) -> Any:
    """The vmap probe's per-example loss: a d -> hidden (tanh) -> 1 net, squared error."""

    def fn(p: list[Array], x: Array, y: Array) -> Array:
        w1, b1, w2, b2 = p
        return (b.tanh(x @ w1 + b1) @ w2 + b2 - y) ** 2

    return fn
