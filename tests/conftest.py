"""Shared fixtures: a CLI runner and helpers to run the installed program."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from advisor.cli import main


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
