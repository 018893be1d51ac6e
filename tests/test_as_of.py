"""Point-in-time views of the knowledge (RuleSet.at): dated rules, routes, prior, releases."""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from pydantic import ValidationError
from test_rulepack import rule_dict, write_pack  # the user-pack fixtures

from advisor.cli import main as cli_main
from advisor.decide.dating import knowledge_month
from advisor.decide.engine import decide
from advisor.decide.routes import Route
from advisor.decide.rules import RuleSet, core_pack_dir, load_ruleset
from advisor.model.errors import InputError
from advisor.model.profile import Profile
from advisor.model.rulepack import Holds, PackMeta, Released

SOURCE = {"title": "A release note", "url": "https://example.org/notes", "year": 2020}


def holds(since: str | None = None, until: str | None = None) -> Holds:
    return Holds(since=since, until=until, basis="A dated release fixes it.", source=SOURCE)


@pytest.fixture(scope="module")
def pack() -> RuleSet:
    return load_ruleset()


def with_rule_dated(pack: RuleSet, rule_id: str, period: Holds) -> RuleSet:
    rules = [
        r.model_copy(update={"holds": period}) if r.id == rule_id else r for r in pack.all_rules
    ]
    return dataclasses.replace(pack, all_rules=rules)


def test_holds_needs_a_period_in_order() -> None:
    with pytest.raises(ValidationError, match="give 'since' or 'until'"):
        holds()
    with pytest.raises(ValidationError, match="'until' must be after 'since'"):
        holds("2020-05", "2020-05")
    with pytest.raises(ValidationError, match="pattern"):
        holds("2020-13")


def test_holds_covers_since_inclusive_until_exclusive() -> None:
    period = holds("2019-10", "2025-10")
    assert [period.covers(m) for m in ("2019-09", "2019-10", "2025-09", "2025-10")] == [
        False,
        True,
        True,
        False,
    ]
    assert holds(until="2020-01").covers("2016-01")
    assert holds(since="2020-01").covers("2099-12")


def test_loaded_pack_is_the_view_at_the_knowledge_month(tmp_path: Path) -> None:
    ended = rule_dict(holds={**HOLDS, "since": "2019-01", "until": "2021-01"})
    loaded = load_ruleset([write_pack(tmp_path, ended)])
    month = knowledge_month()
    in_force = [r.id for r in loaded.all_rules if r.holds is None or r.holds.covers(month)]
    assert [r.id for r in loaded.rules] == in_force
    assert "ECO901" not in in_force and loaded.unavailable == {}


def test_a_rule_is_in_a_view_only_while_its_claim_held(pack: RuleSet) -> None:
    dated = with_rule_dated(pack, "PROTO001", holds("2020-01", "2024-01"))
    assert dated.at("2020-01").get("PROTO001") is not None
    assert dated.at("2023-12").get("PROTO001") is not None
    assert dated.at("2019-12").get("PROTO001") is None
    assert dated.at("2024-01").get("PROTO001") is None
    assert len(dated.at("2019-12").rules) == len(pack.at("2019-12").rules) - 1


def test_a_view_of_a_view_still_sees_every_dated_rule(pack: RuleSet) -> None:
    dated = with_rule_dated(pack, "PROTO001", holds("2020-01"))
    assert dated.at("2019-01").at("2021-01").get("PROTO001") is not None


def test_bad_month_is_refused(pack: RuleSet) -> None:
    with pytest.raises(ValueError, match="YYYY-MM"):
        pack.at("2020")


def test_framework_not_yet_released_is_vetoed(pack: RuleSet) -> None:
    meta = pack.full_meta
    assert meta is not None
    jax = meta.frameworks["jax"].model_copy(
        update={"released": Released(month="2018-12", source=SOURCE)}
    )
    meta = meta.model_copy(update={"frameworks": {**meta.frameworks, "jax": jax}})
    dated = dataclasses.replace(pack, full_meta=meta)
    early, later = dated.at("2018-11"), dated.at("2018-12")
    assert set(early.unavailable) == {"jax"} and later.unavailable == {}
    tpu = Profile.model_validate({"hardware": {"training": ["tpu"]}})
    ranking = {r.framework: r for r in decide(tpu, None, early).ranking}
    assert ranking["jax"].vetoed and "not yet released" in ranking["jax"].veto_reasons[0]
    assert not {r.framework: r for r in decide(tpu, None, later).ranking}["jax"].vetoed


def test_prior_drops_out_before_it_held(pack: RuleSet) -> None:
    meta = pack.full_meta
    assert meta is not None and meta.prior is not None
    dated_prior = meta.prior.model_copy(update={"holds": holds("2020-01")})
    dated = dataclasses.replace(pack, full_meta=meta.model_copy(update={"prior": dated_prior}))
    assert dated.at("2019-12").meta.prior is None
    assert dated.at("2020-01").meta.prior is not None


def test_routes_in_force_and_none_before_any(pack: RuleSet) -> None:
    table = pack.all_routes
    assert table is not None
    venue = table.venues["mobile"]
    old = Route(
        route="An old mobile runtime",
        maturity="beta",
        url="https://example.org/old",
        checked="2026-11-30",
        since="2019-10",
        until="2025-10",
    )
    routes = {
        fw: [r.model_copy(update={"since": "2025-10"}) for r in rs]
        for fw, rs in venue.routes.items()
    }
    routes["pytorch"] = [old, *routes["pytorch"]]
    changed = table.model_copy(
        update={"venues": {**table.venues, "mobile": venue.model_copy(update={"routes": routes})}}
    )
    assert changed.at("2018-01").venues["mobile"].best("pytorch").maturity == "none"
    assert changed.at("2020-01").venues["mobile"].best("pytorch").route == old.route
    assert changed.at("2026-01").venues["mobile"].best("pytorch").route != old.route
    with pytest.raises(ValidationError, match="'until' must be after 'since'"):
        Route.model_validate({**old.model_dump(), "until": "2019-01"})


def test_every_dated_claim_is_dated_before_the_pack(pack: RuleSet) -> None:
    month = knowledge_month()
    meta = pack.full_meta
    assert meta is not None
    starts = [r.holds.since for r in pack.all_rules if r.holds and r.holds.since]
    assert meta.prior is not None and meta.prior.holds is not None
    starts += [meta.prior.holds.since or ""]
    assert pack.all_routes is not None
    starts += [
        r.since
        for v in pack.all_routes.venues.values()
        for rs in v.routes.values()
        for r in rs
        if r.since
    ]
    assert starts and max(starts) <= month
    released = {fw: info.released for fw, info in meta.frameworks.items()}
    assert all(r is not None and r.month <= month for r in released.values()), released


def test_a_superseded_route_scores_only_in_its_time(pack: RuleSet) -> None:
    # The pack dates PyTorch's phone routes: PyTorch Mobile until ExecuTorch 1.0.
    assert pack.routes is not None and pack.all_routes is not None
    today = pack.routes.venues["mobile"].routes["pytorch"]
    assert all(r.until is None for r in today)
    ended = [r for r in pack.all_routes.venues["mobile"].routes["pytorch"] if r.until]
    assert ended, "the pack keeps the routes PyTorch had before ExecuTorch"
    then = pack.at(ended[0].since or "2020-01").routes
    assert then is not None
    assert ended[0] in then.venues["mobile"].routes["pytorch"]
    assert ended[0] not in today
    best_then = then.venues["mobile"].best("pytorch").maturity
    assert (
        best_then != "native" and pack.routes.venues["mobile"].best("pytorch").maturity == "native"
    )
    assert then.effects("mobile")["pytorch"] < pack.routes.effects("mobile")["pytorch"]


HOLDS = {
    "basis": "A release fixes it.",
    "source": {"title": "Notes", "url": "https://x.org", "year": 2020},
}


def test_a_dated_user_rule_scores_only_while_it_held(tmp_path: Path) -> None:
    ended = rule_dict(holds={**HOLDS, "since": "2019-01", "until": "2021-01"})
    loaded = load_ruleset([write_pack(tmp_path, ended)])
    assert loaded.get("ECO901") is None  # history: not in today's view
    assert loaded.at("2020-06").get("ECO901") is not None


def test_a_claim_starting_after_the_knowledge_date_is_an_error(tmp_path: Path) -> None:
    future = rule_dict(holds={**HOLDS, "since": "2099-01"})
    with pytest.raises(InputError) as info:
        load_ruleset([write_pack(tmp_path, future)])
    message = str(info.value)
    assert "mine.yaml:" in message and "rule ECO901: holds.since: 2099-01 is after" in message


def test_a_bad_holds_names_its_file_and_field(tmp_path: Path) -> None:
    bad = rule_dict(holds={**HOLDS, "since": "2021-01", "until": "2019-01"})
    with pytest.raises(InputError) as info:
        load_ruleset([write_pack(tmp_path, bad)])
    assert "holds" in str(info.value) and "'until' must be after 'since'" in str(info.value)


def test_rules_list_and_show_keep_history(tmp_path: Path) -> None:
    ended = rule_dict(holds={**HOLDS, "since": "2019-01", "until": "2021-01"})
    pack = str(write_pack(tmp_path, ended))
    listed = CliRunner().invoke(cli_main, ["rules", "list", "--rules", pack])
    assert listed.exit_code == 0
    assert any(
        line.startswith("ECO901") and "(held until 2021-01; not scored today)" in line
        for line in listed.output.splitlines()
    )
    shown = CliRunner().invoke(cli_main, ["rules", "show", "ECO901", "--rules", pack])
    assert shown.exit_code == 0 and "since 2019-01, until 2021-01" in shown.output


def test_no_route_in_force_is_a_plain_none(pack: RuleSet) -> None:
    assert pack.all_routes is not None
    early = pack.all_routes.at("2016-01").venues["mobile"].best("jax")
    assert (early.route, early.maturity, early.url) == ("no route in 2016-01", "none", "")


def test_a_release_veto_is_not_taken_for_a_rule(pack: RuleSet) -> None:
    decision = decide(Profile.model_validate({}), None, pack.at("2015-06"))
    assert decision.recommendation.all_vetoed and decision.no_fit is not None
    assert all(c.vetoed_by == [] for c in decision.no_fit.what_would_fit)
    assert all("not yet released" in r[0] for r in decision.no_fit.reasons.values())


def test_a_month_written_as_a_full_date_says_so() -> None:
    with pytest.raises(ValidationError, match="quoted 'YYYY-MM'"):
        Holds.model_validate({**HOLDS, "since": dt.date(2020, 1, 1)})


def test_rules_check_counts_an_ended_rule(tmp_path: Path) -> None:
    ended = rule_dict(holds={**HOLDS, "since": "2019-01", "until": "2021-01"})
    pack = str(write_pack(tmp_path, ended))
    result = CliRunner().invoke(cli_main, ["rules", "check", pack])
    assert result.exit_code == 0 and result.output.startswith("ok: 1 rule valid")


@pytest.mark.parametrize(
    ("file", "old", "new", "expected"),
    [
        ("data/routes.yaml", 'since: "2025-10"', 'since: "2099-01"', "routes.yaml:"),
        ("pack.yaml", 'since: "2022-06"', 'since: "2099-01"', "pack.yaml:"),
        ("pack.yaml", 'month: "2018-12"', 'month: "2099-12"', "frameworks.jax.released.month"),
    ],
)
def test_no_dated_claim_may_start_after_the_knowledge(
    tmp_path: Path, file: str, old: str, new: str, expected: str
) -> None:
    core = tmp_path / "core"
    shutil.copytree(core_pack_dir(), core)
    text = (core / file).read_text(encoding="utf-8")
    assert old in text
    (core / file).write_text(text.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(InputError) as info:
        load_ruleset(core=core)
    message = str(info.value)
    assert expected in message and "after the knowledge's date" in message


PHONE_AND_SERVER = """purpose: production
domains: [vision]
hardware: {training: [nvidia_gpu], inference: [cpu]}
deployment: {targets: [server, mobile], serving: online_api}
"""


def test_recommend_as_of_answers_with_that_months_knowledge(cli, tmp_path: Path) -> None:
    profile = tmp_path / "p.yaml"
    profile.write_text(PHONE_AND_SERVER)
    code, out, err = cli("recommend", str(profile), "--as-of", "2017-06", "--format", "json")
    assert code == 0, err
    then = json.loads(out)
    assert then["ruleset"]["as_of"] == "2017-06" and then["ruleset"]["point_in_time"]
    # in mid-2017 PyTorch had no phone route and JAX was not yet released
    assert then["recommendation"]["framework"] == "tensorflow"
    assert next(r for r in then["ranking"] if r["framework"] == "jax")["vetoed"]
    assert "point-in-time answer" in then["report"]["basis"]["point_in_time"]
    code, out, err = cli("recommend", str(profile), "--probes", "none", "--format", "json")
    assert code == 0, err
    today = json.loads(out)
    assert (
        not today["ruleset"]["point_in_time"] and today["report"]["basis"]["point_in_time"] is None
    )
    assert not next(r for r in today["ranking"] if r["framework"] == "jax")["vetoed"]
    code, out, _ = cli("recommend", str(profile), "--as-of", "2017-06")
    assert "point-in-time view: 2017-06" in out and "A point-in-time answer" in out


def test_as_of_the_knowledges_own_month_says_it_is_todays_answer(cli, tmp_path: Path) -> None:
    profile = tmp_path / "p.yaml"
    profile.write_text(PHONE_AND_SERVER)
    month = knowledge_month()
    code, out, err = cli("recommend", str(profile), "--as-of", month, "--format", "json")
    assert code == 0, err
    data = json.loads(out)
    assert data["ruleset"]["asked"] and not data["ruleset"]["point_in_time"]
    code, out, _ = cli("recommend", str(profile), "--as-of", month)
    assert f"--as-of {month} is the knowledge's own month, so this is today's answer" in out
    assert "point-in-time" not in out
    code, out, _ = cli("recommend", str(profile), "--probes", "none")
    assert code == 0 and "own month" not in out
    code, out, _ = cli("recommend", str(profile), "--probes", "none", "--format", "json")
    assert not json.loads(out)["ruleset"]["asked"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--as-of", "2017-13"], "YYYY-MM"),
        (["--as-of", "June 2017"], "YYYY-MM"),
        (["--as-of", "2099-01"], "after the knowledge's date"),
        (["--as-of", "2017-06", "--probes", "quick"], "--probes none"),
    ],
)
def test_recommend_as_of_refuses_what_it_cannot_answer(
    cli, tmp_path: Path, args: list[str], message: str
) -> None:
    profile = tmp_path / "p.yaml"
    profile.write_text(PHONE_AND_SERVER)
    code, out, err = cli("recommend", str(profile), *args)
    assert code == 2 and out == ""
    assert message in err and "--as-of" in err and len(err.strip().splitlines()) == 1


def _with_earlier(pack: RuleSet, *periods: Holds) -> RuleSet:
    meta = pack.full_meta
    assert meta is not None and meta.prior is not None
    earlier = [
        meta.prior.model_copy(
            update={"holds": period, "effects": type(meta.prior.effects)(tensorflow=1)}
        )
        for period in periods
    ]
    full = PackMeta.model_validate(
        {**meta.model_dump(), "earlier_priors": [p.model_dump() for p in earlier]}
    )
    return dataclasses.replace(pack, full_meta=full)


def test_an_earlier_prior_answers_for_its_own_months(pack: RuleSet) -> None:
    since = pack.full_meta.prior.holds.since  # type: ignore[union-attr]
    dated = _with_earlier(pack, holds("2016-01", "2019-10"))
    assert dated.at("2015-12").meta.prior is None
    assert dict(dated.at("2017-06").meta.prior.effects.items())["tensorflow"] == 1  # type: ignore[union-attr]
    assert dated.at("2020-01").meta.prior is None  # between the two: no prior
    assert dated.at(since).meta.prior == pack.full_meta.prior  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("periods", "message"),
    [
        ((holds("2016-01"),), "needs holds with an 'until'"),
        ((holds("2016-01", "2023-01"),), "must not overlap"),
        ((holds("2016-01", "2019-01"), holds("2018-01", "2020-01")), "must not overlap"),
    ],
)
def test_earlier_priors_must_have_ended_and_not_overlap(
    pack: RuleSet, periods: tuple[Holds, ...], message: str
) -> None:
    with pytest.raises(ValidationError, match=message):
        _with_earlier(pack, *periods)


def test_a_point_in_time_report_says_why_a_framework_did_not_exist_yet(cli, tmp_path: Path) -> None:
    profile = tmp_path / "p.yaml"
    profile.write_text(PHONE_AND_SERVER)
    code, out, err = cli("recommend", str(profile), "--as-of", "2016-06")
    assert code == 0, err
    assert "PyTorch is ruled out:** PyTorch was not yet released in 2016-06" in out
    assert "JAX is ruled out:** JAX was not yet released in 2016-06" in out
    assert "are today's, not those of 2016-06" in out  # the stack is today's
    code, out, err = cli("recommend", str(profile), "--as-of", "2015-01")
    assert code == 2 and out == "" and "before any candidate framework was released" in err


def test_a_framework_not_yet_released_has_no_route(pack: RuleSet) -> None:
    view = pack.at("2016-06")
    assert view.routes is not None
    for venue in view.routes.venues.values():
        for fw in ("pytorch", "jax"):
            assert venue.best(fw).maturity == "none", (venue.title, fw)


def test_an_ended_rules_page_says_so_at_the_top(cli) -> None:
    ended = next(r for r in load_ruleset().all_rules if r.holds and r.holds.until)
    code, out, _ = cli("rules", "show", ended.id)
    assert code == 0
    head = "\n".join(out.splitlines()[:6])
    assert f"Ended: this claim held until {ended.holds.until}" in head
