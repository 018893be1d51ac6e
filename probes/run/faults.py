"""Fault injection, so that the handling of crashes, hangs and errors is really tested.

$ADVISOR_PROBE_FAULT holds comma-separated ``kind:framework:probe`` items, for example
``segv:jax:matmul,hang:pytorch:autodiff``; ``*`` matches any framework or probe.
Kinds: ``segv`` (a real segmentation fault), ``kill`` (SIGKILL, as the kernel's
out-of-memory killer sends), ``hang``, ``raise``, ``oom`` (a real MemoryError under a
lowered address-space limit), ``exit`` (the process exits with status 3) and
``import`` (the framework's import fails, as when it is missing).
"""

from __future__ import annotations

import os
import signal
import time
from dataclasses import dataclass

from probes.catalog import BY_ID, FRAMEWORKS

FAULT_ENV = "ADVISOR_PROBE_FAULT"
KINDS = ("segv", "kill", "hang", "raise", "oom", "exit", "import")


@dataclass(frozen=True)
class Fault:
    kind: str
    framework: str
    probe: str

    def matches(self, framework: str, probe: str) -> bool:
        return self.framework in ("*", framework) and self.probe in ("*", probe)


def parse(text: str | None) -> list[Fault]:
    """Parse a fault spec; malformed items are ignored."""
    faults = []
    for item in (text or "").split(","):
        parts = [p.strip() for p in item.strip().split(":")]
        if len(parts) == 2:
            parts.append("*")
        if len(parts) == 3 and parts[0] in KINDS:
            faults.append(Fault(*parts))
    return faults


def problem(text: str | None) -> str | None:
    """The first item of a fault spec that :func:`parse` would ignore, described; else None.
    (The advisor refuses such a spec before any work; the probes library ignores it.)"""
    for item in (text or "").split(","):
        if not item.strip():
            continue
        parts = [p.strip() for p in item.strip().split(":")]
        if len(parts) not in (2, 3) or parts[0] not in KINDS:
            kinds = ", ".join(KINDS)
            return f"{item.strip()[:40]!r} is not kind:framework[:probe], a kind one of {kinds}"
        if parts[1] not in ("*", *FRAMEWORKS):
            return f"unknown framework {parts[1][:40]!r} (one of {', '.join(FRAMEWORKS)} or *)"
        if len(parts) == 3 and parts[2] not in ("*", *BY_ID):
            return f"unknown probe {parts[2][:40]!r} (one of {', '.join(BY_ID)} or *)"
    return None


def from_env() -> list[Fault]:
    return parse(os.environ.get(FAULT_ENV))


def import_fails(faults: list[Fault], framework: str) -> bool:
    """True if an ``import`` fault targets ``framework``."""
    return any(f.kind == "import" and f.framework in ("*", framework) for f in faults)


def inject(faults: list[Fault], framework: str, probe: str) -> None:
    """Trigger the first fault that matches (child process only)."""
    for fault in faults:
        if fault.kind != "import" and fault.matches(framework, probe):
            _trigger(fault.kind)
            return


def _trigger(kind: str) -> None:
    if kind == "segv":
        import ctypes

        ctypes.string_at(0)  # reads address 0: a genuine SIGSEGV
    elif kind == "kill":
        os.kill(os.getpid(), signal.SIGKILL)
    elif kind == "hang":
        while True:
            time.sleep(3600)
    elif kind == "raise":
        raise RuntimeError("fault injected by ADVISOR_PROBE_FAULT")
    elif kind == "oom":
        _exhaust_memory()
    elif kind == "exit":
        os._exit(3)


def _exhaust_memory() -> None:
    """Lower the address-space limit, then allocate past it: a real MemoryError."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    used = _virtual_memory_bytes()
    limit = used + (256 << 20)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    try:
        hoard = bytearray(512 << 20)
        del hoard
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


def _virtual_memory_bytes() -> int:
    try:
        with open("/proc/self/statm", encoding="ascii") as handle:
            pages = int(handle.read().split()[0])
        return pages * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 4 << 30
