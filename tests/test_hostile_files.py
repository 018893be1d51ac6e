"""Inputs that are not regular files: every input path goes through one bounded reader.

For each kind of input (profile, `ask --from`, `--questions`, `--template`, `--rules`,
`rules check`) and each special file (a symlink to /dev/zero or /dev/urandom, /dev/null,
a FIFO with or without a writer, /dev/stdin fed by `yes`, a directory, a file over 5 MB):
exit 2 with one line naming the path, within 5 s and 500 MB, nothing written.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from hostile_support import assert_refused, run, snapshot

from advisor.io.safe_read import MAX_BYTES, read_bytes
from advisor.model.errors import InputError

EXAMPLE = "r2-low-power-devices"

KINDS: dict[str, list[str]] = {
    "profile": ["recommend", "{p}", "--probes", "none"],
    "ask-from": ["ask", "--defaults", "--from", "{p}"],
    "questions": ["ask", "--defaults", "--questions", "{p}"],
    "template": ["recommend", "--example", EXAMPLE, "--probes", "none", "--template", "{p}"],
    "rules-file": ["recommend", "--example", EXAMPLE, "--probes", "none", "--rules", "{p}"],
    "rules-check": ["rules", "check", "{p}"],
}

TARGETS = {
    "symlink-dev-zero": "character device",
    "symlink-dev-urandom": "character device",
    "dev-null": "character device",
    "fifo-no-writer": "FIFO",
    "fifo-with-yes-writer": "FIFO",
    "dev-stdin-fed-by-yes": "FIFO",
    "directory": "directory",
    "over-5-mb": "too large",
}


@contextmanager
def _special(tmp_path: Path, target: str) -> Iterator[tuple[str, object]]:
    """Make the special input; yield (path argument, stdin for the advisor)."""
    path = tmp_path / "input.yaml"
    helpers: list[subprocess.Popen[bytes]] = []
    stdin: object = subprocess.DEVNULL
    if target == "symlink-dev-zero":
        path.symlink_to("/dev/zero")
    elif target == "symlink-dev-urandom":
        path.symlink_to("/dev/urandom")
    elif target == "dev-null":
        path = Path("/dev/null")
    elif target.startswith("fifo"):
        os.mkfifo(path)
        if target == "fifo-with-yes-writer":
            helpers.append(subprocess.Popen(f"exec yes > '{path}'", shell=True))
    elif target == "dev-stdin-fed-by-yes":
        writer = subprocess.Popen(["yes"], stdout=subprocess.PIPE)
        helpers.append(writer)
        stdin = writer.stdout
        path = Path("/dev/stdin")
    elif target == "directory":
        path.mkdir()
    elif target == "over-5-mb":
        path.write_text("# " + "x" * (MAX_BYTES + 10) + "\n")
    try:
        yield str(path), stdin
    finally:
        for helper in helpers:
            helper.kill()
            helper.wait()


CASES = [
    (kind, target)
    for kind in sorted(KINDS)
    for target in sorted(TARGETS)
    if not (target == "directory" and kind.startswith("rules"))  # a directory is a rule pack
]


@pytest.mark.parametrize(("kind", "target"), CASES)
def test_special_file_is_refused(tmp_path: Path, kind: str, target: str) -> None:
    with _special(tmp_path, target) as (path, stdin):
        before = snapshot(tmp_path)
        args = [a.replace("{p}", path) for a in KINDS[kind]]
        result = run(*args, cwd=tmp_path, stdin=stdin, timeout=30)
        assert_refused(result, path, TARGETS[target])
        assert snapshot(tmp_path) == before


def test_rule_pack_folder_with_a_device_inside_is_refused(tmp_path: Path) -> None:
    pack = tmp_path / "pack"
    pack.mkdir()
    (pack / "zero.yaml").symlink_to("/dev/zero")
    result = run("rules", "list", "--rules", "pack", cwd=tmp_path)
    assert_refused(result, "zero.yaml", "character device")


@pytest.mark.parametrize(
    ("entry", "make", "fragment"),
    [
        ("x.yaml", "dir", "is a directory"),
        ("pack.yaml", "fifo", "has no pack.yaml"),
        ("pack.yaml", "dir", "has no pack.yaml"),
        ("pack.yaml", "file", "has no pack.yaml"),
        ("data/consistency.yml", "fifo", "holds only consistency.yaml"),
        ("data/routes.yaml", "file", "holds only consistency.yaml"),
        ("data/Consistency.yaml", "file", "holds only consistency.yaml"),
        ("user.YAML", "file", "in lower case"),
    ],
)
def test_a_pack_entry_the_advisor_would_not_read_is_refused_not_skipped(
    tmp_path: Path, entry: str, make: str, fragment: str
) -> None:
    pack = tmp_path / "pack"
    (pack / "data").mkdir(parents=True)
    (pack / "mine.yaml").write_text("rules: []\n")
    target = pack / entry
    if make == "dir":
        target.mkdir()
    elif make == "fifo":
        os.mkfifo(target)
    else:
        target.write_text("ruleset: mine\n")
    before = snapshot(tmp_path)
    for args in (
        ["rules", "check", "pack"],
        ["recommend", "--example", "student-starter", "--probes", "none", "--rules", "pack"],
    ):
        assert_refused(run(*args, cwd=tmp_path, timeout=30), entry.split("/")[-1], fragment)
    assert snapshot(tmp_path) == before


def test_the_limit_holds_while_reading_whatever_stat_says(monkeypatch, tmp_path: Path) -> None:
    """A file that grows after fstat (or lies about its size) is cut at the limit."""
    path = tmp_path / "grows.yaml"
    path.write_bytes(b"a: 1\n")
    real_fstat = os.fstat

    def small_fstat(fd: int) -> os.stat_result:
        info = real_fstat(fd)
        return os.stat_result((info.st_mode, *info[1:6], 10, *info[7:]))

    path.write_bytes(b"x" * (1000 + 1))
    monkeypatch.setattr(os, "fstat", small_fstat)
    with pytest.raises(InputError, match="over the limit of 1000 bytes"):
        read_bytes(path, limit=1000)


def test_a_pack_may_keep_harmless_files_and_the_bundled_pack_may_be_named(tmp_path: Path) -> None:
    """Only what the advisor would read is checked: a .DS_Store or README in data/ is
    fine, and --rules naming the bundled pack itself loads it once."""
    from hostile_support import ROOT

    pack = tmp_path / "pack"
    (pack / "data").mkdir(parents=True)
    (pack / "mine.yaml").write_text("rules: []\n")
    (pack / "data" / ".DS_Store").write_bytes(b"\x00\x01")
    (pack / "data" / "README.md").write_text("notes\n")
    base = ["recommend", "--example", "student-starter", "--probes", "none", "-o"]
    assert run(*base, "a.md", "--rules", "pack", cwd=tmp_path).code == 0
    assert run(*base, "b.md", "--rules", str(ROOT / "rules"), cwd=tmp_path).code == 0
