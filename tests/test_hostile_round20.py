"""Red-team round 20: numbers too small to hold, and the command that reproduces a report."""

from __future__ import annotations

from pathlib import Path

import pytest

from advisor.io.profiles import load_profile
from advisor.model.errors import InputError


@pytest.mark.parametrize("written", ["1e-400", "1.0e-400", "'1e-400MB'", "0.5e-330 KB"])
def test_a_memory_budget_that_underflows_is_refused_not_read_as_no_limit(
    tmp_path: Path, written: str
) -> None:
    path = tmp_path / "p.yaml"
    path.write_text(f"deployment:\n  targets: [microcontroller]\n  device_memory_mb: {written}\n")
    with pytest.raises(InputError) as info:
        load_profile(path)
    assert info.value.line == 3 and "too small" in str(info.value)


def test_zero_and_tiny_budgets_still_load(tmp_path: Path) -> None:
    for written, expected in (("0", 0.0), ("0.0e-400", 0.0), ("1e-3", 0.001), ("256KB", 0.256)):
        path = tmp_path / "p.yaml"
        path.write_text(f"deployment:\n  device_memory_mb: {written}\n")
        assert load_profile(path).deployment.device_memory_mb == pytest.approx(expected)
