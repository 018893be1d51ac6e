"""`--template PATH`: a user's template renders in a sandbox, and every failure is exit 2."""

from __future__ import annotations

import html
from pathlib import Path

import pytest

from advisor.decide.engine import decide
from advisor.decide.rules import load_ruleset
from advisor.io.profiles import load_profile
from advisor.model.errors import InputError
from advisor.report.render import POLICY_META, render_report

FIXTURES = Path(__file__).parent / "fixtures"
PROFILE = FIXTURES / "report_injection.yaml"


def _render(template: Path, fmt: str = "markdown") -> str:
    profile = load_profile(str(PROFILE))
    decision = decide(profile, None, load_ruleset([]), with_sensitivity=False)
    return render_report(decision, profile, None, fmt=fmt, template=str(template))


def _template(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "custom.md.j2"
    path.write_text(text, encoding="utf-8")
    return path


def test_custom_template_renders_the_report_data(tmp_path: Path) -> None:
    path = _template(
        tmp_path,
        "# {{ profile.project.name | md }}\n"
        "{{ recommendation.name }} {{ ranking | map(attribute='score') | list | length }}\n"
        "{% for c in report.claims %}{{ c.id }} {% endfor %}\n"
        "{{ report.verdict }}\n",
    )
    out = _render(path)
    assert out.startswith("# Demo \\| \\<b>bold\\</b> \\{\\{ 7\\*7 \\}\\}")
    assert "A-MATMUL A-GRAD A-JIT A-PERF" in out
    assert "Build on " in out


def test_custom_html_template_autoescapes(tmp_path: Path) -> None:
    path = _template(tmp_path, "<h1>{{ profile.project.name }}</h1>\n")
    out = _render(path, fmt="html")
    assert "<b>" not in out and "{{" not in out
    assert "&lt;b&gt;bold&lt;/b&gt;" in out


def test_a_literal_percent_sign_is_not_a_format_width(tmp_path: Path) -> None:
    path = _template(tmp_path, '{{ "%d%% of 20000 samples" % 5 }}\n')
    assert _render(path).strip() == "5% of 20000 samples"


def test_percent_formatting_of_braces_is_fine(tmp_path: Path) -> None:
    path = _template(tmp_path, '{{ "{a: {b: %d}}" % 5 }}\n')
    assert _render(path).strip() == "{a: {b: 5}}"


def test_tilde_follows_the_templates_own_autoescape(tmp_path: Path) -> None:
    path = _template(
        tmp_path, '{% autoescape true %}{{ "<i>" ~ ("<b>" | safe) }}{% endautoescape %}\n'
    )
    assert _render(path).strip() == "&lt;i&gt;<b>"


def test_escaping_in_a_custom_html_template_encodes_braces(tmp_path: Path) -> None:
    """|e, |forceescape and '~' escape the profile's text as the finalizer does: no '{{'
    from the profile reaches the page, however the template escapes it."""
    path = _template(
        tmp_path,
        "{{ profile.project.name|e }}|{{ profile.project.name ~ (''|safe) }}|"
        "{{ profile.project.name|forceescape }}\n",
    )
    out = _render(path, fmt="html")
    assert "{{" not in out and out.count("&#123;&#8203;&#123;&#8203;") == 3


@pytest.mark.parametrize(
    ("source", "inert"),
    [
        ("{{ profile.project.name|tojson }}", "\\u007b\\u007b"),
        ("{{ profile.project.name|pprint }}", "\\u007b\\u007b"),
        ("{{ profile.project.name|urlize }}", "&#123;&#123;"),
        ("{{ {'title': profile.project.name}|xmlattr }}", "&#123;&#123;"),
        ("{{ ('<i>%s</i>'|safe) % profile.project.name }}", "&#123;&#123;"),
        ("{{ ('<i>'|safe) + profile.project.name }}", "&#123;&#123;"),
        ("{{ profile.project.name|urlencode }}", "%7B%7B"),
        ("{{ profile.project.name|upper|wordwrap(20) }}", "&#123;&#123;"),
    ],
)
def test_no_brace_from_the_data_reaches_a_custom_html_page(
    tmp_path: Path, source: str, inert: str
) -> None:
    """Filters that return safe HTML without the report's escaping (tojson, urlize,
    xmlattr, Markup % and +) still cannot put the profile's '{{' on the page."""
    out = _render(_template(tmp_path, source + "\n"), fmt="html")
    assert "{{" not in out and "\ue07b" not in out
    assert inert.replace("&#123;&#123;", "&#123;&#8203;&#123;&#8203;") in out
    # and not once the browser has decoded the entities (what AngularJS or Vue would read)
    assert "{{" not in html.unescape(out)


def test_the_templates_own_braces_and_markdown_output_are_left_alone(tmp_path: Path) -> None:
    path = _template(tmp_path, "{% raw %}{{ x }}{% endraw %} {{ profile.project.name|tojson }}\n")
    assert _render(path, fmt="html").removeprefix(POLICY_META).startswith("{{ x }} ")
    assert "{{ 7*7 }}" in _render(path)  # Markdown: the data as it is


def test_wordwrap_works_and_is_capped(tmp_path: Path) -> None:
    """wordwrap takes the environment first; the width cap keeps that working."""
    assert _render(_template(tmp_path, "{{ 'aaa bbb ccc'|wordwrap(3) }}\n")).split() == [
        "aaa",
        "bbb",
        "ccc",
    ]
    with pytest.raises(InputError, match="wordwrap width"):
        _render(_template(tmp_path, "{{ 'a'|wordwrap(99999) }}\n"))


def test_tilde_in_a_macro_keeps_the_autoescape_of_its_definition(tmp_path: Path) -> None:
    """As Jinja compiles it: the setting where '~' is written, not where it is called."""
    path = _template(
        tmp_path,
        '{% autoescape false %}{% macro m(x) %}{{ x ~ ("<u>"|safe) }}{% endmacro %}'
        '{% autoescape true %}{{ m("<b>") }}{% endautoescape %}{% endautoescape %}\n',
    )
    assert _render(path).strip() == "<b><u>"


def test_tilde_joins_as_jinja_does(tmp_path: Path) -> None:
    """'~' compiles to a capped join that behaves as Jinja's own: safe HTML (a macro's
    output) stays unescaped, other text is escaped, numbers join as text."""
    path = _template(
        tmp_path,
        '{% macro m(x) %}<i>{{ x }}</i>{% endmacro %}{{ m("a") ~ "!" }} {{ "<b>" ~ 1 }}\n',
    )
    assert _render(path, fmt="html").removeprefix(POLICY_META).strip() == "<i>a</i>! &lt;b&gt;1"
    assert _render(path).strip() == "<i>a</i>! <b>1"


@pytest.mark.parametrize(
    ("source", "line", "words"),
    [
        ("{{ ''.__class__.__mro__ }}\n", 1, "sandbox"),
        ("ok\n\n{{ recommendation.__class__ }}\n", 3, "sandbox"),
        ("{{ ranking.__len__() }}\n", 1, "sandbox"),
        ("{{ cycler.__init__.__globals__ }}\n", 1, "sandbox"),
        ("{{ (1).__class__.__base__.__subclasses__() }}\n", 1, "sandbox"),
        ("{{ lipsum.__globals__['os'] }}\n", 1, None),
        ("{{ 'a' * 100000000 }}\n", 1, "sandbox"),
        ("{{ 10 ** 100000000 }}\n", 1, "sandbox"),
        ("line one\n{{ no_such_thing }}\n", 2, "undefined"),
        ("{{ recommendation.no_such_field }}\n", 1, "undefined"),
        ("{% if %}\n", 1, "syntax"),
        ("a\nb\n{% for x in ranking %}\n", None, "syntax"),
        ("{{ 1 / 0 }}\n", 1, "ZeroDivisionError"),
        ('{% include "/etc/passwd" %}\n', 1, "cannot extend, include or import"),
        ('{% extends "report.md.j2" %}\n', 1, "cannot extend, include or import"),
        ('{% import "report.md.j2" as r %}\n', 1, "cannot extend, include or import"),
        ('{% from "x" import y %}\n', 1, "cannot extend, include or import"),
    ],
)
def test_bad_templates_are_input_errors(
    tmp_path: Path, source: str, line: int | None, words: str | None
) -> None:
    path = _template(tmp_path, source)
    with pytest.raises(InputError) as info:
        _render(path)
    err = info.value
    assert err.path == str(path)
    if line is not None:
        assert err.line == line, str(err)
    if words:
        assert words in str(err)
    assert "\n" not in str(err)


def test_missing_and_binary_templates(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no such file"):
        _render(tmp_path / "nope.j2")
    binary = tmp_path / "bin.j2"
    binary.write_bytes(b"\xff\xfe\x00abc")
    with pytest.raises(InputError, match="UTF-8"):
        _render(binary)


def test_template_with_json_is_refused(tmp_path: Path) -> None:
    profile = load_profile(str(PROFILE))
    decision = decide(profile, None, load_ruleset([]), with_sensitivity=False)
    with pytest.raises(InputError, match="--format json"):
        render_report(decision, profile, None, fmt="json", template=str(_template(tmp_path, "x")))


def test_cli_template_errors_exit_2_without_traceback(cli, tmp_path: Path) -> None:
    path = _template(tmp_path, "fine\n{{ ''.__class__ }}\n")
    code, out, err = cli("recommend", str(PROFILE), "--probes", "none", "--template", str(path))
    assert code == 2
    assert f"{path}:2:" in err and "Traceback" not in err + out
    good = _template(tmp_path, "{{ recommendation.framework }}\n")
    code, out, _ = cli("recommend", str(PROFILE), "--probes", "none", "--template", str(good))
    assert code == 0
    assert out.strip() in ("pytorch", "jax", "tensorflow")


def test_control_characters_from_the_data_never_reach_a_custom_report(tmp_path: Path) -> None:
    """A raw {{ name }} in a custom Markdown template used to carry ESC and OSC sequences
    from the profile into the file; the data is made inert before any template sees it."""
    import yaml

    profile = tmp_path / "ctl.yaml"
    profile.write_text(
        yaml.safe_dump({"project": {"name": "a\x1b[31mred\x1b]0;title\x07", "notes": "x\u202ey"}})
    )
    template = _template(tmp_path, "{{ profile.project.name }}|{{ profile.project.notes }}\n")
    decision = decide(load_profile(str(profile)), None, load_ruleset([]), with_sensitivity=False)
    out = render_report(decision, load_profile(str(profile)), None, template=str(template))
    assert out.strip() == "a[31mred]0;title|xy"
