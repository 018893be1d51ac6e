"""Environment settings are checked before any work: nonsense is one line and exit 2."""

from __future__ import annotations

from pathlib import Path

import pytest
from hostile_support import assert_refused, run

BAD = {
    "ADVISOR_PROBE_TIME_SCALE": ["nan", "inf", "-inf", "-1", "0", "1e400", "abc", "1e-9", "1000"],
    "ADVISOR_PROBE_TIMEOUT": ["nan", "inf", "0", "-5", "1e12", "ten"],
    "ADVISOR_PROBE_HIDE": ["evil", "pytorch,\x1b]0;pwned\x07"],
    # fault injection (a test hook): a spec the probes would silently ignore in part
    "ADVISOR_PROBE_FAULT": ["segfault:jax", "segv", "segv:mxnet", "hang:jax:nope", "a:b:c:d"],
}
CASES = [(name, value) for name, values in BAD.items() for value in values]
COMMANDS = {
    "probe": ["probe"],
    "recommend": ["recommend", "--example", "r2-low-power-devices", "--probes", "quick"],
}


@pytest.mark.parametrize("command", sorted(COMMANDS))
@pytest.mark.parametrize(("name", "value"), CASES)
def test_bad_setting_is_refused_before_any_probe(
    tmp_path: Path, name: str, value: str, command: str
) -> None:
    cache = tmp_path / "cache"
    env = {name: value, "ADVISOR_CACHE_DIR": str(cache)}
    result = run(*COMMANDS[command], "-o", "out.md", cwd=tmp_path, env=env)
    assert_refused(result, f"${name}")
    assert not cache.exists() and not (tmp_path / "out.md").exists()


def test_settings_do_not_matter_without_probes(tmp_path: Path) -> None:
    env = {"ADVISOR_PROBE_TIME_SCALE": "nan"}
    args = ["recommend", "--example", "r2-low-power-devices", "--probes", "none"]
    result = run(*args, cwd=tmp_path, env=env)
    assert result.code == 0, result.err


@pytest.mark.parametrize("value", ["0.5", "1", "100", " 2 "])
def test_sane_values_pass_the_check(value: str) -> None:
    from advisor.cli.env_settings import check_environment

    check_environment({"ADVISOR_PROBE_TIME_SCALE": value, "ADVISOR_PROBE_HIDE": "all, jax"})


def test_a_fault_spec_is_checked_item_by_item() -> None:
    from advisor.cli.env_settings import check_environment
    from advisor.model.errors import InputError

    check_environment({"ADVISOR_PROBE_FAULT": "segv:jax:matmul, import:*,kill:pytorch:*,"})
    with pytest.raises(InputError, match="unknown probe 'matmult'"):
        check_environment({"ADVISOR_PROBE_FAULT": "segv:jax:matmul,raise:pytorch:matmult"})
