"""Shared fixtures: a CLI runner and helpers to run the installed program."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from advisor.cli import main

_FRAMEWORKS = ("torch", "jax", "tensorflow")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Under the light install (no framework at all) the tests marked ``probes``, which
    run real framework workloads, are skipped with the command that installs them, not
    failed with "'skipped' == 'ok'". CI installs every framework, and .ci/run fails when
    no framework was measured, so this cannot hide a missing install there."""
    if any(importlib.util.find_spec(name) for name in _FRAMEWORKS):
        return
    skip = pytest.mark.skip(
        reason="no framework installed: pip install -c constraints-cpu.txt -e '.[test,all]'"
    )
    for item in items:
        if "probes" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(autouse=True)
def _private_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch):
    """Keep probe caches out of the user's home during tests."""
    cache = tmp_path_factory.getbasetemp() / "advisor-cache"
    monkeypatch.setenv("ADVISOR_CACHE_DIR", str(cache))


@pytest.fixture
def cli():
    """Invoke the click app in-process; returns (exit_code, stdout, stderr)."""
    runner = CliRunner()

    def invoke(*args: str, input: str | None = None):
        result = runner.invoke(main, list(args), input=input, catch_exceptions=False)
        return result.exit_code, result.stdout, result.stderr

    return invoke


def _run_advisor(
    *args: str, cwd: Path | None = None, env: dict[str, str] | None = None, timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    """Run the installed program in a subprocess, as a user would."""
    full_env = {**os.environ, **(env or {})}
    return subprocess.run(
        [sys.executable, "-m", "advisor", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=full_env,
        timeout=timeout,
        check=False,
    )


@pytest.fixture
def run_advisor():
    """Run ``python -m advisor ARGS`` in a subprocess (the installed package)."""
    return _run_advisor
