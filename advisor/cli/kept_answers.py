"""Answers given to the questionnaire survive a failure after it (a custom template that
fails as it renders, an output that cannot be written): they are saved as a profile."""

from __future__ import annotations

import os
from collections.abc import Sequence

from advisor.model.errors import InputError
from advisor.model.profile import Profile

KEPT_NAME = "advisor-answers"
MAX_TRIES = 100


def keep_answers(error: InputError, answers: Profile, packs: Sequence[str]) -> InputError:
    """Save ``answers`` as a new profile file in the working folder (never replacing one,
    never inside a rule pack or the advisor's data) and return ``error`` with where they
    are kept; the error alone if they cannot be saved."""
    from advisor.cli.output import check_destination
    from advisor.io.profile_writer import profile_yaml
    from advisor.io.safe_write import write_atomic

    text = profile_yaml(answers, header="Answers kept by advisor recommend after an error")
    for n in range(1, MAX_TRIES + 1):
        name = f"{KEPT_NAME}.yaml" if n == 1 else f"{KEPT_NAME}-{n}.yaml"
        if os.path.lexists(name):
            continue
        try:
            check_destination(name, packs=packs)  # never into a pack or the advisor's data
            write_atomic(name, text)
        except (InputError, OSError):
            return error
        return InputError(
            f"{error.message}; your answers are kept in {name}: give it as the PROFILE",
            path=error.path,
            line=error.line,
            field=error.field,
        )
    return error
