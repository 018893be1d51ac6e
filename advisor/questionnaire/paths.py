"""Path lengths of a question set: how many questions each branch of answers asks."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

from advisor.decide.conditions import (
    All,
    AnyOf,
    Compare,
    Condition,
    Not,
    flatten,
)
from advisor.questionnaire.loader import load_questions
from advisor.questionnaire.spec import (
    AnswerError,
    Question,
    QuestionSet,
)

# --------------------------------------------------------------------------- path lengths


def _atoms(condition: Condition) -> Iterator[Compare]:
    if isinstance(condition, Compare):
        yield condition
    elif isinstance(condition, (All, AnyOf)):
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
    elif question.kind in ("int", "number", "size"):
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
