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


def test_a_template_cannot_mutate_the_report_through_an_unbound_method(tmp_path: Path) -> None:
    from advisor.report.template_sandbox import render_in_sandbox

    source = '{% set r = report %}{{ r|length }} {% set _ = dict.update(r, {"x": 1}) %}'
    with pytest.raises(InputError) as info:
        render_in_sandbox(source, "t.md.j2", {"report": {"a": 1}}, html=False)
    assert "unsafe" in str(info.value)
    clear = "{% set _ = dict.clear(report) %}{{ report|length }}"
    with pytest.raises(InputError):
        render_in_sandbox(clear, "t.md.j2", {"report": {"a": 1}}, html=False)


def test_user_templates_are_refused_under_a_jinja2_whose_sandbox_leaks(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import jinja2

    from advisor.report.template_sandbox import render_in_sandbox

    monkeypatch.setattr(jinja2, "__version__", "3.1.5")
    with pytest.raises(InputError) as info:
        render_in_sandbox("{{ 1 }}", "t.md.j2", {}, html=False)
    assert "3.1.6" in str(info.value) and "3.1.5" in str(info.value)
    monkeypatch.setattr(jinja2, "__version__", "3.1.6")
    assert render_in_sandbox("{{ 1 }}", "t.md.j2", {}, html=False).strip() == "1"


def test_a_control_character_in_yaml_is_reported_at_its_line(tmp_path: Path) -> None:
    path = tmp_path / "p.yaml"
    path.write_text("purpose: research\ndomains: [nlp]\n# comment \x7f\nteam: {size: 3}\n")
    with pytest.raises(InputError) as info:
        load_profile(path)
    assert info.value.line == 3 and "U+007F" in str(info.value)


def test_one_value_written_two_ways_is_a_repeat_in_a_condition_list(tmp_path: Path) -> None:
    from advisor.decide.conditions import ConditionError, parse_condition

    for field, values in (
        ("model.parameters", ["7B", 7000000000]),
        ("deployment.device_memory_mb", ["256KB", 0.256]),
    ):
        with pytest.raises(ConditionError, match="listed twice"):
            parse_condition({"field": field, "in": values})


def test_a_user_pack_data_folder_holds_no_yaml_but_its_checks(tmp_path: Path) -> None:
    """SECURITY.md's promise, as narrowed in round 20: YAML files other than the checks are
    refused; a README beside them is not the advisor's to judge."""
    from advisor.decide.pack_layout import check_user_pack

    pack = tmp_path / "pack"
    (pack / "data").mkdir(parents=True)
    (pack / "data" / "notes.txt").write_text("hello")
    (pack / "data" / "consistency.yaml").write_text("checks: []\n")  # a pack adds something
    check_user_pack(pack)
    (pack / "data" / "extra.YML").write_text("checks: []\n")
    with pytest.raises(InputError, match=r"only consistency\.yaml"):
        check_user_pack(pack)
