"""What the parent can learn about the machine without importing any framework."""

from __future__ import annotations

import importlib.metadata
import importlib.util
import os
import platform
import sys
from functools import lru_cache
from pathlib import Path
from typing import Any

from probes.catalog import DISTRIBUTIONS, FRAMEWORKS, IMPORT_NAME, hidden_frameworks

# CPU flags that matter for these workloads (x86 vector/matrix units, Arm SIMD).
INTERESTING_FLAGS = (
    "sse4_2",
    "avx",
    "avx2",
    "fma",
    "f16c",
    "avx512f",
    "avx512bw",
    "avx512vl",
    "avx512_vnni",
    "avx512_bf16",
    "avx512_fp16",
    "avx_vnni",
    "amx_tile",
    "amx_bf16",
    "amx_int8",
    "amx_fp16",
    "asimd",
    "sve",
    "sve2",
    "bf16",
    "i8mm",
)
ENV_PREFIXES = (
    "JAX_",
    "XLA_",
    "OMP_",
    "MKL_",
    "KMP_",
    "OPENBLAS_",
    "TORCH",
    "PYTORCH_",
    "TF_CPP_",
    "TF_ENABLE_",
    "TF_XLA_",
    "TF_GPU_",
    "TF_FORCE_",
    "TF_NUM_",
    "TF_DETERMINISTIC_OPS",
    "TF_USE_LEGACY_KERAS",
    "KERAS_BACKEND",
    "CUDA_VISIBLE_DEVICES",
    "HIP_VISIBLE_DEVICES",
    "ROCR_VISIBLE_DEVICES",
    "NCCL_",
    "TPU_",
    "ADVISOR_PROBE_",
)
SECRET_WORDS = ("TOKEN", "SECRET", "PASSWORD", "KEY", "CREDENTIAL")


@lru_cache(maxsize=1)
def cpuinfo() -> dict[str, Any]:
    """CPU model, selected flags, physical cores and logical CPUs."""
    model = platform.processor() or platform.machine()
    flags: set[str] = set()
    cores: set[tuple[str, str]] = set()
    try:
        text = Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace")
    except OSError:
        text = ""
    physical = core = ""
    for line in text.splitlines():
        key, _, value = line.partition(":")
        key, value = key.strip(), value.strip()
        if key in ("model name", "Model", "cpu model") and value:
            model = value
        elif key in ("flags", "Features"):
            flags.update(value.split())
        elif key == "physical id":
            physical = value
        elif key == "core id":
            core = value
            cores.add((physical, core))
    logical = os.cpu_count() or 1
    return {
        "model": model,
        "flags": [f for f in INTERESTING_FLAGS if f in flags],
        "cores": len(cores) or logical,
        "logical_cpus": logical,
        "available_cpus": available_cpus(),
        "affinity": affinity(),
        "cpu_quota": cpu_quota(),
        "arch": platform.machine(),
    }


def affinity() -> list[int]:
    """The CPUs this process may run on."""
    try:
        return sorted(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return list(range(os.cpu_count() or 1))


def cpu_quota() -> float | None:
    """CPUs' worth of time the cgroup allows (cgroup v2 cpu.max, or v1 cfs quota); None: no cap."""
    for quota_file, period_file in (
        ("/sys/fs/cgroup/cpu.max", None),
        ("/sys/fs/cgroup/cpu/cpu.cfs_quota_us", "/sys/fs/cgroup/cpu/cpu.cfs_period_us"),
    ):
        try:
            text = Path(quota_file).read_text(encoding="ascii").split()
            if period_file is None:
                quota, period = text[0], text[1]
            else:
                quota, period = text[0], Path(period_file).read_text(encoding="ascii").strip()
        except (OSError, IndexError):
            continue
        if quota in ("max", "-1"):
            return None
        try:
            return max(float(quota) / float(period), 0.01)
        except (ValueError, ZeroDivisionError):
            return None
    return None


def available_cpus() -> int:
    """CPUs this process can really use: its affinity, capped by the cgroup's quota."""
    count = len(affinity())
    quota = cpu_quota()
    return max(1, min(count, int(quota + 0.5))) if quota is not None else count


def memory_gb() -> float | None:
    """Total RAM in GiB."""
    try:
        for line in Path("/proc/meminfo").read_text(encoding="ascii").splitlines():
            if line.startswith("MemTotal:"):
                return round(int(line.split()[1]) / 1024**2, 1)
    except (OSError, ValueError, IndexError):
        pass
    try:
        return round(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 1024**3, 1)
    except (ValueError, OSError, AttributeError):
        return None


def os_info() -> dict[str, Any]:
    return {
        "system": platform.system(),
        "release": platform.release(),
        "platform": platform.platform(),
        "machine": platform.machine(),
    }


def python_info() -> dict[str, Any]:
    return {
        "version": platform.python_version(),
        "implementation": platform.python_implementation(),
        "executable": sys.executable,
    }


def env_vars() -> dict[str, str]:
    """Settings that change what the frameworks do (secret-looking names are redacted)."""
    out = {}
    for name, value in sorted(os.environ.items()):
        if name.startswith(ENV_PREFIXES):
            out[name] = "<redacted>" if any(w in name.upper() for w in SECRET_WORDS) else value
    return out


def framework_version(framework: str) -> str | None:
    """Installed version from package metadata, without importing the framework."""
    for dist in DISTRIBUTIONS[framework]:
        try:
            return importlib.metadata.version(dist)
        except importlib.metadata.PackageNotFoundError:
            continue
    return None


def is_installed(framework: str) -> bool:
    """True if the framework's module can be found (and is not hidden by $ADVISOR_PROBE_HIDE)."""
    if framework in hidden_frameworks():
        return False
    try:
        return importlib.util.find_spec(IMPORT_NAME[framework]) is not None
    except (ImportError, ValueError):
        return False


def installed_versions() -> dict[str, str | None]:
    """{framework: version or None when not installed}."""
    return {
        fw: (framework_version(fw) or "unknown") if is_installed(fw) else None for fw in FRAMEWORKS
    }


def accelerator_hints() -> dict[str, Any]:
    """Device nodes that betray an accelerator (for the cache key; frameworks decide the rest)."""
    hints: dict[str, Any] = {}
    dev = Path("/dev")
    try:
        names = sorted(p.name for p in dev.iterdir())
    except OSError:
        names = []
    hints["nvidia"] = sum(1 for n in names if n.startswith("nvidia") and n[6:].isdigit())
    hints["amd"] = "kfd" in names
    hints["accel"] = sum(1 for n in names if n.startswith("accel"))
    hints["vfio"] = sum(1 for n in names if n == "vfio")
    return hints


def load_average() -> float | None:
    try:
        return round(os.getloadavg()[0], 2)
    except (AttributeError, OSError):
        return None
