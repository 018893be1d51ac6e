"""Ratio facts from the interleaved comparisons, and what the report says about them.

probes_standard_v2.json is a real `advisor probe --level standard --format json` run on the
2-core machine while other helpers kept it busy (paths anonymised): every comparison is
marked distorted there. The "idle" variants below edit a copy: one comparison that decides,
one with no measurable difference.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from advisor.decide.engine import decide
from advisor.decide.rules import load_ruleset
from advisor.io.profiles import example_path, load_profile
from advisor.model.measurements import facts_from_probes
from advisor.model.profile import Profile
from advisor.report.render import render_report
from advisor.report.text import md_inline

FIXTURES = Path(__file__).parent / "fixtures"


def v2() -> dict[str, Any]:
    return json.loads((FIXTURES / "probes_standard_v2.json").read_text(encoding="utf-8"))


def comparison(run: dict[str, Any], probe: str, numerator: str) -> dict[str, Any]:
    return next(
        c for c in run["comparisons"] if c["probe"] == probe and c["numerator"] == numerator
    )


def idle(run: dict[str, Any], *, decides: dict[tuple[str, str], float]) -> dict[str, Any]:
    """A quiet-machine copy: no distortion; the given (probe, numerator) ratios decide."""
    run = copy.deepcopy(run)
    run["environment"]["noisy"] = False
    run["environment"]["warnings"] = []
    rounds = (run["environment"].get("load") or {}).get("comparison_rounds")
    if rounds:
        rounds.update(distorted=False, reasons=[])
    for c in run["comparisons"]:
        key = (c["probe"], c["numerator"])
        c["distorted"] = False
        c["reason"] = None
        if key in decides:
            ratio = decides[key]
            c.update(ratio=ratio, interval=[ratio * 0.9, ratio * 1.1], significant=True)
            c["verdict"] = f"{c['numerator']} reaches {ratio:.2f}x pytorch's {c['metric']}"
        else:
            c.update(ratio=1.02, interval=[0.97, 1.07], significant=False)
            c["verdict"] = (
                "no measurable difference (jax/pytorch 1.02, 95% interval 0.97-1.07, "
                "threshold +/-10%)"
            )
        c["decides"] = c["significant"] and not c["distorted"]
    return run


def report(
    run: dict[str, Any], example: str, fmt: str = "markdown", *, on: str | None = None
) -> tuple[Any, str]:
    """The report for an example; ``on`` says the project trains on that hardware instead
    (the fixture's probes ran on a CPU, and measurements score only on the project's kind
    of machine)."""
    profile = load_profile(str(example_path(example)))
    if on is not None:
        data = profile.model_dump(mode="json", exclude_unset=True)
        data["hardware"] = {"training": [on], "inference": [on]}
        profile = Profile.model_validate(data)
    decision = decide(profile, facts_from_probes(run), load_ruleset([]))
    text = render_report(
        decision, profile, run, fmt=fmt, profile_path="p.yaml", probe_level="standard"
    )
    return decision, text


def test_distorted_comparisons_give_no_ratio_and_say_why() -> None:
    run = v2()
    assert all(c["distorted"] for c in run["comparisons"])
    facts = facts_from_probes(run)
    # both medians were measured, yet no ratio: the machine was too busy to compare
    assert facts.matmul_gflops.jax and facts.matmul_gflops.pytorch
    assert facts.jax_over_pytorch_matmul is None
    assert facts.jax_over_pytorch_train_step is None
    assert facts.jax_over_pytorch_workload is None
    assert "not compared" in facts.stand_aside["jax_over_pytorch_matmul"]
    # bfloat16 is not compared in rounds: its ratio divides the medians, as before
    bf16 = facts.matmul_bf16_gflops
    assert facts.jax_over_pytorch_matmul_bf16 == pytest.approx(bf16.jax / bf16.pytorch)
    # the workload's MFU per framework is a fact
    assert 0 < facts.workload_mfu.pytorch < 1 and 0 < facts.workload_mfu.jax < 1


def test_a_deciding_comparison_gives_its_ratio_not_the_medians() -> None:
    run = idle(v2(), decides={("train_step", "jax"): 2.1})
    facts = facts_from_probes(run)
    assert facts.jax_over_pytorch_train_step == pytest.approx(2.1)
    medians = facts.train_steps_per_second
    assert medians.jax / medians.pytorch != pytest.approx(2.1)
    assert facts.jax_over_pytorch_matmul is None  # no measurable difference
    assert "no measurable difference" in facts.stand_aside["jax_over_pytorch_matmul"]


def test_old_runs_without_comparisons_keep_the_ratio_of_medians() -> None:
    run = json.loads((FIXTURES / "probes_standard.json").read_text(encoding="utf-8"))
    assert "comparisons" not in run
    facts = facts_from_probes(run)
    m = facts.matmul_gflops
    assert facts.jax_over_pytorch_matmul == pytest.approx(m.jax / m.pytorch)
    assert facts.stand_aside == {}


def test_rule_that_stands_aside_names_the_comparison_verdict() -> None:
    run = idle(v2(), decides={})
    # on the project's own kind of machine (the fixture ran on a CPU)
    decision, text = report(run, "r6b-research-top-performance", on="cpu")
    reasons = {s.id: s.reason for s in decision.skipped_rules}
    assert any("no measurable difference" in r for r in reasons.values()), reasons
    for rule_id, reason in reasons.items():
        if "no measurable difference" in reason:
            shown = md_inline(reason)  # as the Markdown escapes it
            assert f"- `{rule_id}` " in text and shown in text
    # a figure that was not measured at all says so, not "run with --probes quick"
    assert reasons["PERF011"] == "needs a figure this run did not measure"
    # the same run with a deciding train_step comparison fires the probe-aware rule instead
    deciding = idle(v2(), decides={("train_step", "jax"): 2.1})
    fired, _ = report(deciding, "r6b-research-top-performance", on="cpu")
    used = [r for r in fired.rules if "facts.jax_over_pytorch_train_step" in r.facts_used]
    assert used and used[0].facts_used["facts.jax_over_pytorch_train_step"] == pytest.approx(2.1)
    # for the project as written (it trains on NVIDIA GPUs) the CPU's figures are shown,
    # not scored: the rule stands aside and says why
    gpu, _ = report(deciding, "r6b-research-top-performance")
    assert not [r for r in gpu.rules if r.facts_used]
    assert "not scored" in {s.id: s.reason for s in gpu.skipped_rules}["PERF001"]


def test_workload_chart_table_and_sentence_when_too_busy() -> None:
    _, text = report(v2(), "r6b-research-top-performance")
    assert "### Your workload: share of the machine's peak" in text
    assert 'title "MFU, % of the matmul peak (higher is better)"' in text
    assert "| Framework | Compiler | dtype | Batch | Step (ms) | Model GFLOP/s | MFU |" in text
    assert "| PyTorch | off (eager autograd + SGD) | float32 | 64 |" in text
    assert "| JAX | on (jax.jit(value_and_grad + SGD)) | float32 | 64 |" in text
    assert "too busy to compare them fairly" in text
    assert "| Your workload, compiled | training steps per second | JAX / PyTorch |" in text
    assert "distorted: other processes used" in text
    # the interpreter measured, and the load the probes ran under
    assert "/home/user/advisor/.venv/bin/python" in text and "the advisor's own" in text
    assert "other work kept 1.75 busy" in text


def test_workload_sentence_names_the_faster_framework_only_when_it_decides() -> None:
    _, quiet = report(idle(v2(), decides={}), "r6b-research-top-performance")
    assert "speed is not a reason to choose" in quiet
    assert "no measurable difference" in quiet
    _, faster = report(
        idle(v2(), decides={("workload", "jax"): 1.6}), "r6b-research-top-performance"
    )
    assert "JAX trains your MLP 1.6x faster than PyTorch" in faster
    assert "speed favours JAX" in faster


def test_html_and_json_carry_the_same_workload_content() -> None:
    run = v2()
    _, page = report(run, "r6b-research-top-performance", fmt="html")
    assert "<h3>Your workload: share of the machine's peak</h3>" in page
    assert 'class="bar" style="width: 34.8%"' in page
    assert "<script" not in page
    _, raw = report(run, "r6b-research-top-performance", fmt="json")
    data = json.loads(raw)
    rows = data["report"]["workload"]["rows"]
    assert [r["framework"] for r in rows] == ["PyTorch", "JAX", "TensorFlow"]
    assert data["report"]["workload"]["sentence"]
    assert len(data["report"]["comparisons"]) == len(run["comparisons"])
    assert data["report"]["interpreters"][0]["path"].endswith("/bin/python")
    assert data["probes"] and data["environment"]["interpreters"]


def test_busy_means_distorted_rounds_not_a_flickering_benchmark_index() -> None:
    from advisor.model.measurements import machine_too_busy

    env = {"noisy": True, "load": {"comparison_rounds": {"distorted": False}}}
    assert machine_too_busy(env, compared_in_rounds=True) is False
    env["load"]["comparison_rounds"]["distorted"] = True
    assert machine_too_busy(env, compared_in_rounds=True) is True
    # a run without interleaved rounds keeps its overall noise verdict
    assert machine_too_busy({"noisy": True}, compared_in_rounds=False) is True


def test_a_rate_not_compared_in_rounds_decides_only_clear_of_its_spread() -> None:
    from advisor.model.measurements import clear_of_noise

    def index(jax: tuple[float, float], torch: tuple[float, float]) -> dict:
        metric = lambda m, i: {"metrics": {"gflops_bf16": {"median": m, "iqr": i}}}  # noqa: E731
        return {("matmul", "jax"): metric(*jax), ("matmul", "pytorch"): metric(*torch)}

    assert clear_of_noise(index((105, 4), (300, 20)), "matmul", "gflops_bf16", "jax")
    assert not clear_of_noise(index((280, 30), (300, 20)), "matmul", "gflops_bf16", "jax")
    # wide spreads that reach into the +/-10% band: no measurable difference
    assert not clear_of_noise(index((250, 60), (300, 60)), "matmul", "gflops_bf16", "jax")


def test_a_wide_interval_is_inconclusive_not_parity() -> None:
    """An interval that reaches past the threshold band (0.885-1.61 beside +/-10%) rules out
    neither a difference nor its absence: the report's table says so instead of "no
    measurable difference" (a reviewer read the latter as parity)."""
    from advisor.report.workload import _no_difference

    wide = {"interval": [0.885, 1.61], "threshold": 0.1, "ratio": 0.945}
    narrow = {"interval": [0.97, 1.07], "threshold": 0.1, "ratio": 1.02}
    assert _no_difference(wide).startswith("inconclusive")
    assert _no_difference(narrow) == "no measurable difference"
    assert _no_difference({"interval": None}) == "no measurable difference"


def test_rules_a_noisy_machine_kept_from_scoring_are_listed_as_standing_aside() -> None:
    """A probe-aware rule whose `facts.noisy` guard failed stood aside because of the noise:
    it is listed among the skipped rules with that reason (the list had come back empty,
    while the README's JSON contract promises it), unlike a rule whose other answers rule
    it out."""
    from advisor.decide.engine import decide
    from advisor.decide.rules import load_ruleset
    from advisor.model.facts import Facts
    from advisor.model.profile import Profile

    profile = Profile.model_validate({"hardware": {"training": ["cpu"]}})
    noisy = Facts(noisy=True, accelerator="cpu", jax_over_pytorch_train_step=2.0)
    quiet = Facts(noisy=False, accelerator="cpu", jax_over_pytorch_train_step=2.0)
    ruleset = load_ruleset()
    skipped = {s.id: s.reason for s in decide(profile, noisy, ruleset).skipped_rules}
    assert "PERF001" in skipped and "noisy" in skipped["PERF001"], skipped
    fired = {r.id for r in decide(profile, quiet, ruleset).rules}
    assert "PERF001" in fired


def test_probe_verdict_says_inconclusive_when_the_interval_reaches_past_the_band() -> None:
    """The worker's own verdict (quoted in the claims section and in skipped rules' reasons)
    had called 0.88-1.61 beside a 10% threshold 'no measurable difference', which the
    report's table already called inconclusive."""
    from probes.measure.significance import verdict_text

    wide = verdict_text("jax", "pytorch", "gflops", 0.94, (0.88, 1.61), 0.10, False, None)
    assert wide.startswith("inconclusive (jax/pytorch 0.94, 95% interval 0.88-1.61")
    narrow = verdict_text("jax", "pytorch", "gflops", 1.02, (0.97, 1.07), 0.10, False, None)
    assert narrow.startswith("no measurable difference (jax/pytorch 1.02")
    clear = verdict_text("jax", "pytorch", "gflops", 1.5, (1.4, 1.6), 0.10, True, None)
    assert clear.startswith("jax reaches 1.50x pytorch's gflops")


def test_an_interval_bound_beside_the_band_edge_is_not_printed_on_its_other_side() -> None:
    """1.1003 reaches past a +/-10% band; printed as "1.10" the verdict "inconclusive ...:
    the interval reaches past the threshold" would contradict its own figures."""
    from probes.measure.significance import verdict_text

    text = verdict_text(
        "tensorflow", "pytorch", "steps_per_s", 1.08, (1.04, 1.1003), 0.10, False, None
    )
    assert text.startswith("inconclusive") and "1.04-1.1003" in text, text
    low = verdict_text("jax", "pytorch", "steps_per_s", 1.0, (0.905, 1.05), 0.10, False, None)
    assert "0.905-1.05" in low, low
    plain = verdict_text("jax", "pytorch", "steps_per_s", 1.0, (0.95, 1.05), 0.10, False, None)
    assert plain.startswith("no measurable difference") and "0.95-1.05" in plain, plain
