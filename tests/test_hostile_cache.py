"""A poisoned or shared probe cache is ignored and rebuilt, never trusted, never a traceback.

Each case makes a real cache file (frameworks hidden, so the run is quick), poisons it in
one way, and runs `advisor probe` and `advisor recommend` again: exit 0, the poisoned
figures unused (the cache is not used; the file is rebuilt), no traceback.
"""

from __future__ import annotations

import json
import os
import shutil
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hostile_support import assert_clean, run

from probes.run import compile_cache, trust

HIDE = {"ADVISOR_PROBE_HIDE": "all"}


def _ok_probe(**metric: Any) -> dict[str, Any]:
    return {
        "id": "matmul",
        "framework": "pytorch",
        "status": "ok",
        "reason": None,
        "seconds": 1.0,
        "params": {"shape": [1000, 1000]},
        "metrics": {"gflops": {"median": 100.0, "iqr": 1.0, "n": 7, "unit": "GFLOP/s", **metric}},
    }


def _set_probe(probe: dict[str, Any]) -> Callable[[dict[str, Any]], None]:
    def poison(data: dict[str, Any]) -> None:
        data["run"]["probes"][0] = probe

    return poison


def _edit(path: tuple[Any, ...], value: Any) -> Callable[[dict[str, Any]], None]:
    def poison(data: dict[str, Any]) -> None:
        node = data
        for part in path[:-1]:
            node = node[part]
        node[path[-1]] = value

    return poison


POISONS: dict[str, Callable[[dict[str, Any]], None]] = {
    "nan-median": _set_probe(_ok_probe(median=float("nan"))),
    "infinite-median": _set_probe(_ok_probe(median=float("inf"))),
    "huge-median": _set_probe(_ok_probe(median=1e300)),
    "300-digit-median": _set_probe(_ok_probe(median=10**300)),
    "negative-median": _set_probe(_ok_probe(median=-5.0)),
    "string-median": _set_probe(_ok_probe(median="fast")),
    "bool-median": _set_probe(_ok_probe(median=True)),
    "bool-n": _set_probe(_ok_probe(n=True)),
    "params-not-a-mapping": _set_probe({**_ok_probe(), "params": [1, 2]}),
    "metrics-a-list": _set_probe({**_ok_probe(), "metrics": [1, 2]}),
    "failed-result": _set_probe({**_ok_probe(), "status": "failed"}),
    "timeout-result": _set_probe({**_ok_probe(), "status": "timeout"}),
    "probe-not-a-mapping": _set_probe(["matmul"]),  # type: ignore[arg-type]
    "environment-a-list": _edit(("run", "environment"), []),
    "probes-a-mapping": _edit(("run", "probes"), {"matmul": 1}),
    "created-in-the-future": _edit(("created",), "2099-01-01T00:00:00+00:00"),
    "created-not-a-date": _edit(("created",), "yesterday"),
    "huge-text": _edit(("run", "environment", "os"), "x" * 100_000),
    "deep-nesting": _edit(("run", "environment", "x"), json.loads("[" * 50 + "]" * 50)),
    "comparisons-a-string": _edit(("run", "comparisons"), "fast"),
}


@pytest.fixture(scope="module")
def made_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One real cache folder, made by the advisor itself; each test gets a copy of it."""
    folder = tmp_path_factory.mktemp("made")
    cache = folder / "cache"
    first = run(
        "probe", "--format", "json", cwd=folder, env={**HIDE, "ADVISOR_CACHE_DIR": str(cache)}
    )
    assert first.code == 0, first.err
    return cache


@pytest.fixture
def fresh_cache(tmp_path: Path, made_cache: Path) -> tuple[Path, dict[str, str]]:
    cache = tmp_path / "cache"
    shutil.copytree(made_cache, cache)  # modes kept: a 0700 folder, 0600 files
    (path,) = cache.glob("probes-quick-*.json")
    return path, {**HIDE, "ADVISOR_CACHE_DIR": str(cache)}


@pytest.mark.parametrize("name", sorted(POISONS))
def test_poisoned_cache_is_ignored_and_rebuilt(
    tmp_path: Path, name: str, fresh_cache: tuple[Path, dict[str, str]]
) -> None:
    path, env = fresh_cache
    data = json.loads(path.read_text())
    POISONS[name](data)
    poisoned = json.dumps(data, allow_nan=True)
    path.write_text(poisoned)
    again = run("probe", "--format", "json", cwd=tmp_path, env=env)
    assert again.code == 0, again.err
    assert_clean(again)
    assert json.loads(again.out)["cache"]["used"] is False
    assert path.read_text() != poisoned  # rebuilt
    path.write_text(poisoned)
    report = run(
        "recommend", "--example", "r2-low-power-devices", "--probes", "quick", cwd=tmp_path, env=env
    )
    assert report.code == 0, report.err
    assert_clean(report)
    assert "cached figures" not in report.out


def test_a_good_cache_is_still_used(
    tmp_path: Path, fresh_cache: tuple[Path, dict[str, str]]
) -> None:
    _, env = fresh_cache
    again = run("probe", "--format", "json", cwd=tmp_path, env=env)
    assert json.loads(again.out)["cache"]["used"] is True


@pytest.mark.parametrize("mode", [0o777, 0o770, 0o1777])
def test_a_shared_cache_folder_is_neither_read_nor_written(
    tmp_path: Path, mode: int, fresh_cache: tuple[Path, dict[str, str]]
) -> None:
    path, env = fresh_cache
    folder = path.parent
    os.chmod(folder, mode)
    planted = path.read_text()
    again = run("probe", "--format", "json", cwd=tmp_path, env=env)
    assert again.code == 0, again.err
    assert_clean(again)
    out = json.loads(again.out)
    assert out["cache"]["used"] is False
    assert any("not private" in w for w in out["environment"]["warnings"])
    assert path.read_text() == planted  # nothing written into the shared folder


@pytest.mark.parametrize("mode", [0o666, 0o620, 0o602])
def test_a_cache_file_others_can_write_is_not_used(
    tmp_path: Path, mode: int, fresh_cache: tuple[Path, dict[str, str]]
) -> None:
    path, env = fresh_cache
    os.chmod(path, mode)
    again = run("probe", "--format", "json", cwd=tmp_path, env=env)
    assert json.loads(again.out)["cache"]["used"] is False


def test_a_file_owned_by_another_user_is_not_trusted(tmp_path: Path, monkeypatch) -> None:
    path = tmp_path / "f.json"
    path.write_text("{}")
    os.chmod(path, 0o600)
    assert trust.untrusted(path, directory=False) is None
    monkeypatch.setattr(os, "getuid", lambda: os.stat(path).st_uid + 1)
    assert trust.untrusted(path, directory=False) == "another user owns it"
    assert trust.untrusted(tmp_path, directory=True) == "another user owns it"


def test_shared_inductor_folders_and_markers_are_not_trusted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = tmp_path / "cache"
    cache.mkdir(mode=0o700)
    monkeypatch.setenv("ADVISOR_CACHE_DIR", str(cache))
    monkeypatch.delenv("TORCHINDUCTOR_CACHE_DIR", raising=False)
    ours = cache / "torchinductor"
    ours.mkdir(mode=0o700)
    marker = cache / compile_cache.COMPILE_MARKER
    version = compile_cache.framework_version("pytorch")
    marker.write_text(json.dumps({"torch": version, "inductor_dir": str(ours)}))
    os.chmod(marker, 0o600)
    assert compile_cache._is_warm(ours) is True
    os.chmod(marker, 0o666)  # anyone could have written "warm"
    assert compile_cache._is_warm(ours) is False
    os.chmod(marker, 0o600)
    os.chmod(ours, 0o777)  # anyone could have planted artefacts (code)
    assert compile_cache._is_warm(ours) is False
    _mode, folder = compile_cache.plan("standard")
    assert folder is not None and folder != ours and trust.untrusted(folder, directory=True) is None
    compile_cache.discard(str(folder))  # the throw-away folder goes once the run is over
    assert not folder.exists()
    compile_cache.discard(str(ours))  # the advisor's own cache folder never does
    assert ours.is_dir()
    shared = tmp_path / "shared"
    shared.mkdir()
    os.chmod(shared, 0o777)
    monkeypatch.setenv("TORCHINDUCTOR_CACHE_DIR", str(shared))
    assert compile_cache._user_dir() is None
    _, folder = compile_cache.plan("standard")
    assert folder is not None and folder != shared  # the child gets a folder of ours instead
    compile_cache.discard(str(folder))
    assert stat.S_IMODE(os.stat(shared).st_mode) == 0o777
