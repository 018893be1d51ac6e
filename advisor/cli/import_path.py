"""The working folder off the import path, where PYTHONPATH put it (standard library only:
it runs before the advisor imports click, yaml or anything else a folder could shadow).

An empty or relative entry of ``PYTHONPATH`` names a folder relative to the working folder,
and Python puts it ahead of the installed packages whatever ``-P`` or ``PYTHONSAFEPATH``
says: ``export PYTHONPATH=$PYTHONPATH:/x`` with no PYTHONPATH before gives ``:/x``, whose
empty entry is the working folder, so a ``yaml.py`` beside a downloaded rule pack would be
imported in place of the real module. ``advisor/__main__.py`` drops the entry ``-m`` puts
first; this drops those, for the ``advisor`` command and ``python -m advisor`` alike.
"""

from __future__ import annotations

import os
import sys


def drop_relative_pythonpath() -> None:
    """Remove from ``sys.path`` the entries Python made of PYTHONPATH's empty or relative
    parts (made absolute against the working folder at start-up), except the folder that
    holds the advisor being run (a source checkout named so, whose code the user runs)."""
    raw = os.environ.get("PYTHONPATH", "")
    if not raw or sys.flags.ignore_environment:  # -E and -I: Python did not read it
        return
    own = os.path.dirname(os.path.dirname(os.path.dirname(os.path.realpath(__file__))))
    for part in raw.split(os.pathsep):
        if os.path.isabs(part):
            continue  # named outright: the user's choice, not the working folder's
        try:
            entry = os.path.abspath(part)
            if os.path.realpath(entry) == own:
                continue
        except (OSError, ValueError):  # the working folder is gone: nothing to import there
            continue
        for index, path in enumerate(sys.path):  # the first: PYTHONPATH comes before site
            if path and os.path.normpath(path) == entry:
                del sys.path[index]
                break
