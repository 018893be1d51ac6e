"""What runs at each level, for how long, and how to install what is missing."""

from __future__ import annotations

import os
from dataclasses import dataclass

FRAMEWORKS: tuple[str, ...] = ("pytorch", "jax", "tensorflow")
LEVELS: tuple[str, ...] = ("quick", "standard", "full")

# Probe ids in the order they run.
LEVEL_PROBES: dict[str, tuple[str, ...]] = {
    "quick": ("matmul", "autodiff"),
    "standard": ("matmul", "jit", "autodiff", "vmap", "train_step"),
    "full": ("matmul", "jit", "autodiff", "vmap", "train_step", "scale"),
}

# The probes each framework implements.
SUPPORTED: dict[str, frozenset[str]] = {
    "pytorch": frozenset(LEVEL_PROBES["full"]),
    "jax": frozenset(LEVEL_PROBES["full"]),
    "tensorflow": frozenset({"matmul", "jit", "autodiff"}),
}

# Probes that need a subprocess of their own (different process-wide settings).
OWN_PROCESS: dict[str, frozenset[str]] = {"jax": frozenset({"scale"})}

# Python module each framework imports, and the distributions that carry it.
IMPORT_NAME = {"pytorch": "torch", "jax": "jax", "tensorflow": "tensorflow"}
DISTRIBUTIONS = {
    "pytorch": ("torch",),
    "jax": ("jax",),
    "tensorflow": ("tensorflow", "tensorflow-cpu", "tensorflow-macos", "tf-nightly"),
}
INSTALL = {
    "pytorch": "pip install torch --index-url https://download.pytorch.org/whl/cpu "
    "(the CPU build; GPU builds: https://pytorch.org/get-started/locally/)",
    "jax": 'pip install -U jax (CPU; for NVIDIA GPUs: pip install -U "jax[cuda13]")',
    "tensorflow": 'pip install "framework-advisor[tensorflow]" (or: pip install tensorflow-cpu)',
}

# Seconds a child may spend importing its framework, and each probe, before it is killed.
IMPORT_TIMEOUT = 120.0
PROBE_TIMEOUT: dict[str, float] = {
    "matmul": 90.0,
    "jit": 120.0,
    "autodiff": 60.0,
    "vmap": 90.0,
    "train_step": 120.0,
    "scale": 300.0,
}
FULL_JIT_TIMEOUT = 400.0  # a cold torch.compile needs gcc and minutes on a small CPU

TIMEOUT_ENV = "ADVISOR_PROBE_TIMEOUT"  # caps every probe's timeout (seconds); for tests
TIME_SCALE_ENV = "ADVISOR_PROBE_TIME_SCALE"  # scales replicate time budgets; used by tests
HIDE_ENV = "ADVISOR_PROBE_HIDE"  # comma-separated frameworks to treat as not installed


@dataclass(frozen=True)
class Budget:
    """How long to take replicates of one measurement."""

    min_time: float  # keep sampling at least this long (seconds)
    max_time: float  # stop here even if the spread is still large
    min_reps: int = 7
    target_rel_iqr: float = 0.10  # IQR/median below which a result is steady
    warmup_time: float = 0.05


_BUDGETS = {
    "quick": Budget(min_time=0.3, max_time=1.2),
    "standard": Budget(min_time=0.25, max_time=0.8),
    "full": Budget(min_time=1.0, max_time=3.0, min_reps=10),
}


def budget(level: str) -> Budget:
    """The replicate budget of ``level``, scaled by $ADVISOR_PROBE_TIME_SCALE if set."""
    base = _BUDGETS[level]
    scale = _env_float(TIME_SCALE_ENV)
    if scale is None or scale <= 0:
        return base
    return Budget(
        min_time=base.min_time * scale,
        max_time=base.max_time * scale,
        min_reps=min(base.min_reps, 3) if scale < 1 else base.min_reps,
        target_rel_iqr=base.target_rel_iqr,
        warmup_time=base.warmup_time * min(scale, 1.0),
    )


def timeout_for(probe: str, level: str) -> float:
    """Seconds ``probe`` may run at ``level`` (capped by $ADVISOR_PROBE_TIMEOUT)."""
    seconds = FULL_JIT_TIMEOUT if (probe == "jit" and level == "full") else PROBE_TIMEOUT[probe]
    return _capped(seconds)


def import_timeout() -> float:
    """Seconds a child may take to import its framework (not capped by the test variable)."""
    return IMPORT_TIMEOUT


def _capped(seconds: float) -> float:
    cap = _env_float(TIMEOUT_ENV)
    return min(seconds, cap) if cap and cap > 0 else seconds


def _env_float(name: str) -> float | None:
    raw = os.environ.get(name, "").strip()
    if not raw:
        return None
    try:
        return float(raw)
    except ValueError:
        return None


def hidden_frameworks() -> set[str]:
    """Frameworks that $ADVISOR_PROBE_HIDE asks to treat as missing ('all' hides every one)."""
    raw = {p.strip().lower() for p in os.environ.get(HIDE_ENV, "").split(",") if p.strip()}
    return set(FRAMEWORKS) if "all" in raw else raw & set(FRAMEWORKS)
