"""Red-team round 77 (security): regression tests, each failing before its fix."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from hostile_support import run

from probes.env.folders import private_folder, remove_tree

DEEP = 3000  # folders in a chain: past shutil.rmtree's recursion (about 1,000)


def _deep_chain(folder: Path, depth: int = DEEP) -> None:
    """A chain of ``depth`` nested folders in ``folder``, built relative to it (an absolute
    path that long is over the system's limit)."""
    here = os.open(folder, os.O_RDONLY)
    try:
        for _ in range(depth):
            os.mkdir("d", dir_fd=here)
            below = os.open("d", os.O_RDONLY, dir_fd=here)
            os.close(here)
            here = below
    finally:
        os.close(here)


def _worker_leaving_a_deep_chain(path: Path) -> None:
    """An interpreter (``--python``) that answers the advisor's questions as this Python
    does, and whose worker leaves a deep chain of folders in its working folder (the run's
    temporary folder), then exits without an event."""
    chain = f"import os\nfor _ in range({DEEP}):\n    os.mkdir('d'); os.chdir('d')\n"
    path.write_text(
        "#!/bin/sh\n"
        'case "$*" in *probes.run.worker*)\n'
        f'  exec "{sys.executable}" -c "{chain}" ;;\n'
        "esac\n"
        f'exec "{sys.executable}" "$@"\n'
    )
    path.chmod(0o755)


def test_a_worker_leaving_a_deep_folder_chain_is_no_traceback(tmp_path: Path) -> None:
    """Finding 1: the run's temporary folder was a tempfile.TemporaryDirectory, whose
    removal recursed into the chain a foreign interpreter's worker left there: a
    RecursionError traceback (exit 1) after the probes ran, and the folder left in /tmp
    (the interpreter's inspection folder already fell back on rm)."""
    fake = tmp_path / "fakepy"
    _worker_leaving_a_deep_chain(fake)
    temp = tmp_path / "tmp"
    temp.mkdir()
    env = {"ADVISOR_CACHE_DIR": str(tmp_path / "cache"), "TMPDIR": str(temp)}
    try:
        result = run("probe", "--framework", "jax", "--python", str(fake), cwd=tmp_path, env=env)
        left = list(temp.iterdir())
    finally:
        remove_tree(temp)  # a chain left behind would stop pytest's own clean-up of tmp_path
    assert "Traceback" not in result.err, result.err[-1500:]
    assert result.code == 0, result.err[-1500:]
    assert "jax" in result.out.lower()
    assert not left  # the run's temporary folder is gone, chain and all


def test_remove_tree_removes_a_chain_too_deep_for_rmtree(tmp_path: Path) -> None:
    top = tmp_path / "top"
    top.mkdir()
    _deep_chain(top)
    remove_tree(top)
    assert not top.exists()
    remove_tree(top)  # gone already: nothing to do, no error


def test_private_folder_is_removed_with_what_was_built_in_it() -> None:
    with private_folder("advisor-test-") as folder:
        _deep_chain(Path(folder))
        (Path(folder) / "locked").mkdir(mode=0o000)
    assert not os.path.lexists(folder)


def test_a_deep_chain_in_the_inductor_cache_does_not_stop_every_full_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same chain left in the advisor's own torch.compile folder (a worker writes
    there through TORCHINDUCTOR_CACHE_DIR) made every later `--level full` run end in a
    RecursionError traceback as the folder was emptied for a cold compile:
    ``rmtree(ignore_errors=True)`` ignores OSError, not RecursionError."""
    from probes.run import compile_cache

    cache_dir = tmp_path / "cache"
    ours = cache_dir / "torchinductor"
    ours.mkdir(parents=True, mode=0o700)
    cache_dir.chmod(0o700)
    _deep_chain(ours)
    monkeypatch.setenv("ADVISOR_CACHE_DIR", str(cache_dir))
    monkeypatch.delenv("TORCHINDUCTOR_CACHE_DIR", raising=False)
    try:
        mode, folder = compile_cache.plan("full")
        assert mode == "cold" and folder == ours
        assert not (ours / "d").exists()
    finally:
        remove_tree(ours)


@pytest.mark.parametrize(
    ("key", "field"),
    [("rules[0]", "rules[0]"), ("rules[1]", "rules[1]"), ("rules[1].title", "rules[1].title")],
)
def test_a_top_level_key_written_like_a_position_blames_no_rule(
    tmp_path: Path, key: str, field: str
) -> None:
    """Finding 2: a duplicated top-level key named like a rule's position (``"rules[0]"``)
    was relabelled as a field of a rule that has nothing wrong (``rules[0]`` even named the
    last rule, index -1). The error now names the key as written."""
    pack = tmp_path / "pack"
    pack.mkdir()
    (pack / "r.yaml").write_text(
        "rules:\n  - id: ABC001\n    title: first\n  - id: XYZ009\n    title: last\n"
        f'"{key}": 1\n"{key}": 2\n'
    )
    result = run("rules", "check", str(pack), cwd=tmp_path)
    assert result.code == 2, result.err
    line = result.err.strip()
    assert "\n" not in line and "Traceback" not in line
    assert f"r.yaml:7: {field}: duplicate key" in line, line
    assert "ABC001" not in line and "XYZ009" not in line


def test_a_real_duplicate_in_a_rule_is_still_named_by_its_id(tmp_path: Path) -> None:
    pack = tmp_path / "pack"
    pack.mkdir()
    (pack / "r.yaml").write_text(
        "rules:\n  - id: ABC001\n    title: first\n  - id: XYZ009\n    title: a\n    title: b\n"
    )
    result = run("rules", "check", str(pack), cwd=tmp_path)
    assert result.code == 2, result.err
    assert "r.yaml:6: rule XYZ009: title: duplicate key 'title'" in result.err, result.err
