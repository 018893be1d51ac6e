"""The exit-code contract under hostile arguments and streams, and no overwrite without --force.

Paths over 255 bytes, empty paths, `--rules /dev/null`, `-o newdir/`, dangling symlinks,
closed or full standard streams: exit 2 with one line, nothing written; `-o` is checked
before any work (no probe runs, no cache is created).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hostile_support import ROOT, assert_clean, assert_refused, run, snapshot

import advisor.io.safe_write as safe_write
from advisor.io.safe_write import publish_no_replace, write_atomic
from advisor.model.errors import InputError

EXAMPLE = "r2-low-power-devices"
RECOMMEND = ["recommend", "--example", EXAMPLE, "--probes", "none"]
LONG = "x" * 300 + ".yaml"
DEEP = "/".join(["d" * 200] * 25) + "/p.yaml"  # over PATH_MAX, each part short

LONG_PATHS = {
    "profile": ["recommend", "{p}", "--probes", "none"],
    "template": [*RECOMMEND, "--template", "{p}"],
    "rules": [*RECOMMEND, "--rules", "{p}"],
    "output": [*RECOMMEND, "-o", "{p}"],
    "questions": ["ask", "--defaults", "--questions", "{p}"],
    "from": ["ask", "--defaults", "--from", "{p}"],
    "rules-check": ["rules", "check", "{p}"],
    "probe-output": ["probe", "-o", "{p}"],
}


@pytest.mark.parametrize("path", [LONG, DEEP], ids=["name-over-255-bytes", "path-over-4096"])
@pytest.mark.parametrize("kind", sorted(LONG_PATHS))
def test_over_long_paths(tmp_path: Path, kind: str, path: str) -> None:
    args = [a.replace("{p}", path) for a in LONG_PATHS[kind]]
    before = snapshot(tmp_path)
    line = assert_refused(run(*args, cwd=tmp_path), "too long")
    assert "…" in line  # the path is echoed, but clipped
    assert snapshot(tmp_path) == before


EMPTY_AND_ODD = {
    "rules-empty": ([*RECOMMEND, "--rules", ""], ["--rules", "empty path"]),
    "rules-list-empty": (["rules", "list", "--rules", ""], ["--rules", "empty path"]),
    "rules-check-empty": (["rules", "check", ""], ["empty path"]),
    "rules-dev-null": ([*RECOMMEND, "--rules", "/dev/null"], ["/dev/null", "character device"]),
    "profile-empty": (["recommend", "", "--probes", "none"], ["empty path"]),
    "template-empty": ([*RECOMMEND, "--template", ""], ["empty path"]),
    "questions-empty": (["ask", "--defaults", "--questions", ""], ["empty path"]),
    "output-empty": ([*RECOMMEND, "-o", ""], ["-o", "empty output path"]),
    "ask-output-empty": (["ask", "--defaults", "-o", ""], ["-o", "empty output path"]),
    "probe-output-empty": (["probe", "-o", ""], ["-o", "empty output path"]),
    "output-newdir-slash": ([*RECOMMEND, "-o", "newdir/"], ["newdir/", "names a directory"]),
    "ask-output-newdir": (["ask", "--defaults", "-o", "newdir/"], ["newdir/", "directory"]),
    "probe-output-newdir": (["probe", "-o", "newdir/"], ["newdir/", "names a directory"]),
    "output-existing-dir": ([*RECOMMEND, "-o", "sub"], ["sub", "is a directory"]),
    "output-missing-parent": ([*RECOMMEND, "-o", "nope/r.md"], ["directory does not exist"]),
    "output-fifo-forced": ([*RECOMMEND, "-o", "fifo", "--force"], ["fifo", "not a regular"]),
    "output-dev-null-forced": (
        [*RECOMMEND, "-o", "/dev/null", "--force"],
        ["/dev/null", "device, stream or system file"],
    ),
    "output-dangling-symlink": ([*RECOMMEND, "-o", "dangling.md"], ["dangling.md", "symbolic"]),
    "output-existing": ([*RECOMMEND, "-o", "keep.md"], ["keep.md", "--force"]),
    "json-with-template": (
        [*RECOMMEND, "--format", "json", "--template", "t.j2"],
        ["--template", "--format json"],
    ),
}


@pytest.mark.parametrize("case", sorted(EMPTY_AND_ODD))
def test_odd_paths_exit_2_and_write_nothing(tmp_path: Path, case: str) -> None:
    (tmp_path / "sub").mkdir()
    os.mkfifo(tmp_path / "fifo")
    (tmp_path / "dangling.md").symlink_to(tmp_path / "target-must-not-appear.md")
    (tmp_path / "keep.md").write_text("keep me")
    (tmp_path / "t.j2").write_text("{{ recommendation.framework }}\n")
    before = snapshot(tmp_path)
    args, fragments = EMPTY_AND_ODD[case]
    assert_refused(run(*args, cwd=tmp_path), *fragments)
    assert snapshot(tmp_path) == before


@pytest.mark.parametrize("command", [["recommend", "--probes", "quick"], ["probe"]])
def test_output_is_checked_before_any_probe_runs(tmp_path: Path, command: list[str]) -> None:
    """A refused -o costs a moment: no framework is imported, no cache is created."""
    (tmp_path / "keep.md").write_text("keep me")
    cache = tmp_path / "cache"
    args = [*command, "-o", "keep.md"]
    if command[0] == "recommend":
        args[1:1] = ["--example", EXAMPLE]
    result = run(*args, cwd=tmp_path, env={"ADVISOR_CACHE_DIR": str(cache)})
    assert_refused(result, "keep.md", "--force")
    assert not cache.exists()
    assert (tmp_path / "keep.md").read_text() == "keep me"


def test_closed_stdout_is_exit_2_not_silent_success(tmp_path: Path) -> None:
    result = run(*RECOMMEND, cwd=tmp_path, stdout=None, close=(1,))
    assert_refused(result, "standard output is closed")


def test_full_stdout_is_exit_2(tmp_path: Path) -> None:
    with open("/dev/full", "w") as full:
        result = run(*RECOMMEND, cwd=tmp_path, stdout=full)
    assert_refused(result, "cannot write to standard output", "No space left")


def test_an_ascii_stdout_says_what_to_do(tmp_path: Path) -> None:
    """A report holds non-ASCII text; an ASCII stdout cannot take it: one line that says
    how to get it (-o FILE, or a UTF-8 stdout), and -o works."""
    env = {"PYTHONIOENCODING": "ascii"}
    result = run("recommend", "--example", EXAMPLE, "--probes", "none", cwd=tmp_path, env=env)
    assert_refused(result, "encoding (ascii) cannot hold the output", "-o FILE")
    args = ["recommend", "--example", EXAMPLE, "--probes", "none", "-o", "r.md"]
    assert run(*args, cwd=tmp_path, env=env).code == 0


def test_an_ascii_stdout_that_is_full_is_still_one_line(tmp_path: Path) -> None:
    """With PYTHONIOENCODING=ascii click writes to the bytes underneath; they are guarded too."""
    with open("/dev/full", "w") as full:
        result = run("--help", cwd=tmp_path, stdout=full, env={"PYTHONIOENCODING": "ascii"})
    assert_refused(result, "cannot write to standard output")


EVERY_STDOUT_WRITER = [
    ["rules", "list"],
    ["rules", "show", "SCL001"],
    ["examples"],
    ["schema"],
    ["--version"],
    ["--help"],
    ["rules", "--help"],
    ["recommend", "--help"],
]


@pytest.mark.parametrize("args", EVERY_STDOUT_WRITER, ids=" ".join)
def test_every_command_refuses_a_closed_or_full_stdout(tmp_path: Path, args: list[str]) -> None:
    """Not only recommend: whatever writes to stdout, >&- and >/dev/full are one line,
    exit 2, never a traceback and never a silent 0."""
    assert_refused(run(*args, cwd=tmp_path, stdout=None, close=(1,)), "standard output is closed")
    with open("/dev/full", "w") as full:
        result = run(*args, cwd=tmp_path, stdout=full)
    assert_refused(result, "cannot write to standard output", "No space left")


def test_closed_stdout_with_output_file_still_works(tmp_path: Path) -> None:
    result = run(*RECOMMEND, "-o", "r.md", cwd=tmp_path, stdout=None, close=(1,))
    assert result.code == 0, result.err
    assert_clean(result)
    assert (tmp_path / "r.md").read_text().startswith("# Framework recommendation")


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["recommend", "--probes", "none"], "no profile given"),
        (["ask"], "stdin is not a terminal"),
    ],
)
def test_closed_stdin(tmp_path: Path, args: list[str], fragment: str) -> None:
    assert_refused(run(*args, cwd=tmp_path, stdin=None, close=(0,)), fragment)


def test_closed_stdin_with_defaults_still_works(tmp_path: Path) -> None:
    result = run("ask", "--defaults", cwd=tmp_path, stdin=None, close=(0,))
    assert result.code == 0, result.err
    assert result.out.startswith("# Project profile")


def test_escape_sequences_in_arguments_are_inert(tmp_path: Path) -> None:
    result = run("recommend", "--format", "\x1b]0;pwned\x07", cwd=tmp_path)
    assert result.code == 2
    assert_clean(result)
    assert "\\x1b]0;pwned\\x07" in result.err


@pytest.mark.parametrize(
    "month",
    [
        "\x1b]0;pwned\x07",
        "2017-06\n2018-01",
        "\u202e2017-06",
        "9" * 5000,
        "",
        "2017-6",
        "２０１７-０６",
    ],
    ids=["osc", "newline", "bidi", "huge", "empty", "short-month", "fullwidth-digits"],
)
def test_hostile_as_of_months_are_one_inert_line(tmp_path: Path, month: str) -> None:
    out = tmp_path / "r.md"
    result = run(*RECOMMEND, "--as-of", month, "-o", str(out), cwd=tmp_path)
    line = assert_refused(result, "--as-of")
    assert "\x1b" not in line and "\u202e" not in line and not out.exists()


# --- No overwrite without --force, and no window between check and rename ---------------


def test_dangling_symlink_is_not_replaced_and_its_target_not_created(tmp_path: Path) -> None:
    link = tmp_path / "out.md"
    link.symlink_to(tmp_path / "elsewhere.md")
    with pytest.raises(InputError, match="symbolic link"):
        write_atomic(str(link), "text")
    assert link.is_symlink() and not (tmp_path / "elsewhere.md").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.md"]


@pytest.mark.parametrize("renameat2", [True, False], ids=["renameat2", "link-unlink"])
@pytest.mark.parametrize("kind", ["file", "dangling-symlink", "fifo", "directory"])
def test_publish_never_replaces(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kind: str, renameat2: bool
) -> None:
    if not renameat2:
        monkeypatch.setattr(safe_write, "_renameat2_noreplace", lambda src, dst: False)
    src, dst = tmp_path / "src", tmp_path / "dst"
    src.write_text("new")
    if kind == "file":
        dst.write_text("old")
    elif kind == "dangling-symlink":
        dst.symlink_to(tmp_path / "nowhere")
    elif kind == "fifo":
        os.mkfifo(dst)
    else:
        dst.mkdir()
    with pytest.raises(FileExistsError):
        publish_no_replace(str(src), str(dst))
    assert src.read_text() == "new"
    if kind == "file":
        assert dst.read_text() == "old"
    assert not (tmp_path / "nowhere").exists()


@pytest.mark.parametrize("renameat2", [True, False], ids=["renameat2", "link-unlink"])
def test_a_file_that_appears_after_the_check_is_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, renameat2: bool
) -> None:
    """The race: another process creates the file between the check and the publish (the
    named temporary file, where the system has no unnamed ones)."""
    monkeypatch.setattr(safe_write, "_open_unnamed", lambda parent: None)
    if not renameat2:
        monkeypatch.setattr(safe_write, "_renameat2_noreplace", lambda src, dst: False)
    target = tmp_path / "report.md"
    real = safe_write.publish_no_replace

    def racing(src: str, dst: str) -> None:
        Path(dst).write_text("written by someone else")
        real(src, dst)

    monkeypatch.setattr(safe_write, "publish_no_replace", racing)
    with pytest.raises(InputError, match="file exists"):
        write_atomic(str(target), "ours")
    assert target.read_text() == "written by someone else"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.md"]  # no temporary left


def test_a_file_that_appears_before_an_unnamed_file_is_linked_is_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same race on Linux's unnamed temporary file (O_TMPFILE): the link fails."""
    probe = safe_write._open_unnamed(str(tmp_path))
    if probe is None:
        pytest.skip("no O_TMPFILE here")
    os.close(probe)
    target = tmp_path / "report.md"
    real = safe_write._link_unnamed

    def racing(fd: int, name: str, parent: str, *, force: bool) -> None:
        Path(name).write_text("written by someone else")
        real(fd, name, parent, force=force)

    monkeypatch.setattr(safe_write, "_link_unnamed", racing)
    with pytest.raises(InputError, match="file exists"):
        write_atomic(str(target), "ours")
    assert target.read_text() == "written by someone else"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.md"]


def test_renameat2_is_really_used_where_the_kernel_has_it(tmp_path: Path) -> None:
    src, dst = tmp_path / "a", tmp_path / "b"
    src.write_text("x")
    assert safe_write._renameat2_noreplace(str(src), str(dst)) in (True, False)
    if dst.exists():  # renamed atomically: the source is gone, the content moved
        assert not src.exists() and dst.read_text() == "x"


def test_force_replaces_a_symlink_itself_not_its_target(tmp_path: Path) -> None:
    real = tmp_path / "real.md"
    real.write_text("pointee")
    link = tmp_path / "out.md"
    link.symlink_to(real)
    write_atomic(str(link), "new", force=True)
    assert not link.is_symlink() and link.read_text() == "new"
    assert real.read_text() == "pointee"


def test_stdout_to_a_pipe_that_closes_early_is_not_a_traceback(tmp_path: Path) -> None:
    proc = subprocess.run(
        f"python -m advisor recommend --example {EXAMPLE} --probes none | head -c 10",
        shell=True,
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])},
        timeout=60,
    )
    assert "Traceback" not in proc.stderr


@pytest.mark.parametrize(
    "args",
    [
        ["rules", "list"],
        ["--help"],
        ["recommend", "--help"],
        ["recommend", "--example", EXAMPLE, "--probes", "none"],
    ],
    ids=["rules list", "--help", "recommend --help", "recommend"],
)
def test_a_reader_that_stops_reading_ends_it_like_a_unix_tool(
    tmp_path: Path, args: list[str]
) -> None:
    """`advisor ... | head`: silent, and the shell's SIGPIPE status (141), not 1 or 2.

    The pipe's read end is closed before the advisor starts, so its first write always
    meets a closed pipe.
    """
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "advisor", *args],
            stdout=write_end,
            stderr=subprocess.PIPE,
            text=True,
            cwd=tmp_path,
            env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])},
            timeout=60,
        )
    finally:
        os.close(write_end)
    assert proc.returncode == 141, proc.stderr
    assert proc.stderr == ""


@pytest.mark.parametrize("output", ["mine.yaml", "./mine.yaml", "link.yaml"])
def test_force_never_lets_the_report_replace_its_own_profile(tmp_path: Path, output: str) -> None:
    (tmp_path / "mine.yaml").write_text("purpose: research\n")
    (tmp_path / "link.yaml").symlink_to("mine.yaml")
    before = snapshot(tmp_path)
    result = run(
        "recommend", "mine.yaml", "--probes", "none", "-o", output, "--force", cwd=tmp_path
    )
    assert_refused(result, "is also an input", "mine.yaml")
    assert snapshot(tmp_path) == before


@pytest.mark.parametrize(
    ("args", "output", "fragment"),
    [
        # a file a user rule pack reads, or would read once written
        (["--rules", "pack"], "pack/extra.yaml", "is also an input"),
        (["--rules", "pack"], "pack/data/consistency.yaml", "is also an input"),
        (["--rules", "pack"], "pack/new.yaml", "would become part of the rule pack"),
        (["--rules", "pack"], "pack/data/new.md", "would become part of the rule pack"),
        # the advisor's own data, which every run reads
        ([], "{rules}/scale.yaml", "inside a folder the advisor reads"),
        ([], "{examples}/student-starter.yaml", "inside a folder the advisor reads"),
        ([], "{templates}/report.md.j2", "inside a folder the advisor reads"),
    ],
)
def test_force_never_lets_the_report_replace_a_file_the_advisor_reads(
    tmp_path: Path, args: list[str], output: str, fragment: str
) -> None:
    pack = tmp_path / "pack"
    (pack / "data").mkdir(parents=True)
    (pack / "extra.yaml").write_text("rules: []\n")
    (pack / "data" / "consistency.yaml").write_text("checks: []\n")
    (tmp_path / "mine.yaml").write_text("purpose: research\n")
    # the bundled data as the advisor under test sees it: `run` puts the checkout first on
    # PYTHONPATH, so its data is the checkout's folders (not an installed copy's)
    data = {n: ROOT / n for n in ("rules", "examples", "templates")}
    target = Path(output.format(**data)) if "{" in output else tmp_path / output
    watched = [tmp_path, *data.values()]
    before = [snapshot(folder) for folder in watched]
    kept = target.read_bytes() if target.is_file() else None
    cmd = ["recommend", "mine.yaml", "--probes", "none", *args, "-o", str(target), "--force"]
    try:
        assert_refused(run(*cmd, cwd=tmp_path), fragment)
        assert [snapshot(folder) for folder in watched] == before
    finally:  # were the protection ever to fail, the bundled file is put back
        if kept is not None and target.read_bytes() != kept:
            target.write_bytes(kept)


def test_a_file_named_data_in_a_pack_is_refused(tmp_path: Path) -> None:
    """A pack without data/ yet: a file called data would break it (its data must be a
    folder), so it is refused like anything inside data/."""
    (tmp_path / "mine.yaml").write_text("rules: []\n")
    args = ["recommend", "--example", EXAMPLE, "--probes", "none", "--rules", "."]
    assert_refused(run(*args, "-o", "data", cwd=tmp_path), "would become part of the rule pack")
    assert not (tmp_path / "data").exists()


def test_a_report_beside_a_rule_pack_is_fine(tmp_path: Path) -> None:
    """A pack reads only its top-level YAML files and data/: a Markdown report in its
    folder (``--rules . -o report.md``) is not an input."""
    (tmp_path / "mine.yaml").write_text("rules: []\n")
    (tmp_path / "p.yaml.txt").write_text("")
    args = ["recommend", "--example", EXAMPLE, "--probes", "none", "--rules", "."]
    result = run(*args, "-o", "report.md", cwd=tmp_path)
    assert result.code == 0, result.err
    assert (tmp_path / "report.md").read_text().startswith("# Framework recommendation")


@pytest.mark.parametrize("which", ["--from", "--questions"])
def test_force_never_lets_ask_replace_its_own_input(tmp_path: Path, which: str) -> None:
    from advisor.questionnaire.spec import QUESTIONS_FILE

    source = tmp_path / "input.yaml"
    if which == "--from":
        source.write_text("purpose: research\n")
    else:
        source.write_bytes(QUESTIONS_FILE.read_bytes())
    before = snapshot(tmp_path)
    result = run(
        "ask", "--defaults", which, "input.yaml", "-o", "input.yaml", "--force", cwd=tmp_path
    )
    assert_refused(result, "is also an input", "input.yaml")
    assert snapshot(tmp_path) == before


@pytest.mark.parametrize("fmt", ["markdown", "json", "html"])
def test_a_file_name_that_is_not_utf8_is_written_as_an_escape(tmp_path: Path, fmt: str) -> None:
    """The profile's name reaches the report as lone surrogates; they come out as visible
    escapes in valid UTF-8, not as a traceback."""
    from advisor.resources import data_dir

    name = os.fsdecode(b"p\xff.yaml")
    (tmp_path / name).write_bytes((data_dir("examples") / f"{EXAMPLE}.yaml").read_bytes())
    result = run(
        "recommend", name, "--probes", "none", "--format", fmt, "-o", "r.out", cwd=tmp_path
    )
    assert result.code == 0, result.err
    text = (tmp_path / "r.out").read_bytes().decode("utf-8")  # valid UTF-8
    if fmt == "json":  # the text \udcff, its backslash escaped: strict parsers accept it
        assert "p\\\\udcff.yaml" in text
        data, texts = [json.loads(text)], []
        while data:  # every string in the document, read back
            item = data.pop()
            if isinstance(item, dict):
                data.extend(item.values())
            elif isinstance(item, list):
                data.extend(item)
            elif isinstance(item, str):
                texts.append(item)
        assert any("p\\udcff.yaml" in t for t in texts)
    else:
        assert "p\\udcff.yaml" in text


def test_a_template_that_does_not_compile_is_refused_before_any_probe_runs(
    tmp_path: Path,
) -> None:
    """--template is compiled (in the jailed child) before any work: no probe, no cache."""
    (tmp_path / "t.md.j2").write_text("fine\n{{ broken \n")
    cache = tmp_path / "cache"
    args = ["recommend", "--example", EXAMPLE, "--probes", "quick", "--template", "t.md.j2"]
    result = run(*args, cwd=tmp_path, env={"ADVISOR_CACHE_DIR": str(cache)})
    assert_refused(result, "t.md.j2:2:", "template syntax error")
    assert not cache.exists()


@pytest.mark.parametrize(
    ("args", "code"),
    [
        (["recommend", "--example", EXAMPLE, "--probes", "none", "-o", "r.md"], 0),
        (["recommend", "missing.yaml", "--probes", "none"], 2),
    ],
)
def test_a_stderr_that_cannot_be_written_keeps_the_exit_code(
    tmp_path: Path, args: list[str], code: int
) -> None:
    """2>/dev/full loses the messages, not the outcome: a report written is 0, bad input 2."""
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    with open("/dev/full", "w") as full:
        proc = subprocess.run(
            [sys.executable, "-m", "advisor", *args],
            cwd=tmp_path, stdout=subprocess.PIPE, stderr=full, env=env, timeout=60,
        )  # fmt: skip
    assert proc.returncode == code
    assert (tmp_path / "r.md").exists() == (code == 0)
