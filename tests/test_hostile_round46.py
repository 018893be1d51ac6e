"""Red-team round 46: output names and the probe cache."""

from __future__ import annotations

from pathlib import Path

import pytest
from hostile_support import run


@pytest.mark.parametrize(
    ("name", "said"),
    [
        ("r.md ", "ends with blank space"),
        (" r.md", "starts with blank space"),
        ("r.json\t", "control character"),
        ("r\n.md", "control character"),
    ],
)
def test_an_output_name_with_invisible_blank_or_control_characters_is_refused(
    tmp_path: Path, name: str, said: str
) -> None:
    for args in (
        ("recommend", "--example", "student-starter", "--probes", "none", "-o", name),
        ("ask", "--defaults", "-o", name),
    ):
        result = run(*args, cwd=tmp_path)
        assert result.code == 2, result.err
        assert said in result.err and "Traceback" not in result.err
        assert len(result.err.strip().splitlines()) == 1
    assert list(tmp_path.iterdir()) == []


def _compared(significant: bool | None = None, **changes: object) -> dict:
    """A comparison exactly as a real run stores it (probes/measure/significance.compare),
    with ``changes`` applied as a hand edit would."""
    from probes.measure.significance import compare

    numerator = [1.0] * 12
    denominator = [1.5 + 0.01 * i for i in range(12)]
    data = compare(
        "matmul", "gflops", "GFLOP/s", "jax", "pytorch", numerator, denominator,
        distortion=None, threads=2,
    ).to_json()  # fmt: skip
    data.update(changes)
    if significant is not None:
        data["significant"] = significant
    return data


def test_a_cached_comparison_must_say_what_its_own_interval_says() -> None:
    from probes.run.trust import _valid_comparison

    real = _compared()
    assert real["significant"] and _valid_comparison(real)
    quiet = _compared(round_ratios=[0.95, 1.05] * 6, ratio=1.0, interval=[0.95, 1.05])
    assert not _valid_comparison(quiet)  # 'significant' beside an interval across 1
    assert _valid_comparison(_compared(False, round_ratios=[0.95, 1.05] * 6, interval=[0.95, 1.05]))
    assert not _valid_comparison(_compared(False))  # an interval far above 1 called noise
    assert not _valid_comparison(_compared(True, round_ratios=[]))  # nothing compared
    assert not _valid_comparison(_compared(True, round_ratios=[1.5] * 6 + [0.5] * 6))
    assert not _valid_comparison(_compared(significant="yes"))  # type: ignore[arg-type]
