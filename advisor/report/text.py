"""Make untrusted text inert in Markdown, Mermaid and HTML, and format numbers.

Everything a user or a rule pack supplies (a project name, free-text notes, a rule's
reason, an evidence title) goes through one of these filters before it lands in a
report. The escaped text renders as the same characters it was, but it can no longer
start a link, a table cell, an HTML tag, a code span or a template expression.
"""

from __future__ import annotations

import math
import re
from typing import Any
from urllib.parse import quote

from markupsafe import Markup, escape

from advisor.model.terminal_text import AT_JOINED, INVISIBLE, JOINER

# Backslash-escaped anywhere: every character that can open inline Markdown, HTML, a
# GFM table cell, GitHub math ($) or a template expression ({{ }} for Liquid/Jinja
# pipelines that post-process reports). CommonMark renders "\X" as "X" for these.
_INLINE_SPECIALS = re.compile(r"([\\`*{}\[\]<#|~&$])")
# "_" only where it could open or close emphasis: an underscore between two letters or
# digits (aws_trainium, torch_xla) is inert in CommonMark and stays as typed.
_UNDERSCORE = re.compile(r"(?<![^\W_])_|_(?![^\W_])")
# Characters that only matter at the start of a line (lists, headings, setext rules).
_LINE_START = re.compile(r"^(?:[-+=>]|\d{1,9}(?=[.)](?:\s|$)))")
# Dropped: the terminal's list (one source), except what real text needs (terminals still
# escape them): the zero-width joiner and non-joiner (Persian, Indic scripts, emoji
# sequences), variation selectors (emoji presentation, keycaps, CJK ideograph variants)
# and the braille blank (the space between braille words).
_KEPT_IN_REPORTS = "\u200c\u200d\u2800\ufe00-\ufe0f\U000e0100-\U000e01ef"
_ZERO_WIDTH = re.compile(f"(?![{_KEPT_IN_REPORTS}])[{INVISIBLE}]")
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
# Real text never needs two of those in a row, except a variation selector then a joiner
# (the emoji ZWJ sequence "heart, VS16, ZWJ, fire"); a run of them could carry hidden bytes
# (one per variation selector: 256 of them) in text that looks unchanged, so a run keeps
# only its first character, and a joiner after a first variation selector.
_SELECTORS = "\ufe00-\ufe0f\U000e0100-\U000e01ef"
_RUN = re.compile(f"[\u200c\u200d{_SELECTORS}]{{2,}}")
_SELECTOR = re.compile(f"[{_SELECTORS}]")


def _first_of_run(match: re.Match[str]) -> str:
    run = match.group(0)
    if _SELECTOR.match(run) and run[1] in "\u200c\u200d":
        return run[:2]
    return run[0]


# And a selector only where one means something: an ideographic variation selector after a
# CJK ideograph, none after a Latin letter (keycaps and emoji take one after a digit, "#",
# "*" or a symbol).
_STRAY_SELECTOR = re.compile(
    "(?<![\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003ffff])[\U000e0100-\U000e01ef]"
    "|(?<=[A-Za-z])[\ufe00-\ufe0f]"
)


def _kept_invisibles(text: str) -> str:
    """``text`` with the invisible characters reports keep only where real text uses them."""
    return _STRAY_SELECTOR.sub("", _RUN.sub(_first_of_run, _ZERO_WIDTH.sub("", text)))


# GFM's extended autolinks turn bare text into links: "http:", "https:", "ftp:", "mailto:"
# and "xmpp:" URLs, and "www.". Escaping that ":" or "." stops each trigger and the text
# still renders as typed; any other colon ("PKG:numpy", "ratio 1:2") is left alone.
_AUTOLINK = re.compile(r"(?i)((?:https?|ftp|mailto|xmpp):)|(?<=www)(\.)")
# E-mail addresses are matched after escapes are resolved, and GitHub turns "@name" into a
# mention that notifies that account: only an added character stops them. A word joiner
# (U+2060, invisible, and dropped from input, so every one in a report is ours) goes
# after an "@" that a character of a name or domain follows (a letter, a digit, "_", "-"
# or ".", escaped or not): "bob@\u2060example.com", "@\u2060octocat", "bob@\u2060\\_x.org".
_AT = re.compile(r"@(?=\\?[\w.-])")
# GitHub also turns "#123", "GH-123" and "owner/repo#123" into issue references (a
# cross-repository one adds an entry to that issue's timeline): a joiner after an escaped
# "#", or a "GH-", that a digit follows stops them, and the text still renders as typed.
_ISSUE = re.compile(r"(?<=\\#)(?=\d)|(?i:(?<=\bgh-))(?=\d)")
# And a bare commit SHA (7 to 40 hexadecimal characters, a digit and a letter among them)
# links to that commit: a joiner after its first character stops it.
_SHA = re.compile(
    r"(?i)\b(?<!\u2060)(?=[0-9a-f]{7,40}\b)(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])([0-9a-f])"
)


def _clean(text: Any) -> str:
    """str() the value and drop control and bidi-override characters."""
    value = "" if text is None else str(text)
    value = _CONTROL.sub("", value.replace("\r\n", "\n").replace("\r", "\n").replace("\t", " "))
    return _kept_invisibles(value)


def drop_controls(text: str) -> str:
    """``text`` without control, bidi and invisible characters (newlines and tabs kept)."""
    return _kept_invisibles(_CONTROL.sub("", text))


def md_inline(text: Any) -> str:
    """Escape text for one line of Markdown, including inside a table cell."""
    value = " ".join(_clean(text).split())
    value = _INLINE_SPECIALS.sub(r"\\\1", value).replace("\\{%", "\\{\\%")
    value = _UNDERSCORE.sub(r"\\_", value)
    value = _AUTOLINK.sub(lambda m: m.group(1)[:-1] + "\\:" if m.group(1) else "\\.", value)
    value = _ISSUE.sub(JOINER, _AT.sub(AT_JOINED, value))
    value = _SHA.sub(lambda m: m.group(1) + JOINER, value)
    # A leading "1." or "-" would start a list if this text began a line.
    match = _LINE_START.match(value)
    if match:
        end = match.end()
        if match.group(0)[0].isdigit():  # "1." -> "1\."
            return value[:end] + "\\" + value[end:]
        return "\\" + value
    return value


# a dash after an even run of backslashes (none, or escaped backslashes) is not escaped yet
_UNESCAPED_DASH = re.compile(r"(?<!\\)((?:\\\\)*)-")


def md_block(text: Any, prefix: str = "> ") -> str:
    """Escape multi-line text as a Markdown block, each line prefixed (a quote by default)."""
    lines = _clean(text).strip("\n").split("\n")
    out = []
    for line in lines:
        escaped = md_inline(line)
        if "-" in escaped and not escaped.replace("\\", "").strip("|:- \t"):
            # ':-' under a '|' line: a table's rule row; a dash md_inline escaped stays once
            escaped = _UNESCAPED_DASH.sub(r"\1\\-", escaped)
        out.append((prefix + escaped).rstrip() if escaped else prefix.rstrip())
    return "\n".join(out)


def md_code(text: Any, table: bool = True) -> str:
    """An inline code span that holds ``text`` verbatim, whatever backticks it has.

    Pipes are escaped because GFM splits table cells on them even inside code spans; a
    span outside any table (``|code(table=false)``) keeps them as they are, since there
    the backslash would show.
    """
    value = " ".join(_clean(text).split())
    longest = max((len(run) for run in re.findall(r"`+", value)), default=0)
    ticks = "`" * (longest + 1)
    pad = " " if value.startswith("`") or value.endswith("`") or not value.strip() else ""
    value = value.replace("|", chr(92) + "|") if table else value
    return f"{ticks}{pad}{value}{pad}{ticks}"


def md_fence(text: Any, info: str = "") -> str:
    """A fenced code block that ``text`` cannot close early."""
    value = _clean(text).rstrip("\n")
    longest = max((len(run) for run in re.findall(r"`{3,}", value)), default=0)
    fence = "`" * max(3, longest + 1)
    info = re.sub(r"[^A-Za-z0-9_+-]", "", str(info))
    return f"{fence}{info}\n{value}\n{fence}"


def safe_url(url: Any) -> str:
    """An http(s) URL with the characters that could end a Markdown link percent-encoded.

    Anything that is not http or https becomes an empty string.
    """
    value = _clean(url).strip()
    if not re.match(r"^https?://", value, re.IGNORECASE):
        return ""
    return quote(value, safe="/:?#@!$&'*+,;=%-._~")


def md_link(text: Any, url: Any) -> str:
    """``[text](url)`` with escaped text; plain escaped text if the URL is not http(s)."""
    target = safe_url(url)
    label = md_inline(text)
    return f"[{label}]({target.replace(chr(39), '%27')})" if target else label


def mermaid_label(text: Any) -> str:
    """A double-quoted Mermaid string: quotes, brackets and markup characters removed."""
    value = " ".join(_clean(text).split())
    value = re.sub(r"[\"`<>{}\[\]#;|\\]", "", value)
    return '"' + value[:60] + '"'


# A brace from the data, in HTML. An entity alone is not enough: the browser decodes it,
# and AngularJS or Vue compiling the page would read the DOM's '{{'. A zero-width space
# beside each brace means no two data braces ever touch, in text or attributes alike.
HTML_OPEN, HTML_CLOSE = "&#123;&#8203;", "&#8203;&#125;"


def html_text(text: Any) -> Markup:
    """HTML-escape, and break braces apart so no client-side template sees {{ }}."""
    if isinstance(text, Markup):
        return text
    escaped = str(escape(_clean(text)))
    return Markup(escaped.replace("{", HTML_OPEN).replace("}", HTML_CLOSE))


def fmt_num(value: Any, digits: int = 3) -> str:
    """A readable number: about ``digits`` significant figures, no exponent, separators."""
    if value is None:
        return "n/a"
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return str(value)
    x = float(value)
    if math.isnan(x) or math.isinf(x):
        return str(x)
    if x == 0:
        return "0"
    magnitude = math.floor(math.log10(abs(x)))
    if magnitude >= digits - 1:
        return f"{x:,.0f}"
    decimals = min(digits - 1 - magnitude, 9)
    return f"{x:.{decimals}f}"


def fmt_pct(value: Any) -> str:
    """A probability 0-1 as a percentage; never rounds a possible outcome to 0% or 100%."""
    if value is None:
        return "n/a"
    p = float(value)
    if p <= 0:
        return "0%"
    if p >= 1:
        return "100%"
    text = f"{p * 100:.0f}"
    return {"0": "<1%", "100": ">99%"}.get(text, f"{text}%")


def fmt_duration(seconds: Any) -> str:
    """An age in seconds as '42 s', '12 min', '3.5 h' or '2 days'."""
    if seconds is None:
        return "unknown"
    s = float(seconds)
    if s < 90:
        return f"{s:.0f} s"
    if s < 90 * 60:
        return f"{s / 60:.0f} min"
    if s < 48 * 3600:
        return f"{s / 3600:.1f} h"
    return f"{s / 86400:.0f} days"


MINUS = "\u2212"  # the minus sign of every signed figure in a report


def signed(value: Any) -> str:
    """A weighted score change with its sign, e.g. +2.0 or −1.5 (0 shows as 0)."""
    x = float(value)
    if x == 0:
        return "0"
    return f"+{x:.1f}" if x > 0 else f"{MINUS}{abs(x):.1f}"


MARKDOWN_FILTERS = {
    "md": md_inline,
    "md_block": md_block,
    "code": md_code,
    "fence": md_fence,
    "link": md_link,
    "url": safe_url,
    "mermaid": mermaid_label,
    "num": fmt_num,
    "pct": fmt_pct,
    "duration": fmt_duration,
    "signed": signed,
}

HTML_FILTERS = {
    "h": html_text,
    "url": safe_url,
    "num": fmt_num,
    "pct": fmt_pct,
    "duration": fmt_duration,
    "signed": signed,
}
