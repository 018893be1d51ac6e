"""Interleaved comparison rounds: live workers, alternating A, B, B, A, ... on the same kernel.

Background load then hits every framework alike. Before, between and after the rounds
the parent measures a small calibration kernel and the CPU time other processes take
on our CPUs; when the machine was too busy to compare fairly, every comparison of the
run says so (``distorted``) and carries the reason.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass, field
from typing import Any

from probes import catalog
from probes.env.host import affinity
from probes.env.load import BUSY_CPU, CpuSnapshot, ThreadPlan, other_busy
from probes.measure.calibrate import calibration_rate
from probes.measure.significance import compare
from probes.measure.stats import rel_iqr, round_sig
from probes.records import Comparison
from probes.run.launcher import LiveWorker, NoRound
from probes.run.records import Progress

CALIBRATION_SLOWDOWN = 0.25  # the calibration kernel this much slower than before: distorted
CALIBRATION_SPREAD = 0.25  # or varying this much between rounds


@dataclass
class RoundLog:
    """What happened around the rounds (for the environment block)."""

    rounds: int = 0
    seconds: float = 0.0
    other_busy_cpus: float | None = None
    calibration: list[float] = field(default_factory=list)
    reasons: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def to_json(self, baseline: float) -> dict[str, Any]:
        cal = statistics.median(self.calibration) if self.calibration else None
        return {
            "rounds": self.rounds,
            "seconds_per_round": self.seconds,
            "other_busy_cpus": self.other_busy_cpus,
            "calibration_before": baseline,
            "calibration_during": round_sig(cal, 4) if cal else None,
            "distorted": bool(self.reasons),
            "reasons": self.reasons,
            "errors": self.errors,
        }


def reference(frameworks: list[str]) -> str:
    """The framework others are divided by (PyTorch when measured, as the facts expect)."""
    return "pytorch" if "pytorch" in frameworks else frameworks[0]


def round_timeout(seconds: float) -> float:
    """How long one round may take to answer: generous for a slow machine, but never more
    than $ADVISOR_PROBE_TIMEOUT, which caps every probe's and every round's wait on a
    worker (a framework's import and the gaps between probes keep their own limits, 120 s
    and 60 s: catalog.IMPORT_TIMEOUT, launcher.GAP_TIMEOUT)."""
    allowance = seconds * 20 + 30
    cap = catalog.probe_timeout_cap()
    return min(allowance, cap) if cap else allowance


def run_rounds(
    workers: dict[str, LiveWorker],
    kernels: dict[str, list[str]],
    level: str,
    plan: ThreadPlan,
    baseline: float,
    say: Progress,
) -> tuple[list[Comparison], RoundLog]:
    """Compare every pair (framework, reference) on each compared probe's kernel."""
    setting = catalog.rounds(level)
    log = RoundLog(rounds=setting.count, seconds=setting.seconds)
    jobs = []  # (probe id, kernel, rate, frameworks that registered the kernel)
    for probe in catalog.PROBES:
        if probe.id not in catalog.level_probes(level):
            continue
        for kernel, rate in probe.comparisons():
            fws = [
                fw for fw in catalog.FRAMEWORKS if fw in workers and kernel in kernels.get(fw, [])
            ]
            if len(fws) >= 2:
                jobs.append((probe.id, kernel, rate, fws))
    if not jobs:
        return [], log
    pids = [w.proc.pid for w in workers.values()]
    before = CpuSnapshot.take(pids)
    times: dict[tuple[str, str], list[float]] = {}
    timeout = round_timeout(setting.seconds)
    silent: set[str] = set()  # workers that failed a round: never asked again
    for r in range(setting.count):
        for _probe, kernel, _rate, fws in jobs:
            for fw in fws if r % 2 == 0 else list(reversed(fws)):
                if fw in silent:
                    continue
                answer = workers[fw].round(kernel, setting.seconds, timeout)
                if isinstance(answer, NoRound):
                    log.errors.append(f"{fw} {kernel} round {r + 1}: {answer.reason}")
                    silent.add(fw)
                    log.errors.append(f"{fw}: no more rounds asked of it after that")
                    continue
                times.setdefault((kernel, fw), []).append(statistics.median(answer))
        log.calibration.append(calibration_rate())
    after = CpuSnapshot.take(pids)
    log.other_busy_cpus = other_busy(before, after, plan.cpus or affinity())
    _judge(log, plan, baseline)
    distortion = "; ".join(log.reasons) if log.reasons else None
    comparisons = []
    for probe_id, kernel, rate, fws in jobs:
        ref = reference(fws)
        for fw in fws:
            if fw == ref:
                continue
            num, den = times.get((kernel, fw), []), times.get((kernel, ref), [])
            if len(num) != len(den):  # a failed round: keep only complete pairs
                n = min(len(num), len(den))
                num, den = num[:n], den[:n]
            c = compare(
                probe_id,
                rate,
                "ratio of " + rate,
                fw,
                ref,
                num,
                den,
                distortion=distortion,
                threads=plan.threads,
            )
            comparisons.append(c)
            say(f"compare {kernel}: {c.verdict}")
    return comparisons, log


def _judge(log: RoundLog, plan: ThreadPlan, baseline: float) -> None:
    """Was the machine too busy during the rounds to compare fairly? Fill ``log.reasons``."""
    others = log.other_busy_cpus
    capacity = len(plan.cpus) if plan.cpus else plan.available
    if others is not None and others >= BUSY_CPU and plan.threads + others > capacity + 0.5:
        log.reasons.append(
            f"other processes used {others:.1f} of the {capacity} CPU(s) the workers ran on "
            f"during the comparison rounds, while each framework ran {plan.threads} thread(s)"
        )
    if log.calibration and baseline > 0:
        during = statistics.median(log.calibration)
        if during < (1.0 - CALIBRATION_SLOWDOWN) * baseline:
            log.reasons.append(
                f"the calibration kernel ran {1 - during / baseline:.0%} slower during the "
                "rounds than before the probes"
            )
        if len(log.calibration) >= 3 and rel_iqr(log.calibration) > CALIBRATION_SPREAD:
            log.reasons.append(
                f"the calibration kernel varied by {rel_iqr(log.calibration):.0%} between rounds"
            )
