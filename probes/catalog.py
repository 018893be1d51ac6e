"""The one catalog: the frameworks the probes know, every probe, the levels and their budgets.

Everything else (the worker's dispatch, the parent's plan, timeouts, the cache key, the
headline of a progress line, which metric two frameworks are compared on) derives from
here. Standard library only: the parent and the worker both import it.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

LEVELS: tuple[str, ...] = ("quick", "standard", "full")
NOISE_THRESHOLD = 0.10
"""IQR/median at or above this is noisy; a ratio within this of 1.0 is no measurable difference."""
METHOD_VERSION = "2"
"""Part of the cache key, with the catalog and the measuring code's own text."""


@dataclass(frozen=True)
class FrameworkSpec:
    """One candidate framework: THE registry entry (advisor/frameworks.py reads it from here,
    since probes may import nothing from advisor)."""

    id: str  # the key in profiles, rules, facts and JSON output
    label: str  # the name a reader sees
    import_name: str  # the Python module the backend imports
    distributions: tuple[str, ...]  # pip distributions that provide it
    install: str  # the plain install line shown when it is missing
    backend: str  # module implementing the Backend protocol (imported in the worker only)
    scale: str | None = None  # module with run_local(ctx, backend) for the scale probe
    long_name: str = ""  # the name in the team-experience question; default: label
    # framework-advisor's pip extra that installs it (pyproject.toml); None: none, and the
    # "not installed" hint gives the plain install line instead
    extra: str | None = None


FRAMEWORK_SPECS: tuple[FrameworkSpec, ...] = (
    FrameworkSpec(
        id="pytorch",
        label="PyTorch",
        import_name="torch",
        distributions=("torch",),
        install="pip install torch --index-url https://download.pytorch.org/whl/cpu "
        "(the CPU build; GPU builds: https://pytorch.org/get-started/locally/)",
        backend="probes.backends.torch_backend",
        scale="probes.backends.scale_torch",
        extra="torch",
    ),
    FrameworkSpec(
        id="jax",
        label="JAX",
        import_name="jax",
        distributions=("jax",),
        install='pip install -U jax (CPU; for NVIDIA GPUs: pip install -U "jax[cuda13]")',
        backend="probes.backends.jax_backend",
        scale="probes.backends.scale_jax",
        extra="jax",
    ),
    FrameworkSpec(
        id="tensorflow",
        label="TensorFlow",
        import_name="tensorflow",
        distributions=("tensorflow", "tensorflow-cpu", "tensorflow-macos", "tf-nightly"),
        install='pip install "framework-advisor[tensorflow]" (or: pip install tensorflow-cpu)',
        backend="probes.backends.tf_backend",
        long_name="TensorFlow/Keras",
        extra="tensorflow",
    ),
)
FRAMEWORKS: tuple[str, ...] = tuple(f.id for f in FRAMEWORK_SPECS)
IMPORT_NAME = {f.id: f.import_name for f in FRAMEWORK_SPECS}
DISTRIBUTIONS = {f.id: f.distributions for f in FRAMEWORK_SPECS}
INSTALL = {f.id: f.install for f in FRAMEWORK_SPECS}
LABEL = {f.id: f.label for f in FRAMEWORK_SPECS}
ALL = FRAMEWORKS


@dataclass(frozen=True)
class ProbeSpec:
    """One probe: where it runs, how long it may take, what it reports."""

    id: str
    label: str
    level: str  # the lowest level that runs it
    headline: str  # metric shown in progress lines
    timeout: float  # seconds a worker may spend on it before it is killed
    frameworks: tuple[str, ...]
    module: str  # the suite module, written once for every backend
    facts: tuple[str, ...] = ()  # metrics the advisor turns into facts
    compared: str | None = None  # rate compared across frameworks in interleaved rounds
    # further (kernel, rate) pairs compared in rounds, at levels where the probe registers
    # that kernel (the matmul probe's bfloat16 kernel, at standard and above)
    compared_also: tuple[tuple[str, str], ...] = ()
    timed: bool = True  # counts towards the run's noise verdict
    own_process: tuple[str, ...] = ()  # frameworks that need a worker of their own for it
    full_timeout: float | None = None  # a different timeout at the full level

    def comparisons(self) -> tuple[tuple[str, str], ...]:
        """(kernel, rate) pairs compared in interleaved rounds; the main kernel is the id."""
        main = ((self.id, self.compared),) if self.compared else ()
        return main + self.compared_also


PROBES: tuple[ProbeSpec, ...] = (
    ProbeSpec(
        "matmul",
        "Matrix multiply",
        "quick",
        "gflops",
        90.0,
        ALL,
        "probes.suite.matmul",
        facts=("gflops", "gflops_bf16"),
        compared="gflops",
        compared_also=(("matmul_bf16", "gflops_bf16"),),
    ),
    ProbeSpec(
        "jit",
        "JIT compilation",
        "standard",
        "speedup",
        120.0,
        ALL,
        "probes.suite.jit",
        facts=("speedup", "compile_s"),
        full_timeout=400.0,
    ),
    ProbeSpec(
        "autodiff",
        "Automatic differentiation",
        "quick",
        "grad_at_2",
        60.0,
        ALL,
        "probes.suite.autodiff",
        timed=False,
    ),
    ProbeSpec(
        "vmap",
        "Per-example gradients (vmap)",
        "standard",
        "speedup",
        90.0,
        ("pytorch", "jax"),
        "probes.suite.vmap",
        facts=("speedup",),
    ),
    ProbeSpec(
        "train_step",
        "Training step",
        "standard",
        "steps_per_s",
        120.0,
        ALL,
        "probes.suite.train_step",
        facts=("steps_per_s",),
        compared="steps_per_s",
    ),
    ProbeSpec(
        "workload",
        "Your workload, compiled",
        "standard",
        "steps_per_s",
        240.0,
        ALL,
        "probes.suite.workload",
        facts=("mfu", "steps_per_s", "compile_s"),
        compared="steps_per_s",
    ),
    ProbeSpec(
        "scale",
        "Data-parallel scaling",
        "full",
        "efficiency",
        300.0,
        ("pytorch", "jax"),
        "probes.suite.scale",
        facts=("efficiency",),
        own_process=("jax",),
    ),
)
BY_ID: dict[str, ProbeSpec] = {p.id: p for p in PROBES}


def spec(probe_id: str) -> ProbeSpec:
    return BY_ID[probe_id]


def level_probes(level: str) -> tuple[str, ...]:
    """Probe ids that run at ``level``, in the order they run."""
    rank = LEVELS.index(level)
    return tuple(p.id for p in PROBES if LEVELS.index(p.level) <= rank)


def planned(framework: str, level: str) -> list[str]:
    """The probes ``framework`` runs at ``level``."""
    return [p for p in level_probes(level) if framework in BY_ID[p].frameworks]


def ok_median(record: Any, metric: str) -> float | None:
    """The median of ``metric`` in an ok probe record (a dict or a ProbeRecord), else None."""
    data = record.to_json() if hasattr(record, "to_json") else record
    if not isinstance(data, dict) or data.get("status") != "ok":
        return None
    m = (data.get("metrics") or {}).get(metric)
    value = m.get("median") if isinstance(m, dict) else None
    return float(value) if isinstance(value, (int, float)) else None


def is_noisy(rel_spread: float) -> bool:
    return rel_spread >= NOISE_THRESHOLD


# -- budgets and timeouts -------------------------------------------------------------------

IMPORT_TIMEOUT = 120.0
TIMEOUT_ENV = "ADVISOR_PROBE_TIMEOUT"  # caps every probe's timeout (seconds); for tests
TIME_SCALE_ENV = "ADVISOR_PROBE_TIME_SCALE"  # scales replicate time budgets; used by tests
HIDE_ENV = "ADVISOR_PROBE_HIDE"  # comma-separated frameworks to treat as not installed


@dataclass(frozen=True)
class Budget:
    """How long to take replicates of one measurement."""

    min_time: float  # keep sampling at least this long (seconds)
    max_time: float  # stop here even if the spread is still large
    min_reps: int = 7
    target_rel_iqr: float = NOISE_THRESHOLD
    warmup_time: float = 0.05


_BUDGETS = {
    "quick": Budget(min_time=0.3, max_time=1.2),
    "standard": Budget(min_time=0.2, max_time=0.6),
    "full": Budget(min_time=1.0, max_time=3.0, min_reps=10),
}


@dataclass(frozen=True)
class Rounds:
    """Interleaved comparison rounds at one level: how many, and seconds per framework each."""

    count: int
    seconds: float


ROUNDS = {"quick": Rounds(5, 0.06), "standard": Rounds(6, 0.10), "full": Rounds(10, 0.25)}


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


def rounds(level: str) -> Rounds:
    base = ROUNDS[level]
    scale = _env_float(TIME_SCALE_ENV)
    if scale is None or scale <= 0:
        return base
    return Rounds(max(3, base.count if scale >= 1 else 4), base.seconds * min(scale, 1.0))


def timeout_for(probe: str, level: str) -> float:
    """Seconds ``probe`` may run at ``level`` (capped by $ADVISOR_PROBE_TIMEOUT)."""
    p = BY_ID[probe]
    seconds = p.full_timeout if (level == "full" and p.full_timeout) else p.timeout
    cap = _env_float(TIMEOUT_ENV)
    return min(seconds, cap) if cap and cap > 0 else seconds


def probe_timeout_cap() -> float | None:
    """$ADVISOR_PROBE_TIMEOUT in seconds, when set to a positive number."""
    cap = _env_float(TIMEOUT_ENV)
    return cap if cap and cap > 0 else None


def hidden_frameworks() -> set[str]:
    """Frameworks that $ADVISOR_PROBE_HIDE asks to treat as missing ('all' hides every one)."""
    raw = {p.strip().lower() for p in os.environ.get(HIDE_ENV, "").split(",") if p.strip()}
    return set(FRAMEWORKS) if "all" in raw else raw & set(FRAMEWORKS)


ENV_RANGES = {TIME_SCALE_ENV: (0.01, 100.0), TIMEOUT_ENV: (1.0, 86_400.0)}


def _env_float(name: str) -> float | None:
    """A numeric setting; None (the default applies) unless finite and in its range.

    The advisor's CLI refuses such values with an error first; this keeps the library
    safe on its own (``nan`` would otherwise make every probe run to its timeout).
    """
    raw = os.environ.get(name, "").strip()
    try:  # a plain decimal: float() would also read '1_0' as 10
        value = float(raw) if raw and "_" not in raw else None
    except ValueError:
        return None
    low, high = ENV_RANGES.get(name, (-math.inf, math.inf))
    if value is None or not math.isfinite(value) or not low <= value <= high:
        return None
    return value


# -- what a cached figure depends on ------------------------------------------------------

_CODE_DIRS = ("suite", "backends", "measure")
_CODE_FILES = ("catalog.py", "run/worker.py")


def fingerprint() -> str:
    """A hash of the catalog, the budgets and the measuring code's text.

    Part of the cache key, so changing a probe (its spec or its code) never reuses old
    figures, and no version number has to be bumped by hand.
    """
    h = hashlib.sha256()
    data = {
        "method": METHOD_VERSION,
        "frameworks": [asdict(f) for f in FRAMEWORK_SPECS],
        "probes": [asdict(p) for p in PROBES],
        "budgets": {k: asdict(v) for k, v in _BUDGETS.items()},
        "rounds": {k: asdict(v) for k, v in ROUNDS.items()},
        "noise": NOISE_THRESHOLD,
    }
    h.update(json.dumps(data, sort_keys=True).encode())
    root = Path(__file__).resolve().parent
    files = [root / f for f in _CODE_FILES]
    for d in _CODE_DIRS:
        files += sorted((root / d).glob("*.py"))
    for path in files:
        try:
            h.update(path.name.encode() + b"\0" + path.read_bytes())
        except OSError:
            continue
    return h.hexdigest()[:16]
