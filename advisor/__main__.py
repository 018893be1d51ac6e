"""Allow ``python -m advisor``."""

import os
import sys


def _drop_working_folder() -> None:
    """What ``python -P`` does: ``-m`` puts the working folder first on ``sys.path``, so a
    ``yaml.py`` or ``json.py`` beside a downloaded rule pack would be imported in place of the
    real module. Kept when the advisor being run is itself the one in that folder (a source
    checkout run without installing), whose code the user runs anyway."""
    if getattr(sys.flags, "safe_path", False) or not sys.path:  # -P (Python 3.11+)
        return
    try:
        cwd = os.path.realpath(os.getcwd())
    except OSError:  # the working folder was removed: nothing there to import
        return
    first = sys.path[0]
    if first != "" and os.path.realpath(first) != cwd:
        return
    own = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
    if own != cwd:
        del sys.path[0]


if __name__ == "__main__":
    _drop_working_folder()
    from advisor.cli import main

    main()
