"""Line numbers as an editor shows them, for positions the YAML parser reports.

YAML 1.1 (PyYAML and libyaml) also ends a line at NEL (U+0085), LINE SEPARATOR (U+2028)
and PARAGRAPH SEPARATOR (U+2029), which editors and ``grep -n`` do not. A parser mark's
``line`` would then point below the line the user must fix. Its ``index`` (a character
offset) does not drift, so every line we report is counted from it: a line ends at
``\\n``, ``\\r\\n`` or a lone ``\\r``, and nowhere else.
"""

from __future__ import annotations

import bisect
import re
from typing import Any

_BREAK = re.compile(r"\r\n|\r|\n")
_YAML_ONLY_BREAK = re.compile("[\x85\u2028\u2029]")
_NAMES = {
    "\x85": "NEL (U+0085)",
    "\u2028": "U+2028 LINE SEPARATOR",
    "\u2029": "U+2029 PARAGRAPH SEPARATOR",
}


class LineIndex:
    """Maps a character offset of one text to its 1-based line."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._starts = [0] + [m.end() for m in _BREAK.finditer(text)]

    def line_of_offset(self, offset: int) -> int:
        """The 1-based line holding character ``offset``."""
        return bisect.bisect_right(self._starts, max(offset, 0))

    def line_of_mark(self, mark: Any) -> int | None:
        """The 1-based line of a PyYAML/libyaml mark (None when there is none)."""
        if mark is None:
            return None
        index = getattr(mark, "index", None)
        if not isinstance(index, int):
            return int(mark.line) + 1
        return self.line_of_offset(index)

    def tab_before(self, mark: Any) -> bool:
        """Whether the line of ``mark`` has a tab at or before the mark's position."""
        index = getattr(mark, "index", None)
        if not isinstance(index, int):
            return False
        start = self._starts[self.line_of_offset(index) - 1]
        return "\t" in self.text[start : index + 1]

    def yaml_only_break(self, mark: Any) -> str | None:
        """A note naming the first NEL/U+2028/U+2029 at or before ``mark``, which YAML 1.1
        reads as a line break where the user sees none (None when there is none)."""
        index = getattr(mark, "index", None)
        end = index + 1 if isinstance(index, int) else len(self.text)
        found = _YAML_ONLY_BREAK.search(self.text, 0, end)
        if found is None:
            return None
        line = self.line_of_offset(found.start())
        return f"line {line} holds {_NAMES[found.group()]}, which YAML reads as a line break"
