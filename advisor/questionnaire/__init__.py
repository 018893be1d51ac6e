"""The interactive questionnaire: questions declared as data, asked at a terminal.

The questions live in ``questions.yaml`` in this package, in the spirit of copier's
``copier.yml``. Each one fills a field of the Profile, and whatever a question does not
spell out (help text, choices, default, validation) is derived from that field. ``when``
conditions use the rules' condition language over earlier answers, so only relevant
questions are asked. Prompts go to stderr, never to stdout. Nothing here evaluates
strings as code.

Modules: ``spec`` (what a question is), ``loader`` (the questions file), ``terminal``
(stderr/stdin), ``session`` (one run), ``paths`` (path lengths of a question set).
"""

from advisor.questionnaire.loader import load_questions
from advisor.questionnaire.paths import path_lengths
from advisor.questionnaire.session import Session, run_questionnaire
from advisor.questionnaire.spec import (
    AnswerError,
    Question,
    QuestionSet,
    derived_help,
    human_count,
    model_field,
    validate_value,
)
from advisor.questionnaire.terminal import QuestionnaireStopped, Terminal

__all__ = [
    "AnswerError",
    "Question",
    "QuestionSet",
    "QuestionnaireStopped",
    "Session",
    "Terminal",
    "derived_help",
    "human_count",
    "load_questions",
    "model_field",
    "path_lengths",
    "run_questionnaire",
    "validate_value",
]
