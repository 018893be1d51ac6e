"""Make text that came from a file inert on a terminal, and keep echoed values short.

A profile key, a question's prompt or a rule's title can hold escape sequences that
set the window title, clear the screen, plant hyperlinks (OSC 8) or reorder text
(bidi overrides). Everything from a file that reaches a terminal goes through
:func:`inert`, which shows each such character as a visible escape (``\\x1b``) instead
of sending it. :func:`clip` keeps an echoed value to one short piece of a line.
"""

from __future__ import annotations

import json
import re
from typing import Any

ECHO_LIMIT = 80  # characters of a file's value echoed in a message
LINE_LIMIT = 600  # characters of one message line, whatever it holds

# Invisible but not harmless: every Default_Ignorable_Code_Point of Unicode (soft hyphen,
# grapheme joiner, Khmer inherent vowels, Mongolian free variation selectors and vowel
# separator, bidi controls, zero-width and invisible operators, the Hangul fillers,
# variation selectors, the BOM, shorthand format controls, musical symbol format
# controls, tag characters and the reserved ranges that may be assigned such characters
# later), plus line/paragraph separators, interlinear annotations and the empty braille
# pattern, all of which can hide text in a line that looks unchanged.
INVISIBLE = (
    "\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u2028-\u202e"
    "\u2060-\u206f\u2800\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufffb\U0001bca0-\U0001bca3"
    "\U0001d173-\U0001d17a\U000e0000-\U000e0fff"
)
# C0 controls (tab and newline included: one line per message), DEL, C1 controls and
# the invisible characters above.
_UNSAFE = re.compile(f"[\x00-\x1f\x7f-\x9f{INVISIBLE}]")


def hides_text(text: str) -> bool:
    """Whether ``text`` holds a control or invisible character (see INVISIBLE)."""
    return _UNSAFE.search(text) is not None


def _visible(match: re.Match[str]) -> str:
    code = ord(match.group(0))
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def _json_escape(match: re.Match[str]) -> str:
    """A JSON string escape: astral characters as their UTF-16 surrogate pair."""
    code = ord(match.group(0))
    if code < 0x10000:
        return f"\\u{code:04x}"
    code -= 0x10000
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


# what a terminal is never sent: the above, and lone surrogates (a file name that is not
# valid UTF-8, read with surrogateescape, would otherwise go out as its raw bytes, C1
# controls such as 0x9b, the 8-bit CSI, among them)
_SHOWN = re.compile(f"[\x00-\x1f\x7f-\x9f{INVISIBLE}\ud800-\udfff]")


def inert(text: Any) -> str:
    """``text`` with every control, bidi and zero-width character, and every lone
    surrogate, shown as an escape."""
    return _SHOWN.sub(_visible, str(text))


def inert_lines(text: Any) -> str:
    """Like :func:`inert`, but keeps newlines (and turns tabs into spaces)."""
    return "\n".join(inert(line.replace("\t", "    ")) for line in str(text).split("\n"))


def clip(text: Any, limit: int = ECHO_LIMIT) -> str:
    """``text`` cut to at most ``limit`` characters, the ellipsis that marks a cut included."""
    value = str(text)
    return value if len(value) <= limit else value[: max(limit - 1, 0)] + "…"


def one_line(text: Any, limit: int = LINE_LIMIT) -> str:
    """Whitespace collapsed, made inert and clipped: safe to print as one line."""
    return clip(inert(" ".join(str(text).split())), limit)


# Markdown reports put a word joiner after an "@" that a letter or digit follows, so that
# GitHub neither mentions the name nor links the e-mail address, and after a "#" that a
# digit follows, so that "owner/repo#1" references no issue (advisor/report/text.py); on
# a terminal, where nothing links, the joiners are left out.
JOINER = "\u2060"  # dropped from input, so every one in a report is the advisor's own
AT_JOINED = "@" + JOINER

_UNSAFE_KEEP_LINES = re.compile(f"[\x00-\x08\x0b-\x1f\x7f-\x9f{INVISIBLE}\ud800-\udfff]")


def for_terminal(text: str) -> str:
    """A whole document made safe for a terminal: newlines and tabs kept, every other
    control shown as ``\\uXXXX`` (which is also a valid escape inside a JSON string)."""
    return _UNSAFE_KEEP_LINES.sub(_json_escape, text)


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def json_document(data: Any) -> str:
    """``data`` as indented JSON, inert in a terminal (see ``for_terminal``). A lone
    surrogate (a file name that is not valid UTF-8, read with surrogateescape) becomes
    the visible text ``\\udcff`` with its backslash escaped, so strict JSON parsers accept
    the file and read back what a terminal showed."""
    text = json.dumps(data, indent=2, ensure_ascii=False)
    return for_terminal(_LONE_SURROGATE.sub(lambda m: f"\\\\u{ord(m.group(0)):04x}", text)) + "\n"
