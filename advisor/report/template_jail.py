"""Render a user's template in a separate process with hard limits.

The sandbox (:mod:`advisor.report.template_sandbox`) caps the operations it can see; this
module bounds everything else. The render runs in a forked child that gets
``RLIMIT_CPU`` (``CPU_SECONDS``), ``RLIMIT_AS`` (its size at the fork plus
``MEMORY_BYTES``) and no core dumps; the parent waits at most ``WALL_SECONDS``, reads
at most the output cap from the pipe, and kills the child on any excess. Whatever the
template does, it cannot change the advisor's own state: it runs in another process.
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import signal
import time
from typing import Any

from advisor.model.errors import InputError
from advisor.report.template_sandbox import MAX_OUTPUT, render_in_sandbox

CPU_SECONDS = 1
MEMORY_BYTES = 256 * 1024 * 1024
WALL_SECONDS = 10.0
_MAX_BYTES = MAX_OUTPUT * 4 + 4096  # UTF-8 needs at most 4 bytes a character


def render_isolated(
    source: str, name: str, data: dict[str, Any], *, html: bool, parse_only: bool = False
) -> str:
    """Render in a child process under CPU, memory, time and output limits (``parse_only``:
    only compile it there, to refuse a broken template before any work)."""
    if not hasattr(os, "fork"):  # pragma: no cover - Windows: the sandbox's caps only
        return render_in_sandbox(source, name, data, html=html, parse_only=parse_only)
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns
        os.close(read_fd)
        _child(write_fd, source, name, data, html, parse_only)
    os.close(write_fd)
    try:
        payload, overflow, timed_out = _collect(read_fd, pid)
    except BaseException:  # Ctrl-C, SIGTERM: the child goes at once
        _kill(pid)
        raise
    finally:
        os.close(read_fd)
        status = _reap(pid)
    return _result(payload, overflow, timed_out, status, name)


def _child(
    fd: int, source: str, name: str, data: dict[str, Any], html: bool, parse_only: bool
) -> None:
    code = 3
    try:
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        _limit_resources()
        try:
            text = render_in_sandbox(source, name, data, html=html, parse_only=parse_only)
            out = b"OK\n" + text.encode("utf-8", "surrogatepass")
        except InputError as exc:
            out = b"ER\n" + json.dumps({"message": exc.message, "line": exc.line}).encode()
        except MemoryError:
            out = b"ER\n" + json.dumps({"message": "template needs too much memory"}).encode()
        view = memoryview(out)
        while view:
            written = os.write(fd, view)
            view = view[written:]
        code = 0
    except BaseException:
        code = 3
    finally:
        os._exit(code)


def _limit_resources() -> None:
    import resource

    # never above a hard limit the user set (`ulimit -t 1`): raising it fails, and every
    # render had then been reported as "out of memory?"
    _soft, cpu_hard = resource.getrlimit(resource.RLIMIT_CPU)
    cpu = (CPU_SECONDS, CPU_SECONDS + 1)
    if cpu_hard != resource.RLIM_INFINITY:
        cpu = (min(cpu[0], cpu_hard), min(cpu[1], cpu_hard))
    resource.setrlimit(resource.RLIMIT_CPU, cpu)
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    limit = _address_space() + MEMORY_BYTES
    _soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))


def _address_space() -> int:
    """This process's virtual memory size in bytes (0 where unknown)."""
    try:
        with open("/proc/self/statm", encoding="ascii") as handle:
            pages = int(handle.read().split()[0])
        return pages * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


def _collect(fd: int, pid: int) -> tuple[bytes, bool, bool]:
    """Read the child's answer until EOF, the byte cap or the wall-clock limit."""
    deadline = time.monotonic() + WALL_SECONDS
    chunks: list[bytes] = []
    total = 0
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            _kill(pid)
            return b"", False, True
        ready, _, _ = select.select([fd], [], [], left)
        if not ready:
            continue
        chunk = os.read(fd, 1 << 16)
        if not chunk:
            return b"".join(chunks), False, False
        total += len(chunk)
        if total > _MAX_BYTES:
            _kill(pid)
            return b"", True, False
        chunks.append(chunk)


def _kill(pid: int) -> None:
    with contextlib.suppress(OSError):
        os.kill(pid, signal.SIGKILL)


def _reap(pid: int) -> int:
    """Wait for the child (killing it if it lingers) and return its wait status."""
    for _ in range(200):
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return status
        time.sleep(0.01)
    _kill(pid)
    return os.waitpid(pid, 0)[1]


def _result(payload: bytes, overflow: bool, timed_out: bool, status: int, name: str) -> str:
    if timed_out:
        raise InputError(f"template took longer than {WALL_SECONDS:g} s; stopped", path=name)
    if overflow:
        raise InputError(f"template output is larger than {MAX_OUTPUT} characters", path=name)
    if os.WIFSIGNALED(status) and os.WTERMSIG(status) in (signal.SIGXCPU, signal.SIGKILL):
        raise InputError(f"template used more than {CPU_SECONDS} s of CPU time; stopped", path=name)
    if payload.startswith(b"OK\n"):
        try:  # a lone surrogate the child passed comes back as one, shown as its escape
            return payload[3:].decode("utf-8", "surrogatepass")
        except UnicodeDecodeError:
            return payload[3:].decode("utf-8", "replace")
    if payload.startswith(b"ER\n"):
        try:
            info = json.loads(payload[3:])
            message, line = str(info["message"]), info.get("line")
        except (ValueError, KeyError, TypeError):
            message, line = "template failed", None
        raise InputError(message, path=name, line=line if isinstance(line, int) else None)
    raise InputError("template renderer stopped without an answer (out of memory?)", path=name)


def check_template(path: str, fmt: str) -> None:
    """Refuse a bad ``--template`` (unreadable, irregular, with JSON, or one that does not
    compile in the sandbox) before any work."""
    from advisor.io.safe_yaml import read_text_file

    if fmt == "json":
        raise InputError(
            "--template renders Markdown or HTML; it cannot be combined with --format json",
            field="--template",
        )
    render_isolated(read_text_file(path), path, {}, html=fmt == "html", parse_only=True)
