"""The package-health snapshot (rules/data/package_health.yaml) as a typed model.

A dated copy of PyPI's latest final release of each package a rule's claim is about,
refreshed by ``benchmarks/refresh_package_health.py``. Rules cite an entry as
``ref: PKG:<name>``; the report and ``rules show`` state its release from here, not
from prose.
"""

from __future__ import annotations

from datetime import date

from pydantic import BaseModel, ConfigDict, Field


class PackageRelease(BaseModel):
    """One package's latest final release, as read on ``checked``."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(pattern=r"^[a-z0-9._-]+$")
    version: str = Field(pattern=r"^\d+(\.\d+)*")
    released: date
    source: str = Field(pattern=r"^https?://\S+$")
    checked: date
    note: str = ""


class PackageSnapshot(BaseModel):
    """The whole snapshot: its date and one entry per package."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    snapshot: date
    source: str
    packages: list[PackageRelease]

    def get(self, name: str) -> PackageRelease | None:
        return next((p for p in self.packages if p.name == name), None)

    def names(self) -> set[str]:
        return {p.name for p in self.packages}

    def release_text(self, name: str) -> str | None:
        """'latest 4.22.0 (2024-10-21, per PyPI snapshot of 2026-11-30)', or None."""
        p = self.get(name)
        if p is None:
            return None
        return f"latest {p.version} ({p.released}, per PyPI snapshot of {self.snapshot})"
