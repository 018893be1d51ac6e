"""How busy the machine is, and how many threads the workers should use because of it.

Load is read from ``/proc/stat`` for the CPUs this process may use, minus the CPU time
of this process and its workers (``/proc/PID/stat``): what is left is other work on our
CPUs. Where /proc is missing (macOS, Windows) the 1-minute load average stands in.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from probes.env.host import affinity, available_cpus, load_average

THREAD_VARS = (
    "OMP_NUM_THREADS",
    "MKL_NUM_THREADS",
    "OPENBLAS_NUM_THREADS",
    "TF_NUM_INTRAOP_THREADS",
)
PASSIVE_VARS = {"OMP_WAIT_POLICY": "PASSIVE", "KMP_BLOCKTIME": "0"}
BUSY_CPU = 0.25  # other work of at least this many CPUs counts as load


def _ticks_per_second() -> float:
    try:
        return float(os.sysconf("SC_CLK_TCK"))
    except (ValueError, OSError, AttributeError):
        return 100.0


@dataclass
class CpuSnapshot:
    """Busy and total jiffies per CPU, our processes' jiffies, and the time."""

    when: float
    per_cpu: dict[int, tuple[int, int]]
    ours: int

    @classmethod
    def take(cls, pids: Iterable[int] = ()) -> CpuSnapshot:
        per_cpu: dict[int, tuple[int, int]] = {}
        try:
            for line in Path("/proc/stat").read_text(encoding="ascii").splitlines():
                name, _, rest = line.partition(" ")
                if name.startswith("cpu") and name[3:].isdigit():
                    v = [int(x) for x in rest.split()]
                    idle = v[3] + (v[4] if len(v) > 4 else 0)
                    per_cpu[int(name[3:])] = (sum(v[:8]) - idle, sum(v[:8]))
        except (OSError, ValueError):
            pass
        ours = sum(_process_ticks(pid) for pid in {os.getpid(), *pids})
        return cls(time.monotonic(), per_cpu, ours)


def _process_ticks(pid: int) -> int:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text(encoding="ascii").rsplit(")", 1)[1].split()
        return int(fields[11]) + int(fields[12])  # utime + stime, all threads
    except (OSError, IndexError, ValueError):
        return 0


def other_busy(before: CpuSnapshot, after: CpuSnapshot, cpus: Iterable[int]) -> float | None:
    """CPUs' worth of work by other processes on ``cpus`` between two snapshots."""
    wanted = [c for c in cpus if c in before.per_cpu and c in after.per_cpu]
    seconds = after.when - before.when
    if not wanted or seconds <= 0:
        return None
    busy = 0.0
    for c in wanted:
        d_busy = after.per_cpu[c][0] - before.per_cpu[c][0]
        d_total = after.per_cpu[c][1] - before.per_cpu[c][1]
        busy += d_busy / d_total if d_total > 0 else 0.0
    ours = (after.ours - before.ours) / _ticks_per_second() / seconds
    return round(max(0.0, busy - ours), 2)


def busiest_last(before: CpuSnapshot, after: CpuSnapshot, cpus: list[int]) -> list[int]:
    """``cpus`` ordered from the least to the most busy between the snapshots."""

    def busy(c: int) -> float:
        if c not in before.per_cpu or c not in after.per_cpu:
            return 0.0
        total = after.per_cpu[c][1] - before.per_cpu[c][1]
        return (after.per_cpu[c][0] - before.per_cpu[c][0]) / total if total > 0 else 0.0

    return sorted(cpus, key=lambda c: (busy(c), c))


@dataclass
class ThreadPlan:
    """Threads per worker, sized to the CPUs that other work leaves free."""

    available: int
    other_busy: float | None
    threads: int
    cpus: list[int] = field(default_factory=list)  # pinned CPUs; empty when not pinned
    passive: bool = False  # OpenMP threads sleep instead of spinning while waiting
    load_average: float | None = None

    def worker_env(self, user: Mapping[str, str]) -> dict[str, str]:
        """Variables for the workers; a variable the user set is left as the user set it.

        On a free machine nothing is set: each framework keeps its own default pool (for
        example one thread per physical core); under load the pools shrink to the free CPUs.
        """
        wanted = {name: str(self.threads) for name in THREAD_VARS} if self.reduced else {}
        if self.passive:
            wanted.update(PASSIVE_VARS)
        return {k: v for k, v in wanted.items() if k not in user}

    @property
    def reduced(self) -> bool:
        """Fewer threads than available CPUs (because of other work)."""
        return self.threads < self.available

    @property
    def worker_threads(self) -> int:
        """The --threads a worker gets: 0 (framework default) unless reduced."""
        return self.threads if self.reduced else 0

    def to_json(self) -> dict[str, Any]:
        return {
            "available_cpus": self.available,
            "other_busy_cpus": self.other_busy,
            "threads": self.threads,
            "pinned_cpus": self.cpus,
            "omp_wait_policy": "passive" if self.passive else "default",
            "load_average": self.load_average,
        }


def plan_threads(sample_seconds: float = 0.25) -> ThreadPlan:
    """Watch the machine for ``sample_seconds`` and size the workers' thread pools."""
    cpus = affinity()
    available = available_cpus()
    before = CpuSnapshot.take()
    time.sleep(sample_seconds)
    after = CpuSnapshot.take()
    others = other_busy(before, after, cpus)
    load = load_average()
    if others is None and load is not None:  # no /proc: the load average is all there is
        others = max(0.0, load - 1.0)
    free = available - (others or 0.0)
    threads = max(1, min(available, int(free + 0.5)))
    pinned: list[int] = []
    if threads < len(cpus):
        pinned = sorted(busiest_last(before, after, cpus)[:threads])
    passive = threads < available or (others or 0.0) >= BUSY_CPU
    return ThreadPlan(available, others, threads, pinned, passive, load)
