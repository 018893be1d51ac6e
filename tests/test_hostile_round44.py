"""Red-team round 44: round 43's hints, attacked with about 940 realistic slips. A field
whose description mentions a word is not the field meant; two equally near readings are
no guess. Each finding, fixed, with the hint it gave."""

from __future__ import annotations

from pathlib import Path

import pytest
from pack_support import refusal

from advisor.decide.conditions import ConditionError, parse_condition, resolve_field
from advisor.decide.rules import load_ruleset
from advisor.io.profiles import load_profile
from advisor.model.errors import InputError
from advisor.model.option_hints import meant_ids


def _refused(tmp_path: Path, text: str) -> str:
    path = tmp_path / "p.yaml"
    path.write_text(text + "\n", encoding="utf-8")
    with pytest.raises(InputError) as error:
        load_profile(str(path))
    return str(error.value)


@pytest.mark.parametrize(
    ("text", "said"),
    [
        # round 45: an option's name is no guess either (tpu: training, inference or free
        # access?); the section's keys are listed instead
        ("hardware: {tpu: true}", "valid keys: training, inference"),  # had been free access
        ("deployment: {mobile: true}", "valid keys: targets"),  # had been edge_hardware
        ("team: {python: true}", "valid keys:"),  # had been team.languages ("besides Python")
        ("training: {devices: 8}", "valid keys:"),  # had been federated or on_device
        ("training: {gpus: 8}", "valid keys:"),  # a description's word is no guess
        ("team.sise: 3", "write 'size' under 'team'"),  # had been 'team.size', itself refused
        ("training: [nvidia_gpu]", "expected a section of keys (accelerators, nodes"),
        ("hardware: {training: tpu}", "expected a list (written [a, b]), got 'tpu'"),
    ],
)
def test_a_key_gets_its_sections_keys_not_a_field_its_description_mentions(
    tmp_path: Path, text: str, said: str
) -> None:
    message = _refused(tmp_path, text)
    assert said in message, message
    assert "did you mean 'hardware.free_tpu_access'" not in message
    assert "TrainingScale" not in message


@pytest.mark.parametrize(
    ("condition", "hint"),
    [
        ({"field": "team.size", "min": 1}, "gte"),  # had been 'in'
        ({"field": "team.size", "get": 3}, None),  # as near gt as gte
        ({"field": "team.size", "let": 3}, None),
        ({"an": [{"field": "purpose", "eq": "research"}]}, None),  # any, or and (all)?
    ],
)
def test_two_equally_near_readings_are_no_guess(condition: dict, hint: str | None) -> None:  # type: ignore[type-arg]
    with pytest.raises(ConditionError) as error:
        parse_condition(condition, "when")
    message = str(error.value)
    assert (f"did you mean '{hint}'?" in message) if hint else "did you mean" not in message


def test_the_display_only_note_follows_the_one_guess_it_is_about() -> None:
    with pytest.raises(ConditionError) as error:
        resolve_field("workload.batchsize")
    assert str(error.value).endswith(
        "did you mean 'workload.batch_size' (display only: no rule or question may read it)?"
    )


@pytest.mark.parametrize(
    ("written", "meant"),
    [("DET4", []), ("HW-001", ["HW001"]), ("HW_8", ["HW008"]), ("HW010", ["HW001"])],
)
def test_a_rule_id_changed_in_one_digit_is_another_rule(written: str, meant: list[str]) -> None:
    """'DET4' had been answered DET001, DET002 or DET003."""
    ids = ["DET001", "DET002", "DET003", "HW001", "HW008"]
    assert meant_ids(written, ids) == (meant, None)


def one_rule_pack(tmp_path: Path, when: str, fire: str) -> Path:
    """A user pack of one rule with this condition and this example that fires."""
    pack = tmp_path / "pack"
    pack.mkdir()
    (pack / "r.yaml").write_text(
        f"""\
rules:
  - id: HW901
    title: A user rule
    criterion: hardware
    when: {when}
    effects: {{tensorflow: 5}}
    why: Because a test needs a rule.
    evidence:
      - {{title: A source, source: A publisher, year: 2020, ref: A1, claim: A claim long enough.}}
    examples:
      fire: [{fire}]
      ok: [{{purpose: production}}]
""",
        encoding="utf-8",
    )
    return pack


def test_a_misspelt_framework_in_a_fact_is_refused(tmp_path: Path) -> None:
    """{field: facts.installed, contains: pytroch} passed `rules check` and could never fire."""
    pack = one_rule_pack(
        tmp_path,
        "{field: facts.installed, contains: pytroch}",
        "{purpose: research, facts: {installed: [pytorch]}}",
    )
    message = refusal(lambda: load_ruleset([pack]))
    assert "r.yaml:5" in message and "did you mean 'pytorch'?" in message
