"""SIGTERM and SIGHUP stop the advisor the way Ctrl-C does: cleanly.

CI cancellations and closed terminals send these signals. Their default action ends the
process at once, so no ``finally`` runs: probe workers (each in its own session) would
be left running and temporary folders left behind. Here the first such signal raises
:class:`Stopped` (a KeyboardInterrupt, so every cleanup written for Ctrl-C runs: worker
process groups are killed, temporary folders removed), and the advisor then exits with
``128 + signal``. Further signals during the cleanup are ignored.
"""

from __future__ import annotations

import signal
from typing import Any

SIGNALS = tuple(s for s in (getattr(signal, "SIGTERM", None), getattr(signal, "SIGHUP", None)) if s)


class Stopped(KeyboardInterrupt):
    """The advisor was asked to stop by ``signum``."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum

    @property
    def exit_code(self) -> int:
        return 128 + self.signum

    @property
    def name(self) -> str:
        return signal.Signals(self.signum).name


def _stop(signum: int, _frame: Any) -> None:
    for sig in SIGNALS:  # one clean stop; later signals must not cut the cleanup short
        signal.signal(sig, signal.SIG_IGN)
    raise Stopped(signum)


def install() -> None:
    """Turn SIGTERM and SIGHUP into :class:`Stopped` (main thread only; a no-op elsewhere)."""
    for sig in SIGNALS:
        try:
            if signal.getsignal(sig) is signal.SIG_IGN:
                continue  # started with the signal ignored (nohup): keep it so
            signal.signal(sig, _stop)
        except ValueError:  # not the main thread
            return
