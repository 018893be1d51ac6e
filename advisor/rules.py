"""Rules as data: the models, the loader and the validator for rule packs.

A rule pack is a directory of YAML files. ``pack.yaml`` (core pack only) describes the
criteria, their priority weights and the companion stacks; every other ``*.yaml`` file
holds ``rules: [...]``. Everything is validated on load, and each problem is reported
as ``file:line: rule-id: field: message``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date
from enum import Enum
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from advisor.conditions import Condition, ConditionError, build_context, parse_condition
from advisor.errors import InputError
from advisor.facts import Facts
from advisor.field_guards import guard_field
from advisor.frameworks import FRAMEWORKS
from advisor.profile import Profile
from advisor.safe_read import path_kind
from advisor.validation import input_error_from_validation, register_model
from advisor.yamlio import YamlDocument, load_yaml_file


class Criterion(str, Enum):
    """The twelve criteria of the source articles (CLAIMS.md C-*)."""

    scale = "scale"
    hardware = "hardware"
    deployment = "deployment"
    team_style = "team_style"
    ecosystem = "ecosystem"
    prototyping = "prototyping"
    production = "production"
    performance = "performance"
    legacy = "legacy"
    learning_curve = "learning_curve"
    parallelism = "parallelism"
    determinism = "determinism"

    def __str__(self) -> str:
        return self.value


PRIORITY_NAMES = tuple(Profile.model_fields["priorities"].annotation.model_fields)


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    _guard = field_validator("*", mode="before")(guard_field)


class Evidence(Strict):
    """One checkable source for a rule."""

    title: str = Field(min_length=3)
    source: str = Field(min_length=2, description="Publisher or project.")
    year: int = Field(ge=1990, le=2100)
    url: str | None = Field(None, pattern=r"^https?://\S+$")
    claim: str = Field(min_length=10, description="What the source says, in one sentence.")
    status: Literal["current", "superseded"] = "current"
    superseded_by: str | None = Field(
        None, description="For a superseded claim: what replaced it and when."
    )
    checked: date | None = Field(None, description="When the claim was last checked at its source.")
    ref: str | None = Field(
        None,
        pattern=r"^([ACFR]-[A-Z0-9-]+|A[0-9]|R[1-7]|PKG:[a-z0-9._-]+)$",
        description="Claim id in docs/sources.md, or PKG:name for rules/data/package_health.yaml.",
    )

    @model_validator(mode="after")
    def _superseded_has_note(self) -> Evidence:
        if self.status == "superseded" and not self.superseded_by:
            raise ValueError("a superseded claim needs 'superseded_by' saying what replaced it")
        return self


class Effects(Strict):
    """Score changes per framework, -5..5."""

    pytorch: int = Field(0, ge=-5, le=5)
    jax: int = Field(0, ge=-5, le=5)
    tensorflow: int = Field(0, ge=-5, le=5)

    def items(self) -> list[tuple[str, int]]:
        return [(fw, getattr(self, fw)) for fw in FRAMEWORKS]


class Vetoes(Strict):
    """Hard constraints: a framework excluded, with the reason."""

    pytorch: str | None = Field(None, min_length=10)
    jax: str | None = Field(None, min_length=10)
    tensorflow: str | None = Field(None, min_length=10)

    def items(self) -> list[tuple[str, str]]:
        return [(fw, getattr(self, fw)) for fw in FRAMEWORKS if getattr(self, fw)]


class Risks(Vetoes):
    """Caveats shown when the rule fires and that framework is recommended."""


class RuleExamples(Strict):
    """semgrep-style fixtures: profiles that must fire the rule, and ones that must not."""

    fire: list[dict[str, Any]] = Field(min_length=1)
    ok: list[dict[str, Any]] = Field(min_length=1)


class Rule(Strict):
    """One criterion from the sources, as data."""

    model_config = ConfigDict(extra="forbid", frozen=True, arbitrary_types_allowed=True)

    id: str = Field(pattern=r"^[A-Z]{2,5}[0-9]{3}$")
    title: str = Field(min_length=5)
    criterion: Criterion
    when: Any = None
    effects: Effects = Field(default_factory=Effects)
    veto: Vetoes = Field(default_factory=Vetoes)
    risks: Risks = Field(default_factory=Risks)
    why: str = Field(min_length=10)
    evidence: list[Evidence] = Field(min_length=1)
    examples: RuleExamples
    condition: Condition | None = Field(None, exclude=True)

    @field_validator("why")
    @classmethod
    def _one_sentence(cls, value: str) -> str:
        if "\n" in value.strip():
            raise ValueError("'why' must be one line")
        return value.strip()

    @model_validator(mode="after")
    def _check(self) -> Rule:
        if not any(v for _, v in self.effects.items()) and not self.veto.items():
            raise ValueError("a rule needs at least one non-zero effect or a veto")
        if all(e.status == "superseded" for e in self.evidence):
            raise ValueError(
                "evidence: a rule needs at least one current claim, not only superseded ones"
            )
        return self

    @property
    def uses_facts(self) -> bool:
        return bool(self.condition and any(f.startswith("facts.") for f in self.condition.fields()))


register_model(Rule)


class Criterion_(Strict):
    """Metadata of one criterion in pack.yaml."""

    id: Criterion
    claim_id: str = Field(pattern=r"^C-[A-Z]+$")
    prefix: str = Field(pattern=r"^[A-Z]{2,5}$")
    title: str
    priorities: list[str] = Field(default_factory=list)
    description: str = ""

    @field_validator("priorities")
    @classmethod
    def _known_priorities(cls, value: list[str]) -> list[str]:
        for name in value:
            if name not in PRIORITY_NAMES:
                raise ValueError(f"unknown priority '{name}' (one of {', '.join(PRIORITY_NAMES)})")
        return value


class StackItem(Strict):
    name: str
    role: str
    url: str | None = Field(None, pattern=r"^https?://\S+$")
    note: str = ""
    when: Any = None


class InstallOption(Strict):
    command: str
    note: str = ""
    when: Any = None


class FrameworkInfo(Strict):
    name: str
    summary: str
    install: list[InstallOption] = Field(min_length=1)
    stack: list[StackItem] = Field(min_length=1)
    starter: str


class PackMeta(Strict):
    ruleset: str
    version: str
    criteria: list[Criterion_]
    frameworks: dict[str, FrameworkInfo]
    hedge: str = ""

    @model_validator(mode="after")
    def _complete(self) -> PackMeta:
        ids = [c.id for c in self.criteria]
        missing = set(Criterion) - set(ids)
        if missing or len(ids) != len(set(ids)):
            raise ValueError(f"criteria must list each criterion once; missing {sorted(missing)}")
        if set(self.frameworks) != set(FRAMEWORKS):
            raise ValueError(f"frameworks must be exactly {', '.join(FRAMEWORKS)}")
        return self


@dataclass
class RuleSet:
    """The loaded rules plus the core pack's metadata, with parsed conditions."""

    meta: PackMeta
    rules: list[Rule]
    sources: dict[str, str] = field(default_factory=dict)  # rule id -> file
    conditions: dict[tuple[str, str, int], Condition] = field(default_factory=dict)

    def criterion(self, cid: str) -> Criterion_:
        return next(c for c in self.meta.criteria if c.id == cid)

    def get(self, rule_id: str) -> Rule | None:
        return next((r for r in self.rules if r.id == rule_id), None)


def _where(doc: YamlDocument, loc: tuple[Any, ...]) -> int | None:
    return doc.line_of(loc)


def load_pack_meta(path: Path) -> tuple[PackMeta, dict[tuple[str, str, int], Condition]]:
    """Load pack.yaml, parsing the stack and install conditions."""
    doc = load_yaml_file(path)
    if not isinstance(doc.data, dict):
        raise InputError("top level must be a mapping", path=str(path), line=1)
    try:
        meta = PackMeta.model_validate(doc.data)
    except ValidationError as exc:
        raise input_error_from_validation(exc, doc) from None
    conditions: dict[tuple[str, str, int], Condition] = {}
    for fw, info in meta.frameworks.items():
        for kind, items in (("install", info.install), ("stack", info.stack)):
            for i, item in enumerate(items):
                loc = ("frameworks", fw, kind, i, "when")
                try:
                    conditions[(fw, kind, i)] = parse_condition(item.when, ".".join(map(str, loc)))
                except ConditionError as exc:
                    raise InputError(
                        exc.message, path=str(path), line=doc.line_of(loc), field=exc.where
                    ) from None
    return meta, conditions


def load_rule_file(path: Path, meta: PackMeta) -> list[tuple[Rule, int | None]]:
    """Load and validate one rules file; each rule comes with its line."""
    doc = load_yaml_file(path)
    name = str(path)
    if not isinstance(doc.data, dict) or set(doc.data) != {"rules"}:
        raise InputError(
            "a rules file must be a mapping with a single key 'rules'", path=name, line=1
        )
    items = doc.data["rules"]
    if not isinstance(items, list):
        raise InputError("'rules' must be a list", path=name, line=doc.line_of(("rules",)))
    prefixes = {c.id.value: c.prefix for c in meta.criteria}
    rules: list[tuple[Rule, int | None]] = []
    for index, raw in enumerate(items):
        loc = ("rules", index)
        rid = raw.get("id") if isinstance(raw, dict) else None
        label = f"rule {rid}" if rid else f"rules[{index}]"
        if not isinstance(raw, dict):
            raise InputError("each rule must be a mapping", path=name, line=doc.line_of(loc))
        try:
            rule = Rule.model_validate(raw)
        except ValidationError as exc:
            raise input_error_from_validation(exc, doc, prefix=loc, label=label) from None
        try:
            condition = parse_condition(rule.when, "when")
        except ConditionError as exc:
            raise InputError(
                exc.message,
                path=name,
                line=doc.line_of((*loc, "when")),
                field=f"{label}: {exc.where}",
            ) from None
        expected = prefixes[rule.criterion.value]
        if rule.id.rstrip("0123456789") != expected:
            raise InputError(
                f"'{rule.criterion}' rules use the id prefix {expected} (e.g. {expected}001)",
                path=name,
                line=doc.line_of((*loc, "id")),
                field=f"{label}: id",
            )
        rule = rule.model_copy(update={"condition": condition})
        _check_examples(rule, doc, loc, label)
        rules.append((rule, doc.line_of(loc)))
    return rules


def _check_examples(rule: Rule, doc: YamlDocument, loc: tuple[Any, ...], label: str) -> None:
    """Run the rule's own fixtures: every `fire` profile fires it, no `ok` profile does."""
    for kind in ("fire", "ok"):
        for i, example in enumerate(getattr(rule.examples, kind)):
            ex_loc = (*loc, "examples", kind, i)
            data = dict(example)
            facts_data = data.pop("facts", None)
            try:
                profile = Profile.model_validate(data)
                facts = Facts.model_validate(facts_data) if facts_data is not None else Facts()
            except ValidationError as exc:
                raise input_error_from_validation(
                    exc, doc, prefix=ex_loc, label=f"{label}: examples.{kind}[{i}]"
                ) from None
            assert rule.condition is not None
            result = rule.condition.evaluate(build_context(profile, facts))
            if kind == "fire" and result is not True:
                outcome = "stood aside (a fact is missing)" if result is None else "did not fire"
                raise InputError(
                    f"example should fire the rule but {outcome}",
                    path=doc.path,
                    line=doc.line_of(ex_loc),
                    field=f"{label}: examples.fire[{i}]",
                )
            if kind == "ok" and result is True:
                raise InputError(
                    "example should not fire the rule but did",
                    path=doc.path,
                    line=doc.line_of(ex_loc),
                    field=f"{label}: examples.ok[{i}]",
                )


def core_pack_dir() -> Path:
    from advisor.resources import data_dir

    return data_dir("rules")


def load_ruleset(extra_dirs: list[Path] | None = None, core: Path | None = None) -> RuleSet:
    """Load the core pack plus any extra packs, checking ids are unique across all."""
    core = core or core_pack_dir()
    meta, conditions = load_pack_meta(core / "pack.yaml")
    rules: list[Rule] = []
    sources: dict[str, str] = {}
    for directory in [core, *(extra_dirs or [])]:
        for path in rule_files(directory):
            for rule, line in load_rule_file(path, meta):
                if rule.id in sources:
                    raise InputError(
                        f"duplicate rule id (already defined in {sources[rule.id]})",
                        path=str(path),
                        line=line,
                        field=f"rule {rule.id}: id",
                    )
                sources[rule.id] = str(path)
                rules.append(rule)
    return RuleSet(meta=meta, rules=rules, sources=sources, conditions=conditions)


def rule_files(directory: Path) -> list[Path]:
    """The rule files of a pack: every *.yaml/*.yml except pack.yaml, sorted."""
    kind = path_kind(directory)
    if kind == "missing":
        raise InputError("no such rule pack directory", path=str(directory))
    if kind != "dir":
        return [directory]  # a single file: the bounded reader refuses anything irregular
    return sorted(
        p
        for p in directory.iterdir()
        if p.suffix in (".yaml", ".yml") and p.name != "pack.yaml" and not p.is_dir()
    )


_ID = re.compile(r"^([A-Z]+)([0-9]+)$")


def rule_sort_key(rule_id: str) -> tuple[str, int]:
    match = _ID.match(rule_id)
    return (match.group(1), int(match.group(2))) if match else (rule_id, 0)
