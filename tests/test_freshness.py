"""Freshness built in: `rules check` refuses undated or unresolved citations, `--stale DAYS`
lists old evidence, and the report states how old its knowledge is (warning after a year).

"Today" is always injected (`--today`, `today=`), never read from the clock.
"""

from __future__ import annotations

import datetime as dt
import json
import re
import shutil
import sys
from pathlib import Path

import pytest
import yaml
from pack_support import knowledge_today

import advisor.resources
from advisor.decide.citations import load_snapshot
from advisor.decide.engine import decide
from advisor.decide.releases import SNAPSHOT_FILE
from advisor.decide.rules import core_pack_dir, load_ruleset
from advisor.io.profiles import load_profile
from advisor.report.render import render_report

ROOT = Path(__file__).resolve().parent.parent
TODAY = knowledge_today().isoformat()  # the newest date the bundled pack was checked
AGE = (knowledge_today() - dt.date(2025, 6, 1)).days  # of a user entry checked 2025-06-01

RULE = """rules:
  - id: ECO951
    title: A user rule for the freshness tests
    criterion: ecosystem
    when: {{field: ecosystem.huggingface, eq: true}}
    effects: {{pytorch: 1}}
    why: Only here to test the citation and freshness checks.
    evidence:
      - title: A user source
        source: Tests
        year: 2024
{extra}        claim: A claim that is long enough to count.
    examples:
      fire: [{{ecosystem: {{huggingface: true}}}}]
      ok: [{{}}]
"""


def user_pack(tmp_path: Path, extra: str = "") -> Path:
    pack = tmp_path / "mine"
    pack.mkdir()
    (pack / "eco.yaml").write_text(RULE.format(extra=extra))
    return pack


# --------------------------------------------------------------------------- rules check


def test_rules_check_fails_on_a_ref_that_sources_md_does_not_define(cli, tmp_path: Path) -> None:
    pack = user_pack(tmp_path, "        ref: F-NOSUCHFACT\n        checked: 2026-01-01\n")
    code, out, err = cli("rules", "check", str(pack), "--today", TODAY)
    assert code == 2 and "ok:" not in out
    assert err.strip().splitlines() == [
        f"advisor: error: {pack / 'eco.yaml'}:12: rule ECO951: evidence[1].ref: F-NOSUCHFACT "
        "is not a claim id defined in docs/sources.md"
    ]


def test_rules_check_fails_on_an_unknown_package_and_a_future_date(cli, tmp_path: Path) -> None:
    pack = user_pack(tmp_path, '        ref: "PKG:no-such-package"\n        checked: 2027-01-01\n')
    code, _, err = cli("rules", "check", str(pack), "--today", TODAY)
    lines = err.strip().splitlines()
    assert code == 2 and len(lines) == 1  # one line: the first problem, and how many follow
    assert "eco.yaml:13: rule ECO951: evidence[1].checked: 2027-01-01 is in the future" in lines[0]
    assert lines[0].endswith("(and 1 more problem)")
    # the second is the package: fixing the date leaves it alone on its line
    (pack / "eco.yaml").write_text(
        (pack / "eco.yaml").read_text().replace("checked: 2027-01-01", "checked: 2026-01-01")
    )
    code, _, err = cli("rules", "check", str(pack), "--today", TODAY)
    assert code == 2 and err.strip().splitlines() == [
        f"advisor: error: {pack / 'eco.yaml'}:12: rule ECO951: evidence[1].ref: "
        "PKG:no-such-package is not in the package-health snapshot"
    ]


def test_a_user_pack_may_leave_out_ref_and_date_but_a_ref_it_gives_must_resolve(
    cli, tmp_path: Path
) -> None:
    code, out, err = cli("rules", "check", str(user_pack(tmp_path)), "--today", TODAY)
    assert code == 0 and out.startswith("ok: 1 rule valid") and not err
    other = tmp_path / "b"
    other.mkdir()
    pack = user_pack(other, "        ref: F-HFV5\n        checked: 2026-11-01\n")
    assert cli("rules", "check", str(pack), "--today", TODAY)[0] == 0


def test_the_bundled_pack_fails_on_an_undated_evidence_entry(
    cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The core pack (here a copy with one `checked:` line removed) must date every entry."""
    core = tmp_path / "rules"
    shutil.copytree(ROOT / "rules", core)
    text = (core / "hardware.yaml").read_text()
    lines = text.splitlines(keepends=True)
    first = next(i for i, line in enumerate(lines) if line.strip().startswith("checked:"))
    (core / "hardware.yaml").write_text("".join(lines[:first] + lines[first + 1 :]))
    real = advisor.resources.data_dir
    monkeypatch.setattr(
        advisor.resources, "data_dir", lambda name: core if name == "rules" else real(name)
    )
    code, out, err = cli("rules", "check", "--today", TODAY)
    assert code == 2 and "ok:" not in out
    [line] = err.strip().splitlines()
    assert f"{core / 'hardware.yaml'}:" in line and ": rule HW" in line
    assert "evidence[" in line and "].checked: no checked date" in line


def test_rules_check_passes_on_the_bundled_pack(cli) -> None:
    code, out, err = cli("rules", "check", "--today", TODAY)
    assert code == 0 and "citations resolve" in out and not err


# --------------------------------------------------------------------------- --stale


def test_stale_lists_old_evidence_and_exits_1(cli, tmp_path: Path) -> None:
    pack = user_pack(tmp_path, "        ref: F-HFV5\n        checked: 2025-06-01\n")
    code, out, _ = cli("rules", "check", str(pack), "--stale", "365", "--today", TODAY)
    assert code == 1
    assert f"stale: ECO951: A user source: checked 2025-06-01, {AGE} days ago" in out.splitlines()
    assert out.splitlines()[-1].startswith("1 evidence entries last checked more than 365 days")


def test_stale_exits_0_when_nothing_is_older(cli, tmp_path: Path) -> None:
    pack = user_pack(tmp_path, "        ref: F-HFV5\n        checked: 2025-06-01\n")
    code, out, _ = cli("rules", "check", str(pack), "--stale", str(AGE), "--today", TODAY)
    assert code == 0 and "stale:" not in out
    code, out, _ = cli("rules", "check", "--stale", "400", "--today", TODAY)
    assert code == 0 and "stale:" not in out  # the bundled pack was checked in Nov 2026


def test_stale_lists_undated_user_evidence_as_never_checked(cli, tmp_path: Path) -> None:
    code, out, _ = cli("rules", "check", str(user_pack(tmp_path)), "--stale", "30")
    assert code == 1 and "stale: ECO951: A user source: never checked" in out


# --------------------------------------------------------------------------- the report


def _report(fmt: str, today: str) -> str:
    profile = load_profile(str(ROOT / "examples" / "r7-tensorflow-keras-web-mobile.yaml"))
    decision = decide(profile, None, load_ruleset([]), with_sensitivity=False)
    return render_report(decision, profile, None, fmt=fmt, today=dt.date.fromisoformat(today))


def test_json_states_the_knowledge_dates_and_dates_every_evidence_item() -> None:
    data = json.loads(_report("json", TODAY))
    cited = [e["checked"] for r in data["rules"] for e in r["evidence"]]
    assert cited and all(cited)
    snapshot = load_snapshot().snapshot.isoformat()
    assert data["knowledge"] == {
        "as_of": min(cited),
        "unchecked_rules": [],  # the bundled pack checks every entry
        "snapshot_date": snapshot,
        "stale_warning": None,
    }


@pytest.mark.parametrize("fmt", ["markdown", "html"])
def test_report_states_the_as_of_date_without_a_warning_when_fresh(fmt: str) -> None:
    data = json.loads(_report("json", TODAY))
    text = _report(fmt, TODAY)
    as_of, snap = data["knowledge"]["as_of"], data["knowledge"]["snapshot_date"]
    assert f"knowledge as of {as_of} (PyPI snapshot {snap})" in text
    assert "old knowledge" not in text


@pytest.mark.parametrize("fmt", ["markdown", "html", "json"])
def test_report_warns_when_the_knowledge_is_more_than_a_year_old(fmt: str) -> None:
    known = json.loads(_report("json", TODAY))["knowledge"]
    oldest = dt.date.fromisoformat(min(known["as_of"], known["snapshot_date"]))
    later = (oldest + dt.timedelta(days=366)).isoformat()
    text = _report(fmt, later)
    if fmt == "json":
        warning = json.loads(text)["knowledge"]["stale_warning"]
        assert warning and "more than a year old" in warning and "366 days ago" in warning
    else:
        assert "Warning: old knowledge" in text and "more than a year old" in text
        assert f"knowledge as of {known['as_of']}" in text
    just = (oldest + dt.timedelta(days=365)).isoformat()
    assert "more than a year old" not in _report(fmt, just)  # a year to the day: not yet


def test_package_evidence_shows_the_snapshot_release() -> None:
    snap = load_snapshot()
    text = _report("markdown", TODAY)
    assert snap.release_text("tensorflowjs") in text  # DEP003 cites PKG:tensorflowjs


def test_rules_show_gives_the_date_ref_and_snapshot_release(cli) -> None:
    code, out, _ = cli("rules", "show", "DEP003")
    snap = load_snapshot()
    assert code == 0 and "ref PKG:tensorflowjs" in out
    assert snap.release_text("tensorflowjs") in out and "Checked 20" in out


def test_no_release_token_survives_loading() -> None:
    """Every `{release:NAME}` in rules, pack.yaml and routes.yaml is filled in on load."""
    rs = load_ruleset()
    dumped = json.dumps(
        [
            [r.model_dump(mode="json") for r in rs.rules],
            rs.meta.model_dump(mode="json"),
            rs.routes.model_dump(mode="json") if rs.routes else None,
        ]
    )
    assert "{release:" not in dumped
    assert load_snapshot().get("torch-xla").version in dumped  # HW001/HW008 name it


def test_a_refreshed_snapshot_refreshes_the_text(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The prose states the snapshot's release: change the snapshot, and the text follows."""
    core = tmp_path / "rules"
    shutil.copytree(ROOT / "rules", core)
    snap = core / "data" / "package_health.yaml"
    data = yaml.safe_load(snap.read_text())
    entry = next(p for p in data["packages"] if p["name"] == "torch-xla")
    entry.update(version="9.9.1", released="2026-11-29")
    snap.write_text(yaml.safe_dump(data))
    real = advisor.resources.data_dir
    monkeypatch.setattr(
        advisor.resources, "data_dir", lambda name: core if name == "rules" else real(name)
    )
    rule = load_ruleset().get("HW001")
    assert rule is not None
    assert "torch-xla's last release is 9.9.1 (2026-11-29)" in rule.risks.pytorch
    assert load_snapshot().get("torch-xla").version == "9.9.1"  # one snapshot for all


# A sentence that says a package has gone quiet must stay true when the snapshot moves on.
_QUIET = re.compile(
    r"(?:no release since|not been released since|not released since|not since)"
    r"\s+\{release:([^{}]+)\}"
)


def test_every_no_release_since_claim_is_true_of_the_snapshot() -> None:
    """'has had no release since {release:X}' is checked against the snapshot: X's latest
    release must be over a year older than the snapshot, or the sentence has become false."""
    snap = load_snapshot()
    pack = core_pack_dir()
    texts = [p.read_text() for p in [*pack.glob("*.yaml"), pack / "data" / "routes.yaml"]]
    quiet = {name for text in texts for name in _QUIET.findall(" ".join(text.split()))}
    assert {"tensorflowjs", "tensorflow-privacy", "jax-metal"} <= quiet
    for name in sorted(quiet):
        entry = snap.get(name)
        assert entry is not None, name
        assert (snap.snapshot - entry.released).days > 365, (
            f"{name} was released on {entry.released}: the rules still say it has gone quiet"
        )


def test_an_unknown_release_token_is_one_line_naming_file_line_and_field(
    cli, tmp_path: Path
) -> None:
    pack = user_pack(tmp_path)
    text = (pack / "eco.yaml").read_text()
    (pack / "eco.yaml").write_text(
        text.replace("why: Only here", "why: Since {release:no-such-package}, only here")
    )
    code, out, err = cli("rules", "check", str(pack), "--today", TODAY)
    assert code == 2 and out == ""
    snapshot = core_pack_dir() / SNAPSHOT_FILE  # the installed pack's, where it is installed
    assert err.strip().splitlines() == [
        f"advisor: error: {pack / 'eco.yaml'}:7: rule ECO951: why: {{release:no-such-package}}: "
        f"no package of that name in the package-health snapshot {snapshot}"
    ]


def test_a_misspelt_release_token_is_an_error_with_a_hint(cli, tmp_path: Path) -> None:
    pack = user_pack(tmp_path)
    text = (pack / "eco.yaml").read_text()
    (pack / "eco.yaml").write_text(
        text.replace(
            "why: Only here to test the citation and freshness checks.",
            'why: "Since {release: tensorflowjs}, only here to test the citation checks."',
        )
    )
    code, _, err = cli("rules", "check", str(pack), "--today", TODAY)
    assert code == 2
    assert err.strip().endswith("did you mean {release:tensorflowjs}?")


# --------------------------------------------------------------------------- packaging


@pytest.mark.skipif(sys.version_info < (3, 11), reason="tomllib")
def test_the_wheel_ships_sources_md_where_rules_check_looks_for_it() -> None:
    import tomllib

    conf = tomllib.loads((ROOT / "pyproject.toml").read_text())
    include = conf["tool"]["hatch"]["build"]["targets"]["wheel"]["force-include"]
    assert include["docs/sources.md"] == "advisor/_data/docs/sources.md"
    assert include["rules"] == "advisor/_data/rules"  # with rules/data/package_health.yaml
