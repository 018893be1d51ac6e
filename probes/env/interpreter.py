"""The Python interpreters the workers run in: ours, or the user's project environment.

A foreign interpreter is asked (in a subprocess, ignoring PYTHON* variables) for its version,
NumPy and the frameworks it has. The workers need only the standard library, NumPy and
the framework there: a private copy of this package goes on their PYTHONPATH.
"""

from __future__ import annotations

import json
import os
import platform
import re
import shutil
import stat
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from probes.catalog import DISTRIBUTIONS, FRAMEWORKS, IMPORT_NAME, hidden_frameworks
from probes.env import folders, reaper
from probes.env.host import installed_versions
from probes.env.limits import cap_file_size

MIN_PYTHON = (3, 10)
INSPECT_TIMEOUT = 60.0


class InterpreterError(ValueError):
    """An interpreter given with ``python=`` cannot run the probes; the message is one line."""


@dataclass
class Interpreter:
    """One interpreter: where it is, what it is, which frameworks it has."""

    path: str
    version: str
    implementation: str
    numpy: str | None
    frameworks: dict[str, str | None]  # framework -> version, None when not installed
    own: bool = True  # the advisor's own interpreter
    package_root: str | None = field(default=None, repr=False)  # the probes copy (foreign)

    def to_json(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "version": self.version,
            "implementation": self.implementation,
            "numpy": self.numpy,
            "frameworks": self.frameworks,
            "own": self.own,
        }

    def has(self, framework: str) -> bool:
        return self.frameworks.get(framework) is not None


def current() -> Interpreter:
    """The interpreter running the advisor (no subprocess)."""
    import importlib.util

    numpy = None
    if importlib.util.find_spec("numpy") is not None:
        import importlib.metadata

        try:
            numpy = importlib.metadata.version("numpy")
        except importlib.metadata.PackageNotFoundError:
            numpy = "unknown"
    return Interpreter(
        sys.executable,
        platform.python_version(),
        platform.python_implementation(),
        numpy,
        installed_versions(),
    )


_SCRIPT = r"""
import json, sys
out = {"version": list(sys.version_info[:3]), "implementation": sys.implementation.name}
if sys.version_info >= (3, 8):
    import importlib.util, importlib.metadata as md
    def version(dists):
        for d in dists:
            try:
                return md.version(d)
            except Exception:
                pass
        return "unknown"
    def found(name):
        try:
            return importlib.util.find_spec(name) is not None
        except Exception:
            return False
    spec = json.loads(sys.argv[1])
    out["numpy"] = version(["numpy"]) if found("numpy") else None
    out["frameworks"] = {k: (version(d) if found(m) else None) for k, (m, d) in spec.items()}
print(json.dumps(out))
"""


def locate(path: str) -> str | None:
    """The absolute path ``--python path`` names: a bare name is looked up on PATH (an
    entry of PATH may be relative: it is read from the user's folder, here), anything
    else is read from the user's folder. None when a bare name is not found."""
    exe = shutil.which(path) if os.sep not in path else path
    return os.path.abspath(exe) if exe else None


def executable(path: str) -> str:
    """The file ``--python path`` names, when it is an executable file (InterpreterError
    otherwise); nothing is run."""
    exe = locate(path)
    try:
        info = os.stat(exe) if exe else None
    except (FileNotFoundError, NotADirectoryError):
        info = None
    except OSError as exc:  # a name over 255 bytes, a link that loops, no permission
        raise InterpreterError(f"--python {shown(path)}: {exc.strerror or exc}") from None
    if not exe or info is None:
        raise InterpreterError(f"--python {shown(path)}: no such file")
    if not os.access(exe, os.X_OK) or stat.S_ISDIR(info.st_mode):
        raise InterpreterError(f"--python {shown(path)}: not an executable file")
    return exe


def inspect(path: str) -> Interpreter:
    """Ask the interpreter at ``path`` what it is; InterpreterError when it cannot serve."""
    exe = executable(path)
    spec = {fw: [IMPORT_NAME[fw], list(DISTRIBUTIONS[fw])] for fw in FRAMEWORKS}
    try:
        info = _answer([exe, "-E", "-c", _SCRIPT, json.dumps(spec)])
    except subprocess.TimeoutExpired:
        raise InterpreterError(
            f"--python {shown(path)}: did not answer within {INSPECT_TIMEOUT:.0f} s"
        ) from None
    except reaper.LeftRunning as exc:
        raise InterpreterError(f"--python {shown(path)}: {exc}; not used") from None
    except (OSError, ValueError, IndexError, RecursionError):
        raise InterpreterError(
            f"--python {shown(path)}: not a working Python interpreter"
        ) from None
    version = tuple(info["version"])
    text = ".".join(str(v) for v in version)
    if version[:2] < MIN_PYTHON:
        raise InterpreterError(
            f"--python {shown(path)}: Python {text} is too old; the probes need "
            f"Python {MIN_PYTHON[0]}.{MIN_PYTHON[1]} or newer"
        )
    if not info.get("numpy"):
        raise InterpreterError(
            f"--python {shown(path)}: NumPy is not installed there; install it with: "
            f"{shown(path)} -m pip install numpy"
        )
    hidden = hidden_frameworks()
    frameworks = {
        fw: (None if fw in hidden else info.get("frameworks", {}).get(fw)) for fw in FRAMEWORKS
    }
    return Interpreter(
        str(Path(exe).absolute()),
        text,
        str(info.get("implementation")),
        str(info["numpy"]),
        frameworks,
        own=False,
    )


MAX_ANSWER = 1 << 20  # bytes an interpreter may print while it is asked what it is


def _answer(command: list[str]) -> dict[str, Any]:
    """Run ``command`` and read its last line as the interpreter's answer: output is capped
    (a program that floods stdout is stopped by RLIMIT_FSIZE, where the system has it) and
    the answer must have the shape our script prints, or ValueError."""
    # An empty private folder as the working folder: with -c, Python puts it first on
    # sys.path, so a json.py that anyone dropped in /tmp (or the user's folder) is never
    # imported in place of the standard library's. It is removed afterwards whatever the
    # interpreter built in it (probes/env/folders.py).
    with tempfile.TemporaryFile() as out, folders.private_folder("advisor-") as cwd:
        reaper.run_reaped(  # what it forks is stopped afterwards, setsid sessions too
            command,
            timeout=INSPECT_TIMEOUT,
            cwd=cwd,
            stdout=out,
            stderr=subprocess.DEVNULL,
            stdin=subprocess.DEVNULL,
            preexec_fn=_cap_output if hasattr(os, "fork") else None,
        )
        out.seek(0)
        text = out.read(MAX_ANSWER).decode("utf-8", "replace")
    info = json.loads(text.strip().splitlines()[-1])
    version = info.get("version") if isinstance(info, dict) else None
    if not (
        isinstance(version, list)
        and 2 <= len(version) <= 3
        and all(type(v) is int and 0 <= v < 1000 for v in version)
    ):
        raise ValueError("not our script's answer")
    numpy = info.get("numpy")
    found = info.get("frameworks", {})
    if not (numpy is None or _short_text(numpy)) or not isinstance(found, dict):
        raise ValueError("not our script's answer")
    info["frameworks"] = {
        fw: found.get(fw) if _short_text(found.get(fw)) else None for fw in FRAMEWORKS
    }
    impl = info.get("implementation")  # our script always says; an unknown one says python
    info["implementation"] = (impl if _short_text(impl) else "python")[:MAX_VERSION_CHARS]
    return info


MAX_VERSION_CHARS = 100  # a version string longer than this is not one
PATH_CHARS = 200  # characters of a --python path shown in a message


def shown(path: str) -> str:
    """A path as messages show it: at most PATH_CHARS characters, an ellipsis included."""
    return path if len(path) <= PATH_CHARS else path[: PATH_CHARS - 1] + "…"


def _short_text(value: Any) -> bool:
    return isinstance(value, str) and len(value) <= MAX_VERSION_CHARS


def _cap_output() -> None:
    cap_file_size(MAX_ANSWER)


def resolve(paths: list[str] | None) -> tuple[list[Interpreter], list[str]]:
    """The interpreters to use and warnings about unusable ones.

    None or an empty list: the advisor's own. Raises InterpreterError when none of the
    given paths can run the probes.
    """
    if not paths:
        return [current()], []
    found: list[Interpreter] = []
    problems: list[str] = []
    for path in paths:
        try:
            found.append(inspect(str(path)))
        except InterpreterError as exc:
            problems.append(str(exc))
    if not found:
        raise InterpreterError(problems[0] if len(problems) == 1 else "; ".join(problems))
    return found, problems


def assign(interpreters: list[Interpreter]) -> dict[str, Interpreter]:
    """Each framework's interpreter: the first that has it (else the first one)."""
    return {fw: next((i for i in interpreters if i.has(fw)), interpreters[0]) for fw in FRAMEWORKS}


def stage(interpreters: list[Interpreter], directory: Path) -> None:
    """Copy this package into ``directory`` for every foreign interpreter's workers."""
    if all(i.own for i in interpreters):
        return
    source = Path(__file__).resolve().parents[1]
    target = directory / "probes"
    if not target.exists():
        try:
            shutil.copytree(source, target, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        except OSError as exc:  # shutil.Error too: a full disk, a file-size limit (ulimit -f)
            raise InterpreterError(
                "--python: cannot copy the probes its workers run into the temporary folder "
                f"{shown(str(directory.parent))}: {_copy_failure(exc)}"
            ) from None
    for interpreter in interpreters:
        if not interpreter.own:
            interpreter.package_root = str(directory)


def _copy_failure(exc: OSError) -> str:
    """Why a copy failed, without the paths: shutil.Error holds one (source, target, why)
    per file; the first file's reason stands for them all."""
    errors = exc.args[0] if isinstance(exc, shutil.Error) and exc.args else None
    if isinstance(errors, list) and errors and len(errors[0]) == 3:
        return re.sub(r"^\[Errno \d+\] ", "", str(errors[0][2]).split(": '", 1)[0])
    return exc.strerror or str(exc)
