"""One run of the questionnaire: ask, go back, summarise, revise; then the profile."""

from __future__ import annotations

from typing import Any

from advisor.decide.conditions import get_path
from advisor.model.errors import InputError
from advisor.model.profile import Profile
from advisor.model.said import profile_from_paths, said_paths
from advisor.model.terminal_text import clip
from advisor.questionnaire.loader import load_questions
from advisor.questionnaire.spec import (
    ASCII_NUMBER,
    SKIP_WORDS,
    UNSAID,
    AnswerError,
    Question,
    QuestionSet,
)
from advisor.questionnaire.terminal import QuestionnaireStopped, Terminal

# --------------------------------------------------------------------------- a session


BACK = object()


class Session:
    """One run of the questionnaire: answers given so far, over a base profile."""

    def __init__(self, questions: QuestionSet, base: dict[str, Any], term: Terminal) -> None:
        self.qs = questions
        self.base = base
        self.term = term
        # answers the revised profile gave: kept as said even when no question asks them now
        self.said: frozenset[str] = frozenset()
        self.answers: dict[str, Any] = {}
        self._section = ""

    def current(self, question: Question, context: dict[str, Any]) -> Any:
        """The value Enter keeps: this session's answer, else the base value."""
        return self.answers.get(question.path, context.get(question.path))

    def has_default(self, question: Question) -> bool:
        """A required question has one only once answered, here or in the revised profile."""
        return question.path in self.answers or question.path in self.said or not question.required

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
            if raw.lower() in SKIP_WORDS:
                # red-team round 95: Enter saved the [default] as the user's own answer, with no
                # way to say "I do not know"; skip leaves the field unsaid (a required one must
                # be answered)
                if question.required:
                    term.say("  Invalid answer: this question must be answered")
                    continue
                return UNSAID
            try:
                if raw == "":
                    if default is UNSAID:
                        return UNSAID
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
            if not relevant:
                self.term.say("  (none: no question applies to this profile)")
            width = max((len(self.qs.questions[i].path) for i in relevant), default=0)
            for number, index in enumerate(relevant, 1):
                question = self.qs.questions[index]
                value = question.show(self.current(question, context))
                self.term.say(f"  {number:>2}. {question.path:<{width}}  {value}")
            change = ", a number changes that answer" if relevant else ""
            raw = (
                self.term.read(f"{verb} these answers? Enter or y accepts{change}, n cancels [y]: ")
                .strip()
                .lower()
            )
            if raw in ("", "y", "yes"):
                return
            if raw in ("n", "no", "q", "quit"):
                raise QuestionnaireStopped("cancelled; nothing was written")
            numbers = f" or a number from 1 to {len(relevant)}" if relevant else ""
            if raw == "<" and relevant:
                raw = str(len(relevant))  # back to the last question
            if ASCII_NUMBER.fullmatch(raw) and 1 <= int(raw) <= len(relevant):
                index = relevant[int(raw) - 1]
                self._section = ""
                self.walk(index, ask_all=False, force=index)
                continue
            if raw == "?":
                revise = (
                    f", a number from 1 to {len(relevant)} changes that answer, < goes back "
                    "to the last question"
                    if relevant
                    else ""
                )
                self.term.say(
                    f"  Enter or y {verb.lower()}s these answers{revise}, n cancels "
                    "(nothing is written)."
                )
                continue
            self.term.say(f"  Invalid answer: type y or n{numbers}")

    def profile(self, *, asked: bool = True) -> Profile:
        """The profile these answers produce: the questions asked (``asked``: a person saw
        them), plus what a revised profile said. A question nobody saw leaves its field
        as the revised profile had it, or unsaid (a default is not an answer)."""
        relevant, context = self.qs.walk(self.answers, self.base)
        values = {path: get_path(self.base, path) for path in self.said}
        if asked:  # an answer whose question the new answers hid is dropped, not kept unseen
            for path in self._paths(self.qs.walk({}, self.base)[0]) - self._paths(relevant):
                values.pop(path, None)
        for index in relevant if asked else ():
            path = self.qs.questions[index].path
            if self.answers.get(path) is UNSAID:
                values.pop(path, None)  # "I do not know": unsaid, whatever a revised profile said
                continue
            values[path] = context[path]
        return profile_from_paths(values)

    def _paths(self, indices: list[int]) -> set[str]:
        return {self.qs.questions[i].path for i in indices}


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
    ``defaults`` nothing is asked: every applicable question must have a default that
    passes its checks (else an InputError). Without ``base`` the profile takes every
    default as its answer (a starter profile, ``ask --defaults``); with one it is ``base``
    as it was, its unsaid answers still unsaid (``ask --from P --defaults`` replays P).
    """
    qs = questions or load_questions()
    session = Session(qs, qs.base(base), terminal or Terminal())
    if base is not None:
        session.said = said_paths(base)
    if defaults:
        relevant, context = qs.walk({}, session.base)
        for index in relevant:
            question = qs.questions[index]
            if not session.has_default(question):
                raise InputError(
                    f"question '{clip(question.prompt)}' has no default; answer it interactively "
                    "or give it in a profile with --from PROFILE",
                    path=qs.source,
                    line=question.line,
                    field=question.path,
                )
            if question.path in session.said:
                continue  # the profile's own answer, valid as the model reads it: replayed
            try:
                question.check(context[question.path], context)
            except AnswerError as exc:
                message = f"the answer fails the question's check: {clip(exc)}"
                raise InputError(
                    message, path=qs.source, line=question.line, field=question.path
                ) from None
        return session.profile(asked=base is None)
    relevant, _ = qs.walk({}, session.base)
    term = session.term
    intro = "Revising the profile: its answers are the defaults. " if base is not None else ""
    term.say(f"advisor: {intro}About {len(relevant)} questions; the count adapts to your answers.")
    term.say(
        "Enter keeps the [default], skip leaves a question unsaid if you do not know, "
        "? explains a question, < goes back, Ctrl-C quits."
    )
    session.walk()
    session.summary(verb)
    return session.profile()
