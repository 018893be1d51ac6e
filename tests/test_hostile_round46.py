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
        ("r.json\t", "control or invisible character"),
        ("r\n.md", "invisible character"),
        ("report\u202egpj.md", "invisible character"),
        ("r\u200b.md", "invisible character"),
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
    from probes.measure.significance import compare, verdict_text

    numerator = [1.0] * 12
    denominator = [1.5 + 0.01 * i for i in range(12)]
    data = compare(
        "matmul", "gflops", "GFLOP/s", "jax", "pytorch", numerator, denominator,
        distortion=None, threads=2,
    ).to_json()  # fmt: skip
    data.update(changes)
    if significant is not None:
        data["significant"] = significant
    if "decides" not in changes:
        data["decides"] = data["significant"] is True and not data["distorted"]
    if "verdict" not in changes and isinstance(data["significant"], bool):  # a careful edit
        interval = data["interval"]
        data["verdict"] = verdict_text(
            "jax", "pytorch", "gflops", data["ratio"], tuple(interval) if interval else None,
            data["threshold"], data["significant"], None,
        )  # fmt: skip
    return data


def test_a_cached_comparison_must_say_what_its_own_interval_says() -> None:
    from probes.run.trust import _valid_comparison

    real = _compared()
    assert real["significant"] and _valid_comparison(real)
    quiet = _compared(round_ratios=[0.95, 1.05] * 6, ratio=1.0, interval=[0.95, 1.05])
    assert quiet["significant"]  # the edit keeps the stored flag
    assert not _valid_comparison(quiet)  # 'significant' beside an interval across 1
    noise = {"round_ratios": [0.95, 1.05] * 6, "ratio": 1.0, "interval": [0.95, 1.05]}
    assert _valid_comparison(_compared(False, **noise))
    assert not _valid_comparison(_compared(False))  # an interval far above 1 called noise
    assert not _valid_comparison(_compared(True, round_ratios=[]))  # nothing compared
    assert not _valid_comparison(_compared(True, round_ratios=[1.5] * 6 + [0.5] * 6))
    assert not _valid_comparison(_compared(significant="yes"))  # type: ignore[arg-type]
    assert not _valid_comparison(_compared(significant="false"))  # type: ignore[arg-type]
    assert not _valid_comparison(_compared(decides="no"))
    assert not _valid_comparison(_compared(decides=False))  # says the opposite of its flags
    assert not _valid_comparison(_compared(interval=[3.0, 0.2]))  # upside down
    assert not _valid_comparison(_compared(ratio=50.0))  # outside its own interval
    assert not _valid_comparison(_compared(round_ratios=[0.1] * 12))  # rounds say slower
    assert not _valid_comparison(_compared(verdict=""))
    # round 47: the words must be the figures' own, the rounds counted, a reason given
    assert not _valid_comparison(_compared(verdict="jax reaches 3.00x pytorch's gflops"))
    assert not _valid_comparison(_compared(rounds=99))
    assert not _valid_comparison(_compared(distorted=True))  # distorted, but no reason


def test_a_cached_matmul_rate_must_follow_from_its_own_time() -> None:
    from probes.run.consistency import rate_matches_time

    def probe(gflops: float, seconds: float, unit: str = "s") -> dict:
        return {
            "id": "matmul",
            "params": {"shape": [1000, 1000]},
            "metrics": {"gflops": {"median": gflops}, "seconds": {"median": seconds, "unit": unit}},
        }

    assert rate_matches_time(probe(162.0, 0.0123))  # 2e9 / 0.0123 s = 162.6 GFLOP/s
    assert rate_matches_time(probe(162.0, 12.3, "ms"))
    assert not rate_matches_time(probe(999_999.0, 0.0123))
    assert not rate_matches_time(probe(162.0, 0.0123, "fortnights"))
    assert rate_matches_time({**probe(1.0, 1.0), "params": {}})  # no size: nothing to check


def test_a_cached_run_dated_a_little_ahead_is_not_negative_seconds_old() -> None:
    from datetime import datetime, timedelta, timezone

    from probes.run.cache import age_seconds

    ahead = (datetime.now(timezone.utc) + timedelta(seconds=250)).isoformat(timespec="seconds")
    assert age_seconds(ahead) == 0.0
    behind = (datetime.now(timezone.utc) - timedelta(seconds=90)).isoformat(timespec="seconds")
    assert 89 <= (age_seconds(behind) or 0) <= 120


@pytest.mark.parametrize("below", ["file", "/dev/null", "/proc/self", "/sys"])
def test_a_cache_folder_that_can_never_be_made_is_refused_before_any_work(
    tmp_path: Path, below: str
) -> None:
    (tmp_path / "file").write_text("x")
    folder = str(tmp_path / "file" / "sub") if below == "file" else f"{below}/advisor-cache"
    result = run(
        "recommend", "--example", "student-starter", "--probes", "quick", "-o", "r.md",
        cwd=tmp_path, env={"ADVISOR_CACHE_DIR": folder},
    )  # fmt: skip
    assert result.code == 2, result.err
    assert "can never be made" in result.err and len(result.err.strip().splitlines()) == 1
    assert not (tmp_path / "r.md").exists()


def test_a_folder_where_a_cached_run_goes_is_named_not_blamed_on_an_older_run(
    tmp_path: Path,
) -> None:
    from probes.run import cache

    (tmp_path / "cache").mkdir(mode=0o700)
    where = tmp_path / "cache" / "probes-quick-x.json"
    where.mkdir()
    with pytest.raises(cache.InOurWay, match="not a cached run"):
        cache.discard(where)
    assert where.is_dir()  # left for the user: nothing the cache wrote
    cache.discard(tmp_path / "cache" / "absent.json")  # nothing there: nothing to do


def test_ask_keeps_the_answers_when_its_output_appears_while_they_are_given(
    cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The refusal stands (no overwrite without --force); the answers are saved beside it."""
    import advisor.cli.ask as ask_command
    import advisor.questionnaire as questionnaire
    from advisor.io.profiles import load_profile
    from advisor.model.profile import Profile

    target = tmp_path / "p.yaml"
    answers = Profile.model_validate({"purpose": "research", "domains": ["rl"]})

    def answer(**_: object) -> Profile:
        target.write_text("written meanwhile\n")
        return answers

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(ask_command, "stdin_is_tty", lambda: True)
    monkeypatch.setattr(questionnaire, "run_questionnaire", answer)
    code, _, err = cli("ask", "-o", str(target))
    assert code == 2 and "file exists" in err
    assert "your answers are kept in advisor-answers.yaml" in err
    assert target.read_text() == "written meanwhile\n"
    assert load_profile(tmp_path / "advisor-answers.yaml") == answers


def test_a_cached_matmul_of_odd_but_well_formed_figures_never_crashes() -> None:
    """Round 47: a size of 1e-200 or a time of 5e-324 ms divided by zero (a traceback on
    every later run, until --refresh-probes)."""
    from probes.run.consistency import rate_matches_time

    def probe(size: float, seconds: float, unit: str = "s") -> dict:
        return {
            "id": "matmul",
            "params": {"shape": [size, size]},
            "metrics": {"gflops": {"median": 162.0}, "seconds": {"median": seconds, "unit": unit}},
        }

    assert rate_matches_time(probe(1e-200, 0.0123))  # no real size: nothing to check against
    assert not rate_matches_time(probe(1000, 5e-324, "ms"))  # a time that is no time
    assert not rate_matches_time(probe(1e6, 1e-300))
    assert rate_matches_time(probe(1000, 0.0123 * 5))  # a busy machine's split middle calls


def test_a_worker_missing_numpy_is_told_to_install_numpy_not_the_framework_again() -> None:
    """Round 47: torch's wheels bring no NumPy; the hint repeated 'pip install torch'."""
    from probes.run.framework import _install_hint

    assert "pip install numpy" in _install_hint("pytorch", {"module": "numpy"})
    assert "pip install numpy" in _install_hint("pytorch", {"module": "numpy.core"})
    assert "pip install torch" in _install_hint("pytorch", {"module": "torch"})
    assert "pip install torch" in _install_hint("pytorch", {})
    assert "'scipy'" in _install_hint("jax", {"module": "scipy"})
    assert "pip install -U jax" in _install_hint("jax", {"module": "x; rm -rf /"})
