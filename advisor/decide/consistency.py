"""Answers that cannot all be true (rules/data/consistency.yaml).

A check never scores a framework. The report warns when a profile trips one, and the
sensitivity analysis does not offer a change that would trip a check the profile does
not already trip. Checks are data, written in the rules' condition language, plus an
optional ``ratio`` of two answers; each carries examples that are run on load, like a
rule's (semgrep-style rule tests). A check may hold only for some months (``holds``, as a
rule's): "AWS Trainium before October 2022" trips only in a point-in-time view
(``RuleSet.at``, ``--as-of``) of an earlier month, where the answer names something that
did not exist yet.
"""

from __future__ import annotations

import calendar
import os
from pathlib import Path
from typing import Any

from pydantic import ConfigDict, Field, ValidationError, field_validator

from advisor.decide.conditions import (
    MAX_PACK_CONDITIONS,
    Condition,
    ConditionError,
    parse_condition,
    resolve_field,
)
from advisor.decide.context import example_context
from advisor.decide.dating import check_started, knowledge_month
from advisor.decide.item_labels import CHECK_ID, item_label, load_pack_yaml
from advisor.decide.rule_examples import examples_within_budget
from advisor.io.safe_read import path_kind, real_path
from advisor.io.safe_yaml import YamlDocument
from advisor.io.validation import input_error_from_validation, register_model
from advisor.model.decision import Inconsistency
from advisor.model.errors import InputError
from advisor.model.profile import ExistingCode
from advisor.model.rulepack import MAX_RULE_EXAMPLES, Evidence, FrameworkInfo, Holds, Strict


class Ratio(Strict):
    """``of / per > gt``, evaluated only when both answers are said and ``per`` > 0."""

    of: str
    per: str
    gt: float = Field(gt=0, allow_inf_nan=False)

    def evaluate(self, context: dict[str, Any]) -> bool | None:
        top, bottom = context.get(self.of), context.get(self.per)
        if not isinstance(top, (int, float)) or not isinstance(bottom, (int, float)):
            return None
        if bottom <= 0:
            return None  # 0 means "no particular limit" for the fields this reads
        return top / bottom > self.gt


class CheckExamples(Strict):
    trip: list[dict[str, Any]] = Field(min_length=1, max_length=MAX_RULE_EXAMPLES)
    ok: list[dict[str, Any]] = Field(default_factory=list, max_length=MAX_RULE_EXAMPLES)


class Check(Strict):
    """One combination of answers that cannot all be true."""

    model_config = ConfigDict(extra="forbid", frozen=True, arbitrary_types_allowed=True)

    id: str = Field(pattern=CHECK_ID)
    title: str = Field(min_length=5)
    when: Any = None
    ratio: Ratio | None = None
    message: str = Field(min_length=10, description="One line: what does not fit together.")
    basis: str | None = Field(None, min_length=10, description="Why, when no source says it.")
    evidence: list[Evidence] = Field(default_factory=list)
    holds: Holds | None = Field(None, description="The months the check holds (None: always).")
    examples: CheckExamples
    condition: Condition | None = Field(None, exclude=True)

    @field_validator("message", "basis")
    @classmethod
    def _one_line(cls, value: str | None) -> str | None:
        return " ".join(value.split()) if value else value

    def trips(self, context: dict[str, Any]) -> bool:
        """True only when every part is known to hold and the profile gave at least one of
        the answers the check reads (an unsaid answer trips nothing, even through
        ``unsaid: true``: a check can never trip on an empty profile)."""
        if not any(f in context for f in self.fields()):
            return False
        parts = [p.evaluate(context) for p in (self.condition, self.ratio) if p is not None]
        return bool(parts) and all(p is True for p in parts)

    def fields(self) -> list[str]:
        out = set(self.condition.fields()) if self.condition else set()
        if self.ratio:
            out |= {self.ratio.of, self.ratio.per}
        return sorted(out)


def release_checks(frameworks: dict[str, FrameworkInfo]) -> tuple[Check, ...]:
    """For a point-in-time view: one check per framework not yet released, tripped by a
    profile that names it (the team's experience, existing code). Built from pack.yaml's
    ``released``, the one record of those months."""
    codes = {c.value for c in ExistingCode}
    out = []
    for fw, info in frameworks.items():
        name, released = info.name, info.released
        if released is None:
            continue
        parts: list[dict[str, Any]] = [{"field": f"team.experience.{fw}", "ne": "none"}]
        what = "experience"
        if fw in codes:
            parts.append({"field": "existing_code", "contains": fw})
            what = "experience or code"
        when = {"any": parts}
        year, month = released.month.split("-")
        first = f"{calendar.month_name[int(month)]} {year}"
        out.append(
            Check.model_construct(
                id=f"RELEASE-{fw}",
                title=f"{name} before its first release",
                when=when,
                ratio=None,
                message=f"the profile names {name} ({what}), first released in {first}",
                basis=None,
                evidence=[],
                holds=Holds(
                    until=released.month,
                    basis=f"{name}'s first public release, from pack.yaml",
                    source=released.source,
                ),
                examples=CheckExamples.model_construct(trip=[], ok=[]),
                condition=parse_condition(when),
            )
        )
    return tuple(out)


register_model(Check)


def tripped(checks: tuple[Check, ...], context: dict[str, Any]) -> list[Check]:
    return [c for c in checks if c.trips(context)]


def tripped_ids(checks: tuple[Check, ...], context: dict[str, Any]) -> frozenset[str]:
    return frozenset(c.id for c in tripped(checks, context))


def contradicts(checks: tuple[Check, ...], already: frozenset[str], after: dict[str, Any]) -> bool:
    """Whether context ``after`` trips a check beyond those ``already`` tripped before."""
    return any(c.id not in already for c in tripped(checks, after))


def inconsistencies(checks: tuple[Check, ...], context: dict[str, Any]) -> list[Inconsistency]:
    return [
        Inconsistency(
            id=c.id,
            title=c.title,
            message=c.message,
            fields=_involved(c, context),
            until=c.holds.until if c.holds else None,
            checked=[e.checked for e in c.evidence if e.checked is not None],
        )
        for c in tripped(checks, context)
    ]


def _involved(check: Check, context: dict[str, Any]) -> list[str]:
    """The said answers the check trips on: those without which it would not trip (all
    said ones it reads, when no single one is needed, e.g. two 'any' branches hold)."""
    said = [f for f in check.fields() if f in context]
    needed = [f for f in said if not check.trips({k: v for k, v in context.items() if k != f})]
    return needed or said


def load_pack_checks(
    directories: list[Path], today: str, examples: int = 0, *, core_examples: bool = True
) -> tuple[tuple[Check, ...], dict[str, str]]:
    """The checks of every pack (each directory's ``data/consistency.yaml``, the core's
    first) and the file of each (id -> path); an id defined by two packs is refused,
    naming the second file and line. ``examples``: those the user packs' rules gave, to
    which their checks' examples count (rule_examples.MAX_PACK_EXAMPLES);
    ``core_examples`` False skips the core's own (as for its rules)."""
    out: list[Check] = []
    taken: dict[str, str] = {}
    budget = [examples]
    for directory in directories:
        data = directory / "data"
        if path_kind(directory) == "dir" and os.path.lexists(data) and path_kind(data) != "dir":
            raise InputError("a rule pack's 'data' entry must be a directory", path=str(data))
        path = data / "consistency.yaml"
        user = directory is not directories[0]
        budgeted = budget if user else None
        run = user or core_examples
        for check in load_checks(path, today, taken, budget=budgeted, examples=run):
            taken[check.id] = str(path)
            out.append(check)
        if sum(c.condition.size() for c in out if c.condition) > MAX_PACK_CONDITIONS:
            raise InputError(
                f"the checks hold more than {MAX_PACK_CONDITIONS:,} conditions in all",
                path=str(path),
            )
    return tuple(out), taken


def load_checks(
    path: Path,
    today: str | None = None,
    taken: dict[str, str] | None = None,
    *,
    budget: list[int] | None = None,
    examples: bool = True,
) -> tuple[Check, ...]:
    """Load consistency.yaml (none when the pack has no such file), running its examples
    unless ``examples`` is False (``budget``: a user pack's examples so far, counted and
    bounded first);
    ``today`` (YYYY-MM, default the knowledge's month): no check may start after it;
    ``taken``: ids other packs already define (id -> file). A user pack's citations and
    dates are checked once the whole pack has loaded (citations.check_user_citations)."""
    if path_kind(path) == "missing" and not os.path.lexists(path):
        return ()
    doc = load_pack_yaml(path)  # the bounded reader refuses all but a regular file
    if not isinstance(doc.data, dict) or set(doc.data) != {"checks"}:
        message = "top level must be a mapping with a single key 'checks'"
        raise InputError(message, path=str(path), line=1)
    items = doc.data["checks"]
    if not isinstance(items, list):
        raise InputError("'checks' must be a list", path=str(path), line=doc.line_of(("checks",)))
    if budget is not None:  # a user's pack: counted with its rules' before any example runs
        budget[0] += examples_within_budget(doc, budget[0], key="checks")
    out: list[Check] = []
    seen: set[str] = set()
    for index, raw in enumerate(items):
        loc: tuple[Any, ...] = ("checks", index)
        rid = raw.get("id") if isinstance(raw, dict) else None
        label = item_label("checks", rid, index)
        try:
            check = Check.model_validate(raw)
        except ValidationError as exc:
            raise input_error_from_validation(exc, doc, prefix=loc, label=label) from None
        check = _parsed(check, doc, loc, label)
        if check.holds:
            where = (*loc, "holds", "since")
            month = today or knowledge_month()
            check_started(check.holds.since, month, doc, where, f"{label}: holds.since")
        if check.id in seen:
            raise _error("duplicate check id", doc, (*loc, "id"), f"{label}: id")
        if taken and check.id in taken:
            message = f"duplicate check id (already defined in {taken[check.id]})"
            raise _error(message, doc, (*loc, "id"), f"{label}: id")
        seen.add(check.id)
        if examples:
            _run_examples(check, doc, loc, label)
        out.append(check)
    return tuple(out)


def _parsed(check: Check, doc: YamlDocument, loc: tuple[Any, ...], label: str) -> Check:
    if check.when is None and check.ratio is None:
        raise _error("a check needs 'when', 'ratio' or both", doc, loc, label)
    if not check.evidence and not check.basis:
        raise _error("a check needs evidence or a basis", doc, loc, label)
    condition = None
    if check.when is not None:
        try:
            condition = parse_condition(check.when, "when")
        except ConditionError as exc:
            at = (*loc, "when", *(exc.loc or ()))
            raise _error(exc.message, doc, at, f"{label}: {exc.where}") from None
        fields = condition.fields()
        if not fields or any(f.startswith("facts.") for f in fields):
            message = "a check's 'when' tests answers of the profile (not measured facts)"
            raise _error(message, doc, (*loc, "when"), f"{label}: when")
    if check.ratio is not None:
        for key in ("of", "per"):
            try:
                info = resolve_field(getattr(check.ratio, key))
            except ConditionError as exc:
                where = (*loc, "ratio", key)
                raise _error(exc.message, doc, where, f"{label}: ratio.{key}") from None
            if info.is_list or info.item not in (int, float) or info.is_fact:
                where = (*loc, "ratio", key)
                raise _error("a ratio reads numeric answers", doc, where, f"{label}: ratio.{key}")
    return check.model_copy(update={"condition": condition})


def _run_examples(check: Check, doc: YamlDocument, loc: tuple[Any, ...], label: str) -> None:
    for kind in ("trip", "ok"):
        for i, example in enumerate(getattr(check.examples, kind)):
            where = (*loc, "examples", kind, i)
            name = f"{label}: examples.{kind}[{i + 1}]"
            context = example_context(example, doc, where, name, facts=False)
            if check.trips(context) != (kind == "trip"):
                wrong = "does not trip the check" if kind == "trip" else "trips the check"
                raise _error(f"example {wrong}", doc, where, name)


def _error(message: str, doc: YamlDocument, loc: tuple[Any, ...], field: str) -> InputError:
    return InputError(message, path=doc.path, line=doc.line_of(loc), field=field)


def checks_of_packs(check_files: dict[str, str], packs: list[Path]) -> dict[str, str]:
    """Check id -> the user's pack folder whose data/consistency.yaml defines it (the
    bundled checks are not listed)."""
    out = {}
    for check_id, file in check_files.items():
        folder = real_path(Path(file).parent.parent)
        mine = next((pack for pack in packs if folder == real_path(pack)), None)
        if mine is not None:
            out[check_id] = str(mine)
    return out
