"""Answers given to the questionnaire survive a failure after it (a custom template that
fails as it renders, an output that cannot be written): they are saved as a profile, in
the working folder or, when it cannot take them (a rule pack, not writable), in the
system's temporary folder, readable by the user alone."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Sequence

from advisor.model.errors import InputError
from advisor.model.profile import Profile

KEPT_NAME = "advisor-answers"
MAX_TRIES = 100


def keep_answers(
    error: InputError, answers: Profile, packs: Sequence[str], command: str = "recommend"
) -> InputError:
    """``error`` led by where ``answers`` are kept (never over a file, never inside a rule
    pack or the advisor's data), or by the news that they could not be kept: first in the
    line, so a long message cut at the line's limit cannot hide it."""
    from advisor.io.profile_writer import profile_yaml

    text = profile_yaml(answers, header=f"Answers kept by advisor {command} after an error")
    for folder, private in ((os.curdir, False), (tempfile.gettempdir(), True)):
        name = _save(text, folder, packs, private=private)
        if name:
            note = f"your answers are kept in {name} (give it as the PROFILE)"
            return _led_by(note, error)
    return _led_by("your answers could not be kept", error)


def _save(text: str, folder: str, packs: Sequence[str], *, private: bool) -> str | None:
    """The first free name of ``folder`` the answers were written to, or None."""
    from advisor.cli.output import check_destination
    from advisor.io.safe_write import write_atomic

    for n in range(1, MAX_TRIES + 1):
        leaf = f"{KEPT_NAME}.yaml" if n == 1 else f"{KEPT_NAME}-{n}.yaml"
        name = leaf if folder == os.curdir else os.path.join(folder, leaf)
        if os.path.lexists(name):
            continue
        try:
            check_destination(name, packs=packs)  # never into a pack or the advisor's data
            write_atomic(name, text, private=private)
        except (InputError, OSError):
            if os.path.lexists(name):
                continue  # taken meanwhile: the next name
            return None
        return name
    return None


def _led_by(note: str, error: InputError) -> InputError:
    return InputError(
        f"{note}; {error.message}", path=error.path, line=error.line, field=error.field
    )
