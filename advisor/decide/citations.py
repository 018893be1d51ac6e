"""Citations and freshness of a rule pack: the checks behind ``advisor rules check``.

Each evidence entry of a rule carries ``checked`` (the day its claim was last compared
with the source) and ``ref``: a claim id defined in docs/sources.md (first column of its
tables) or ``PKG:<name>`` for an entry of the package-health snapshot
(rules/data/package_health.yaml).

The bundled (core) pack must date and cite every entry. A user's pack may leave out
``checked`` and ``ref`` (its sources are its own: the report marks such an entry as not
checked against docs/sources.md), but a ``ref`` it gives must resolve, a link beside it must
be one that claim lists, and a date may not lie in the future.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any

# defined_ids, load_source_ids, sources_file: re-exported (tests, CLI)
from advisor.decide.claim_ids import (
    defined_ids,
    load_source_ids,
    load_source_links,
    ref_problem,
    sources_file,
    url_problem,
)
from advisor.decide.dating import field_name, future_dates, today_anywhere
from advisor.decide.releases import load_snapshot
from advisor.io.safe_read import real_path
from advisor.io.safe_yaml import YamlDocument, load_yaml_file
from advisor.model.errors import InputError

if TYPE_CHECKING:  # types only: rules.py calls check_user_citations as it loads a pack
    from advisor.decide.consistency import Check
    from advisor.decide.rules import Rule, RuleSet

__all__ = ["defined_ids", "load_source_ids", "sources_file"]


@dataclass(frozen=True)
class Problem:
    """One citation problem, printed as ``file:line: rule ID: field: message``."""

    path: str
    line: int | None
    rule: str
    field: str
    message: str

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else self.path
        return f"{where}: {self.rule}: {self.field}: {self.message}"


@dataclass(frozen=True)
class DatedEvidence:
    """One evidence entry with its rule and its age on ``today``."""

    rule: str
    title: str
    checked: date | None
    age_days: int | None

    def __str__(self) -> str:
        if self.checked is None:
            return f"{self.rule}: {self.title}: never checked"
        days = "1 day" if self.age_days == 1 else f"{self.age_days} days"
        return f"{self.rule}: {self.title}: checked {self.checked}, {days} ago"


class _Lines:
    """Lines of the rules' evidence fields, read from their files once."""

    def __init__(self, ruleset: RuleSet) -> None:
        self.ruleset = ruleset
        self.docs: dict[str, YamlDocument] = {}

    def of(
        self, item_id: str, index: int, key: str, section: str = "rules"
    ) -> tuple[str, int | None]:
        """File and line of ``evidence[index].key`` of a rule (or, with ``section``
        "checks", of a consistency check)."""
        return self.at(item_id, ("evidence", index, key), section)

    def at(self, item_id: str, tail: tuple[Any, ...], section: str) -> tuple[str, int | None]:
        """File and line of the path ``tail`` below a rule or check."""
        sources = self.ruleset.sources if section == "rules" else self.ruleset.check_sources
        path = sources.get(item_id, "?")
        if path not in self.docs:
            self.docs[path] = load_yaml_file(path)
        doc = self.docs[path]
        items = doc.data.get(section, []) if isinstance(doc.data, dict) else []
        pos = next(
            (i for i, r in enumerate(items) if isinstance(r, dict) and r.get("id") == item_id),
            None,
        )
        if pos is None:
            return path, None
        return path, doc.line_of((section, pos, *tail))


def citation_problems(
    ruleset: RuleSet,
    ids: set[str] | frozenset[str],
    packages: set[str],
    *,
    today: date,
    core: Path | None = None,
) -> list[Problem]:
    """Every problem with the citations and dates of ``ruleset``, one each.

    Rules loaded from ``core`` (default: the bundled pack) must date and cite each
    evidence entry; other rules only need what they give to be valid. An entry that gives
    a ``ref`` and a link must link a page its claim's row of docs/sources.md lists.
    """
    from advisor.resources import data_dir  # looked up when called, as rules.core_pack_dir

    claim_links = load_source_links()
    core_dir = real_path(core or data_dir("rules"))
    lines = _Lines(ruleset)
    problems: list[Problem] = []
    for c in ruleset.meta.criteria:
        message = ref_problem(c.claim_id, ids, packages)
        if message:
            problems.append(Problem("pack.yaml", None, f"criterion {c.id}", "claim_id", message))

    def evidence(kind: str, item_id: str, items: Any, strict: bool, section: str) -> None:
        for i, e in enumerate(items):
            found: list[tuple[str, str]] = []
            if e.checked is None and strict:
                found.append(("checked", "no checked date (when was the claim last verified?)"))
            if e.ref is None and strict:
                found.append(("ref", "no ref: cite a claim id of docs/sources.md or PKG:<name>"))
            elif e.ref is not None and (problem := ref_problem(e.ref, ids, packages)):
                found.append(("ref", problem))
            elif e.ref and e.url and (problem := url_problem(e.ref, e.url, claim_links)):
                found.append(("url", problem))
            for key, message in found:
                path, line = lines.of(item_id, i, key, section)
                problems.append(
                    Problem(path, line, f"{kind} {item_id}", f"evidence[{i + 1}].{key}", message)
                )

    def dated(kind: str, item: Any, section: str) -> None:
        """Dates after ``today``: an evidence entry's day or year, the source of ``holds``."""
        for where, message in future_dates(item.evidence, item.holds, today):
            path, line = lines.at(item.id, where, section)
            problems.append(Problem(path, line, f"{kind} {item.id}", field_name(where), message))

    for rule in ruleset.all_rules:  # a claim that has ended still cites its sources
        source = ruleset.sources.get(rule.id)
        strict = source is not None and real_path(source).parent == core_dir
        dated("rule", rule, "rules")
        evidence("rule", rule.id, rule.evidence, strict, "rules")
    core_checks = core_dir / "data" / "consistency.yaml"
    for check in ruleset.all_checks or ():  # the checks cite their sources the same way
        if check.id in ruleset.check_sources:  # not one built from pack.yaml's releases
            strict = real_path(ruleset.check_sources[check.id]) == core_checks
            dated("check", check, "checks")
            evidence("check", check.id, check.evidence, strict, "checks")
    return problems


def evidence_named(error: InputError) -> InputError:
    """``error`` with a rule's ``evidence.N`` (pydantic's path, from 0) written
    ``evidence[N+1]``, as the citation checks and the README name an evidence entry."""
    if error.field:
        error.field = re.sub(
            r"(?<=: )evidence\.(\d+)", lambda m: f"evidence[{int(m[1]) + 1}]", error.field
        )
    return error


def stale_evidence(rules: Iterable[Rule | Check], days: int, *, today: date) -> list[DatedEvidence]:
    """Evidence of ``rules`` (and consistency checks) last checked more than ``days`` days
    before ``today`` (or never)."""
    stale = []
    for rule in rules:
        for e in rule.evidence:
            age = (today - e.checked).days if e.checked else None
            if age is None or age > days:
                stale.append(DatedEvidence(rule.id, e.title, e.checked, age))
    return stale


def problems_error(problems: list[Problem]) -> InputError:
    """The first problem as a one-line error, with how many more follow."""
    first, more = problems[0], len(problems) - 1
    rest = f" (and {more} more problem{'s' if more > 1 else ''})" if more else ""
    field = f"{first.rule}: {first.field}"
    return InputError(first.message + rest, path=first.path, line=first.line, field=field)


def check_user_citations(ruleset: RuleSet, core: Path | None = None) -> None:
    """InputError at the first citation or date problem of a ruleset that holds a user's
    pack, once the whole pack has loaded, as `rules check` finds it: every ``ref`` must name
    a claim of docs/sources.md or a package of the snapshot (or the report would cite what
    does not exist), and no date may lie after today anywhere on Earth (or it would claim
    knowledge newer than anyone has). The bundled pack is checked in CI, so a wrong clock
    never stops the advisor itself."""
    day = today_anywhere()
    problems = citation_problems(
        ruleset, load_source_ids(), load_snapshot().names(), today=day, core=core
    )
    if problems:
        raise problems_error(problems)
