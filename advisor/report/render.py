"""Render a Decision as Markdown, HTML or JSON, or through a user's sandboxed template.

The bundled templates in ``templates/`` are trusted; the data is not. Every string a
user or a rule pack supplies reaches the page through an escaping filter (Markdown) or
Jinja's autoescape (HTML). A ``--template`` file is neither trusted nor given a loader:
it renders in a sandbox with a clear InputError for every problem.
"""

from __future__ import annotations

import json
import re
import types
from datetime import date
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined, TemplateError, nodes
from jinja2.exceptions import SecurityError, TemplateSyntaxError, UndefinedError
from jinja2.sandbox import SandboxedEnvironment

from advisor import __version__
from advisor.frameworks import DISPLAY_NAMES, FRAMEWORKS
from advisor.model.decision import Decision
from advisor.model.errors import InputError
from advisor.model.measurements import ProbeRun
from advisor.model.profile import Profile
from advisor.report.charts import CHART_GLOBALS
from advisor.report.context import ReportInput, build_report
from advisor.report.knowledge import knowledge
from advisor.report.text import HTML_FILTERS, MARKDOWN_FILTERS, html_text
from advisor.resources import data_dir

TEMPLATES = {"markdown": "report.md.j2", "html": "report.html.j2"}
MAX_SEQUENCE_PRODUCT = 100_000  # sandbox: longest string or list '*' may build
MAX_EXPONENT = 100  # sandbox: largest exponent '**' may take


def report_data(
    decision: Decision,
    profile: Profile,
    probe_run: ProbeRun | dict[str, Any] | None,
    *,
    profile_path: str | None = None,
    probe_level: str = "none",
    today: date | None = None,
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
        ReportInput(decision, profile, run, profile_path=profile_path, probe_level=probe_level)
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
    if fmt == "json":
        return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
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


def _html_finalize(value: Any) -> Any:
    """Autoescape every expression, and encode braces so '{{' never reaches the page."""
    return html_text("" if value is None else value)


def _globals() -> dict[str, Any]:
    return {
        **CHART_GLOBALS,
        "FRAMEWORKS": FRAMEWORKS,
        "DISPLAY_NAMES": DISPLAY_NAMES,
    }


def _options(html: bool) -> dict[str, Any]:
    """The Jinja options every report environment shares."""
    return {
        "undefined": StrictUndefined,
        "autoescape": html,
        "finalize": _html_finalize if html else None,
        "keep_trailing_newline": True,
        "trim_blocks": True,
        "lstrip_blocks": True,
    }


def bundled_environment(*, html: bool) -> Environment:
    """The environment for the bundled (trusted) templates."""
    env = Environment(loader=FileSystemLoader(str(data_dir("templates"))), **_options(html))
    env.filters.update(HTML_FILTERS if html else MARKDOWN_FILTERS)
    env.globals.update(_globals())
    return env


class ReportSandbox(SandboxedEnvironment):
    """Jinja's sandbox, plus limits on '*' and '**' so a template cannot exhaust memory."""

    intercepted_binops = frozenset({"*", "**"})

    def call_binop(self, context: Any, operator: str, left: Any, right: Any) -> Any:
        if operator == "**" and isinstance(right, (int, float)) and abs(right) > MAX_EXPONENT:
            raise SecurityError(f"exponent {right} is too large (limit {MAX_EXPONENT})")
        if operator == "*":
            for seq, count in ((left, right), (right, left)):
                sized = isinstance(seq, (str, list, tuple)) and isinstance(count, int)
                if sized and len(seq) * count > MAX_SEQUENCE_PRODUCT:
                    raise SecurityError(
                        f"'*' would build a sequence of {len(seq) * count} items "
                        f"(limit {MAX_SEQUENCE_PRODUCT})"
                    )
        return super().call_binop(context, operator, left, right)


def sandboxed_environment(*, html: bool) -> ReportSandbox:
    """A loader-less sandbox for user templates, with the report's filters."""
    env = ReportSandbox(loader=None, **_options(html))
    env.filters.update(MARKDOWN_FILTERS)
    env.filters.update(HTML_FILTERS)
    env.globals.update(_globals())
    return env


# --- Custom templates -------------------------------------------------------------------


def render_custom_template(path: str, data: dict[str, Any], *, html: bool = False) -> str:
    """Render a user's template in the sandbox; every failure is an InputError."""
    from advisor.io.safe_yaml import read_text_file

    source = read_text_file(path)
    name = str(path)
    env = sandboxed_environment(html=html)
    try:
        tree = env.parse(source, name=Path(name).name, filename=name)
    except TemplateSyntaxError as exc:
        raise InputError(
            f"template syntax error: {exc.message}", path=name, line=exc.lineno
        ) from None
    for node in tree.find_all((nodes.Extends, nodes.Include, nodes.Import, nodes.FromImport)):
        raise InputError(
            "a custom template cannot extend, include or import other templates; "
            "put everything in this one file",
            path=name,
            line=node.lineno,
        )
    try:
        code = env.compile(tree, name=Path(name).name, filename=name)
        template = env.template_class.from_code(env, code, env.make_globals(None), None)
    except TemplateSyntaxError as exc:
        raise InputError(
            f"template syntax error: {exc.message}", path=name, line=exc.lineno
        ) from None
    try:
        return template.render(**data)
    except InputError:
        raise
    except SecurityError as exc:
        raise InputError(
            f"template blocked by the sandbox: {exc}", path=name, line=_template_line(exc, name)
        ) from None
    except UndefinedError as exc:
        raise InputError(
            f"template uses an undefined value: {exc.message} (see `advisor recommend --format "
            "json` for the available data)",
            path=name,
            line=_template_line(exc, name),
        ) from None
    except TemplateError as exc:
        raise InputError(
            f"template error: {exc.message or exc}", path=name, line=_template_line(exc, name)
        ) from None
    except Exception as exc:  # a user template can fail in any way; never a traceback
        raise InputError(
            f"template failed: {type(exc).__name__}: {exc}",
            path=name,
            line=_template_line(exc, name),
        ) from None


def _template_line(exc: BaseException, filename: str) -> int | None:
    """The template line where ``exc`` was raised, from Jinja's rewritten traceback."""
    line = None
    tb: types.TracebackType | None = exc.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == filename:
            line = tb.tb_lineno
        tb = tb.tb_next
    return line


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
