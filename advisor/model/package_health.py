"""The package-health snapshot (rules/data/package_health.yaml) as a typed model.

A dated copy of PyPI's latest final release of each package a rule's claim is about,
refreshed by ``benchmarks/refresh_package_health.py``. Rules cite an entry as
``ref: PKG:<name>``; the report and ``rules show`` state its release from here, not
from prose. Rule prose names a release as ``{release:<name>}``, which the loader fills in
from the snapshot ("2.9.0 (2025-11-17)"), so no version or date is typed by hand.
"""

from __future__ import annotations

import re
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


RELEASE_TOKEN = re.compile(r"\{release:([^{}]*)\}")  # any NAME, so a typo is an error


class UnknownPackage(KeyError):
    """A ``{release:NAME}`` token whose NAME the snapshot does not hold."""


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

    def fill_releases(self, text: str) -> str:
        """``text`` with each ``{release:NAME}`` replaced by 'VERSION (DATE)'.

        Raises UnknownPackage for a NAME the snapshot does not hold.
        """

        def release(match: re.Match[str]) -> str:
            p = self.get(match.group(1))
            if p is None:
                raise UnknownPackage(match.group(1))
            return f"{p.version} ({p.released})"

        return RELEASE_TOKEN.sub(release, text)
