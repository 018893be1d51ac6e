"""Point-in-time views of the knowledge (RuleSet.at): dated rules, routes, prior, releases."""

from __future__ import annotations

import dataclasses

import pytest
from pydantic import ValidationError

from advisor.decide.engine import decide
from advisor.decide.releases import load_snapshot
from advisor.decide.routes import Route
from advisor.decide.rules import RuleSet, load_ruleset
from advisor.model.profile import Profile
from advisor.model.rulepack import Holds, Released

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


def test_loaded_pack_is_the_view_at_its_snapshot_month(pack: RuleSet) -> None:
    month = load_snapshot().snapshot.strftime("%Y-%m")
    in_force = [r.id for r in pack.all_rules if r.holds is None or r.holds.covers(month)]
    assert [r.id for r in pack.rules] == in_force
    assert pack.unavailable == {}


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
    meta = pack.full_meta or pack.meta
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
    meta = pack.full_meta or pack.meta
    assert meta.prior is not None
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
    month = load_snapshot().snapshot.strftime("%Y-%m")
    meta = pack.full_meta or pack.meta
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
