"""Line numbers as an editor shows them, for positions the YAML parser reports.

YAML 1.1 (PyYAML and libyaml) also ends a line at NEL (U+0085), LINE SEPARATOR (U+2028)
and PARAGRAPH SEPARATOR (U+2029), which editors, ``grep -n`` and diffs do not. A parser
mark's ``line`` counts them; every line we report subtracts those before the mark's
``index`` (a character offset), so a line ends at ``\\n``, ``\\r\\n`` or a lone ``\\r``
only. Only the offsets of those rare characters are kept (8 bytes each), so a file of
5 MB of ordinary line breaks costs nothing extra.

Outside a quoted text such a character changes what the file means without showing it
(a NEL in a comment starts a new line that holds a key no reviewer sees), so
``check_hidden_breaks`` refuses it there; inside quotes U+2028 and U+2029 are text, and a
raw NEL is refused everywhere (YAML folds it to a space even there).
"""

from __future__ import annotations

import bisect
import re
from array import array
from typing import Any

from advisor.model.errors import InputError

_YAML_ONLY_BREAK = re.compile("[\x85\u2028\u2029]")
_LONE_CR = re.compile("\r(?!\n)")
_NAMES = {
    "\x85": "NEL (U+0085)",
    "\u2028": "U+2028 LINE SEPARATOR",
    "\u2029": "U+2029 PARAGRAPH SEPARATOR",
}


class LineIndex:
    """Maps parser marks of one text to 1-based lines as an editor counts them."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.hidden = array("q", (m.start() for m in _YAML_ONLY_BREAK.finditer(text)))

    def line_of_mark(self, mark: Any) -> int | None:
        """The 1-based line of a PyYAML/libyaml mark (None when there is none)."""
        if mark is None:
            return None
        line = int(mark.line) + 1
        index = getattr(mark, "index", None)
        if not self.hidden or not isinstance(index, int):
            return line
        return max(1, line - bisect.bisect_left(self.hidden, index))

    def line_of_offset(self, offset: int) -> int:
        """The 1-based line holding character ``offset`` (counted from the text)."""
        text = self.text[:offset]
        return text.count("\n") + text.count("\r") - text.count("\r\n") + 1

    def tab_before(self, mark: Any) -> bool:
        """Whether the line of ``mark`` has a tab at or before the mark's position."""
        index = getattr(mark, "index", None)
        if not isinstance(index, int):
            return False
        start = max(self.text.rfind("\n", 0, index), self.text.rfind("\r", 0, index)) + 1
        return "\t" in self.text[start : index + 1]

    def hidden_break_note(self, mark: Any) -> str | None:
        """A note naming the nearest NEL/U+2028/U+2029 at or before ``mark``, which YAML
        1.1 reads as a line break where the user sees none (None when there is none)."""
        index = getattr(mark, "index", None)
        end = index if isinstance(index, int) else len(self.text)
        before = bisect.bisect_right(self.hidden, end) - 1
        if before < 0:
            return None
        offset = self.hidden[before]
        name = _NAMES[self.text[offset]]
        return f"line {self.line_of_offset(offset)} holds {name}, which YAML reads as a line break"

    def check_hidden_breaks(self, quoted: list[tuple[int, int]], path: str) -> None:
        """Refuse a U+2028/U+2029 outside the quoted texts (``quoted``: their (start,
        end) offsets in document order), and a raw NEL anywhere: YAML folds it to a space
        even inside quotes."""
        spans = iter(quoted)
        span = next(spans, None)
        for offset in self.hidden:
            while span is not None and span[1] <= offset:
                span = next(spans, None)
            char = self.text[offset]
            nel = char == "\x85"  # folded to a space even inside quotes
            escaped = self.text[offset - 1 : offset] == "\\"  # "\<LS>" joins two lines
            if nel or escaped or span is None or not span[0] < offset < span[1]:
                escape = f"\\u{ord(char):04x}"
                where = (
                    "in the file"
                    if nel
                    else "after a backslash"
                    if escaped
                    else "outside quoted text"
                )
                raise InputError(
                    f"{_NAMES[char]} {where}: YAML reads it as a line break that editors "
                    "and diffs do not show, so the file would not mean what it shows; remove "
                    f'it, or write it inside double quotes as an escape ("{escape}")',
                    path=path,
                    line=self.line_of_offset(offset),
                )

    def check_lone_carriage_returns(self, path: str) -> None:
        """Refuse a carriage return not followed by a newline in a file whose lines end
        with newlines: YAML ends a line there, but diffs do not show it and a terminal
        returns to the start of the line, so ``cat`` can hide the key before it. A file
        whose lines all end with a lone ``\\r`` (old Mac style) is fine."""
        if "\n" not in self.text:
            return
        found = _LONE_CR.search(self.text)
        if found:
            raise InputError(
                "a carriage return (\\r) not followed by a newline: YAML ends a line there "
                "that diffs do not show and a terminal hides; save the file with one kind "
                "of line ending",
                path=path,
                line=self.line_of_offset(found.start()),
            )
