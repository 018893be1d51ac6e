"""Rule packs: the Rule model with its parsed condition, the loader and the validator.

A rule pack is a directory of YAML files: ``pack.yaml`` (core pack only) describes the
criteria, their weights and the companion stacks; every other ``*.yaml`` holds ``rules:``.
All is validated on load; a problem is reported as ``file:line: rule-id: field: message``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from advisor.decide.citations import check_user_citations, evidence_named
from advisor.decide.conditions import (
    MAX_PACK_CONDITIONS,
    Condition,
    ConditionError,
    parse_condition,
)
from advisor.decide.consistency import Check, checks_of_packs, load_pack_checks, release_checks
from advisor.decide.dating import (
    check_priors_started,
    check_routes_started,
    check_started,
    field_name,
    knowledge_month,
)
from advisor.decide.framework_files import (
    FRAMEWORK_FILE_KEYS,
    FrameworkFile,
    is_framework_file,
    merge_framework_info,
    merge_routes,
    read_framework_file,
)
from advisor.decide.item_labels import item_label, load_pack_yaml
from advisor.decide.pack_layout import rule_files, user_packs, within_pack_budget
from advisor.decide.releases import fill_releases, load_snapshot, snapshot_path
from advisor.decide.routes import RouteTable, load_routes
from advisor.decide.rule_examples import check_examples, examples_within_budget
from advisor.decide.rule_model import Rule
from advisor.io.safe_read import real_path
from advisor.io.safe_yaml import YamlDocument
from advisor.io.validation import input_error_from_validation
from advisor.model.errors import InputError
from advisor.model.option_hints import did_you_mean
from advisor.model.rulepack import (
    MONTH_RE,
    CriterionInfo,
    InstallOption,
    PackMeta,
    PortingStep,
    StackItem,
    StarterOption,
)
from advisor.model.terminal_text import clip

# a framework's entries that a `when` condition shows or hides
Conditional = InstallOption | StackItem | StarterOption | PortingStep


@dataclass
class RuleSet:
    """The loaded rules plus the core pack's metadata, with parsed conditions."""

    meta: PackMeta
    rules: list[Rule]
    sources: dict[str, str] = field(default_factory=dict)  # rule id -> file
    added: dict[str, str] = field(default_factory=dict)  # rule/check id -> the user's pack
    conditions: dict[tuple[str, str, int], Condition] = field(default_factory=dict)
    routes: RouteTable | None = None  # the routes in force at the view's month
    # Everything the pack holds, dated, from which at() builds a view:
    all_rules: list[Rule] = field(default_factory=list)
    all_routes: RouteTable | None = None
    full_meta: PackMeta | None = None
    unavailable: dict[str, str] = field(default_factory=dict)  # framework -> not yet released
    checks: tuple[Check, ...] = ()  # answers that cannot all be true (consistency.yaml)
    all_checks: tuple[Check, ...] | None = None  # the checks of every month (None: checks)
    check_sources: dict[str, str] = field(default_factory=dict)  # check id -> file
    month: str | None = None  # the view's month (YYYY-MM); None: built by hand, undated

    def __post_init__(self) -> None:
        # A rule set built by hand (tests, benchmarks) is its own whole knowledge.
        self.all_rules = list(self.all_rules or self.rules)
        self.all_routes = self.all_routes or self.routes
        self.full_meta = self.full_meta or self.meta
        if self.all_checks is None:
            self.all_checks = self.checks

    def criterion(self, cid: str) -> CriterionInfo:
        return next(c for c in self.meta.criteria if c.id == cid)

    def get(self, rule_id: str) -> Rule | None:
        return next((r for r in self.rules if r.id == rule_id), None)

    def at(self, month: str) -> RuleSet:
        """The view as of ``month`` (YYYY-MM): what held then (docs/updating-knowledge.md)."""
        if not MONTH_RE.match(month):
            raise ValueError(f"a month is YYYY-MM, not {month!r}")
        meta = (self.full_meta or self.meta).at(month)
        unavailable = {
            fw: f"{info.name} was not yet released in {month} (first release {info.released.month})"
            for fw, info in meta.frameworks.items()
            if info.released is not None and month < info.released.month
        }
        return dataclasses.replace(
            self,
            month=month,
            meta=meta,
            rules=[r for r in self.all_rules if r.holds is None or r.holds.covers(month)],
            routes=self.all_routes.at(month, set(unavailable)) if self.all_routes else None,
            checks=tuple(c for c in self.all_checks or () if not c.holds or c.holds.covers(month))
            + release_checks({fw: meta.frameworks[fw] for fw in unavailable}),
            unavailable=unavailable,
        )


def load_pack_file(path: Path) -> YamlDocument:
    """A rule pack's YAML file, ``{release:NAME}`` filled in from the bundled snapshot."""
    return fill_releases(load_pack_yaml(path), load_snapshot(), snapshot_path())


def load_pack_meta(
    path: Path, own: Sequence[FrameworkFile] = ()
) -> tuple[PackMeta, dict[tuple[str, str, int], Condition]]:
    """Load pack.yaml (plus frameworks described in their own files), parsing conditions."""
    doc = load_pack_file(path)
    if not isinstance(doc.data, dict):
        raise InputError("top level must be a mapping", path=str(path), line=1)
    try:
        meta = PackMeta.model_validate(doc.data)
    except ValidationError as exc:
        raise input_error_from_validation(exc, doc) from None
    meta = merge_framework_info(meta, doc, list(own))
    today = knowledge_month()
    check_priors_started(meta, doc, today)
    described = {f.framework: f for f in own if f.info is not None}
    conditions: dict[tuple[str, str, int], Condition] = {}
    if meta.hedge_unless is not None:  # none: always shown (an empty `when` holds everywhere)
        conditions[("", "hedge_unless", 0)] = _display_condition(
            meta.hedge_unless, doc, ("hedge_unless",)
        )
    for fw, info in meta.frameworks.items():
        source = described[fw].doc if fw in described else doc
        base: tuple[Any, ...] = ("framework",) if fw in described else ("frameworks", fw)
        if info.released:
            where = (*base, "released", "month")
            check_started(info.released.month, today, source, where, field_name(where))
        entries: tuple[tuple[str, Sequence[Conditional]], ...] = (
            ("install", info.install),
            ("stack", info.stack),
            ("starter", info.starter),
            ("porting", info.porting),
        )
        for kind, items in entries:
            for i, item in enumerate(items):
                loc = (*base, kind, i, "when")
                conditions[(fw, kind, i)] = _display_condition(item.when, source, loc)
    return meta, conditions


def _display_condition(when: Any, doc: YamlDocument, loc: tuple[Any, ...]) -> Condition:
    """A pack condition that chooses what the report shows, or an InputError naming its line."""
    try:
        return parse_condition(when, field_name(loc), display=True)
    except ConditionError as exc:
        raise InputError(
            exc.message,
            path=doc.path,
            line=doc.line_of((*loc, *(exc.loc or ()))),
            field=exc.where,
        ) from None


def load_rule_file(
    path: Path,
    meta: PackMeta,
    doc: YamlDocument | None = None,
    *,
    examples: bool = True,
) -> list[Rule]:
    """Load and validate one rules file, its rules in the file's order. ``examples``: run
    each rule's fixtures (advisor.decide.rule_examples)."""
    doc = doc or load_pack_file(path)
    name = str(path)
    own = is_framework_file(path.stem)
    keys = set(doc.data) if isinstance(doc.data, dict) else set()
    if own and (not keys or not keys <= set(FRAMEWORK_FILE_KEYS)):
        raise InputError(
            "a framework's file is a mapping of 'rules', 'framework' and 'routes'",
            path=name,
            line=1,
        )
    if not own and keys != {"rules"}:
        raise InputError(
            "a rules file must be a mapping with a single key 'rules'", path=name, line=1
        )
    assert isinstance(doc.data, dict)
    items = doc.data.get("rules", [])
    if not isinstance(items, list):
        raise InputError("'rules' must be a list", path=name, line=doc.line_of(("rules",)))
    prefixes = {c.id: c.prefix for c in meta.criteria}
    today = knowledge_month()
    rules: list[Rule] = []
    for index, raw in enumerate(items):
        loc = ("rules", index)
        rid = raw.get("id") if isinstance(raw, dict) else None
        label = item_label("rules", rid, index)
        if not isinstance(raw, dict):
            raise InputError("each rule must be a mapping", path=name, line=doc.line_of(loc))
        try:
            rule = Rule.model_validate(raw)
        except ValidationError as exc:
            error = input_error_from_validation(exc, doc, prefix=loc, label=label)
            raise evidence_named(error) from None
        if rule.holds:
            check_started(
                rule.holds.since, today, doc, (*loc, "holds", "since"), f"{label}: holds.since"
            )
        if rule.criterion not in prefixes:
            suggestion = did_you_mean(rule.criterion, list(prefixes))
            raise InputError(
                f"'{clip(rule.criterion)}' is not a criterion of the rule pack{suggestion} "
                f"(one of {', '.join(prefixes)})",
                path=name,
                line=doc.line_of((*loc, "criterion")),
                field=f"{label}: criterion",
            )
        try:
            condition = parse_condition(rule.when, "when")
        except ConditionError as exc:
            raise InputError(
                exc.message,
                path=name,
                line=doc.line_of((*loc, "when", *(exc.loc or ()))),
                field=f"{label}: {exc.where}",
            ) from None
        expected = prefixes[rule.criterion]
        if rule.id.rstrip("0123456789") != expected:
            raise InputError(
                f"'{rule.criterion}' rules use the id prefix {expected} (e.g. {expected}001)",
                path=name,
                line=doc.line_of((*loc, "id")),
                field=f"{label}: id",
            )
        rule = rule.model_copy(update={"condition": condition})
        if examples:
            check_examples(condition, rule.examples, doc, loc, label)
        rules.append(rule)
    return rules


def core_pack_dir() -> Path:
    from advisor.resources import data_dir

    return data_dir("rules")


@within_pack_budget  # all user packs' files, as read (pack_layout.py)
def load_ruleset(
    extra_dirs: list[Path] | None = None,
    core: Path | None = None,
    *,
    dates_checked: bool = True,
    core_examples: bool = True,
) -> RuleSet:
    """The core pack plus any extra packs, ids unique across all, no extra pack's evidence
    dated after today (``dates_checked`` False: the caller reports dates, as ``rules check``
    does against its ``--today``); ``core_examples`` False skips the bundled fixtures."""
    core = core or core_pack_dir()
    extra_dirs = user_packs(core, extra_dirs or [])
    dirs = [core, *extra_dirs]
    files, packs = [], {}  # a file named twice (alone and in its folder) is read once
    for directory in dirs:
        for path in rule_files(directory):
            if real_path(path) not in packs:
                packs[real_path(path)] = directory
                files.append((path, directory is core))
    # frameworks' own files first; every other file is parsed, checked and let go in turn
    own_docs = {path: load_pack_file(path) for path, _ in files if is_framework_file(path.stem)}
    own = [read_framework_file(path.stem, doc) for path, doc in own_docs.items()]
    meta, conditions = load_pack_meta(core / "pack.yaml", own)
    routes = _load_routes(core / "data" / "routes.yaml", own)
    rules: list[Rule] = []
    sources: dict[str, str] = {}
    added: dict[str, str] = {}
    today = knowledge_month()
    size = fixtures = 0
    for path, bundled in files:
        doc = own_docs.pop(path, None) or load_pack_file(path)
        fixtures += 0 if bundled else examples_within_budget(doc, fixtures)
        loaded = load_rule_file(path, meta, doc, examples=core_examples or not bundled)
        for index, rule in enumerate(loaded):  # every item of the file's list is a rule
            size += rule.condition.size() if rule.condition else 0
            if size > MAX_PACK_CONDITIONS:  # each is evaluated for every change tried
                raise InputError(
                    f"the rules hold more than {MAX_PACK_CONDITIONS:,} conditions in all",
                    path=str(path),
                    line=doc.line_of(("rules", index)),
                    field=f"rule {rule.id}: when",
                )
            if rule.route and (routes is None or rule.route not in routes.venues):
                known = ", ".join(sorted(routes.venues)) if routes else "none"
                raise InputError(
                    f"unknown route venue '{clip(rule.route)}' (known: {known})",
                    path=str(path),
                    line=doc.line_of(("rules", index, "route")),
                    field=f"rule {rule.id}: route",
                )
            if rule.id in sources:
                raise InputError(
                    f"duplicate rule id (already defined in {sources[rule.id]})",
                    path=str(path),
                    line=doc.line_of(("rules", index)),
                    field=f"rule {rule.id}: id",
                )
            sources[rule.id] = str(path)
            if not bundled:  # the pack as the user named it, a folder or one file
                added[rule.id] = str(packs[real_path(path)])
            rules.append(rule)
    checks, check_files = load_pack_checks(dirs, today, fixtures, core_examples=core_examples)
    added.update(checks_of_packs(check_files, extra_dirs))
    full = RuleSet(meta, rules, sources, added, conditions, routes, checks=checks)
    full.check_sources = check_files
    if extra_dirs and dates_checked:  # as `rules check` finds them, after the rest loaded
        check_user_citations(full, core)
    return full.at(today)


def _load_routes(path: Path, own: list[FrameworkFile]) -> RouteTable | None:
    """routes.yaml merged with the routes in frameworks' own files (None: no route table)."""
    if not path.is_file():
        stray = next((f for f in own if f.routes), None)
        if stray is not None:
            raise InputError(
                f"routes given but the pack has no {path} defining venues",
                path=stray.doc.path,
                line=stray.doc.line_of(("routes",)),
                field="routes",
            )
        return None
    doc = load_pack_file(path)
    table = load_routes(doc)
    check_routes_started(table, doc, own, knowledge_month())
    return merge_routes(table, doc, own)
