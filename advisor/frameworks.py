"""The three frameworks the advisor chooses between."""

from __future__ import annotations

from enum import Enum


class Framework(str, Enum):
    pytorch = "pytorch"
    jax = "jax"
    tensorflow = "tensorflow"

    def __str__(self) -> str:
        return self.value

    @property
    def display(self) -> str:
        return DISPLAY_NAMES[self.value]


FRAMEWORKS: tuple[str, ...] = tuple(f.value for f in Framework)
DISPLAY_NAMES = {"pytorch": "PyTorch", "jax": "JAX", "tensorflow": "TensorFlow"}
