"""Red-team round 40: what round 38 and 39 added, attacked. Each finding, fixed, with the
promise it broke."""

from __future__ import annotations

import io
import re
import sys
from pathlib import Path

import pytest
import yaml
from pack_support import refusal
from pydantic import ValidationError

from advisor.decide.rules import load_ruleset
from advisor.model.option_hints import meant_options
from advisor.model.profile import COUNT_TEXT, SIZE_TEXT, Profile
from advisor.questionnaire import load_questions, run_questionnaire
from advisor.questionnaire.terminal import Terminal

_RULE = """\
rules:
  - id: {rid}
    title: A user rule
    criterion: {criterion}
    when: {when}
    effects: {{tensorflow: 5}}
    why: Because a test needs a rule.
    evidence:
      - {{title: A source, source: A publisher, year: 2020, ref: {ref},
         claim: A claim long enough.}}
    examples:
      fire: [{{workload: {{model_family: transformer}}, purpose: research}}]
      ok: [{{workload: {{model_family: cnn}}, purpose: production}}]
"""


def _pack(tmp_path: Path, **fields: str) -> Path:
    values = {"rid": "HW901", "criterion": "hardware", "ref": "A1"} | fields
    values.setdefault("when", "{field: purpose, eq: research}")
    pack = tmp_path / "pack"
    pack.mkdir()
    (pack / "r.yaml").write_text(_RULE.format(**values), encoding="utf-8")
    return pack


def test_a_rule_may_not_read_a_display_only_answer(tmp_path: Path) -> None:
    """A user pack's rule on workload.model_family fired while the report said "no answers
    given" (the answer counts as none since round 39), and the sensitivity analysis never
    offered the one change that flipped it. The model promises no rule reads it."""
    pack = _pack(tmp_path, when="{field: workload.model_family, eq: transformer}")
    message = refusal(lambda: load_ruleset([pack]))
    assert "r.yaml:5" in message and "'workload.model_family' is display only" in message


def test_rules_check_and_recommend_name_the_same_first_problem(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """With a wrong id prefix at line 2 and a bad ref at line 9, `rules check` named the
    prefix and `recommend --rules` the ref: the citation check ran first at load."""
    pack = _pack(tmp_path, rid="USR001", ref="F-BOGUS")
    profile = tmp_path / "p.yaml"
    profile.write_text("purpose: research\n", encoding="utf-8")
    _, _, checked = cli("rules", "check", str(pack))
    _, _, recommended = cli("recommend", str(profile), "--rules", str(pack), "--probes", "none")
    for err in (checked, recommended):
        assert "r.yaml:2: rule USR001: id: 'hardware' rules use the id prefix HW" in err, err


@pytest.mark.parametrize(
    ("value", "options", "meant"),
    [
        ("gpu", ["cpu", "nvidia_gpu", "amd_gpu", "tpu"], ["nvidia_gpu", "amd_gpu"]),
        ("tf2", ["pytorch", "tf1", "tf2_keras"], ["tf2_keras"]),
        ("gpu", ["none", "cpu", "accelerator"], []),  # not the opposite of what was meant
        ("fpga", ["fpga_logic", "fpga_dpu"], ["fpga_logic", "fpga_dpu"]),
        ("tpuu", ["cpu", "tpu"], ["tpu"]),
    ],
)
def test_a_hint_points_to_what_was_meant_or_says_nothing(
    value: str, options: list[str], meant: list[str]
) -> None:
    """'gpu' had been answered "did you mean 'tpu'?" (and 'cpu' for a simulator), 'tf2'
    "did you mean 'tf1'?": a loose spelling match pointed to the wrong option."""
    assert meant_options(value, options) == meant


def test_the_same_hint_in_a_profile_a_rule_condition_and_the_questionnaire(
    tmp_path: Path,
) -> None:
    from advisor.questionnaire.spec import AnswerError

    with pytest.raises(ValidationError) as profile_error:
        Profile.model_validate({"existing_code": ["no"]})
    assert "did you mean" not in str(profile_error.value)  # 'no' is no option's word
    pack = _pack(tmp_path, when="{field: existing_code, contains: tf2}")
    assert "did you mean 'tf2_keras'?" in refusal(lambda: load_ruleset([pack]))
    question = next(q for q in load_questions().questions if q.path == "hardware.training")
    with pytest.raises(AnswerError) as asked:
        question.parse("gpu")
    assert "did you mean 'nvidia_gpu' or 'amd_gpu'?" in str(asked.value)


def test_a_kelvin_sign_is_not_a_k(tmp_path: Path) -> None:
    """IGNORECASE let U+212A (the Kelvin sign) read as 'k': the reader took '7\u212a' as
    7,000 parameters while the schema's pattern refused it."""
    for field, text in (("parameters", "7\u212a"), ("memory", "256\u212aB")):
        data = (
            {"model": {"parameters": text}}
            if field == "parameters"
            else {"deployment": {"device_memory_mb": text}}
        )
        with pytest.raises(ValidationError):
            Profile.model_validate(data)
        assert not re.search(COUNT_TEXT if field == "parameters" else SIZE_TEXT, text)


def test_an_empty_summary_offers_no_numbers(tmp_path: Path) -> None:
    from advisor.decide.conditions import PROFILE_PATHS

    data = {
        "questions": [{"field": "purpose", "prompt": "Research?", "when": {"not": True}}],
        "not_asked": {p: "not asked here" for p in PROFILE_PATHS if p != "purpose"},
    }
    path = tmp_path / "q.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    out = io.StringIO()
    run_questionnaire(
        questions=load_questions(path), terminal=Terminal(stdin=io.StringIO("1\ny\n"), out=out)
    )
    text = out.getvalue()
    assert "a number changes" not in text and "from 1 to 0" not in text
    assert "Invalid answer: type y or n" in text


def test_speed_claims_say_when_the_rounds_failed_and_the_medians_speak(tmp_path: Path) -> None:
    """A comparison with no ratio ('not compared: no rounds completed') had let the claim
    print the medians' ratio as an interleaved result."""
    sys.path.insert(0, str(Path(__file__).parent))
    from test_report import _compared, _data, load_probes

    probes = load_probes("probes_quick.json")
    failed = _compared(1.0, 0.9, 1.1, significant=False, distorted=False)
    failed.update(ratio=None, interval=None, verdict="not compared: no rounds completed")
    probes["comparisons"] = [failed]
    claims = {c["id"]: c for c in _data(probes)["report"]["claims"]}
    perf = claims["A-PERF"]
    assert "by the medians of separate runs; not compared" in perf["finding"]
    assert "in interleaved rounds" not in perf["finding"] and perf["verdict"] == "not checked"


def test_every_command_names_the_same_first_problem_of_a_pack_of_many_rules(  # type: ignore[no-untyped-def]
    cli, tmp_path: Path
) -> None:
    """Round 41: a bad ref in the first rule and a bad condition in the second. `rules
    check` named the condition (it reports citations once the pack has loaded) while
    `recommend --rules` and `rules show --rules` named the ref (checked rule by rule)."""
    pack = _pack(tmp_path, ref="F-BOGUS")
    second = _RULE.format(
        rid="HW902", criterion="hardware", ref="A1", when="{field: purpose, eq: reserch}"
    ).replace("rules:\n", "")
    (pack / "r.yaml").write_text((pack / "r.yaml").read_text() + second, encoding="utf-8")
    profile = tmp_path / "p.yaml"
    profile.write_text("purpose: research\n", encoding="utf-8")
    runs = [
        ("rules", "check", str(pack)),
        ("recommend", str(profile), "--rules", str(pack), "--probes", "none"),
        ("rules", "show", "HW901", "--rules", str(pack)),
    ]
    for args in runs:
        code, _, err = cli(*args)
        assert code == 2 and "r.yaml:17: rule HW902: when: eq: 'reserch'" in err, (args, err)
