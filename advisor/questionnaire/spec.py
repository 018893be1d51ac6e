"""The questions as data: what a question is, derived from the profile model where it is silent.

Each question fills a field of the Profile; what it does not spell out (help text,
choices, default, bounds) is derived from that field.
"""

from __future__ import annotations

import functools
import re
import typing
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from advisor.decide.conditions import (
    Condition,
    flatten,
    get_path,
    parse_condition,
    set_path,
)
from advisor.model.option_hints import did_you_mean
from advisor.model.profile import (  # noqa: F401 (re-exported)
    Profile,
    field_bounds,
    model_field,
    parse_megabytes,
)
from advisor.model.terminal_text import clip

QUESTIONS_FILE = Path(__file__).resolve().with_name("questions.yaml")

NONE_WORDS = ("none", "-")

# --------------------------------------------------------------------------- errors


# str.isdigit() accepts '²' and other digits int() refuses: match ASCII digits only, and
# at most nine (int() refuses over 4,300 digits; no list is that long anyway).
ASCII_NUMBER = re.compile(r"[0-9]{1,9}")


class AnswerError(ValueError):
    """An answer that does not fit its question; the message is the reason shown."""


# --------------------------------------------------------------------------- the model side


def _nest(path: str, value: Any) -> dict[str, Any]:
    """``a.b`` and 1 -> ``{"a": {"b": 1}}``."""
    out: Any = value
    for part in reversed(path.split(".")):
        out = {part: out}
    return out


def validate_value(path: str, value: Any) -> Any:
    """Validate one value with the field's own pydantic rules; return its JSON form.

    A partial profile holding only this value is validated, so field validators (such
    as the parameter count's ``7B`` parsing) and bounds apply exactly as in a file.
    """
    try:
        profile = Profile.model_validate(_nest(path, value))
    except ValidationError as exc:
        raise AnswerError(_reason(exc)) from None
    return get_path(profile.model_dump(mode="json"), path)


def _reason(exc: ValidationError) -> str:
    error = exc.errors(include_url=False)[0]
    message = str(error["msg"])
    if message.startswith("Value error, "):
        message = message[len("Value error, ") :]
    return message[:1].lower() + message[1:]


def question_kind(annotation: Any) -> tuple[str, type[Enum] | None]:
    """Question kind for a field annotation, and the enum for choice kinds."""
    if typing.get_origin(annotation) is list:
        (item,) = typing.get_args(annotation)
        if isinstance(item, type) and issubclass(item, Enum):
            return "multi", item
        raise ValueError(f"list of {getattr(item, '__name__', item)} cannot be asked")
    if isinstance(annotation, type) and issubclass(annotation, Enum):
        return "choice", annotation
    simple = {bool: "bool", int: "int", float: "number", str: "text"}
    if annotation in simple:
        return simple[annotation], None
    name = getattr(annotation, "__name__", annotation)
    raise ValueError(f"fields of type {name} cannot be asked")


def reads_sizes(path: str) -> bool:
    """Whether a number field reads sizes in MB ('256KB', '4GB'), not counts ('7B', '350M'):
    its answer is a size question's, shown and explained in MB."""
    model, _ = model_field(path)
    leaf = path.rsplit(".", 1)[-1]
    validators = model.__pydantic_decorators__.field_validators.values()
    return any(v.func is parse_megabytes and leaf in v.info.fields for v in validators)


def derived_help(path: str) -> str:
    """Help text from the model: the field's description, plus its section's own docstring."""
    model, info = model_field(path)
    parts = [info.description or ""]
    doc = model.__dict__.get("__doc__")
    if doc and model is not Profile:
        parts.append(doc.strip())
    return " ".join(p for p in parts if p)


# --------------------------------------------------------------------------- questions


@dataclass(frozen=True)
class Check:
    """A validator: ``condition`` must hold once the answer is in, else ``message``."""

    condition: Condition
    message: str


@dataclass(frozen=True)
class Question:
    """One question, filling one profile field."""

    path: str
    prompt: str
    help: str
    kind: str
    choices: tuple[tuple[str, str], ...] = ()
    default: Any = None
    required: bool = False
    when: Condition = field(default_factory=lambda: parse_condition(None))
    checks: tuple[Check, ...] = ()
    section: str = ""
    bounds: tuple[Any, Any] = (None, None)
    line: int | None = None  # where the question is written in its file

    # -- reading answers

    def parse(self, raw: str) -> Any:
        """Turn typed text into a validated value (JSON form), or raise AnswerError."""
        text = raw.strip()
        # C0, DEL and C1 controls (NEL, the 8-bit CSI), and lone surrogates (bytes that
        # are not UTF-8); joiners and bidi marks stay: Persian and other scripts need them
        if any(ord(c) < 32 or 127 <= ord(c) <= 159 or 0xD800 <= ord(c) <= 0xDFFF for c in text):
            raise AnswerError("the answer holds control characters or is not UTF-8 text")
        if self.kind == "choice":
            value: Any = self._pick(text)
        elif self.kind == "multi":
            value = self._pick_many(text)
        elif self.kind == "bool":
            value = _yes_no(text)
        else:
            value = text
        return validate_value(self.path, value)

    def check(self, value: Any, context: dict[str, Any]) -> None:
        """Run the question's extra validators with ``value`` in place."""
        trial = {**context, self.path: value}
        for check in self.checks:
            if check.condition.evaluate(trial) is False:
                raise AnswerError(check.message)

    def _values(self) -> list[str]:
        return [value for value, _ in self.choices]

    def _pick(self, token: str) -> str:
        values = self._values()
        # "Online API" or "llm-serving" for online_api, llm_serving (round 97: the name as a
        # person reads it was refused as two choices)
        joined = re.sub(r"[\s-]+", "_", token.strip()).lower()
        if self.kind == "choice" and joined in (v.lower() for v in values):
            return next(v for v in values if v.lower() == joined)
        if self.kind == "choice" and re.search(r"[,\s]", token):
            raise AnswerError(f"'{clip(token)}': pick just one choice (1 to {len(values)})")
        if ASCII_NUMBER.fullmatch(token):
            number = int(token)
            if 1 <= number <= len(values):
                return values[number - 1]
            raise AnswerError(f"there is no choice {number}; pick 1 to {len(values)}")
        for value in values:
            if token.lower() == value.lower():
                return value
        suggestion = did_you_mean(token, values, model_field(self.path)[1].description or "")
        raise AnswerError(
            f"'{clip(token)}' is not a choice{suggestion} (pick a number from 1 to {len(values)} "
            f"or one of: {', '.join(values)})"
        )

    def _pick_many(self, text: str) -> list[str]:
        values = self._values()
        if text.lower() in NONE_WORDS and text.lower() not in values:
            return []
        chosen: set[str] = set()
        for token in filter(None, re.split(r"[,\s]+", text)):
            span = re.fullmatch(r"([0-9]{1,9})-([0-9]{1,9})", token)
            if span:
                first, last = int(span.group(1)), int(span.group(2))
                if not 1 <= first <= last <= len(values):
                    raise AnswerError(f"'{clip(token)}' is not a range within 1 to {len(values)}")
                chosen.update(values[first - 1 : last])
            else:
                chosen.add(self._pick(token))
        return [value for value in values if value in chosen]

    # -- showing

    def show(self, value: Any) -> str:
        """A value as the summary and the [default] show it."""
        if value is UNSAID:
            return "not said"
        if self.kind == "multi":
            return ", ".join(value) if value else "none"
        if self.kind == "bool":
            return "yes" if value else "no"
        if self.kind == "number":
            return human_count(value)
        if self.kind == "size":  # '8k' would read back as 8 KB: a size is shown in MB
            return f"{plain_number(value)} MB"
        if self.kind == "text":
            return value if value else '""'
        return str(value)

    def hint(self) -> str:
        """What to type, shown before the [default]."""
        low, high = self.bounds
        if self.kind == "choice":
            return f"Pick 1-{len(self.choices)} or a name"
        if self.kind == "multi":
            return "Pick any, e.g. 1,3 or names; none for none"
        if self.kind == "bool":
            return "y/n"
        if self.kind == "int" and low is not None and high is not None and high - low <= 10:
            return f"{low}-{high}"
        if self.kind in ("int", "number"):
            return "Number"
        if self.kind == "size":
            return "MB, or a size such as 256KB or 4GB"
        return "Answer"

    def help_lines(self) -> list[str]:
        """The text ``?`` prints."""
        lines = [self.help] if self.help else []
        low, high = self.bounds
        if self.kind in ("int", "number") and low is not None and high is not None:
            show = human_count if self.kind == "number" else str
            lines.append(f"Allowed: {show(low)} to {show(high)}.")
        if self.kind == "number":
            lines.append("Suffixes k, M, B and T are accepted (350M, 7B, 1.5T).")
        if self.kind == "size" and low is not None and high is not None:
            lines.append(f"Allowed: {plain_number(low)} to {plain_number(high)} MB.")
        if self.kind == "size":
            lines.append(
                "A plain number is MB; KB, MB, GB and TB are accepted too (256KB, 512MB, 4GB)."
            )
        if self.kind == "multi":
            names = " ".join(v for v, _ in self.choices[:2]) or "names"
            lines.append(
                "Type numbers or names separated by commas or spaces (1,3 or 2-4 or "
                f"{names}); 'none' clears the selection."
            )
        if self.kind == "choice":
            lines.append("Type the number or the name of one choice.")
        lines.append("Enter keeps the value in [brackets]; < goes back; Ctrl-C quits.")
        return lines


def _yes_no(text: str) -> bool:
    lowered = text.lower()
    if lowered in ("y", "yes", "true", "1"):
        return True
    if lowered in ("n", "no", "false", "0"):
        return False
    raise AnswerError(f"'{clip(text)}' is not yes or no; answer y or n")


def plain_number(value: Any) -> str:
    """8000.0 -> '8000', 0.256 -> '0.256': the number as typed, no suffix."""
    number = float(value)
    return str(int(number)) if number.is_integer() else repr(number)


def human_count(value: Any) -> str:
    """1e8 -> '100M', 7e9 -> '7B'; exact, or the plain number."""
    number = float(value)
    for suffix, scale in (("T", 1e12), ("B", 1e9), ("M", 1e6), ("k", 1e3)):
        if abs(number) >= scale:
            short = f"{number / scale:g}"
            if float(short) * scale == number:
                return short + suffix
            break
    return plain_number(number)


@dataclass(frozen=True)
class QuestionSet:
    """The loaded, checked questions and the fields deliberately not asked."""

    questions: tuple[Question, ...]
    not_asked: dict[str, str]
    source: str = str(QUESTIONS_FILE)

    def base(self, profile: Profile | None = None) -> dict[str, Any]:
        """Starting values: the profile's, or the model defaults with question defaults."""
        if profile is not None:
            return profile.model_dump(mode="json")
        data = Profile().model_dump(mode="json")
        for question in self.questions:
            if question.default is not None:
                set_path(data, question.path, question.default)
        return data

    def walk(
        self, answers: dict[str, Any], base: dict[str, Any]
    ) -> tuple[list[int], dict[str, Any]]:
        """Which questions apply given ``answers``, and the flat context they produce.

        A question applies when its ``when`` holds over the values before it. An answer to a
        question that no longer applies is ignored, and so, for the questions after it, is
        the value a revised profile gave it: they read the model's default there, as if it
        was never asked (a hidden serving question does not bring up the serving stack).
        A skipped question (UNSAID) is unsaid for the questions after it: no GPU follow-up
        after training hardware left unsaid.
        """
        context = flatten(base)
        unasked = _model_defaults()
        relevant = []
        for index, question in enumerate(self.questions):
            answer = answers.get(question.path)
            shown = question.when.evaluate(context) is True
            if shown:
                relevant.append(index)
            if shown and question.path in answers and answer is not UNSAID:
                context[question.path] = answer
            elif shown and answer is UNSAID:
                # "I do not know": later questions see it unsaid, as the rules will (a
                # condition on it is unknown, so its follow-up is not asked, unless the
                # condition gives its result for an unsaid answer: ``unsaid: true``)
                context.pop(question.path, None)
            elif not shown and question.path in unasked:
                # hidden: later questions read the model's default
                default = unasked[question.path]
                context[question.path] = list(default) if isinstance(default, list) else default
        return relevant, context

    def unasked(self, profile: Profile) -> frozenset[str]:
        """The fields whose questions this profile's own answers would not bring up."""
        relevant, _ = self.walk({}, self.base(profile))
        return frozenset(q.path for i, q in enumerate(self.questions) if i not in relevant)


class _Unsaid:
    """The answer "I do not know": the question was seen, and its field stays unsaid."""

    def __repr__(self) -> str:
        return "UNSAID"


UNSAID: Any = _Unsaid()
SKIP_WORDS = ("skip",)  # what a user types for it


@functools.cache
def _model_defaults() -> dict[str, Any]:
    """Every profile field's default, as a flat path -> value mapping."""
    return flatten(Profile().model_dump(mode="json"))
