"""The light core and the CLI conventions (issue 14): extras, --version, --python, completion.

The --python test builds a core-only environment for the advisor (a venv whose
site-packages holds only the core dependencies, linked from this interpreter's), so the
advisor itself cannot import any framework, and measures the frameworks in this test's
own interpreter through ``--python``.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import venv
from pathlib import Path

import pytest

from advisor.frameworks import FRAMEWORKS

ROOT = Path(__file__).resolve().parents[1]
CORE_MODULES = (
    "pydantic",
    "pydantic_core",
    "annotated_types",
    "typing_extensions",
    "typing_inspection",
    "yaml",
    "jinja2",
    "markupsafe",
    "click",
)
FRAMEWORK_MODULES = ("torch", "jax", "tensorflow")


def test_core_dependencies_hold_no_framework() -> None:
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    names = [
        d.split(">")[0].split("=")[0].split("<")[0].strip().lower() for d in project["dependencies"]
    ]
    assert names == ["pydantic", "pyyaml", "jinja2", "click"]
    extras = project["optional-dependencies"]
    assert any(d.startswith("torch") for d in extras["torch"])
    assert any(d.startswith("jax") for d in extras["jax"])
    assert any(d.startswith("tensorflow-cpu") for d in extras["tensorflow"])
    assert extras["all"] == ["framework-advisor[torch,jax,tensorflow]"]


def test_probes_parent_side_needs_only_the_standard_library() -> None:
    """What the advisor's process imports of probes must not pull numpy or a framework."""
    code = (
        "import sys; import probes.api, probes.run.orchestrate, probes.run.cache; "
        "print(sorted(m for m in ('numpy', 'torch', 'jax', 'tensorflow') if m in sys.modules))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True
    )
    assert out.stdout.strip() == "[]"


def test_version_names_advisor_ruleset_and_frameworks_without_importing_them() -> None:
    code = (
        "import sys; from advisor.cli.version import version_text; print(version_text()); "
        "print(sorted(m for m in ('torch', 'jax', 'tensorflow') if m in sys.modules))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True
    ).stdout.splitlines()
    from advisor import __version__
    from advisor.frameworks import REGISTRY

    assert out[0] == f"advisor {__version__}"
    assert out[1].startswith("ruleset advisor-core ")
    for spec in REGISTRY:
        line = next(line for line in out if line.startswith(spec.display + " "))
        installed = importlib.util.find_spec(spec.import_name) is not None
        assert ("not installed" in line) is not installed
    assert out[-1] == "[]"


def test_bad_python_is_one_line_and_exit_2(cli, tmp_path: Path) -> None:
    for args in (("probe",), ("recommend", "--example", "student-starter")):
        code, out, err = cli(*args, "--python", str(tmp_path / "no-such-python"))
        assert code == 2 and out == ""
        assert err.count("\n") == 1 and err.startswith("advisor: error: --python ")


def test_no_framework_installed_gives_one_hint_per_framework(run_advisor) -> None:
    result = run_advisor(
        "recommend",
        "--example",
        "student-starter",
        "--probes",
        "quick",
        env={"ADVISOR_PROBE_HIDE": "all"},
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("# Framework recommendation")
    hints = [line for line in result.stderr.splitlines() if "is not installed here" in line]
    assert len(hints) == len(FRAMEWORKS)
    for extra in ("torch", "jax", "tensorflow"):
        assert any(f'"framework-advisor[{extra}]"' in h and "--python PATH" in h for h in hints)


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_shell_completion_scripts(shell: str) -> None:
    code = "from advisor.cli import main; main(prog_name='advisor')"
    env = {**os.environ, "_ADVISOR_COMPLETE": f"{shell}_source"}
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, env=env
    )
    assert out.returncode == 0 and "_advisor_completion" in out.stdout
    env = {
        **os.environ,
        "_ADVISOR_COMPLETE": "bash_complete",
        "COMP_WORDS": "advisor recommend --probes ",
        "COMP_CWORD": "3",
    }
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, env=env
    )
    assert out.stdout.split() == ["plain,none", "plain,quick", "plain,standard", "plain,full"]


def core_only_python(directory: Path) -> Path:
    """A venv with only the core dependencies (linked from this interpreter's site-packages)."""
    venv.create(directory, with_pip=False, symlinks=True)
    site = next(directory.glob("lib/python*/site-packages"))
    for module in CORE_MODULES:
        spec = importlib.util.find_spec(module)
        assert spec is not None and spec.origin, module
        origin = Path(spec.origin)
        source = origin.parent if origin.name == "__init__.py" else origin
        (site / source.name).symlink_to(source)
    return directory / "bin" / "python"


@pytest.mark.probes
@pytest.mark.skipif(sys.platform == "win32", reason="POSIX venv layout")
def test_python_option_measures_frameworks_in_another_environment(tmp_path: Path) -> None:
    if not all(importlib.util.find_spec(m) for m in ("torch", "jax", "numpy")):
        pytest.skip("this interpreter lacks PyTorch, JAX or NumPy to be measured")
    core = core_only_python(tmp_path / "core")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "ADVISOR_CACHE_DIR": str(tmp_path / "cache")}
    env.pop("ADVISOR_PROBE_HIDE", None)
    for module in (*FRAMEWORK_MODULES, "numpy"):
        probe = subprocess.run([core, "-c", f"import {module}"], env=env, capture_output=True)
        assert probe.returncode != 0, f"the core-only advisor can import {module}"
    other = sys.executable
    args = ["-m", "advisor", "recommend", "--example", "student-starter", "--probes", "quick"]
    result = subprocess.run(
        [core, *args, "--python", other, "--format", "json"],
        env=env,
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    ok = {(p["id"], p["framework"]) for p in data["probes"] if p["status"] == "ok"}
    assert {("matmul", "pytorch"), ("matmul", "jax")} <= ok
    for fw in ("pytorch", "jax"):
        assert data["environment"]["frameworks"][fw]["interpreter"] == other
    named = [i for i in data["report"]["interpreters"] if i["path"] == other]
    assert named and named[0]["origin"] == "given with --python"
    # the Markdown report names it too (from the cache this time)
    text = subprocess.run(
        [core, *args, "--python", other], env=env, capture_output=True, text=True, timeout=600
    ).stdout
    assert f"`{other}`" in text and "given with --python" in text
