"""Hypothesis strategies and checks for hostile inputs: recursive aliases, special files,
long numeric strings, and escape sequences in every string field (targets in
tests/fuzz_targets.py)."""

from __future__ import annotations

import contextlib
import os
import signal
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from advisor.decide.conditions import ConditionError, parse_condition
from advisor.io.safe_yaml import load_yaml_text
from advisor.io.yaml_dump import dump_yaml
from advisor.io.yaml_guard import MAX_NODES
from advisor.model.errors import InputError
from advisor.model.profile import parse_count

RAW_CONTROL_CHARS = {chr(c) for c in [*range(0x00, 0x09), *range(0x0B, 0x20), *range(0x7F, 0xA0)]}
RAW_CONTROL_CHARS |= {chr(c) for c in [*range(0x202A, 0x202F), *range(0x2066, 0x206A)]}


class TooSlow(AssertionError):
    """A check ran past its time bound (a hang or super-linear work)."""


@contextlib.contextmanager
def time_bound(seconds: float) -> Iterator[None]:
    """Fail with TooSlow if the block runs longer than ``seconds`` (wall clock)."""

    def expire(_signum: int, _frame: Any) -> None:
        raise TooSlow(f"ran longer than {seconds} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def has_raw_control(text: str) -> bool:
    return any(ch in RAW_CONTROL_CHARS for ch in text)


# --- Recursive and expanding aliases ----------------------------------------------------

_ANCHORS = ["a", "b", "c"]


def _yaml_node(depth: int) -> st.SearchStrategy[str]:
    alias = st.sampled_from(_ANCHORS).map(lambda a: f"*{a}")
    scalar = st.sampled_from(["1", "x", "nlp", "yes", "~", '"s"'])
    if depth <= 0:
        return st.one_of(scalar, alias)
    child = _yaml_node(depth - 1)
    anchor = st.one_of(st.just(""), st.sampled_from(_ANCHORS).map(lambda a: f"&{a} "))
    seq = st.tuples(anchor, st.lists(child, max_size=6)).map(lambda t: f"{t[0]}[{', '.join(t[1])}]")
    mapping = st.tuples(anchor, st.lists(st.tuples(st.sampled_from("klmn"), child), max_size=4))
    mapping_text = mapping.map(
        lambda t: t[0] + "{" + ", ".join(f"{k}{i}: {v}" for i, (k, v) in enumerate(t[1])) + "}"
    )
    return st.one_of(scalar, alias, seq, mapping_text)


alias_documents = st.lists(
    st.tuples(st.sampled_from(["domains", "team", "x", "y", "z"]), _yaml_node(4)),
    min_size=1,
    max_size=6,
).map(lambda items: "\n".join(f"{k}{i}: {v}" for i, (k, v) in enumerate(items)) + "\n")


def _count_nodes(data: Any, limit: int) -> int:
    """Nodes in plain data, failing on a cycle (a recursive structure must never be built)."""
    count = 0
    stack: list[tuple[Any, frozenset[int]]] = [(data, frozenset())]
    while stack:
        item, open_ids = stack.pop()
        count += 1
        if count > limit:
            return count
        if isinstance(item, (list, dict)):
            assert id(item) not in open_ids, "a recursive structure was built"
            inner = open_ids | {id(item)}
            values = item.values() if isinstance(item, dict) else item
            stack.extend((v, inner) for v in values)
    return count


def check_alias_document(text: str) -> bool:
    """Aliases: data of bounded size without cycles, or an InputError, quickly."""
    with time_bound(5.0):
        try:
            doc = load_yaml_text(text, "fuzz.yaml")
        except InputError as exc:
            assert not has_raw_control(str(exc))
            return False
        assert _count_nodes(doc.data, 2 * MAX_NODES) <= 2 * MAX_NODES
    return True


# --- Special files ----------------------------------------------------------------------

SPECIAL_KINDS = [
    "dev-zero",
    "dev-urandom",
    "dev-null",
    "fifo",
    "directory",
    "dangling",
    "loop",
    "random-bytes",
    "empty-name",
]
READERS = ["profile", "questions", "rules", "template", "text"]


def _make_special(folder: Path, kind: str, payload: bytes) -> str:
    path = folder / "input.yaml"
    if kind == "dev-zero":
        path.symlink_to("/dev/zero")
    elif kind == "dev-urandom":
        path.symlink_to("/dev/urandom")
    elif kind == "dev-null":
        path.symlink_to("/dev/null")
    elif kind == "fifo":
        os.mkfifo(path)
    elif kind == "directory":
        path.mkdir()
        (path / "r.yaml").write_bytes(payload)
    elif kind == "dangling":
        path.symlink_to(folder / "missing")
    elif kind == "loop":
        path.symlink_to(folder / "input.yaml")
    elif kind == "random-bytes":
        path.write_bytes(payload)
    elif kind == "empty-name":
        return ""
    return str(path)


def _read_with(reader: str, path: str) -> None:
    if reader == "profile":
        from advisor.io.profiles import load_profile

        load_profile(path)
    elif reader == "questions":
        from advisor.questionnaire import load_questions

        load_questions(path if path else "")
    elif reader == "rules":
        from advisor.decide.rules import load_ruleset
        from advisor.io.safe_read import input_paths

        load_ruleset(input_paths([path], "--rules"))
    elif reader == "template":
        from advisor.report.template_jail import check_template

        check_template(path, "markdown")
    else:
        from advisor.io.safe_yaml import read_text_file

        read_text_file(path)


def check_special_file(kind: str, reader: str, payload: bytes) -> bool:
    """Any special file with any reader: an InputError or data, never a hang or a crash."""
    with tempfile.TemporaryDirectory() as tmp, time_bound(5.0):
        path = _make_special(Path(tmp), kind, payload)
        try:
            _read_with(reader, path)
        except InputError as exc:
            assert not has_raw_control(str(exc))
            return False
    return True


# --- Long numeric strings ---------------------------------------------------------------

_NUMBER_PARTS = st.sampled_from(["1", "9", "0", ".", "e", "e+", "-", "_", ",", " ", "k", "B"])
long_numbers = st.tuples(
    st.integers(min_value=0, max_value=60_000),
    st.lists(_NUMBER_PARTS, max_size=4),
    st.integers(min_value=0, max_value=2),
    st.text(alphabet="x!#;", max_size=2),
).map(lambda t: "1" * t[0] + "".join(t[1]) + "5" * t[2] + t[3])


def check_long_number(text: str) -> bool:
    """Up to 60,000 characters through parse_count, a profile (quoted and plain) and a rule
    literal, each in linear time (well under a second)."""
    accepted = True
    with time_bound(2.0):
        try:
            parse_count(text)
        except ValueError:
            accepted = False
        for line in (f'model:\n  parameters: "{text}"\n', f"model:\n  parameters: {text}\n"):
            try:
                from advisor.io.profiles import profile_from_document

                profile_from_document(load_yaml_text(line, "fuzz.yaml"))
            except InputError as exc:
                assert len(str(exc)) < 1000 and not has_raw_control(str(exc))
        try:
            parse_condition({"field": "model.parameters", "gte": text})
        except ConditionError as exc:
            assert len(exc.message) < 1000
    return accepted


# --- Escape sequences in every string field ---------------------------------------------

ESCAPES = [
    "\x1b]0;pwned\x07",
    "\x1b[2J\x1b[H",
    "\x1b]8;;http://evil.example/\x1b\\x\x1b]8;;\x1b\\",
    "\x9b31m",
    "\u202e",
    "\u061c",
    "\x07",
    "\r",
    "\x00",
    "\x7f",
]
escaped_text = st.tuples(
    st.text(max_size=8), st.lists(st.sampled_from(ESCAPES), min_size=1, max_size=3)
).map(lambda t: t[1][0] + t[0] + "".join(t[1][1:]))


def _inject(
    data: Any, texts: list[str], *, keys: bool = True, protect: frozenset[str] = frozenset()
) -> Any:
    """Prefix string leaves (and, with ``keys``, replace some keys) with escaped text."""
    counter = iter(range(10**6))

    def walk(item: Any) -> Any:
        if isinstance(item, dict):
            out = {}
            for key, value in item.items():
                n = next(counter)
                new_key = texts[n % len(texts)] if keys and n % 7 == 6 else key
                out[new_key] = value if key in protect else walk(value)
            return out
        if isinstance(item, list):
            return [walk(v) for v in item]
        if isinstance(item, str):
            return texts[next(counter) % len(texts)] + item
        return item

    return walk(data)


def check_escaped_profile(data: dict[str, Any], texts: list[str]) -> bool:
    """A profile with escapes in its strings: the error line or the report is inert."""
    from advisor.decide.engine import decide
    from advisor.decide.rules import load_ruleset
    from advisor.io.profiles import profile_from_document
    from advisor.model.terminal_text import for_terminal
    from advisor.report.render import render_report

    hostile = _inject(data, texts)
    text = dump_yaml(hostile)
    try:
        profile = profile_from_document(load_yaml_text(text, "fuzz.yaml"))
    except InputError as exc:
        assert not has_raw_control(str(exc)) and "\n" not in str(exc)
        return False
    decision = decide(profile, None, _ruleset(load_ruleset), with_sensitivity=False)
    report = render_report(decision, profile, None, fmt="markdown")
    assert not has_raw_control(report.replace("\n", "").replace("\t", ""))
    shown = for_terminal(render_report(decision, profile, None, fmt="json"))
    assert not has_raw_control(shown.replace("\n", "").replace("\t", ""))
    return True


def check_escaped_rule(rule: dict[str, Any], texts: list[str]) -> bool:
    """A rule with escapes in its strings: the error line, `rules list` and `rules show` are
    inert."""
    from pydantic import ValidationError

    from advisor.decide.rules import Rule, load_ruleset
    from advisor.io.validation import input_error_from_validation
    from advisor.model.terminal_text import for_terminal, inert
    from advisor.report.rule_page import rule_markdown

    hostile = _inject(rule, texts, keys=False, protect=_RULE_CODES)
    try:
        parsed = Rule.model_validate(hostile)
    except ValidationError as exc:
        message = str(input_error_from_validation(exc, None, path="fuzz.yaml"))
        assert not has_raw_control(message)
        return False
    ruleset = _ruleset(load_ruleset)
    parsed = parsed.model_copy(update={"condition": None})
    assert not has_raw_control(inert(f"{parsed.id} {parsed.title}"))
    shown = for_terminal(rule_markdown(parsed, ruleset))
    assert not has_raw_control(shown.replace("\n", "").replace("\t", ""))
    return True


# Fields whose values are codes (checked by patterns), not text shown to people.
_RULE_CODES = frozenset(
    {"id", "criterion", "url", "when", "status", "examples", "since", "until", "year"}
)
_CACHE: dict[str, Any] = {}


def _ruleset(load: Any) -> Any:
    if "rules" not in _CACHE:
        _CACHE["rules"] = load([])
    return _CACHE["rules"]


BASE_RULE: dict[str, Any] = {
    "id": "ECO950",
    "title": "A rule for fuzzing",
    "criterion": "ecosystem",
    "when": {"field": "ecosystem.huggingface", "eq": True},
    "effects": {"jax": 1},
    "veto": {"tensorflow": "A veto reason long enough."},
    "why": "Because the fuzzer needs a rule.",
    "evidence": [
        {
            "title": "Source",
            "source": "Tests",
            "year": 2025,
            "url": "https://example.org/x",
            "claim": "A claim long enough to be valid.",
        }
    ],
    "examples": {"fire": [{"ecosystem": {"huggingface": True}}], "ok": [{}]},
    "holds": {
        "since": "2019-10",
        "basis": "A dated release made the claim true.",
        "source": {"title": "Release notes", "url": "https://example.org/y", "year": 2019},
    },
}

_MONTH_LIKE = r"\A(19|20)[0-9]{2}-(0[1-9]|1[0-2])\Z"
_ANY_MONTH = st.one_of(
    st.none(),
    st.from_regex(_MONTH_LIKE),
    st.text(max_size=12),
    st.integers(),
    st.dates(),
    st.booleans(),
    st.floats(allow_nan=True),
    st.lists(st.integers(), max_size=3),
)
_HOSTILE_HOLDS = st.fixed_dictionaries(
    {"since": _ANY_MONTH, "until": _ANY_MONTH},
    optional={
        "basis": st.one_of(st.text(max_size=40), st.integers()),
        "source": st.one_of(
            st.just(BASE_RULE["holds"]["source"]),
            st.dictionaries(st.text(max_size=6), st.one_of(st.text(max_size=10), st.integers())),
        ),
    },
)
_PERIODS = st.one_of(st.none(), st.from_regex(_MONTH_LIKE))
_WELL_FORMED_HOLDS = st.fixed_dictionaries(
    {
        "since": _PERIODS,
        "until": _PERIODS,
        "basis": st.text(min_size=10, max_size=60),
        "source": st.just(BASE_RULE["holds"]["source"]),
    }
)
# Half well formed (valid unless the months are missing or out of order), half hostile.
dated_holds = st.one_of(_WELL_FORMED_HOLDS, _HOSTILE_HOLDS)
any_month = st.from_regex(_MONTH_LIKE)


def check_dated_rule(holds: dict[str, Any], month: str) -> bool:
    """A rule with any ``holds``: refused in one line, or valid and answering for a month."""
    from pydantic import ValidationError

    from advisor.decide.rules import Rule
    from advisor.io.validation import input_error_from_validation

    try:
        parsed = Rule.model_validate({**BASE_RULE, "holds": holds})
    except ValidationError as exc:
        message = str(input_error_from_validation(exc, None, path="fuzz.yaml"))
        assert "\n" not in message and message.startswith("fuzz.yaml")
        return False
    assert parsed.holds is not None
    held = parsed.holds.covers(month)
    assert held == ((parsed.holds.since or "") <= month < (parsed.holds.until or "9999-99"))
    return True
