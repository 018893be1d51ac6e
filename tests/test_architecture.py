"""The architecture as tests: the import contract (pyproject's [tool.importlinter]),
small modules, and no per-framework names hard-coded outside the registry."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import advisor

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = Path(advisor.__file__).resolve().parent
MAX_LINES = 400


def test_import_contract_holds() -> None:
    """probes never imports advisor; advisor's layers run cli -> pipeline -> report |
    questionnaire -> decide -> io -> model; no cycles inside any advisor package."""
    exe = shutil.which("lint-imports") or str(Path(sys.executable).with_name("lint-imports"))
    assert Path(exe).exists(), "import-linter is missing: pip install '.[test]'"
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
    }
    proc = subprocess.run(
        [exe, "--config", str(ROOT / "pyproject.toml"), "--no-cache"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
    assert "0 broken" in proc.stdout


def test_modules_are_small() -> None:
    sizes = {
        str(p.relative_to(PACKAGE)): len(p.read_text(encoding="utf-8").splitlines())
        for p in PACKAGE.rglob("*.py")
    }
    over = {name: n for name, n in sizes.items() if n > MAX_LINES}
    assert sizes and not over, (
        f"modules over {MAX_LINES} lines: {over}; split each by job (one job per module: "
        "docs/architecture.md), e.g. move a self-contained part into a module of its own "
        "and import it where it was"
    )


def test_no_framework_ids_hard_coded_outside_the_registry() -> None:
    """Per-framework lists live in advisor/frameworks.py only. The report's claims name
    JAX and PyTorch because the articles' claims compare exactly those two; the profile's
    ExistingCode kinds (model/choices.py: pytorch, tf1, tf2_keras, jax, numpy, other) describe code,
    not candidates."""
    allowed = {
        "frameworks.py",
        "report/claims.py",
        "report/claims_base.py",
        "report/claims_speed.py",
    }
    pattern = re.compile(r"[\"'](pytorch|jax|tensorflow)[\"']|(=|==|return)\s*\"third\"")
    existing_code = re.compile(r"^\s*(pytorch|jax) = \"(pytorch|jax)\"$")
    offenders = []
    for path in PACKAGE.rglob("*.py"):
        name = str(path.relative_to(PACKAGE))
        if name in allowed:
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if pattern.search(line) and not (
                name == "model/choices.py" and existing_code.match(line)
            ):
                offenders.append(f"{name}:{number}: {line.strip()}")
    for template in (ROOT / "templates").glob("*.j2"):
        if '"third"' in template.read_text(encoding="utf-8"):
            offenders.append(str(template))
    assert not offenders, "\n".join(offenders)
