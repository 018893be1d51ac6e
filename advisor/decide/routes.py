"""Export and serving routes as data (rules/data/routes.yaml).

For each venue (a deployment target, an edge accelerator or a serving mode) and each
framework: the routes that reach it, their maturity and source. Deployment rules that
name a venue score each framework by its best route; a venue where only one framework
has a mature route is a decisive fact for that framework. A route may carry the months it
held that maturity (``since``, ``until``); the advisor scores the routes in force at the
pack's date, and a point-in-time view (RuleSet.at) those in force at another month.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from advisor.frameworks import FRAMEWORKS
from advisor.io.safe_yaml import YamlDocument
from advisor.io.validation import input_error_from_validation
from advisor.model.decision import FiredRule, Risk
from advisor.model.errors import InputError
from advisor.model.rulepack import Period

Maturity = Literal["native", "mature", "beta", "experimental", "none"]
MATURITY_ORDER: tuple[str, ...] = ("native", "mature", "beta", "experimental", "none")
RUNNABLE = ("native", "mature")


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Route(Period):
    """One way to a venue, at a maturity, during ``since``..``until`` (the Period)."""

    route: str = Field(min_length=3)
    maturity: Maturity
    url: str = Field(pattern=r"^https?://\S+$")
    checked: str = Field(pattern=r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$")
    note: str = ""


def no_route(month: str) -> Route:
    """The stand-in for a framework with no route in force in ``month``: maturity none."""
    return Route.model_construct(
        route=f"no route in {month}",
        maturity="none",
        url="",
        checked="",
        note="",
        since=None,
        until=None,
    )


class Venue(_Strict):
    title: str
    routes: dict[str, list[Route]]

    @model_validator(mode="after")
    def _nonempty(self) -> Venue:
        # Completeness (every registered framework, here or in its own rule file) is
        # checked once the frameworks' files are merged: framework_files.merge_routes.
        if not all(self.routes.values()):
            raise ValueError("list at least one route per framework (maturity: none if no way)")
        return self

    def best(self, framework: str) -> Route:
        """The most mature route for a framework."""
        return min(self.routes[framework], key=lambda r: MATURITY_ORDER.index(r.maturity))


class RouteTable(_Strict):
    as_of: str
    points: dict[Maturity, int]
    venues: dict[str, Venue]

    @model_validator(mode="after")
    def _complete(self) -> RouteTable:
        if set(self.points) != set(MATURITY_ORDER):
            raise ValueError(f"points must give a value for each of {MATURITY_ORDER}")
        return self

    def at(self, month: str, unreleased: set[str] | None = None) -> RouteTable:
        """The table as of ``month``: each framework's routes in force then (or none; none
        at all for a framework ``unreleased`` then)."""
        venues = {}
        for name, venue in self.venues.items():
            routes = {
                fw: [r for r in rs if r.covers(month) and fw not in (unreleased or ())]
                or [no_route(month)]
                for fw, rs in venue.routes.items()
            }
            venues[name] = venue.model_copy(update={"routes": routes})
        return self.model_copy(update={"venues": venues})

    def effects(self, venue: str) -> dict[str, int]:
        """Points per framework for a venue, from its best route's maturity."""
        v = self.venues[venue]
        return {fw: self.points[v.best(fw).maturity] for fw in FRAMEWORKS}

    def sole_runtime(self, venue: str) -> str | None:
        """The framework that alone has a mature route, when all others are experimental."""
        v = self.venues[venue]
        ready = [fw for fw in FRAMEWORKS if v.best(fw).maturity in RUNNABLE]
        if len(ready) != 1:
            return None
        others = [v.best(fw).maturity for fw in FRAMEWORKS if fw != ready[0]]
        return ready[0] if all(m in ("experimental", "none") for m in others) else None


def load_routes(doc: YamlDocument) -> RouteTable:
    """Validate the route table read into ``doc`` (routes.yaml)."""
    if not isinstance(doc.data, dict):
        raise InputError("top level must be a mapping", path=doc.path, line=1)
    try:
        return RouteTable.model_validate(doc.data)
    except ValidationError as exc:
        raise input_error_from_validation(exc, doc) from None


def weak_route(fired: list[FiredRule], framework: str | None, floor: str | None) -> str | None:
    """Why a "high" is capped when ``framework``'s best route to a place the model must run
    (a fired deployment rule's venue) is less mature than ``floor``; None when none is."""
    if floor is None or framework is None:
        return None
    for rule in fired:
        for choice in rule.routes:
            if choice.framework == framework and (
                MATURITY_ORDER.index(choice.maturity) > MATURITY_ORDER.index(floor)
            ):
                return (
                    f"its route for '{rule.title}' ({choice.route}) is only {choice.maturity} "
                    f"({rule.id})"
                )
    return None


def route_risks(fired: list[FiredRule]) -> list[Risk]:
    """A risk for each framework whose best route to a place the model must run (a fired
    deployment rule's venue) is beta or experimental, or missing: the route table showed it,
    the risks did not (red-team round 90: a device's only target had a beta route). A rule
    that states its own risk for that framework keeps it instead."""
    out = []
    for rule in fired:
        for choice in rule.routes:
            if choice.framework in rule.risks:  # the rule's own risk says it better
                continue
            if choice.maturity == "none":
                text = f"It has no route of its own for '{rule.title}'."
            elif choice.maturity in ("beta", "experimental"):
                text = (
                    f"Its route for '{rule.title}' is only {choice.maturity}: {choice.route} "
                    f"(checked {choice.checked}). Try your own model on it early: operator "
                    "coverage and accuracy after conversion are where such routes break."
                )
            else:
                continue
            out.append(Risk(rule=rule.id, framework=choice.framework, text=text))
    return out
