"""Red-team round 45: today's changes attacked (hints, section messages, facts named by
framework id, the JIT claim). Each finding, fixed, with the promise it broke."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from advisor.decide.conditions import ConditionError, parse_condition
from advisor.io.profiles import load_profile
from advisor.model.errors import InputError
from advisor.model.option_hints import meant_options

sys.path.insert(0, str(Path(__file__).parent))
from test_hostile_round44 import one_rule_pack
from test_report import INJECTION, load_probes, render, section


@pytest.mark.parametrize(
    ("value", "options"),
    [
        ("notrequired", ["none", "preferred", "required"]),  # had been 'required'
        ("nonmobile", ["server", "mobile"]),
        ("unrequired", ["none", "preferred", "required"]),
        ("notriton", ["triton", "vllm"]),
    ],
)
def test_a_negation_written_onto_the_word_is_kept(value: str, options: list[str]) -> None:
    assert meant_options(value, options) == []


@pytest.mark.parametrize(
    "condition",
    [
        {"field": "deployment.targets", "notcontains": "mobile"},  # had been 'contains'
        {"field": "deployment.targets", "containsnot": "mobile"},
        {"field": "team.size", "ngt": 3},  # had been 'gt'
        {"nand": [{"field": "purpose", "eq": "research"}]},  # had been 'all'
        {"xor": [{"field": "purpose", "eq": "research"}]},  # had been 'any'
    ],
)
def test_a_joined_negation_gets_no_operator_hint(condition: dict) -> None:  # type: ignore[type-arg]
    with pytest.raises(ConditionError) as error:
        parse_condition(condition, "when")
    assert "did you mean" not in str(error.value)


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("---", "a profile must be a YAML mapping, not an empty document"),  # was NoneType
        ("3", "a profile must be a YAML mapping, not a number"),  # was 'a int'
        ("existing_code: none", "expected a list (written [a, b]), got 'none'"),  # ['none']
        ("domains: true", "got true"),  # had been [True]
        ("domains: null", "expected a list"),  # had been pydantic's own words
    ],
)
def test_messages_speak_yaml_not_python(tmp_path: Path, text: str, said: str) -> None:
    path = tmp_path / "p.yaml"
    path.write_text(text + "\n", encoding="utf-8")
    with pytest.raises(InputError) as error:
        load_profile(str(path))
    message = str(error.value)
    assert said in message and "such as" not in message, message
    assert "NoneType" not in message and "True" not in message


def test_a_facts_section_error_names_facts_and_its_keys(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """'examples.fire[1]: matmul_gflops: expected a section of keys (), got 5'."""
    pack = one_rule_pack(
        tmp_path,
        "{field: purpose, eq: research}",
        "{purpose: research, facts: {matmul_gflops: 5}}",
    )
    code, _, err = cli("rules", "check", str(pack))
    assert code == 2 and "examples.fire[1]: facts: matmul_gflops" in err, err
    assert "(pytorch, jax, tensorflow), got 5" in err


def test_the_jit_claim_says_slower_when_compiled_code_is_slower() -> None:
    """A speed-up of 0.8x had been worded "compiled code beat eager by ... 0.8x", and
    TensorFlow's figure had turned JAX's "holds" into "partly holds"."""
    probes = load_probes("probes_standard.json")
    jax = next(p for p in probes["probes"] if p["id"] == "jit" and p["framework"] == "jax")
    for p in probes["probes"]:
        if p["id"] == "jit" and p["framework"] == "tensorflow":
            p.update(status="ok", reason=None, metrics={"speedup": dict(jax["metrics"]["speedup"])})
            p["metrics"]["speedup"]["median"] = 0.8
    claims = section(render(INJECTION, probes, level="standard"), 6)
    jit = claims[claims.index("several times faster”: ") :].split("###")[0]
    assert "TensorFlow slower than eager (0.8x)" in jit and "beat eager" not in jit
    assert "The verdict reads JAX" in jit
