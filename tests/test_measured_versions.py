"""The report says when a framework was measured at an older release than the one a fresh
install gets (the bundled PyPI snapshot's newest), since its figures may differ."""

from __future__ import annotations

from advisor.decide.citations import load_snapshot
from advisor.report.measurements import _older, _older_than_latest


def _env(**versions: str | None) -> dict:
    return {
        "frameworks": {fw: {"installed": v is not None, "version": v} for fw, v in versions.items()}
    }


def test_older_release_is_named_with_the_snapshots_newest() -> None:
    latest = load_snapshot().get("torch")
    assert latest is not None
    major, minor = (int(x) for x in latest.version.split(".")[:2])
    old = f"{major}.{minor - 1}.0+cpu"
    notes = _older_than_latest(_env(pytorch=old, jax=None))
    assert len(notes) == 1
    assert notes[0].startswith(f"PyTorch was measured at {old};")
    assert latest.version in notes[0] and str(latest.released) in notes[0]


def test_current_or_newer_or_unreadable_release_gets_no_note() -> None:
    latest = load_snapshot().get("jax")
    assert latest is not None
    assert _older_than_latest(_env(jax=latest.version)) == []
    assert _older_than_latest(_env(jax=latest.version + ".1")) == []
    assert _older_than_latest(_env(jax="0.5.0.dev20260101")) == []  # a nightly: not judged
    assert _older_than_latest({}) == []


def test_tensorflow_cpu_is_compared_with_its_distribution() -> None:
    assert _older_than_latest(_env(tensorflow="1.15.0"))  # the snapshot lists tensorflow


def test_release_order() -> None:
    assert _older("2.13.0+cpu", "2.15.0")
    assert _older("0.10.2", "0.12.1")
    assert not _older("2.15.0", "2.15.0")
    assert not _older("2.16", "2.15.0")
    assert not _older("", "2.15.0")
    assert not _older("2.15.0rc1", "2.16.0")
