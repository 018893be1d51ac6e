"""Render a Decision as Markdown, HTML or JSON, or through a user's sandboxed template.

The bundled templates in ``templates/`` are trusted; the data is not. Every string a
user or a rule pack supplies reaches the page through an escaping filter (Markdown) or
Jinja's autoescape (HTML). A ``--template`` file is neither trusted nor given a loader:
it renders in a sandbox with a clear InputError for every problem.
"""

from __future__ import annotations

import re
from datetime import date
from html import unescape
from typing import Any

from jinja2 import Environment, FileSystemLoader

from advisor import __version__
from advisor.model.decision import Decision
from advisor.model.errors import InputError
from advisor.model.measurements import ProbeRun
from advisor.model.profile import Profile
from advisor.model.terminal_text import json_document
from advisor.report.context import ReportInput, build_report
from advisor.report.jinja_options import options, report_globals
from advisor.report.knowledge import knowledge
from advisor.report.text import HTML_FILTERS, MARKDOWN_FILTERS, drop_controls
from advisor.resources import data_dir

TEMPLATES = {"markdown": "report.md.j2", "html": "report.html.j2"}


def report_data(
    decision: Decision,
    profile: Profile,
    probe_run: ProbeRun | dict[str, Any] | None,
    *,
    profile_path: str | None = None,
    probe_level: str = "none",
    today: date | None = None,
    rule_dirs: tuple[str, ...] = (),
    python: tuple[str, ...] = (),
) -> dict[str, Any]:
    """The report's content as plain data: the JSON output and the templates' context.

    The contract's keys come first (recommendation, ranking, rules, probes,
    environment, ...); ``report`` holds what the report derives from the typed Decision,
    profile and probe run: the verdict sentence, the measurements, the articles' claims
    checked, the changes that would flip the verdict, and the risks. ``knowledge`` says how
    old the evidence and the package snapshot are; its warning compares them with ``today``
    (default: the clock's date).
    """
    run = probe_run if isinstance(probe_run, ProbeRun) else ProbeRun.from_dict(probe_run)
    data = decision.model_dump(mode="json")
    data.update(
        {
            "advisor_version": __version__,
            "profile": profile.model_dump(mode="json"),
            "profile_path": profile_path,
            "probe_level": probe_level,
            "probes": run.probes,
            "environment": run.environment,
            "probe_cache": run.cache,
            "knowledge": knowledge(decision, today or date.today()),
        }
    )
    data["report"] = build_report(
        ReportInput(
            decision,
            profile,
            run,
            profile_path=profile_path,
            probe_level=probe_level,
            rule_dirs=rule_dirs,
            python=python,
        )
    )
    return data


def render_report(
    decision: Decision,
    profile: Profile,
    probe_run: ProbeRun | dict[str, Any] | None,
    *,
    fmt: str = "markdown",
    template: str | None = None,
    profile_path: str | None = None,
    probe_level: str = "none",
    today: date | None = None,
) -> str:
    """The report in ``fmt`` (markdown, html or json), or rendered by ``template``."""
    data = report_data(
        decision,
        profile,
        probe_run,
        profile_path=profile_path,
        probe_level=probe_level,
        today=today,
    )
    return render_data(data, fmt=fmt, template=template)


def render_data(data: dict[str, Any], *, fmt: str = "markdown", template: str | None = None) -> str:
    """Render ``report_data``'s output in ``fmt``, or with a user's ``template``."""
    if template is not None:
        if fmt == "json":
            raise InputError(
                "--template renders Markdown or HTML; it cannot be combined with --format json",
                field="--template",
            )
        return render_custom_template(template, data, html=fmt == "html")
    if fmt == "json":  # controls and bidi marks as \uXXXX: the same data, inert anywhere
        return json_document(data)
    if fmt not in TEMPLATES:
        raise InputError(f"unknown format '{fmt}' (markdown, html or json)", field="--format")
    env = bundled_environment(html=fmt == "html")
    text = env.get_template(TEMPLATES[fmt]).render(**data)
    return tidy_markdown(text) if fmt == "markdown" else tidy_html(text)


def render_template(name: str, data: dict[str, Any]) -> str:
    """Render a bundled template with ``data`` as its context (Markdown rules)."""
    env = bundled_environment(html=name.endswith(".html.j2"))
    return env.get_template(name).render(**data)


# --- Environments -----------------------------------------------------------------------


def bundled_environment(*, html: bool) -> Environment:
    """The environment for the bundled (trusted) templates."""
    env = Environment(loader=FileSystemLoader(str(data_dir("templates"))), **options(html))
    env.filters.update(HTML_FILTERS if html else MARKDOWN_FILTERS)
    env.globals.update(report_globals())
    return env


# --- Custom templates -------------------------------------------------------------------


def render_custom_template(path: str, data: dict[str, Any], *, html: bool = False) -> str:
    """Render a user's template in the sandbox, in a separate process with hard limits."""
    from advisor.io.safe_yaml import read_text_file
    from advisor.report.template_jail import render_isolated

    text = render_isolated(read_text_file(path), str(path), data, html=html)
    if html and ESCAPE in text:  # before the checks below: it can hide from them too
        raise InputError(
            "its HTML holds an escape character (U+001B), which a browser reading the page "
            "as ISO-2022-JP (a charset the page may declare) takes as a switch to another "
            "character set: the bytes after it, the report's content policy or a "
            '<meta http-equiv="refresh"> among them, would be read as other text, and the '
            "template's scripts would run: remove it",
            path=str(path),
        )
    if html and refreshes(text):
        raise InputError(
            'its HTML holds a <meta http-equiv="refresh">, which opens another page as soon '
            "as the report is opened (with the report's data in its address, if the template "
            "puts it there), and no content policy stops it: remove it",
            path=str(path),
        )
    if html and connects_ahead(text):
        raise InputError(
            'its HTML holds a <link rel="preconnect"> or rel="dns-prefetch", which makes the '
            "browser look up and connect to that host as soon as the report is opened (with "
            "the report's data in the host's name, if the template puts it there), and no "
            "content policy stops it: remove it",
            path=str(path),
        )
    if html:
        return with_policy(text)
    # the template's own text too: an ESC in a downloaded template would reach the terminal
    # of whoever `cat`s the report (the data was cleaned before the render)
    return drop_controls(text.replace("\r\n", "\n").replace("\r", "\n"))


# The bundled HTML report carries the same policy in its <head> (templates/report.html.j2):
# no script runs and nothing is fetched; inline CSS only.
CONTENT_POLICY = "default-src 'none'; style-src 'unsafe-inline'"
POLICY_META = f'<meta http-equiv="Content-Security-Policy" content="{CONTENT_POLICY}">'
# Only HTML's own blanks may come before the doctype: Python's \s also takes \v, NBSP and
# the other Unicode spaces, which a browser reads as text, so the page's body would start
# there and the policy after the doctype would land in it, where a browser ignores it.
_DOCTYPE = re.compile(r"\A(\ufeff?[\t\n\f\r ]*<!doctype[^>]*>)", re.IGNORECASE)


# ISO-2022-JP, which a page may declare (<meta charset>) and a browser may guess, is the one
# encoding a browser offers that reads ASCII bytes as other characters: ESC $ B switches to
# JIS X 0208, where each pair of bytes is one character, and ESC ( B back, itself read as
# nothing. So an escape before the policy turns it into kanji (Chromium then ran the
# template's script), and 're<ESC>(Bfresh' is 'refresh' to the browser, not to the checks.
ESCAPE = "\x1b"


# Every http-equiv a browser could read: the attribute's name is never decoded, so it
# is in the text as written (any case); its value is read as the browser reads it, with
# character references decoded, and blanks and NULs around or inside it are ignored, so
# the check errs only towards refusing (a 'refresh' inside a longer value counts too).
_HTTP_EQUIV = re.compile(
    r"""http-equiv[\t\n\f\r ]*=[\t\n\f\r ]*(?:"([^"]*)"|'([^']*)'|([^\t\n\f\r >]*))""",
    re.IGNORECASE,
)


# Every rel a browser could read, found and read the same way: a <link> whose rel is
# preconnect or dns-prefetch makes the browser resolve the host, and for preconnect open a
# connection to it (its name in the TLS handshake), when the page opens, and no content
# policy governs either (Chromium does both under the report's `default-src 'none'`).
_REL = re.compile(
    r"""rel[\t\n\f\r ]*=[\t\n\f\r ]*(?:"([^"]*)"|'([^']*)'|([^\t\n\f\r >]*))""",
    re.IGNORECASE,
)


def refreshes(html: str) -> bool:
    """Whether a custom template's HTML may hold a ``<meta http-equiv="refresh">``: a
    browser follows it when the page opens, to any address, whatever the content policy
    says (a policy governs what a page fetches, not where it navigates)."""
    return _attribute_says(html, _HTTP_EQUIV, ("refresh",))


def connects_ahead(html: str) -> bool:
    """Whether a custom template's HTML may hold a ``<link rel="preconnect">`` or
    ``rel="dns-prefetch"``: the browser looks the host up (and connects to it) as the page
    opens, whatever the content policy says, so a host named after the report's data would
    carry that data away with no click."""
    return _attribute_says(html, _REL, ("preconnect", "dns-prefetch"))


def _attribute_says(html: str, attribute: re.Pattern[str], words: tuple[str, ...]) -> bool:
    """Whether a value of ``attribute`` holds one of ``words``, read as a browser reads it
    (character references decoded) and with blanks and NULs ignored: errs only towards
    yes."""
    for match in attribute.finditer(html):
        value = next(group for group in match.groups() if group is not None)
        for text in (value, unescape(value)) if "&" in value else (value,):
            flat = re.sub(r"[\s\x00]+", "", text).lower()
            if any(word in flat for word in words):
                return True
    return False


def with_policy(html: str) -> str:
    """A custom HTML template's output with the report's content policy ahead of all its
    own markup (after its doctype, so the page keeps its mode): a template from someone
    else can write a <script> or an <img src="https://..."> that would send the report's
    data away, and the browser runs and fetches neither. A policy the template adds can
    only narrow this one."""
    match = _DOCTYPE.match(html)
    cut = match.end() if match else 0
    return html[:cut] + POLICY_META + html[cut:]


# --- Tidying ----------------------------------------------------------------------------

_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")


def tidy_markdown(text: str) -> str:
    """Drop trailing spaces and runs of blank lines, outside fenced code blocks only."""
    out: list[str] = []
    fence: str | None = None
    blank = 0
    for line in text.split("\n"):
        match = _FENCE.match(line)
        if fence is None:
            line = line.rstrip()
            if match:
                fence = match.group(1)
            if not line:
                blank += 1
                if blank > 1:
                    continue
            else:
                blank = 0
        elif (
            match
            and match.group(1)[0] == fence[0]
            and len(match.group(1)) >= len(fence)
            and not line.strip().strip(fence[0])
        ):
            fence = None
            blank = 0
        out.append(line)
    return "\n".join(out).strip("\n") + "\n"


def tidy_html(text: str) -> str:
    """Drop trailing spaces and blank lines, except inside <pre> blocks."""
    out: list[str] = []
    in_pre = False
    for line in text.split("\n"):
        if in_pre:
            out.append(line)
        elif line.strip():
            out.append(line.rstrip())
        if "<pre" in line:
            in_pre = True
        if "</pre>" in line:
            in_pre = False
    return "\n".join(out).strip("\n") + "\n"
