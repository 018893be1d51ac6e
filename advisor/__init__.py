"""advisor: choose between PyTorch, JAX and TensorFlow with checkable evidence."""

__version__ = "0.1.0"
