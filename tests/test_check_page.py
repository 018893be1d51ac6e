"""`advisor rules show` and `rules list` for consistency checks (rules/data/consistency.yaml).

Found in red-team round 64: a report names the check it trips (CON102) but `rules show`
refused the id, so a user could not read the check's source.
"""

from __future__ import annotations

from pathlib import Path

from advisor.decide.rules import load_ruleset


def test_a_check_shows_what_it_reads_says_and_cites(cli) -> None:  # type: ignore[no-untyped-def]
    code, out, err = cli("rules", "show", "con001")
    assert code == 0 and not err
    assert out.startswith("# CON001: A model too large for a microcontroller")
    for heading in ("## What it checks", "## What the report says", "## Evidence", "Trips for:"):
        assert heading in out
    assert "field: deployment.targets" in out and "ref F-LITERT" in out
    assert "## When it trips" not in out  # not a dated check


def test_a_dated_check_trips_only_in_a_view_of_the_past(cli) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = cli("rules", "show", "CON111")
    assert code == 0
    assert "## When it trips" in out and "before 2018-02" in out
    assert "today's advice never trips it" in out


def test_every_bundled_check_has_a_page(cli) -> None:  # type: ignore[no-untyped-def]
    ruleset = load_ruleset([])
    checks = ruleset.all_checks or ()
    assert len(checks) >= 20
    for check in checks:
        code, out, _ = cli("rules", "show", check.id)
        assert code == 0 and out.startswith(f"# {check.id}: ") and "## What the report says" in out


def test_rules_list_lists_the_checks_after_the_rules(cli) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = cli("rules", "list")
    lines = out.splitlines()
    kinds = ["(check)" in line.split()[1:2] for line in lines]
    assert code == 0 and kinds[0] is False and kinds[-1] is True
    assert kinds == sorted(kinds)  # rules first, then checks
    assert any(line.startswith("CON111") and "before 2018-02" in line for line in lines)


def test_an_unknown_id_is_matched_against_rules_and_checks(cli) -> None:  # type: ignore[no-untyped-def]
    code, _, err = cli("rules", "show", "CON0001")
    assert code == 2 and "no rule or check with id 'CON0001'" in err and "CON001" in err


def test_a_user_packs_check_is_shown_inert(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    pack = tmp_path / "pack"
    (pack / "data").mkdir(parents=True)
    (pack / "data" / "consistency.yaml").write_text(
        "checks:\n"
        "  - id: CON900\n"
        "    title: 'A check with <b>markup</b> and `ticks`'\n"
        "    when: {field: model.parameters, gt: 1e12}\n"
        "    message: 'the model is larger than any [link](http://x.example) trained'\n"
        "    basis: 'no model of over a trillion parameters has been trained by a team of one'\n"
        "    examples:\n"
        "      trip:\n"
        "        - {model: {parameters: 2e12}}\n"
    )
    code, out, err = cli("rules", "show", "CON900", "--rules", str(pack))
    assert code == 0, err
    assert "A check with \\<b>markup\\</b> and \\`ticks\\`" in out  # escaped, as a rule's page
    assert "\\[link\\](http\\://x.example)" in out
    assert "## Why" in out and "Does not trip for:" not in out
    assert str(pack / "data" / "consistency.yaml") in out.replace("\\", "")
