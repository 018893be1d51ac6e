"""The child-to-parent stream: one JSON object per line, appended to a file.

A line is written and flushed as soon as a probe finishes, so a child that dies
later still leaves its completed results behind.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from probes.run.trust import open_regular


class EventWriter:
    """Appends events to the stream file (child side)."""

    def __init__(self, path: str | Path) -> None:
        self._handle = open(path, "a", encoding="utf-8")  # noqa: SIM115 - lives as long as the child

    def emit(self, event: dict[str, Any]) -> None:
        self._handle.write(json.dumps(_clean(event), allow_nan=False) + "\n")
        self._handle.flush()


MAX_LINE = 1 << 20  # bytes: a real event is under 100 KB; a longer line is dropped
MAX_READ = 4 << 20  # bytes read per poll, so memory stays bounded whatever a worker writes


class EventReader:
    """Reads whole new lines from the stream file (parent side); ignores garbage, and a
    line over MAX_LINE bytes (it is dropped up to its newline, never held in memory)."""

    def __init__(self, path: str | Path) -> None:
        self._path = Path(path)
        self._offset = 0
        self._partial = b""
        self._skipping = False  # inside a line that grew past MAX_LINE
        self.behind = False  # the last read was cut at MAX_READ: more is waiting

    def read_new(self) -> list[dict[str, Any]]:
        handle = open_regular(self._path)
        if handle is None:  # missing yet, or swapped for a link, FIFO or device: no events
            self.behind = False
            return []
        try:
            with handle:
                handle.seek(self._offset)
                chunk = handle.read(MAX_READ)
        except OSError:
            self.behind = False
            return []
        self._offset += len(chunk)
        self.behind = len(chunk) == MAX_READ
        if self._skipping:
            end = chunk.find(b"\n")
            if end < 0:
                return []
            chunk, self._skipping = chunk[end + 1 :], False
        lines = (self._partial + chunk).split(b"\n")
        self._partial = lines.pop()
        if len(self._partial) > MAX_LINE:
            self._partial, self._skipping = b"", True
        events = []
        for line in lines:
            if len(line) > MAX_LINE:
                continue
            try:
                event = json.loads(line.decode("utf-8"), parse_constant=_not_json)
            except (UnicodeDecodeError, ValueError, RecursionError):
                continue
            if isinstance(event, dict) and isinstance(event.get("event"), str):
                events.append(event)
        return events


def _not_json(name: str) -> Any:
    """NaN, Infinity and -Infinity are not JSON: a line holding one is garbage."""
    raise ValueError(f"{name} is not JSON")


def _clean(value: Any) -> Any:
    """Make a value strict-JSON: NaN/inf become None, tuples lists, unknown types strings."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, (str, int, bool)) or value is None:
        return value
    if isinstance(value, dict):
        return {str(k): _clean(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_clean(v) for v in value]
    if hasattr(value, "item"):  # numpy and framework scalars
        return _clean(value.item())
    return str(value)
