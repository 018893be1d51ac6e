"""Red-team round 17: cache files and markers cannot block or flood, packs are bounded in
files as well as bytes, and a key with whitespace at its ends says so."""

from __future__ import annotations

import json
import os
import signal
from pathlib import Path

import pytest

from advisor.decide.pack_layout import MAX_PACK_FILES, user_packs
from advisor.model.errors import InputError
from probes.run import cache, compile_cache


@pytest.fixture
def private_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    folder.mkdir(mode=0o700)
    monkeypatch.setenv("ADVISOR_CACHE_DIR", str(folder))
    monkeypatch.delenv("TORCHINDUCTOR_CACHE_DIR", raising=False)
    return folder


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")
def test_a_fifo_in_the_cache_folder_is_ignored_not_waited_on(private_cache: Path) -> None:
    key = cache.cache_key("quick", ["pytorch"], {"pytorch": None}, None)
    path = cache.cache_path(key, private_cache)
    os.mkfifo(path, 0o600)
    marker = private_cache / compile_cache.WORKLOAD_MARKER
    os.mkfifo(marker, 0o600)

    def hung(*_: object) -> None:
        raise AssertionError("opening a FIFO with no writer blocked")

    previous = signal.signal(signal.SIGALRM, hung)
    signal.alarm(10)
    try:
        assert cache.load(path, key) is None
        assert compile_cache._warm_workloads() == []
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def test_a_deep_or_huge_warm_marker_means_cold_not_a_failed_probe(private_cache: Path) -> None:
    ours = private_cache / "torchinductor"
    ours.mkdir(mode=0o700)
    warm = private_cache / compile_cache.COMPILE_MARKER
    workloads = private_cache / compile_cache.WORKLOAD_MARKER
    for text in ("[" * 100_000 + "]" * 100_000, "[" + " " * (cache.MAX_BYTES + 10) + "]"):
        for marker in (warm, workloads):
            marker.write_text(text)
            os.chmod(marker, 0o600)
        assert compile_cache._is_warm(ours) is False  # RecursionError escaped before
        assert compile_cache._warm_workloads() == []
    version = compile_cache.framework_version("pytorch")
    warm.write_text(json.dumps({"torch": version, "inductor_dir": str(ours)}))
    assert compile_cache._is_warm(ours) is True  # a real marker still reads


def test_a_pack_of_too_many_rule_files_is_refused_before_any_is_parsed(tmp_path: Path) -> None:
    core = Path(__file__).resolve().parent.parent / "rules"
    pack = tmp_path / "pack"
    pack.mkdir()
    for i in range(MAX_PACK_FILES):
        (pack / f"r{i}.yaml").write_text("rules: []\n")
    assert user_packs(core, [pack]) == [pack]
    (pack / "one-more.yaml").write_text("rules: [")  # never parsed: the count refuses first
    with pytest.raises(InputError, match=r"1,001 rule files, over the 1,000"):
        user_packs(core, [pack])


def test_an_unknown_key_with_whitespace_at_its_ends_says_so(tmp_path: Path) -> None:
    from advisor.io.profiles import load_profile

    path = tmp_path / "p.yaml"
    path.write_text("? |\n  purpose\n: research\n")
    with pytest.raises(InputError) as caught:
        load_profile(path)
    assert "starts or ends with a space or line break); did you mean 'purpose'" in str(caught.value)
