"""Load a questions file and check every question against the profile model."""

from __future__ import annotations

import os
import re
from enum import Enum
from functools import lru_cache
from pathlib import Path
from typing import Any

from advisor.decide.conditions import (
    PROFILE_PATHS,
    Condition,
    ConditionError,
    parse_condition,
)
from advisor.frameworks import REGISTRY
from advisor.io.safe_yaml import YamlDocument, load_yaml_file
from advisor.model.errors import InputError
from advisor.model.field_guards import MAX_TEXT_CHARS, first_repeat
from advisor.model.option_hints import closest, did_you_mean, hint_text, meant_names
from advisor.model.terminal_text import clip
from advisor.questionnaire.spec import (
    QUESTIONS_FILE,
    AnswerError,
    Check,
    Question,
    QuestionSet,
    derived_help,
    field_bounds,
    model_field,
    question_kind,
    reads_sizes,
    validate_value,
)

QUESTION_KEYS = (
    "field",
    "prompt",
    "help",
    "choices",
    "default",
    "required",
    "when",
    "validate",
    "section",
)
TOP_KEYS = ("questions", "not_asked")
FRAMEWORK_SLOT = "{framework}"
NAME_SLOT = "{name}"

# --------------------------------------------------------------------------- loading


def load_questions(path: str | os.PathLike[str] | None = None) -> QuestionSet:
    """Load a questions file and check it against the profile model."""
    if path is None:
        return _bundled_questions()
    return _load(Path(path))


@lru_cache(maxsize=1)
def _bundled_questions() -> QuestionSet:
    return _load(QUESTIONS_FILE)


def _load(path: Path) -> QuestionSet:
    try:
        doc = load_yaml_file(path)
    except InputError as exc:  # a YAML-level error (a duplicate key) names its question as
        # every other error of a questions file does: questions[N], counted from 1
        if exc.field and (m := re.fullmatch(r"questions\.(\d+)(\..*)?", exc.field)):
            exc.field = f"questions[{int(m.group(1)) + 1}]{m.group(2) or ''}"
        raise
    data = doc.data

    def fail(message: str, loc: tuple[Any, ...] = (), where: str | None = None) -> InputError:
        return InputError(message, path=doc.path, line=doc.line_of(loc), field=where)

    if not isinstance(data, dict):
        raise fail("a questions file must be a mapping with 'questions' and 'not_asked'")
    for key in data:
        if key not in TOP_KEYS:
            raise fail(_unknown(key, TOP_KEYS), (key,), str(key))
    raw_questions = data.get("questions")
    if not isinstance(raw_questions, list) or not raw_questions:
        raise fail("'questions' must be a non-empty list", ("questions",), "questions")
    not_asked = data.get("not_asked") or {}
    if not isinstance(not_asked, dict):
        raise fail("'not_asked' must map field paths to reasons", ("not_asked",), "not_asked")

    questions: list[Question] = []
    section = ""
    for index, raw in enumerate(raw_questions):
        for one in per_framework(raw):
            question = _load_question(doc, index, one, questions, section)
            section = question.section
            questions.append(question)

    asked = {q.path for q in questions}
    for key, reason in not_asked.items():
        where = f"not_asked.{clip(key)}"
        if key not in PROFILE_PATHS:
            raise fail(_unknown_field(key), ("not_asked", key), where)
        if key in asked:
            raise fail(
                "is asked by a question, so it cannot be listed as not asked",
                ("not_asked", key),
                where,
            )
        if not isinstance(reason, str) or not reason.strip():
            raise fail("give the reason this field is not asked", ("not_asked", key), where)
    missing = [p for p in PROFILE_PATHS if p not in asked and p not in not_asked]
    if missing:
        raise fail(
            f"profile field{'s' if len(missing) > 1 else ''} {', '.join(missing)} "
            "neither asked nor listed under not_asked (with a reason)",
            ("questions",),
            "questions",
        )
    return QuestionSet(tuple(questions), dict(not_asked), doc.path)


def per_framework(raw: Any) -> list[Any]:
    """A question whose field holds ``{framework}`` stands for one question per framework.

    ``{framework}`` is replaced by each registered framework's id; in the prompt and help,
    ``{name}`` by its name (the registry's long name). Any other question is itself.
    """
    if not isinstance(raw, dict) or FRAMEWORK_SLOT not in str(raw.get("field", "")):
        return [raw]
    copies = []
    for spec in REGISTRY:
        one = dict(raw, field=str(raw["field"]).replace(FRAMEWORK_SLOT, spec.id))
        for key in ("prompt", "help"):
            if isinstance(one.get(key), str):
                one[key] = one[key].replace(NAME_SLOT, spec.long_name)
        copies.append(one)
    return copies


def _unknown(key: Any, valid: tuple[str, ...]) -> str:
    return (
        "unknown key"
        + hint_text(closest(str(key)[:100], valid))
        + (f" (valid: {', '.join(valid)})")
    )


def _unknown_field(path: Any) -> str:
    return f"'{clip(path)}' is not a profile field" + hint_text(
        meant_names(str(path), PROFILE_PATHS)
    )


def _load_question(
    doc: YamlDocument, index: int, raw: Any, earlier: list[Question], section: str
) -> Question:
    """Check one question mapping and build the Question."""
    loc: tuple[Any, ...] = ("questions", index)
    label = f"questions[{index + 1}]"

    def fail(message: str, key: str | None = None, at: tuple[Any, ...] = ()) -> InputError:
        """``key`` names the bad part for people; ``at`` is its path below the question
        when that is not just ``key`` (``("validate", 1, "message")``), for its line."""
        where = f"{label}.{key}" if key else label
        sub = at or ((key,) if key else ())
        return InputError(message, path=doc.path, line=doc.line_of((*loc, *sub)), field=where)

    if not isinstance(raw, dict):
        raise fail("a question must be a mapping with at least 'field' and 'prompt'")
    for key in raw:
        if key not in QUESTION_KEYS:
            raise fail(_unknown(key, QUESTION_KEYS), str(key))
    path = raw.get("field")
    if path is None:
        raise fail("every question needs 'field', the profile field it fills")
    if not isinstance(path, str) or path not in PROFILE_PATHS:
        raise fail(_unknown_field(str(path)), "field")
    label = f"{label} ({path})"
    if any(q.path == path for q in earlier):
        raise fail("this field is already asked by an earlier question", "field")
    prompt = raw.get("prompt")
    if not isinstance(prompt, str) or not prompt.strip():
        raise fail("every question needs a 'prompt' (text)", "prompt")
    try:
        kind, enum = question_kind(PROFILE_PATHS[path])
    except ValueError as exc:
        raise fail(str(exc), "field") from None
    if kind == "number" and reads_sizes(path):
        kind = "size"  # 256KB, 4GB: not a count's 7B, which reads as 7 bytes here
    _, info = model_field(path)

    help_text = raw.get("help", derived_help(path))
    if not isinstance(help_text, str):
        raise fail("'help' must be text", "help")
    new_section = raw.get("section", section)
    if not isinstance(new_section, str):
        raise fail("'section' must be text", "section")
    for key, text in (("prompt", prompt), ("help", help_text), ("section", new_section)):
        if len(text) > MAX_TEXT_CHARS:
            raise fail(f"text is too long ({len(text)} characters, limit {MAX_TEXT_CHARS})", key)

    choices: tuple[tuple[str, str], ...] = ()
    if enum is not None:
        choices = _load_choices(raw.get("choices"), enum, fail)
    elif "choices" in raw:
        raise fail(f"'choices' only applies to enum fields; '{path}' is a {kind} field", "choices")

    required = raw.get("required", False)
    if not isinstance(required, bool):
        raise fail("'required' must be true or false", "required")
    default = _load_default(raw, path, required, fail)
    known = {q.path for q in earlier}
    when = _load_condition(raw.get("when"), known, fail, "when", ("when",))
    checks = _load_validators(raw.get("validate", []), known | {path}, fail)

    return Question(
        path=path,
        prompt=" ".join(prompt.split()),
        help=" ".join(help_text.split()),
        kind=kind,
        choices=choices,
        default=default,
        required=required,
        when=when,
        checks=checks,
        section=new_section,
        bounds=field_bounds(info),
        line=doc.line_of(("questions", index)),
    )


def _load_default(raw: dict[str, Any], path: str, required: bool, fail: Any) -> Any:
    """A question's default, validated as the field's answer (None when it has none)."""
    if "default" not in raw:
        return None
    if required:
        raise fail("a required question has no default; drop 'default' or 'required'", "default")
    try:
        return validate_value(path, raw["default"])
    except AnswerError as exc:
        default = raw["default"]
        repeat = first_repeat(default) if isinstance(default, list) else None
        at = ("default",) if repeat is None else ("default", repeat)  # a repeat at its line
        raise fail(f"invalid default: {exc}", "default", at) from None


def _load_validators(validators: Any, known: set[str], fail: Any) -> tuple[Check, ...]:
    """A question's ``validate`` list: each a condition over the fields asked so far (the
    question's own included) and the message shown when it does not hold."""
    if not isinstance(validators, list):
        raise fail("'validate' must be a list of {require: CONDITION, message: TEXT}", "validate")
    checks = []
    for number, item in enumerate(validators):
        key, at = f"validate[{number + 1}]", ("validate", number)  # counted as questions[N]
        if not isinstance(item, dict) or set(item) != {"require", "message"}:
            extra = (
                sorted(map(str, set(item) - {"require", "message"}))
                if isinstance(item, dict)
                else []
            )
            raise fail(
                "each validator is a mapping with exactly 'require' and 'message'",
                key,
                (*at, extra[0]) if extra else at,
            )
        if not isinstance(item["message"], str) or not item["message"].strip():
            raise fail("the validator's message must be text", key, (*at, "message"))
        if len(item["message"]) > MAX_TEXT_CHARS:
            raise fail(
                f"the validator's message is too long ({len(item['message'])} characters, "
                f"limit {MAX_TEXT_CHARS})",
                key,
                (*at, "message"),
            )
        condition = _load_condition(item["require"], known, fail, key, (*at, "require"))
        checks.append(Check(condition, item["message"].strip()))
    return tuple(checks)


def _load_choices(raw: Any, enum: type[Enum], fail: Any) -> tuple[tuple[str, str], ...]:
    values = [member.value for member in enum]
    if raw is None:
        return tuple((value, "") for value in values)
    if isinstance(raw, list):
        if not all(isinstance(item, str) for item in raw):
            raise fail("'choices' lists values of the field, as text", "choices")
        raw = {item: "" for item in raw}
    if not isinstance(raw, dict):
        raise fail("'choices' maps each value to a short explanation", "choices")
    out = []
    for key, text in raw.items():
        if key not in values:
            suggestion = did_you_mean(key, list(values))
            raise fail(f"'{clip(str(key))}' is not a value of the field{suggestion}", "choices")
        if text is not None and not isinstance(text, str):
            raise fail(f"the explanation of '{key}' must be text", "choices")
        if text and len(text) > MAX_TEXT_CHARS:
            raise fail(
                f"the explanation of '{key}' is too long ({len(text)} characters)", "choices"
            )
        out.append((str(key), " ".join((text or "").split())))
    missing = [v for v in values if v not in raw]
    if missing:
        raise fail(f"'choices' must list every value; missing: {', '.join(missing)}", "choices")
    return tuple(out)


def _load_condition(
    raw: Any, known: set[str], fail: Any, key: str, at: tuple[Any, ...]
) -> Condition:
    """A question's ``when`` or a validator's ``require``; ``at`` is its path below the
    question, so an error names the line of the bad part, not the question's."""
    try:
        condition = parse_condition(raw, key)
    except ConditionError as exc:
        raise fail(exc.message, exc.where, (*at, *(exc.loc or ()))) from None
    later = sorted(condition.fields() - known)
    if later:
        raise fail(
            f"refers to {', '.join(later)}, which no earlier question asks; a condition can "
            "only use earlier answers",
            key,
            at,
        )
    return condition
