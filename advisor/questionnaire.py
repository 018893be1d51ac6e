"""The interactive questionnaire: questions declared as data, asked at a terminal.

The questions live in ``questions.yaml`` next to this module, in the spirit of copier's
``copier.yml``. Each one fills a field of the :class:`~advisor.profile.Profile`, and
whatever a question does not spell out (help text, choices, default, validation) is
derived from that field. ``when`` conditions use the rules' condition language
(:mod:`advisor.conditions`) over earlier answers, so only relevant questions are asked.

Prompts go to stderr (the terminal), never to stdout, so a profile or a report printed
to stdout stays clean. Nothing here evaluates strings as code.
"""

from __future__ import annotations

import copy
import difflib
import itertools
import os
import re
import sys
import typing
from collections.abc import Iterator
from dataclasses import dataclass, field
from enum import Enum
from functools import lru_cache
from pathlib import Path
from typing import Any, TextIO

import click
from pydantic import BaseModel, ValidationError
from pydantic.fields import FieldInfo

from advisor.conditions import (
    PROFILE_PATHS,
    All,
    Any_,
    Compare,
    Condition,
    ConditionError,
    Not,
    flatten,
    get_path,
    parse_condition,
    set_path,
)
from advisor.errors import InputError
from advisor.profile import Profile
from advisor.terminal_text import inert
from advisor.yamlio import YamlDocument, dump_yaml, load_yaml_file

QUESTIONS_FILE = Path(__file__).resolve().with_name("questions.yaml")

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
KINDS = ("choice", "multi", "bool", "int", "number", "text")
NONE_WORDS = ("none", "-")


# --------------------------------------------------------------------------- errors


# str.isdigit() accepts '²' and other digits int() refuses: match ASCII digits only.
_ASCII_NUMBER = re.compile(r"[0-9]+")


class AnswerError(ValueError):
    """An answer that does not fit its question; the message is the reason shown."""


class QuestionnaireStopped(click.ClickException):
    """The person stopped the questionnaire (EOF or cancel): one line, exit 1."""

    exit_code = 1

    def show(self, file: Any = None) -> None:
        """Print ``advisor: MESSAGE`` on stderr (click calls this)."""
        click.echo(f"advisor: {self.message}", err=True)


# --------------------------------------------------------------------------- the model side


def _nest(path: str, value: Any) -> dict[str, Any]:
    """``a.b`` and 1 -> ``{"a": {"b": 1}}``."""
    out: Any = value
    for part in reversed(path.split(".")):
        out = {part: out}
    return out


def model_field(path: str) -> tuple[type[BaseModel], FieldInfo]:
    """The model that declares a dotted profile path, and that field's info."""
    model: type[BaseModel] = Profile
    *parents, leaf = path.split(".")
    for part in parents:
        annotation = model.model_fields[part].annotation
        assert isinstance(annotation, type) and issubclass(annotation, BaseModel)
        model = annotation
    return model, model.model_fields[leaf]


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


def _kind(annotation: Any) -> tuple[str, type[Enum] | None]:
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


def _bounds(info: FieldInfo) -> tuple[Any, Any]:
    low = high = None
    for item in info.metadata:
        low = getattr(item, "ge", low)
        high = getattr(item, "le", high)
    return low, high


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

    # -- reading answers

    def parse(self, raw: str) -> Any:
        """Turn typed text into a validated value (JSON form), or raise AnswerError."""
        text = raw.strip()
        if any(ord(char) < 32 or ord(char) == 127 for char in text):
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
        if self.kind == "choice" and re.search(r"[,\s]", token):
            raise AnswerError(f"'{token}': pick just one choice (1 to {len(values)})")
        if _ASCII_NUMBER.fullmatch(token):
            number = int(token)
            if 1 <= number <= len(values):
                return values[number - 1]
            raise AnswerError(f"there is no choice {number}; pick 1 to {len(values)}")
        for value in values:
            if token.lower() == value.lower():
                return value
        hint = difflib.get_close_matches(token.lower(), values, n=1)
        suggestion = f"; did you mean '{hint[0]}'?" if hint else ""
        raise AnswerError(
            f"'{token}' is not a choice{suggestion} (pick a number from 1 to {len(values)} "
            f"or one of: {', '.join(values)})"
        )

    def _pick_many(self, text: str) -> list[str]:
        values = self._values()
        if text.lower() in NONE_WORDS and text.lower() not in values:
            return []
        chosen: set[str] = set()
        for token in filter(None, re.split(r"[,\s]+", text)):
            span = re.fullmatch(r"([0-9]+)-([0-9]+)", token)
            if span:
                first, last = int(span.group(1)), int(span.group(2))
                if not 1 <= first <= last <= len(values):
                    raise AnswerError(f"'{token}' is not a range within 1 to {len(values)}")
                chosen.update(values[first - 1 : last])
            else:
                chosen.add(self._pick(token))
        return [value for value in values if value in chosen]

    # -- showing

    def show(self, value: Any) -> str:
        """A value as the summary and the [default] show it."""
        if self.kind == "multi":
            return ", ".join(value) if value else "none"
        if self.kind == "bool":
            return "yes" if value else "no"
        if self.kind == "number":
            return human_count(value)
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
        if self.kind == "multi":
            lines.append(
                "Type numbers or names separated by commas or spaces (1,3 or 2-4 or "
                "vision nlp); 'none' clears the selection."
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
    raise AnswerError(f"'{text}' is not yes or no; answer y or n")


def human_count(value: Any) -> str:
    """1e8 -> '100M', 7e9 -> '7B'; exact, or the plain number."""
    number = float(value)
    for suffix, scale in (("T", 1e12), ("B", 1e9), ("M", 1e6), ("k", 1e3)):
        if abs(number) >= scale:
            short = f"{number / scale:g}"
            if float(short) * scale == number:
                return short + suffix
            break
    return str(int(number)) if number.is_integer() else repr(number)


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
        question that no longer applies is ignored: its field keeps the base value.
        """
        context = flatten(base)
        relevant = []
        for index, question in enumerate(self.questions):
            if question.when.evaluate(context) is True:
                relevant.append(index)
                if question.path in answers:
                    context[question.path] = answers[question.path]
        return relevant, context


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
    doc = load_yaml_file(path)
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
        question = _load_question(doc, index, raw, questions, section)
        section = question.section
        questions.append(question)

    asked = {q.path for q in questions}
    for key, reason in not_asked.items():
        where = f"not_asked.{key}"
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


def _unknown(key: Any, valid: tuple[str, ...]) -> str:
    hint = difflib.get_close_matches(str(key), valid, n=1)
    return (
        "unknown key"
        + (f"; did you mean '{hint[0]}'?" if hint else "")
        + (f" (valid: {', '.join(valid)})")
    )


def _unknown_field(path: Any) -> str:
    hint = difflib.get_close_matches(str(path), list(PROFILE_PATHS), n=1, cutoff=0.6)
    return f"'{path}' is not a profile field" + (f"; did you mean '{hint[0]}'?" if hint else "")


def _load_question(
    doc: YamlDocument, index: int, raw: Any, earlier: list[Question], section: str
) -> Question:
    """Check one question mapping and build the Question."""
    loc: tuple[Any, ...] = ("questions", index)
    label = f"questions[{index + 1}]"

    def fail(message: str, key: str | None = None) -> InputError:
        where = f"{label}.{key}" if key else label
        return InputError(
            message, path=doc.path, line=doc.line_of((*loc, key) if key else loc), field=where
        )

    if not isinstance(raw, dict):
        raise fail("a question must be a mapping with at least 'field' and 'prompt'")
    for key in raw:
        if key not in QUESTION_KEYS:
            raise fail(_unknown(key, QUESTION_KEYS), str(key))
    path = raw.get("field")
    if path is None:
        raise fail("every question needs 'field', the profile field it fills")
    if path not in PROFILE_PATHS:
        raise fail(_unknown_field(path), "field")
    label = f"{label} ({path})"
    if any(q.path == path for q in earlier):
        raise fail("this field is already asked by an earlier question", "field")
    prompt = raw.get("prompt")
    if not isinstance(prompt, str) or not prompt.strip():
        raise fail("every question needs a 'prompt' (text)", "prompt")
    try:
        kind, enum = _kind(PROFILE_PATHS[path])
    except ValueError as exc:
        raise fail(str(exc), "field") from None
    _, info = model_field(path)

    help_text = raw.get("help", derived_help(path))
    if not isinstance(help_text, str):
        raise fail("'help' must be text", "help")
    new_section = raw.get("section", section)
    if not isinstance(new_section, str):
        raise fail("'section' must be text", "section")

    choices: tuple[tuple[str, str], ...] = ()
    if enum is not None:
        choices = _load_choices(raw.get("choices"), enum, fail)
    elif "choices" in raw:
        raise fail(f"'choices' only applies to enum fields; '{path}' is a {kind} field", "choices")

    required = raw.get("required", False)
    if not isinstance(required, bool):
        raise fail("'required' must be true or false", "required")
    default = None
    if "default" in raw:
        if required:
            raise fail(
                "a required question has no default; drop 'default' or 'required'", "default"
            )
        try:
            default = validate_value(path, raw["default"])
        except AnswerError as exc:
            raise fail(f"invalid default: {exc}", "default") from None

    known = {q.path for q in earlier}
    when = _load_condition(raw.get("when"), known, fail, "when")
    checks = []
    validators = raw.get("validate", [])
    if not isinstance(validators, list):
        raise fail("'validate' must be a list of {require: CONDITION, message: TEXT}", "validate")
    for number, item in enumerate(validators):
        key = f"validate[{number}]"
        if not isinstance(item, dict) or set(item) != {"require", "message"}:
            raise fail("each validator is a mapping with exactly 'require' and 'message'", key)
        if not isinstance(item["message"], str) or not item["message"].strip():
            raise fail("the validator's message must be text", key)
        condition = _load_condition(item["require"], known | {path}, fail, key)
        checks.append(Check(condition, item["message"].strip()))

    return Question(
        path=path,
        prompt=" ".join(prompt.split()),
        help=" ".join(help_text.split()),
        kind=kind,
        choices=choices,
        default=default,
        required=required,
        when=when,
        checks=tuple(checks),
        section=new_section,
        bounds=_bounds(info),
    )


def _load_choices(raw: Any, enum: type[Enum], fail: Any) -> tuple[tuple[str, str], ...]:
    values = [member.value for member in enum]
    if raw is None:
        return tuple((value, "") for value in values)
    if isinstance(raw, list):
        raw = {item: "" for item in raw}
    if not isinstance(raw, dict):
        raise fail("'choices' maps each value to a short explanation", "choices")
    out = []
    for key, text in raw.items():
        if key not in values:
            hint = difflib.get_close_matches(str(key), values, n=1)
            suggestion = f"; did you mean '{hint[0]}'?" if hint else ""
            raise fail(f"'{key}' is not a value of the field{suggestion}", "choices")
        if text is not None and not isinstance(text, str):
            raise fail(f"the explanation of '{key}' must be text", "choices")
        out.append((str(key), " ".join((text or "").split())))
    missing = [v for v in values if v not in raw]
    if missing:
        raise fail(f"'choices' must list every value; missing: {', '.join(missing)}", "choices")
    return tuple(out)


def _load_condition(raw: Any, known: set[str], fail: Any, key: str) -> Condition:
    try:
        condition = parse_condition(raw, key)
    except ConditionError as exc:
        raise fail(exc.message, key) from None
    later = sorted(condition.fields() - known)
    if later:
        raise fail(
            f"refers to {', '.join(later)}, which no earlier question asks; a condition can "
            "only use earlier answers",
            key,
        )
    return condition


# --------------------------------------------------------------------------- the terminal


class Terminal:
    """Where questions are written (stderr) and answers read (stdin)."""

    def __init__(self, stdin: TextIO | None = None, out: TextIO | None = None) -> None:
        self._stdin = stdin
        self._out = out

    @property
    def out(self) -> TextIO:
        return self._out or sys.stderr

    def say(self, text: str = "", *, bold: bool = False) -> None:
        """Write one line (made inert: it can hold text from a question file)."""
        text = inert(text)
        if bold and not os.environ.get("NO_COLOR"):
            text = click.style(text, bold=True)
        click.echo(text, file=self.out)

    def read(self, prompt: str) -> str:
        """Show ``prompt`` and read one line; EOF stops the questionnaire."""
        click.echo(inert(prompt), file=self.out, nl=False)
        stream = self._stdin or sys.stdin
        try:
            line = _read_line(stream)
        except KeyboardInterrupt:
            click.echo("", file=self.out)
            raise
        if not line:
            click.echo("", file=self.out)
            raise QuestionnaireStopped(
                "input ended before the questionnaire was finished; nothing was written"
            )
        return line.rstrip("\r\n")


def _read_line(stream: TextIO) -> str:
    """One line; bytes that are not text become NUL, which every question refuses.

    Reading the bytes line by line (where the stream has them) keeps one bad line
    from swallowing the lines after it.
    """
    buffer = getattr(stream, "buffer", None)
    if buffer is None or not hasattr(buffer, "readline"):
        return stream.readline()
    raw = buffer.readline()
    try:
        return raw.decode(getattr(stream, "encoding", None) or "utf-8")
    except UnicodeDecodeError:
        return "\x00\n"


# --------------------------------------------------------------------------- a session


BACK = object()


class Session:
    """One run of the questionnaire: answers given so far, over a base profile."""

    def __init__(
        self, questions: QuestionSet, base: dict[str, Any], term: Terminal, *, revising: bool
    ) -> None:
        self.qs = questions
        self.base = base
        self.term = term
        self.revising = revising
        self.answers: dict[str, Any] = {}
        self._section = ""

    def current(self, question: Question, context: dict[str, Any]) -> Any:
        """The value Enter keeps: this session's answer, else the base value."""
        return self.answers.get(question.path, context.get(question.path))

    def has_default(self, question: Question) -> bool:
        return question.path in self.answers or self.revising or not question.required

    def walk(self, start: int = 0, *, ask_all: bool = True, force: int | None = None) -> None:
        """Ask the applicable questions from ``start`` on (all, or only unanswered ones)."""
        index = start
        items = self.qs.questions
        while index < len(items):
            relevant, context = self.qs.walk(self.answers, self.base)
            question = items[index]
            pending = ask_all or question.path not in self.answers or index == force
            if index not in relevant or not pending:
                index += 1
                continue
            position = relevant.index(index) + 1
            answer = self.ask(question, position, len(relevant), context)
            if answer is BACK:
                earlier = [i for i in relevant if i < index]
                if not earlier:
                    self.term.say("  (this is the first question)")
                    continue
                index = force = earlier[-1]
                continue
            self.answers[question.path] = answer
            index += 1

    def ask(self, question: Question, position: int, total: int, context: dict[str, Any]) -> Any:
        """Ask one question until a valid answer (or ``<``) comes back."""
        term = self.term
        if question.section and question.section != self._section:
            self._section = question.section
            term.say()
            term.say(f"== {question.section} ==", bold=True)
        term.say()
        term.say(f"Question {position} of {total}  ({question.path})")
        term.say(question.prompt, bold=True)
        width = max((len(v) for v, _ in question.choices), default=0)
        for number, (value, label) in enumerate(question.choices, 1):
            term.say(f"  {number:>2}. {value:<{width}}  {label}".rstrip())
        has_default = self.has_default(question)
        default = self.current(question, context)
        shown = f" [{question.show(default)}]" if has_default else ""
        prompt = f"{question.hint()}{shown}: "
        while True:
            raw = term.read(prompt).strip()
            if raw == "?":
                for line in question.help_lines():
                    term.say(f"  {line}")
                continue
            if raw == "<":
                return BACK
            try:
                if raw == "":
                    if not has_default:
                        raise AnswerError("this question has no default; please answer it")
                    value = default
                else:
                    value = question.parse(raw)
                question.check(value, context)
            except AnswerError as exc:
                term.say(f"  Invalid answer: {exc}")
                continue
            return value

    def summary(self, verb: str) -> None:
        """Show every answer; accept, revise one by number, or cancel."""
        while True:
            relevant, context = self.qs.walk(self.answers, self.base)
            self.term.say()
            self.term.say("Your answers:", bold=True)
            width = max(len(self.qs.questions[i].path) for i in relevant)
            for number, index in enumerate(relevant, 1):
                question = self.qs.questions[index]
                value = question.show(self.current(question, context))
                self.term.say(f"  {number:>2}. {question.path:<{width}}  {value}")
            raw = (
                self.term.read(
                    f"{verb} these answers? Enter or y accepts, a number changes that answer, "
                    "n cancels [y]: "
                )
                .strip()
                .lower()
            )
            if raw in ("", "y", "yes"):
                return
            if raw in ("n", "no", "q", "quit"):
                raise QuestionnaireStopped("cancelled; nothing was written")
            if _ASCII_NUMBER.fullmatch(raw) and 1 <= int(raw) <= len(relevant):
                index = relevant[int(raw) - 1]
                self._section = ""
                self.walk(index, ask_all=False, force=index)
                continue
            self.term.say(f"  Invalid answer: type y, n or a number from 1 to {len(relevant)}")

    def profile(self) -> Profile:
        """The profile these answers produce."""
        relevant, context = self.qs.walk(self.answers, self.base)
        data = copy.deepcopy(self.base)
        for index in relevant:
            path = self.qs.questions[index].path
            set_path(data, path, context[path])
        return Profile.model_validate(data)


def run_questionnaire(
    *,
    base: Profile | None = None,
    defaults: bool = False,
    questions: QuestionSet | None = None,
    terminal: Terminal | None = None,
    verb: str = "Use",
) -> Profile:
    """Ask the questions and return the resulting profile.

    ``base`` is a profile being revised: its values become the defaults. With
    ``defaults`` nothing is asked and every applicable question takes its default; a
    question without one is an InputError.
    """
    qs = questions or load_questions()
    session = Session(qs, qs.base(base), terminal or Terminal(), revising=base is not None)
    if defaults:
        relevant, context = qs.walk({}, session.base)
        for index in relevant:
            question = qs.questions[index]
            if not session.has_default(question):
                raise InputError(
                    f"question '{question.prompt}' has no default; answer it interactively "
                    "or give it in a profile with --from PROFILE",
                    field=question.path,
                )
            try:
                question.check(context[question.path], context)
            except AnswerError as exc:
                raise InputError(str(exc), field=question.path) from None
        return session.profile()
    relevant, _ = qs.walk({}, session.base)
    term = session.term
    intro = "Revising the profile: its answers are the defaults. " if base is not None else ""
    term.say(f"advisor: {intro}About {len(relevant)} questions; the count adapts to your answers.")
    term.say("Enter keeps the [default], ? explains a question, < goes back, Ctrl-C quits.")
    session.walk()
    session.summary(verb)
    return session.profile()


# --------------------------------------------------------------------------- writing


def profile_yaml(profile: Profile, *, header: str | None = None) -> str:
    """The profile as YAML, every field preceded by its help as a comment."""
    lines = [
        f"# {header or 'Project profile for advisor, written by `advisor ask`.'}",
        "# Use it with `advisor recommend FILE`; revise it with `advisor ask --from FILE`.",
        "",
    ]
    _model_lines(Profile, profile.model_dump(mode="json"), 0, lines)
    return "\n".join(lines).rstrip("\n") + "\n"


def _model_lines(model: type[BaseModel], data: dict[str, Any], depth: int, out: list[str]) -> None:
    pad = "  " * depth
    for name, info in model.model_fields.items():
        annotation = info.annotation
        nested = isinstance(annotation, type) and issubclass(annotation, BaseModel)
        if depth == 0 and out and out[-1] != "":
            out.append("")
        if info.description:
            out.append(f"{pad}# {info.description}")
        if nested:
            assert isinstance(annotation, type)
            doc = annotation.__dict__.get("__doc__")
            if doc:
                out.append(f"{pad}# {' '.join(doc.split())}")
            out.append(f"{pad}{name}:")
            _model_lines(annotation, data[name], depth + 1, out)
        else:
            chunk = dump_yaml({name: data[name]}).rstrip("\n").splitlines()
            out.extend(pad + line for line in chunk)


# --------------------------------------------------------------------------- path lengths


def _atoms(condition: Condition) -> Iterator[Compare]:
    if isinstance(condition, Compare):
        yield condition
    elif isinstance(condition, (All, Any_)):
        for part in condition.parts:
            yield from _atoms(part)
    elif isinstance(condition, Not):
        yield from _atoms(condition.part)


def _candidates(question: Question, atoms: list[Compare], context: dict[str, Any]) -> list[Any]:
    """Valid values of a deciding question, one per distinct outcome of the conditions on it."""
    if question.kind == "choice":
        pool: list[Any] = [v for v, _ in question.choices]
    elif question.kind == "multi":
        values = [v for v, _ in question.choices]
        pool = [list(c) for r in range(len(values) + 1) for c in itertools.combinations(values, r)]
    elif question.kind == "bool":
        pool = [True, False]
    elif question.kind in ("int", "number"):
        low, high = question.bounds
        pool = []
        for atom in atoms:
            literals = atom.value if isinstance(atom.value, tuple) else (atom.value,)
            for literal in literals:
                pool.extend(literal + delta for delta in (-1, 0, 1))
        pool = [v for v in pool if (low is None or v >= low) and (high is None or v <= high)]
    else:
        pool = [a.value for a in atoms]
    seen: dict[tuple[Any, ...], Any] = {}
    for value in [context[question.path], *pool]:
        try:
            question.check(value, context)
        except AnswerError:
            continue
        signature = tuple(atom.evaluate({question.path: value}) for atom in atoms)
        seen.setdefault(signature, value)
    return list(seen.values())


def path_lengths(questions: QuestionSet | None = None) -> dict[str, int]:
    """How many questions the all-defaults path asks, and the shortest and longest paths.

    Explores every distinct branch: each answer that a later ``when`` reads is tried with
    one value per distinct outcome of the comparisons on it.
    """
    qs = questions or load_questions()
    deciding: dict[str, list[Compare]] = {}
    for question in qs.questions:
        for atom in _atoms(question.when):
            deciding.setdefault(atom.path, []).append(atom)
    base = qs.base()
    lengths: list[int] = []

    def explore(index: int, context: dict[str, Any], count: int) -> None:
        if index == len(qs.questions):
            lengths.append(count)
            return
        question = qs.questions[index]
        if question.when.evaluate(context) is not True:
            explore(index + 1, context, count)
            return
        if question.path not in deciding:
            explore(index + 1, context, count + 1)
            return
        for value in _candidates(question, deciding[question.path], context):
            explore(index + 1, {**context, question.path: value}, count + 1)

    explore(0, flatten(base), 0)
    default_path = len(qs.walk({}, base)[0])
    return {
        "default": default_path,
        "shortest": min(lengths),
        "longest": max(lengths),
        "questions": len(qs.questions),
    }
