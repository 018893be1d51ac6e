"""Red-team round 43: round 42's "did you mean", attacked. A hint that names another thing
misleads more than none: each finding, fixed, with the hint it gave."""

from __future__ import annotations

from pathlib import Path

import pytest

from advisor.decide.conditions import ConditionError, parse_condition, resolve_field
from advisor.io.profiles import load_profile
from advisor.model.errors import InputError
from advisor.model.option_hints import meant_ids, meant_options


@pytest.mark.parametrize(
    ("condition", "hint"),
    [
        ({"field": "deployment.targets", "not_contains": "mobile"}, None),  # was 'contains'
        ({"field": "deployment.targets", "contains_none": ["mobile"]}, None),  # 'contains_any'
        ({"field": "purpose", "nin": ["research"]}, "not_in"),  # was 'in'
        ({"and": [{"field": "purpose", "eq": "research"}]}, "all"),  # was 'any'
        ({"field": "purpose", "neq": "research"}, "ne"),
        ({"field": "team.size", "ge": 3}, "gte"),
    ],
)
def test_an_operator_hint_never_reverses_the_condition(condition: dict, hint: str | None) -> None:  # type: ignore[type-arg]
    with pytest.raises(ConditionError) as error:
        parse_condition(condition, "when")
    message = str(error.value)
    assert (f"did you mean '{hint}'?" in message) if hint else "did you mean" not in message


@pytest.mark.parametrize(
    ("text", "hint"),
    [
        ("hardware: {training: [amd_cpu]}", None),  # was 'amd_gpu': a CPU is not a GPU
        ("workload: {dtype: float64}", None),  # was 'float16'
        ("deployment: {targets: [edge], edge_hardware: [edge_cpu]}", None),  # was 'edge_tpu'
        ("model: {size: 7B}", None),  # was 'team.size'
        ("size: 7B", None),  # not team.size: a bare 'size' is no field's own name
        ("existing: pytorch", "'existing_code' or 'existing_code_size'"),  # had left it out
        ("workload: {model: cnn}", "'workload.model_family'"),  # had been 'model'
        ("team: {experiance: {pytorch: some}}", "'team.experience'"),
        ("hardware: {training: [tpuu]}", "'tpu'"),
    ],
)
def test_a_profile_hint_names_what_was_meant_or_nothing(
    tmp_path: Path, text: str, hint: str | None
) -> None:
    path = tmp_path / "p.yaml"
    path.write_text(text + "\n", encoding="utf-8")
    with pytest.raises(InputError) as error:
        load_profile(str(path))
    message = str(error.value)
    assert (f"did you mean {hint}?" in message) if hint else "did you mean" not in message, message


def test_a_dotted_key_is_told_how_to_nest_not_to_write_itself(tmp_path: Path) -> None:
    """'team.size: 3' had been answered "did you mean 'team.size'?"."""
    path = tmp_path / "p.yaml"
    path.write_text("team.size: 3\n", encoding="utf-8")
    with pytest.raises(InputError) as error:
        load_profile(str(path))
    assert "a dotted name is not a path here: write 'size' under 'team'" in str(error.value)


@pytest.mark.parametrize(
    ("path", "hint"),
    [
        ("existing_code.size", "existing_code_size"),  # was 'team.size'
        ("facts.installed.jax", None),  # was team.experience.jax and two matmul facts
        ("facts.tensorflow_over_jax_matmul", None),  # was another denominator
        ("facts.jax_over_pytorch_matmul_fp16", None),  # fp16 is not bf16
        ("team.experiance.pytorch", "team.experience.pytorch"),  # alone, no facts beside it
    ],
)
def test_a_field_path_hint_names_what_was_meant_or_nothing(path: str, hint: str | None) -> None:
    with pytest.raises(ConditionError) as error:
        resolve_field(path)
    message = str(error.value)
    assert message.endswith(f"did you mean '{hint}'?") if hint else "did you mean" not in message


def test_a_questions_choice_hint_is_not_another_device() -> None:
    options = ["cpu", "nvidia_gpu", "amd_gpu", "tpu"]
    assert meant_options("amd_cpu", options) == []  # was 'amd_gpu'
    assert meant_options("float64", ["float32", "bfloat16", "float16"]) == []


@pytest.mark.parametrize(
    ("written", "meant", "many"),
    [
        ("PERF01", ["PERF001"], None),
        ("perf1", ["PERF001"], None),
        ("HW0008", ["HW008"], None),
        ("HW100", [], None),  # HW101-HW108 each change a digit: other rules, no guess
        ("PERF0010", ["PERF010"], None),
        ("CON001", [], None),  # not an ECO rule
        ("x" * 100_000, [], None),  # clipped before matching: no seconds spent
    ],
)
def test_a_rule_id_hint_keeps_its_prefix_and_number(
    written: str, meant: list[str], many: str | None
) -> None:
    ids = ["PERF001", "PERF010", "PERF101", "PERF201", "HW008", "ECO001"]
    ids += [f"HW10{i}" for i in range(1, 9)]
    assert meant_ids(written, ids) == (meant, many)


def test_rules_show_names_a_consistency_check_as_one(cli) -> None:  # type: ignore[no-untyped-def]
    """Since 2026-12-03 `rules show` prints the check itself (tests/test_check_page.py)."""
    code, out, err = cli("rules", "show", "CON001")
    assert code == 0 and out.startswith("# CON001: ") and "Consistency check" in out and not err


def test_the_start_of_one_option_is_pointed_to_it() -> None:
    """Found beside round 43, in the questionnaire: 'prod' for 'production' got no hint."""
    assert meant_options("prod", ["research", "production", "both"]) == ["production"]
    assert meant_options("pr", ["research", "production", "both"]) == []  # too little said


def test_the_jit_claim_says_which_of_its_examples_was_not_timed() -> None:
    """Found reading a report after round 43: "JIT makes code several times faster (jax.jit,
    torch.compile)" held from JAX and TensorFlow while torch.compile had not been timed, and
    only the measurements section said so."""
    import sys

    sys.path.insert(0, str(Path(__file__).parent))
    from test_report import INJECTION, load_probes, render, section

    claims = section(render(INJECTION, load_probes("probes_standard.json"), level="standard"), 6)
    jit = claims[claims.index("several times faster”: ") :]
    assert "Not measured: PyTorch timed out" in jit.split("###")[0], jit[:600]


def test_a_claim_quotes_the_comparisons_interval_once() -> None:
    """Found reading a report after round 43: "95% interval 1.07-2.60: no measurable
    difference (..., 95% interval 1.07-2.59, ...)": the probes' words give it already."""
    import sys

    sys.path.insert(0, str(Path(__file__).parent))
    from test_report import _compared, _data, load_probes

    probes = load_probes("probes_quick.json")
    compared = _compared(1.02, 0.95, 1.1, significant=False, distorted=False)
    compared["verdict"] = "no measurable difference (jax/pytorch 1.02, 95% interval 0.95-1.10)"
    probes["comparisons"] = [compared]
    claims = {c["id"]: c for c in _data(probes)["report"]["claims"]}
    for claim in (claims["A-MATMUL"], claims["A-PERF"]):
        assert claim["finding"].count("interval") == 1, claim["finding"]
