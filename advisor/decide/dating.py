"""The knowledge's date, and the check that no dated claim starts after it.

Rules, routes, the prior and framework releases may carry months (``holds``, ``since``,
``until``, ``released``: docs/updating-knowledge.md). The advisor answers as of the package
snapshot's month; a claim dated to start later would silently never score (or, for a
release, veto a framework today), so loading refuses it with the file, line and field.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import date, datetime, timedelta, timezone
from typing import Any

from advisor.decide.framework_files import FrameworkFile
from advisor.decide.releases import load_snapshot
from advisor.decide.routes import RouteTable
from advisor.io.safe_yaml import YamlDocument
from advisor.io.yaml_merges import field_path
from advisor.model.errors import InputError
from advisor.model.rulepack import Evidence, Holds, PackMeta, Prior
from advisor.model.terminal_text import clip


def knowledge_month() -> str:
    """YYYY-MM of the bundled package snapshot: the month the advisor answers for."""
    return load_snapshot().snapshot.strftime("%Y-%m")


def last_month_before(month: str) -> str:
    """The month before ``month`` (YYYY-MM): the last one a claim ending then held."""
    year, mon = int(month[:4]), int(month[5:7])
    return f"{year - 1}-12" if mon == 1 else f"{year}-{mon - 1:02d}"


def check_started(
    month: str | None, today: str, doc: YamlDocument, loc: tuple[Any, ...], field: str
) -> None:
    """InputError when a claim's first month is after ``today``."""
    if month and month > today:
        raise InputError(
            f"{month} is after the knowledge's date ({today}, the package snapshot's month): "
            "a claim cannot start later, it would never count",
            path=doc.path,
            line=doc.line_of(loc),
            field=field,
        )


def today_anywhere() -> date:
    """The latest calendar date anywhere on Earth now (UTC+14): a date is in the future only
    if it is in the future in every time zone, so evidence checked today is never refused
    because this machine's zone is still on yesterday."""
    return (datetime.now(timezone.utc) + timedelta(hours=14)).date()


def future_dates(
    evidence: Sequence[Evidence], holds: Holds | None, today: date
) -> list[tuple[tuple[Any, ...], str]]:
    """(path below the rule or check, message) for each date after ``today``: an evidence
    entry's ``checked`` day or source ``year``, or the ``year`` of the source of ``holds``."""
    found: list[tuple[tuple[Any, ...], str]] = []
    for i, item in enumerate(evidence):
        if item.checked is not None and item.checked > today:
            found.append((("evidence", i, "checked"), f"{item.checked} is in the future"))
        if item.year > today.year:
            found.append((("evidence", i, "year"), f"{item.year} is in the future"))
    if holds is not None and holds.source.year > today.year:
        found.append((("holds", "source", "year"), f"{holds.source.year} is in the future"))
    return found


def field_name(where: tuple[Any, ...]) -> str:
    """("evidence", 0, "year") -> "evidence[1].year" (counted from 1, like every list an
    error names); ("holds", "source", "year") as dots."""
    return field_path(where)


def check_priors_started(meta: PackMeta, doc: YamlDocument, today: str) -> None:
    """The prior's and each earlier prior's ``holds.since`` (pack.yaml)."""
    priors: list[tuple[tuple[Any, ...], Prior | None]] = [(("prior",), meta.prior)]
    priors += [(("earlier_priors", i), p) for i, p in enumerate(meta.earlier_priors)]
    for loc, prior in priors:
        if prior and prior.holds:
            field = field_name(loc)
            check_started(prior.holds.since, today, doc, (*loc, "holds", "since"), field)


def check_routes_started(
    table: RouteTable, doc: YamlDocument, own: Sequence[FrameworkFile], today: str
) -> None:
    """Every route's ``since``, in routes.yaml and in frameworks' own files."""
    for name, venue in table.venues.items():
        for fw, routes in venue.routes.items():
            for i, route in enumerate(routes):
                loc = ("venues", name, "routes", fw, i, "since")
                check_started(route.since, today, doc, loc, field_name(loc))
    for file in own:
        for name, routes in file.routes.items():
            for i, route in enumerate(routes):
                own_loc = ("routes", name, i, "since")
                check_started(route.since, today, file.doc, own_loc, field_name(own_loc))


def check_view_month(month: str) -> str:
    """A ``--as-of`` month: YYYY-MM, not after the knowledge's date (else an InputError)."""
    from advisor.model.rulepack import MONTH_RE

    text = month.strip()
    if re.fullmatch(r"[0-9]{4}-(0[1-9]|1[0-2])", text) and not MONTH_RE.match(text):
        year = int(text[:4])  # a month, outside the years the knowledge can speak of
        raise InputError(
            f"{text} is {'after' if year > 2000 else 'before'} the months the advisor can "
            f"answer for (from the first framework release to {knowledge_month()})",
            field="--as-of",
        )
    if not MONTH_RE.match(text):
        raise InputError(
            f"expected a month as YYYY-MM (e.g. 2019-06), not '{clip(month)}'", field="--as-of"
        )
    today = knowledge_month()
    if text > today:
        raise InputError(
            f"{text} is after the knowledge's date ({today}): the advisor cannot answer for "
            "a month it knows nothing about",
            field="--as-of",
        )
    return text
