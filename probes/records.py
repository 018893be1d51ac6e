"""Typed records of a probe run; ``to_json`` gives the wire format (a JSON-ready dict).

The wire format is the contract with the advisor and the cache: every key it had stays,
new keys are only added. ``from_json`` reads it back (unknown keys are kept in ``extra``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

STATUSES = ("ok", "skipped", "failed", "timeout")


@dataclass
class Metric:
    """One figure: median, interquartile range, number of samples, unit."""

    median: float
    iqr: float
    n: int
    unit: str

    def to_json(self) -> dict[str, Any]:
        return {"median": self.median, "iqr": self.iqr, "n": self.n, "unit": self.unit}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Metric:
        return cls(
            float(data["median"]),
            float(data.get("iqr") or 0.0),
            int(data.get("n") or 1),
            str(data.get("unit") or ""),
        )

    @staticmethod
    def valid(data: Any) -> bool:
        return (
            isinstance(data, dict)
            and isinstance(data.get("median"), (int, float))
            and not (isinstance(data.get("median"), bool))
        )


@dataclass
class ProbeRecord:
    """What one probe found for one framework."""

    id: str
    framework: str
    status: str
    reason: str | None = None
    metrics: dict[str, Metric] = field(default_factory=dict)
    params: dict[str, Any] = field(default_factory=dict)
    noisy: bool = False
    seconds: float = 0.0
    check: dict[str, Any] | None = None
    noisy_metrics: list[str] | None = None

    @property
    def ok(self) -> bool:
        return self.status == "ok"

    def median(self, metric: str) -> float | None:
        """The median of ``metric`` when this probe is ok (the one definition)."""
        m = self.metrics.get(metric)
        return m.median if (self.ok and m is not None) else None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": self.id,
            "framework": self.framework,
            "status": self.status,
            "reason": self.reason,
            "metrics": {k: m.to_json() for k, m in self.metrics.items()},
            "params": self.params,
            "noisy": bool(self.noisy),
            "seconds": round(self.seconds, 3),
        }
        if self.check is not None:
            data["check"] = self.check
        if self.noisy_metrics is not None:
            data["noisy_metrics"] = self.noisy_metrics
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ProbeRecord:
        """Read a record (a child's result or a cached one); bad parts are dropped, not raised."""
        status = data.get("status")
        raw: dict[str, Any] = data["metrics"] if isinstance(data.get("metrics"), dict) else {}
        params = data.get("params")
        check = data.get("check")
        noisy_metrics = data.get("noisy_metrics")
        return cls(
            id=str(data.get("id")),
            framework=str(data.get("framework")),
            status=status if status in STATUSES else "failed",
            reason=None if data.get("reason") is None else str(data.get("reason")),
            metrics={str(k): Metric.from_json(m) for k, m in raw.items() if Metric.valid(m)},
            params=params if isinstance(params, dict) else {},
            noisy=bool(data.get("noisy")),
            seconds=float(data.get("seconds") or 0.0),
            check=check if isinstance(check, dict) else None,
            noisy_metrics=list(noisy_metrics) if isinstance(noisy_metrics, list) else None,
        )


@dataclass
class Comparison:
    """Two frameworks compared on one rate, in interleaved rounds.

    ``ratio`` is the numerator framework's rate over the denominator's (median of the
    per-round ratios); ``interval`` a seeded bootstrap interval of that median;
    ``significant`` is true when the interval lies wholly outside 1 +/- ``threshold`` and
    the rounds agree in sign; ``distorted`` when the machine was too busy to compare
    fairly. A rule should score the difference only when significant and not distorted.
    """

    probe: str
    metric: str
    unit: str
    numerator: str
    denominator: str
    ratio: float | None
    interval: tuple[float, float] | None
    confidence: float
    rounds: int
    round_ratios: list[float]
    sign_agreement: float | None
    threshold: float
    significant: bool
    distorted: bool
    reason: str | None
    verdict: str
    threads: int | None = None

    @property
    def decides(self) -> bool:
        """May a rule score this difference? Only when significant and not distorted."""
        return self.significant and not self.distorted

    def to_json(self) -> dict[str, Any]:
        return {
            "probe": self.probe,
            "metric": self.metric,
            "unit": self.unit,
            "numerator": self.numerator,
            "denominator": self.denominator,
            "ratio": self.ratio,
            "interval": list(self.interval) if self.interval is not None else None,
            "confidence": self.confidence,
            "rounds": self.rounds,
            "round_ratios": self.round_ratios,
            "sign_agreement": self.sign_agreement,
            "threshold": self.threshold,
            "significant": self.significant,
            "distorted": self.distorted,
            "reason": self.reason,
            "verdict": self.verdict,
            "threads": self.threads,
            "decides": self.decides,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Comparison:
        interval = data.get("interval")
        return cls(
            probe=str(data["probe"]),
            metric=str(data["metric"]),
            unit=str(data.get("unit", "")),
            numerator=str(data["numerator"]),
            denominator=str(data["denominator"]),
            ratio=data.get("ratio"),
            interval=(float(interval[0]), float(interval[1])) if interval else None,
            confidence=float(data.get("confidence", 0.95)),
            rounds=int(data.get("rounds", 0)),
            round_ratios=[float(v) for v in data.get("round_ratios") or []],
            sign_agreement=data.get("sign_agreement"),
            threshold=float(data.get("threshold", 0.1)),
            significant=bool(data.get("significant")),
            distorted=bool(data.get("distorted")),
            reason=data.get("reason"),
            verdict=str(data.get("verdict", "")),
            threads=data.get("threads"),
        )


@dataclass
class Environment:
    """The machine and the frameworks a run measured (the known keys; the rest in ``extra``)."""

    os: str
    python: str
    cpu: dict[str, Any]
    memory_gb: float | None
    frameworks: dict[str, dict[str, Any]]
    accelerator: dict[str, Any]
    threads: dict[str, Any] | int  # per framework (older runs: one number)
    env_vars: dict[str, str]
    benchmark_index: float
    noisy: bool
    warnings: list[str]
    extra: dict[str, Any] = field(default_factory=dict)

    _KNOWN = (
        "os",
        "python",
        "cpu",
        "memory_gb",
        "frameworks",
        "accelerator",
        "threads",
        "env_vars",
        "benchmark_index",
        "noisy",
        "warnings",
    )

    def to_json(self) -> dict[str, Any]:
        data = {k: getattr(self, k) for k in self._KNOWN}
        data.update(self.extra)
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Environment:
        known = {k: data.get(k) for k in cls._KNOWN}
        return cls(
            os=str(known["os"] or ""),
            python=str(known["python"] or ""),
            cpu=dict(known["cpu"] or {}),
            memory_gb=known["memory_gb"],
            frameworks=dict(known["frameworks"] or {}),
            accelerator=dict(known["accelerator"] or {"kind": "cpu", "count": 0, "names": []}),
            threads=known["threads"] if known["threads"] is not None else {},
            env_vars=dict(known["env_vars"] or {}),
            benchmark_index=float(known["benchmark_index"] or 0.0),
            noisy=bool(known["noisy"]),
            warnings=list(known["warnings"] or []),
            extra={k: v for k, v in data.items() if k not in cls._KNOWN},
        )


@dataclass
class ProbeRun:
    """A whole run: level, frameworks, records, comparisons, environment, cache."""

    level: str
    frameworks: list[str]
    probes: list[ProbeRecord]
    environment: Environment
    comparisons: list[Comparison] = field(default_factory=list)
    wall_seconds: float | None = None
    cache: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "level": self.level,
            "frameworks": self.frameworks,
            "probes": [p.to_json() for p in self.probes],
            "environment": self.environment.to_json(),
            "comparisons": [c.to_json() for c in self.comparisons],
        }
        if self.wall_seconds is not None:
            data["wall_seconds"] = self.wall_seconds
        data["cache"] = self.cache
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ProbeRun:
        return cls(
            level=str(data.get("level", "")),
            frameworks=list(data.get("frameworks") or []),
            probes=[ProbeRecord.from_json(p) for p in data.get("probes") or []],
            environment=Environment.from_json(data.get("environment") or {}),
            comparisons=[Comparison.from_json(c) for c in data.get("comparisons") or []],
            wall_seconds=data.get("wall_seconds"),
            cache=dict(data.get("cache") or {}),
        )

    def record(self, probe: str, framework: str) -> ProbeRecord | None:
        return next((p for p in self.probes if p.id == probe and p.framework == framework), None)

    def decisive_ratio(
        self, probe: str, numerator: str, denominator: str = "pytorch"
    ) -> float | None:
        """The compared ratio when it may decide a rule (significant, undistorted), else None."""
        c = self.comparison(probe, numerator, denominator)
        return c.ratio if c is not None and c.decides else None

    def comparison(self, probe: str, numerator: str, denominator: str) -> Comparison | None:
        return next(
            (
                c
                for c in self.comparisons
                if c.probe == probe and c.numerator == numerator and c.denominator == denominator
            ),
            None,
        )
