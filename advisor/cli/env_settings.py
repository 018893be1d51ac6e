"""The advisor's environment settings, checked before any work: one line and exit 2 for a
value that makes no sense, instead of a probe run that ends only at its timeouts.

ADVISOR_PROBE_TIME_SCALE  a finite number from 0.01 to 100 (scales the probes' time budgets)
ADVISOR_PROBE_TIMEOUT     a finite number of seconds from 1 to 86400 (caps every probe and round)
ADVISOR_PROBE_HIDE        framework ids (or 'all'), comma-separated
ADVISOR_PROBE_FAULT       kind:framework[:probe] items (fault injection, for tests)
ADVISOR_CACHE_DIR         a path (empty means the default folder)
"""

from __future__ import annotations

import errno
import math
import os
import stat
from pathlib import Path

from advisor.cli.output import own_folder_holding
from advisor.frameworks import FRAMEWORKS
from advisor.io.safe_read import os_reason
from advisor.model.errors import InputError
from advisor.model.terminal_text import clip
from probes.run import faults


def check_environment(environ: dict[str, str] | None = None) -> None:
    """Raise an InputError naming the first environment setting that is out of range."""
    from advisor.pipeline import probe_settings  # one source: the probes' own bounds

    env = os.environ if environ is None else environ
    ranges, hide_env = probe_settings()
    for name, (low, high) in ranges.items():
        raw = env.get(name)
        if raw is None or raw.strip() == "":
            continue
        try:  # a plain decimal: Python's float() would also read '1_0' as 10
            value = float(raw) if "_" not in raw else math.nan
        except ValueError:
            value = math.nan
        if not (math.isfinite(value) and low <= value <= high):
            raise InputError(
                f"expected a finite number from {low:g} to {high:g}, got {clip(raw, 40)!r}",
                field=f"${name}",
            )
    hide = env.get(hide_env, "")
    names = {part.strip().lower() for part in hide.split(",") if part.strip()}
    unknown = sorted(names - set(FRAMEWORKS) - {"all"})
    if unknown:
        raise InputError(
            f"unknown framework {clip(unknown[0], 40)!r} (one of {', '.join(FRAMEWORKS)} or all)",
            field=f"${hide_env}",
        )
    fault = faults.problem(env.get(faults.FAULT_ENV))
    if fault:
        raise InputError(clip(fault, 160), field=f"${faults.FAULT_ENV}")
    if environ is None:
        _check_cache_dir()


def _why_never_made(folder: Path) -> str | None:
    """Why no folder can ever be made at ``folder``: it or the nearest existing path above
    it is not a folder (``/dev/null/x``, ``a-file/sub``), a link that loops or a link to
    nothing (``mkdir`` refuses both), or it lies in a kernel view (/proc, /sys); else None."""
    resolved = os.path.realpath(folder)
    for root in ("/proc", "/sys"):
        if resolved == root or resolved.startswith(root + "/"):
            return f"it lies in {root}, a view of the kernel"
    for path in (folder, *folder.parents):
        try:
            os.lstat(path)
        except OSError as exc:  # nothing there yet, or a link above it loops: look above
            if isinstance(exc, (FileNotFoundError, NotADirectoryError)) or exc.errno == errno.ELOOP:
                continue
            return None
        try:
            is_dir = stat.S_ISDIR(os.stat(path).st_mode)
        except FileNotFoundError:
            return f"{clip(str(path), 80)!r} is a link to nothing"
        except OSError as exc:
            if exc.errno == errno.ELOOP:
                return f"{clip(str(path), 80)!r} is a link that loops"
            return None
        return None if is_dir else f"{clip(str(path), 80)!r} is not a folder"
    return None


def _check_cache_dir() -> None:
    """A cache path the system cannot expand (``~nouser/x``, no home folder) is refused."""
    from probes.run.cache import CACHE_ENV, cache_dir

    set_ = [n for n in (CACHE_ENV, "XDG_CACHE_HOME") if os.environ.get(n, "").strip()]
    name = set_[0] if set_ else "HOME"
    try:
        folder = cache_dir()
    except (RuntimeError, KeyError) as exc:
        raise InputError(
            f"the probe cache folder cannot be worked out: {clip(str(exc), 80)}", field=f"${name}"
        ) from None
    empty_home = os.environ.get("HOME", "x").strip() == ""  # '~' then means '/'
    raw = os.environ.get(name, "").strip() if name != "HOME" else ""
    home_unset = empty_home and (name == "HOME" or raw.startswith("~"))
    if home_unset or (name != CACHE_ENV and not folder.is_absolute()):  # an explicit one may be
        why = (
            "is not an absolute path"
            if not home_unset
            else "is empty"
            if name == "HOME"
            else "starts with '~' while $HOME is empty"
        )
        raise InputError(
            f"{why}, so the probe cache folder would be {clip(str(folder), 80)!r}; set it to an "
            "absolute path (or set ADVISOR_CACHE_DIR)",
            field=f"${name}",
        )
    try:
        is_other = not stat.S_ISDIR(os.stat(folder).st_mode)
    except (FileNotFoundError, NotADirectoryError):
        is_other = False  # nothing there yet (or a file above it: _why_never_made says so)
    except OSError as exc:
        if exc.errno != errno.ELOOP:  # a name over 255 bytes, a folder it cannot search
            raise InputError(
                f"the probe cache folder {clip(str(folder), 80)!r}: {os_reason(exc)}",
                field=f"${name}",
            ) from None
        is_other = False  # a link that loops: _why_never_made names it
    if is_other:
        raise InputError(
            f"the probe cache folder {clip(str(folder), 80)!r} exists and is not a folder",
            field=f"${name}",
        )
    never = _why_never_made(folder)
    if never is not None:
        raise InputError(
            f"the probe cache folder {clip(str(folder), 80)!r} can never be made: {never}",
            field=f"${name}",
        )
    own = own_folder_holding(str(folder))
    if own:
        raise InputError(
            f"the probe cache folder {clip(str(folder), 80)!r} lies in the advisor's own code "
            f"or data ({clip(own, 80)}); choose a folder outside it",
            field=f"${name}",
        )
