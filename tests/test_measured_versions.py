"""The report says when a framework was measured at an older release than the one a fresh
install gets (the bundled PyPI snapshot's newest), since its figures may differ."""

from __future__ import annotations

from advisor.decide.citations import load_snapshot
from advisor.report.measurements import _older, _older_than_latest


def _env(**versions: object) -> dict:
    return {
        "frameworks": {fw: {"installed": v is not None, "version": v} for fw, v in versions.items()}
    }


ALL = {"pytorch", "jax", "tensorflow"}  # frameworks with a probe that ran ok


def test_older_release_is_named_with_the_snapshots_newest() -> None:
    latest = load_snapshot().get("torch")
    assert latest is not None
    major, minor = (int(x) for x in latest.version.split(".")[:2])
    old = f"{major}.{minor - 1}.0+cpu"
    notes = _older_than_latest(_env(pytorch=old, jax=None), ALL)
    assert len(notes) == 1
    assert notes[0].startswith(f"PyTorch was measured at {old};")
    assert latest.version in notes[0] and str(latest.released) in notes[0]


def test_current_or_newer_or_unreadable_release_gets_no_note() -> None:
    latest = load_snapshot().get("jax")
    assert latest is not None
    assert _older_than_latest(_env(jax=latest.version), ALL) == []
    assert _older_than_latest(_env(jax=latest.version + ".1"), ALL) == []
    assert _older_than_latest(_env(jax="0.5.0.dev20260101"), ALL) == []  # a nightly: not judged
    assert _older_than_latest({}, ALL) == []


def test_tensorflow_cpu_is_compared_with_its_distribution() -> None:
    assert _older_than_latest(_env(tensorflow="1.15.0"), ALL)  # the snapshot lists tensorflow


def test_release_order() -> None:
    assert _older("2.13.0+cpu", "2.15.0")
    assert _older("0.10.2", "0.12.1")
    assert not _older("2.15.0", "2.15.0")
    assert not _older("2.16", "2.15.0")
    assert not _older("", "2.15.0")
    assert not _older("2.15.0rc1", "2.16.0")


def test_no_note_for_a_framework_none_of_whose_probes_ran() -> None:
    assert _older_than_latest(_env(pytorch="1.0.0"), {"jax"}) == []  # crashed, or never ran
    assert _older_than_latest(_env(pytorch="1.0.0"), {"pytorch"})


def test_a_hostile_version_is_never_a_crash() -> None:
    """Red-team round 75: '2.²' passed str.isdigit() and crashed int() (exit 1)."""
    for bad in ("2.\u00b2", "\u0662.1", "1..2", ".1", "1." * 20, "9" * 50, {"a": "b"}, 3, None):
        assert _older_than_latest(_env(pytorch=bad), ALL) == []
    assert not _older("2.\u00b2", "2.15.0")


def test_a_release_written_with_fewer_parts_is_the_same_release() -> None:
    """2.13 is 2.13.0: no note that it is older (tuples compared unpadded said it was)."""
    assert not _older("2.13", "2.13.0")
    assert not _older("2.13.0+cpu", "2.13")
    assert _older("2.13", "2.13.1")
    assert _older("0.9", "0.10.0")
