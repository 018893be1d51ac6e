"""The escaping and formatting filters behind the report."""

from __future__ import annotations

import re
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from advisor.model.terminal_text import JOINER
from advisor.report.charts import mermaid_bar, mermaid_pie, nice_max
from advisor.report.text import (
    fmt_num,
    fmt_pct,
    html_text,
    md_block,
    md_code,
    md_fence,
    md_inline,
    md_link,
    mermaid_label,
    safe_url,
)

MD = MarkdownIt("commonmark", {"html": True}).enable("table").enable("strikethrough")
# Printable ASCII plus a little Unicode: every Markdown, HTML and template special.
TEXT = st.text(
    alphabet=st.sampled_from(
        list(" !\"#$%&'()*+,-./0123456789:;<=>?@[\\]^_`{|}~abcXYZ\u00e9\u4e2d")
    ),
    max_size=60,
)


def _inline_children(markdown: str) -> list:
    tokens = MD.parse(markdown)
    inline = [t for t in tokens if t.type == "inline"]
    return [c for t in inline for c in t.children or []]


@settings(max_examples=400, deadline=None)
@given(TEXT)
def test_md_inline_round_trips_as_plain_text(text: str) -> None:
    """Escaped text renders as exactly the original characters, with no markup at all."""
    expected = " ".join(text.split())
    escaped = md_inline(text)
    for where in (escaped, f"x {escaped}", f"# {escaped}", f"- {escaped}"):
        children = _inline_children(where)
        assert all(c.type == "text" for c in children), (where, [c.type for c in children])
    block = [t.type for t in MD.parse(escaped)]
    if expected:
        assert block == ["paragraph_open", "inline", "paragraph_close"], (escaped, block)
        shown = "".join(c.content for c in _inline_children(escaped))
        assert shown.replace(JOINER, "") == expected


@settings(max_examples=200, deadline=None)
@given(TEXT)
def test_md_inline_keeps_table_cells(text: str) -> None:
    table = f"| a | b |\n|---|---|\n| {md_inline(text)} | {md_code(text)} |\n"
    tokens = MD.parse(table)
    cells = [t for t in tokens if t.type == "td_open"]
    assert len(cells) == 2
    assert len(re.findall(r"(?<!\\)\|", table.split("\n")[2])) == 3


@settings(max_examples=200, deadline=None)
@given(st.lists(TEXT, max_size=5))
def test_md_block_stays_one_quote(lines: list[str]) -> None:
    text = "\n".join(lines)
    tokens = MD.parse(md_block(text) or ">")
    types = {t.type for t in tokens}
    assert types <= {
        "blockquote_open",
        "blockquote_close",
        "paragraph_open",
        "paragraph_close",
        "inline",
    }


def test_md_block_makes_no_table_of_a_rule_row() -> None:
    """Found by the property above: '|' then ':-' became a table inside the quote."""
    for lines in (["|", ":-"], ["a | b", "--- | ---"], ["|x|", "|:-:|"]):
        types = {t.type for t in MD.parse(md_block("\n".join(lines)))}
        assert not any(t.startswith(("table", "th", "tr", "td")) for t in types), lines


@settings(max_examples=200, deadline=None)
@given(TEXT)
def test_code_span_and_fence_hold_text_verbatim(text: str) -> None:
    children = _inline_children(md_code(text))
    expected = " ".join(text.split())
    if expected.strip():
        assert [c.type for c in children] == ["code_inline"]
        assert children[0].content.strip() == expected.replace("|", "\\|").strip()
    outside = _inline_children(md_code(text, table=False))
    if expected.strip():  # outside a table a pipe stays a pipe: no backslash shows
        assert [c.type for c in outside] == ["code_inline"]
        assert outside[0].content.strip() == expected.strip()
    fenced = md_fence(text + "\n```\n~~~\n" + text, "python")
    tokens = MD.parse(fenced)
    assert [t.type for t in tokens] == ["fence"]


def test_md_inline_examples() -> None:
    assert md_inline("a | b") == "a \\| b"
    assert md_inline("<b>x</b>") == "\\<b>x\\</b>"
    assert md_inline("{{ 7*7 }}") == "\\{\\{ 7\\*7 \\}\\}"
    assert md_inline("{% if x %}") == "\\{\\% if x %\\}"
    assert md_inline("1. item") == "1\\. item"
    assert md_inline("0.1.0") == "0.1.0"
    assert md_inline("PyTorch's >99%") == "PyTorch's >99%"
    assert md_inline("line\nbreak") == "line break"
    assert md_inline(None) == ""
    # an underscore inside a word cannot open emphasis: left as typed
    assert md_inline("aws_trainium torch__xla") == "aws_trainium torch\\_\\_xla"
    assert md_inline("_x_ a_ _b") == "\\_x\\_ a\\_ \\_b"


# GFM's extended autolink triggers: an "http:", "https:", "ftp:", "mailto:" or "xmpp:" URL
# (even glued to a word: "1https://x.y" links) and "www." (even after "_"). GitHub, GitLab
# and most Markdown viewers would turn them into live links in a report someone pastes.
_AUTOLINK_TRIGGER = re.compile(r"(?i)(?:https?|ftp|mailto|xmpp):|www\.")


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            ["https://evil.example/x", "www.evil.com", "HTTP://A.B", "mailto:a@b.c",
             "xmpp:x@y.z", "ftp://f", "_", "1", " ", "a", ":", "."]
        ),
        max_size=6,
    )
)  # fmt: skip
def test_md_inline_leaves_no_bare_autolink(parts: list[str]) -> None:
    """No URL scheme or "www." survives unescaped, so GFM cannot make a link of it."""
    escaped = md_inline("".join(parts))
    unescaped = re.sub(r"\\[:.]", "\x00", escaped)
    assert not _AUTOLINK_TRIGGER.search(unescaped), escaped


def test_md_inline_breaks_autolinks_but_renders_as_typed() -> None:
    assert md_inline("see https://evil.example/x") == "see https\\://evil.example/x"
    assert md_inline("1https://evil.example") == "1https\\://evil.example"
    assert md_inline("WWW.evil.com") == "WWW\\.evil.com"
    # other colons are inert and stay as typed
    assert md_inline("PKG:numpy, ratio 1:2, a: b") == "PKG:numpy, ratio 1:2, a: b"
    for text in ("see https://evil.example/x", "www.evil.com mailto:x@y.z"):
        shown = "".join(c.content for c in _inline_children(md_inline(text)))
        assert shown.replace(JOINER, "") == text


def test_md_inline_stops_mentions_and_email_links_with_an_invisible_joiner() -> None:
    # GFM links e-mail addresses after escapes are resolved and GitHub mentions "@name":
    # a word joiner after the "@" stops both (checked with cmark-gfm: no <a> is made)
    assert md_inline("bob@example.com, cc @octocat") == ("bob@\u2060example.com, cc @\u2060octocat")
    assert md_inline("a @ b, @") == "a @ b, @"  # nothing to link: as typed
    # GFM also links a domain that starts with "_", "-" or "." (round 15)
    assert md_inline("x@_y.z x@-y.z x@.y.z") == "x@\u2060\\_y.z x@\u2060-y.z x@\u2060.y.z"
    assert md_inline("a\u2060@\u2060b") == "a@\u2060b"  # a joiner in the input is dropped


def test_links_only_http() -> None:
    assert safe_url("javascript:alert(1)") == ""
    assert safe_url("https://x.org/a b(c)") == "https://x.org/a%20b%28c%29"
    assert md_link("t", "data:text/html,x") == "t"
    assert md_link("a]b", "https://x.org") == "[a\\]b](https://x.org)"


def test_html_text_encodes_braces_and_tags() -> None:
    assert (
        str(html_text("<i>{{x}}</i>"))
        == "&lt;i&gt;&#123;&#8203;&#123;&#8203;x&#8203;&#125;&#8203;&#125;&lt;/i&gt;"
    )


def test_numbers() -> None:
    assert fmt_num(0.0059) == "0.00590"
    assert fmt_num(155.3) == "155"
    assert fmt_num(15523.4) == "15,523"
    assert fmt_num(2.94) == "2.94"
    assert fmt_num(None) == "n/a"
    assert fmt_num(0) == "0"
    assert fmt_pct(1.0) == "100%" and fmt_pct(0.999) == ">99%" and fmt_pct(0.001) == "<1%"
    assert fmt_pct(0.0) == "0%" and fmt_pct(0.5) == "50%"
    # a possible outcome never rounds to 0% or 100% (1,990 of 2,000 samples)
    assert fmt_pct(0.995) == ">99%" and fmt_pct(0.005) == "<1%" and fmt_pct(0.994) == "99%"


def test_mermaid_labels_cannot_break_out() -> None:
    label = mermaid_label('a"] ; bar [1] %% <b>{x}</b>')
    assert label.startswith('"') and label.endswith('"') and label.count('"') == 2
    assert not set(label[1:-1]) & set('"[]<>{};|`#\\')
    chart = mermaid_bar("T", ['x"]'], [1.5], "y")
    assert chart.splitlines()[1] == "xychart-beta"
    assert '    x-axis ["x"]' in chart
    pie = mermaid_pie("P", ["a", "b"], [70, 0])
    assert '"a" : 70' in pie and '"b"' not in pie
    assert nice_max([155, 156]) == 200 and nice_max([0.5]) == 0.6


def _flip(path: str, old: object, new: object, category: str, kind: str = "answer") -> Any:
    """A Flip to JAX with the fields section 7 reads."""
    from advisor.model.decision import Flip

    return Flip(
        path=path,
        kind=kind,
        category=category,
        from_value=old,
        to_value=new,
        description="",
        cost=1.0,
        new_winner="jax",
    )


def test_a_flip_of_the_situation_reads_as_a_condition() -> None:
    from advisor.report.changes import flip_text

    def flip(path: str, old: object, new: object, category: str = "situation") -> Any:
        return _flip(path, old, new, category)

    assert flip_text(flip("existing_code", ["tf1"], [])) == "if existing_code did not include 'tf1'"
    assert flip_text(flip("existing_code", [], ["jax"])) == "if existing_code included 'jax'"
    assert (
        flip_text(flip("deployment.serving_stack", None, "tf_serving"))
        == "if deployment.serving_stack were tf_serving (the profile does not say)"
    )
    assert flip_text(flip("team.size", 3, 40)) == "if team.size were 40, not 3"
    # a plan is an instruction, not a condition
    assert flip_text(flip("purpose", "research", "production", "plan")) == (
        "change purpose from research to production"
    )


def test_every_hardware_answer_has_a_label() -> None:
    from advisor.model.profile import Hardware
    from advisor.report.labels import HARDWARE_LABELS

    assert set(HARDWARE_LABELS) == {h.value for h in Hardware}


def test_a_list_not_given_is_offered_whole() -> None:
    """Adding to a list the profile does not give means saying the list: the report
    names it whole, default included, so the change can be followed as written."""
    from advisor.model.decision import Flip
    from advisor.report.changes import flip_text

    flip = Flip(
        path="deployment.targets",
        kind="answer",
        category="plan",
        from_value=None,
        to_value=["server", "edge"],
        description="",
        cost=2.0,
        new_winner="pytorch",
        takes_on=True,
    )
    assert flip_text(flip) == (
        "answer deployment.targets: [server, edge] (the profile does not say yet)"
    )


def test_the_answers_a_flip_names_are_explained_from_the_model() -> None:
    """Section 7 says what each answer it names means, in the model's own words, once
    each and in the order named; a priority is already named in words."""
    from advisor.model.profile import Profile
    from advisor.report.changes import field_meanings

    def flip(path: str, kind: str = "answer") -> Any:
        return _flip(path, None, True, "priority" if kind == "priority" else "plan", kind)

    meanings = field_meanings(
        [
            flip("workload.compiled_training_loop"),
            None,
            flip("priorities.raw_performance", "priority"),
            flip("existing_code"),
            flip("workload.compiled_training_loop"),
        ]
    )
    assert [m["path"] for m in meanings] == ["workload.compiled_training_loop", "existing_code"]
    workload = Profile.model_fields["workload"].annotation
    assert meanings[0]["meaning"] == workload.model_fields["compiled_training_loop"].description  # type: ignore[union-attr]
    assert meanings[1]["meaning"] == Profile.model_fields["existing_code"].description


def test_a_flip_says_how_thin_its_win_would_be() -> None:
    """A flip that wins on a decisive fact, by a clear lead, by a near-tie or by a
    tie-break reads differently: a 0.2-point win is not offered like any other."""
    from advisor.report.changes import lead_text

    base = _flip("purpose", "research", "production", "plan")
    assert lead_text(base) == ""  # no rival left standing: no lead to quote
    decisive = base.model_copy(update={"new_lead": 30.2, "new_lead_decisive": True})
    assert lead_text(decisive) == "on a decisive fact"
    clear = base.model_copy(update={"new_lead": 4.5})
    assert lead_text(clear) == "by 4.5 points"
    thin = base.model_copy(update={"new_lead": 0.3, "near_tie": True})
    assert lead_text(thin) == "by only 0.3 points (a near-tie)"
    tied = base.model_copy(update={"new_lead": 0.0, "near_tie": True})
    assert lead_text(tied) == "by less than 0.1 points (a near-tie)"


def test_md_block_renders_a_rule_row_as_typed() -> None:
    """Round 46: '---' came out as '\\---' (md_inline's escape escaped again)."""
    for line in ("---", "- - -", "-", ":-", "--- | ---", "\\-", "\\\\-"):
        html = MD.render(md_block(f"a\n{line}"))
        text = html.replace("<blockquote>", "").replace("</blockquote>", "")
        text = text.replace("<p>", "").replace("</p>", "").strip()
        assert text == f"a\n{line}".replace("&", "&amp;"), (line, html)


def test_md_inline_stops_github_issue_references_and_renders_as_typed() -> None:
    """Round 54: GitHub turns "#123" and "owner/repo#123" into issue references (a
    cross-repository one marks that issue's timeline); a joiner after the "#" stops them."""
    for text in ("see torvalds/linux#1", "issues #12 and #3", "a\\#1"):
        escaped = md_inline(text)
        assert "#" + JOINER in escaped and not re.search(r"#\d", escaped)
        shown = "".join(c.content for c in _inline_children(escaped))
        assert shown.replace(JOINER, "") == text
    assert JOINER not in md_inline("C# and #x and # 5")  # no digit follows: left alone
