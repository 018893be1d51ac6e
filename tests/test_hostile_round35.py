"""Red-team round 35: one long key that made a 5 MB file take 29 s to refuse, and items
inside a `<<` merge named at the merged key's line. Each finding, fixed, with the promise
it broke (SECURITY.md: reading a file never exhausts resources; an error names the bad
part's own line)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from pack_support import refusal

from advisor.decide.rules import load_ruleset
from advisor.io.profiles import load_profile
from advisor.io.safe_yaml import load_yaml_text


def test_a_long_key_above_many_keys_costs_no_more_than_a_short_one() -> None:
    """Every key's dotted path was joined in full, long ancestor included, whether or not
    an error needed it: keys times the key's length (a 1 MB key over 90,000 keys, 11 s)."""
    keys = "".join(f"  m{j}:\n" + "".join(f"    k{i}: 1\n" for i in range(9_999)) for j in range(9))
    text = "? " + "a" * 1_000_000 + "\n:\n" + keys
    started = time.perf_counter()
    doc = load_yaml_text(text)
    elapsed = time.perf_counter() - started
    assert len(next(iter(doc.data.values()))) == 9
    assert elapsed < 5, f"{elapsed:.1f} s"


def _profile_refusal(tmp_path: Path, text: str) -> str:
    path = tmp_path / "p.yaml"
    path.write_text(text)
    return refusal(lambda: load_profile(path))


@pytest.mark.parametrize(
    ("text", "line", "fragment"),
    [
        # a repeat inside a merged list: at the repeat, not at `training:`
        ("hardware:\n  <<:\n    training:\n      - cpu\n      - tpu\n      - cpu\n", 6, "twice"),
        # a bad item inside a merged list
        ("hardware:\n  <<:\n    training:\n      - cpu\n      - bogus\n", 5, "bogus"),
        # an alias item inside a merged flow list
        ("hardware:\n  <<: {training: [\n     &c cpu,\n     tpu,\n     *c]}\n", 5, "twice"),
        # a key beside the merge overrides it: its own items are named, not the merged ones
        (
            "hardware:\n  <<: {training: [\n     &c cpu,\n     tpu,\n     *c]}\n"
            "  training:\n    - cpu\n    - bogus\n",
            8,
            "bogus",
        ),
    ],
)
def test_items_inside_a_merge_are_named_at_their_own_line(
    tmp_path: Path, text: str, line: int, fragment: str
) -> None:
    message = _profile_refusal(tmp_path, text)
    assert f"p.yaml:{line}:" in message and fragment in message, message


def test_a_condition_brought_by_a_merge_is_named_at_its_line(tmp_path: Path) -> None:
    pack = tmp_path / "pack"
    pack.mkdir()
    (pack / "r.yaml").write_text(
        "rules:\n"
        "  - id: DEP902\n"
        "    title: A user rule\n"
        "    criterion: deployment\n"
        "    <<:\n"
        "      when:\n"
        "        all:\n"
        "          - {field: deployment.targets, contains: mobile}\n"
        "          - {field: deployment.targets, contains: mobile}\n"
        "    effects: {tensorflow: 1}\n"
        "    why: Because a test needs a rule to break.\n"
        "    evidence:\n"
        "      - {title: A source, source: A publisher, year: 2020, checked: 2026-01-01,\n"
        "         claim: A claim long enough.}\n"
        "    examples:\n"
        "      fire: [{deployment: {targets: [mobile]}}]\n"
        "      ok: [{deployment: {targets: [server]}}]\n"
    )
    message = refusal(lambda: load_ruleset([pack]))
    assert "r.yaml:9:" in message and "the same condition twice" in message, message


# Round 36: the first fix made '<<' transparent in the paths from the events, so an alias
# item of an overridden merged list could take the place (and line) of the key's own item.
@pytest.mark.parametrize(
    ("text", "line"),
    [
        (  # the merge inside a merged mapping brings a list that the key beside it overrides
            "purpose: research\nproject: {name: &n bogus, notes: &m cpu}\n<<:\n  hardware:\n"
            "    training: [nvidia_gpu, *n]\n    <<: {training: [cpu,\n      *m]}\n",
            5,
        ),
        (  # the merge written after the key it loses to, an alias at the same position
            "purpose: research\nproject:\n  name: &n bogus\n  notes: &m vision\n"
            "domains: [nlp, *n]\n<<: {domains: [vision, *m]}\n",
            5,
        ),
    ],
)
def test_an_overridden_merged_alias_never_names_the_keys_own_item(
    tmp_path: Path, text: str, line: int
) -> None:
    message = _profile_refusal(tmp_path, text)
    assert f"p.yaml:{line}:" in message and "'bogus'" in message, message


# Round 37: what a merge holds is checked as what is written beside it.
@pytest.mark.parametrize(
    ("text", "line", "fragment"),
    [
        # a merged key YAML reads as a number: refused at its own line, named as written
        ("project: {name: x}\nteam:\n  size: 3\n  <<: {2.5: x}\n", 4, "reads the key '2.5'"),
        # a merge of an alias to a text: at the '<<', not at the anchor
        ("project:\n  name: &s str\nteam:\n  size: 3\n  <<: *s\n", 5, "merges a mapping"),
        ("domains: &L [nlp]\nteam:\n  size: 3\n  <<: [{}, *L]\n", 4, "merges a mapping"),
        # a plain '<<' where a value belongs is the merge key, not a tag the user wrote
        ("project:\n  name: <<\n", 2, "write it in quotes"),
    ],
)
def test_what_a_merge_holds_is_checked_at_its_line(
    tmp_path: Path, text: str, line: int, fragment: str
) -> None:
    message = _profile_refusal(tmp_path, text)
    assert f"p.yaml:{line}:" in message and fragment in message, message


def test_a_quoted_merge_key_keeps_its_own_item_lines() -> None:
    """An overridden merged value was walked under the quoted '<<' key's own path."""
    doc = load_yaml_text(
        "a:\n  <<: {items: [m1, m2]}\n  items: [own]\n  '<<':\n    items:\n      - q1\n      - q2\n"
    )
    assert doc.lines[("a", "<<", "items", 0)] == 6 and doc.lines[("a", "<<", "items", 1)] == 7


@pytest.mark.parametrize("first", ["{}", "[]"])
def test_a_second_merge_key_is_refused_after_an_empty_merge(tmp_path: Path, first: str) -> None:
    """An empty first merge (`<<: []`) brought no mapping, and the second '<<' was taken."""
    message = _profile_refusal(tmp_path, f"team:\n  <<: {first}\n  <<: {{size: 3}}\n")
    assert "p.yaml:3:" in message and "duplicate key '<<'" in message, message
