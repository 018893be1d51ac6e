"""Refuse hostile YAML shapes from the event stream, before any node is built.

Counts every node the document would have once its aliases are expanded (an alias to
an anchored collection costs the whole collection, including the aliases inside it), and
the text it would hold (an alias to a long string costs the whole string each time),
refuses a list or mapping of more than ``MAX_ENTRIES`` entries, an alias to an anchor
that is still open (``&a [*a]``: a recursive structure
that nothing downstream can walk), a mapping key written as an alias (``*k : v``: its
node, and so its line, is the anchor's, and a reader of the file cannot see which field
it sets), nesting deeper than ``MAX_DEPTH``, and plain
scalars that would become numbers too long to convert. It walks events iteratively,
so its cost is linear in the number of events.
"""

from __future__ import annotations

import re
from typing import Any

import yaml

from advisor.io.safe_read import MAX_BYTES
from advisor.io.text_lines import LineIndex
from advisor.model.errors import InputError

MAX_DEPTH = 64
MAX_NODES = 200_000
MAX_TEXT = MAX_BYTES  # characters of scalar text once aliases are expanded: a file's own limit
MAX_ENTRIES = 10_000  # items of one list or keys of one mapping
MAX_NUMBER_CHARS = 100  # a plain scalar that looks numeric and is longer than this is refused

_NUMERIC = re.compile(r"[-+]?[0-9_.,:]+(?:[eE][-+]?[0-9_]+)?[kKmMbBgGtT]?")


def precheck_events(text: str, name: str, loader: Any) -> dict[tuple[Any, ...], int | None]:
    """Walk the events of ``text``; an InputError for a hostile shape (yaml errors pass
    through). Returns the line of each list item written as an alias, by its path as
    written (``_Places``): a composed document gives an alias the anchor's node, and so the
    anchor's line."""
    places = _Places()
    depth = 0
    nodes = 0
    chars = 0
    anchors: dict[str, tuple[int, int]] = {}  # anchor -> (expanded nodes, expanded text)
    open_anchors: set[str] = set()
    # [anchor, expanded size, nodes in it, nodes per entry, expanded text]
    stack: list[list[Any]] = []
    lines = LineIndex(text)
    lines.check_lone_carriage_returns(name)
    for event in yaml.parse(text, Loader=loader):
        line = lines.line_of_mark(event.start_mark)
        places.follow(event, line)
        if isinstance(event, (yaml.ScalarEvent, yaml.MappingStartEvent, yaml.SequenceStartEvent)):
            _check_tag(event, name, line)
        if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
            depth += 1
            if depth > MAX_DEPTH:
                raise InputError(
                    f"YAML nesting is deeper than {MAX_DEPTH} levels", path=name, line=line
                )
            if event.anchor:
                open_anchors.add(event.anchor)
                anchors.pop(event.anchor, None)  # a redefined anchor is not usable until closed
            _count_entry(stack, name, line)
            per_entry = 2 if isinstance(event, yaml.MappingStartEvent) else 1
            stack.append([event.anchor, 1, 0, per_entry, 0])
            size, weight = 1, 0
        elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
            depth -= 1
            anchor, total, _, _, total_text = stack.pop()
            if anchor:
                open_anchors.discard(anchor)
                anchors[anchor] = (total, total_text)
            if stack:
                stack[-1][1] += total
                stack[-1][4] += total_text
            continue
        elif isinstance(event, yaml.AliasEvent):
            if stack and stack[-1][3] == 2 and stack[-1][2] % 2 == 0:  # a mapping's key
                raise InputError(
                    f"a key written as an alias ('*{event.anchor[:60]}') is not allowed: "
                    "write the key itself",
                    path=name,
                    line=line,
                )
            if event.anchor in open_anchors:
                raise InputError(
                    f"recursive YAML alias '*{event.anchor}' (an anchor that contains itself)",
                    path=name,
                    line=line,
                )
            size, weight = anchors.get(event.anchor, (1, 0))
            _count_entry(stack, name, line)
            if stack:
                stack[-1][1] += size
                stack[-1][4] += weight
        elif isinstance(event, yaml.ScalarEvent):
            _check_scalar(event, name, line)
            _count_entry(stack, name, line)
            size, weight = 1, len(event.value)
            if event.anchor:
                anchors[event.anchor] = (1, weight)
            if stack:
                stack[-1][1] += 1
                stack[-1][4] += weight
        else:
            continue
        nodes += size
        chars += weight
        if chars > MAX_TEXT:
            raise InputError(
                f"YAML expands to too much text (over {MAX_TEXT:,} characters; alias bomb?)",
                path=name,
                line=line,
            )
        if nodes > MAX_NODES:
            raise InputError(
                f"YAML holds too many nodes (over {MAX_NODES:,}, aliases expanded): split "
                "the file, or write out what an alias repeats",
                path=name,
                line=line,
            )
    if lines.hidden:  # rare: only then is the text scanned again, for its quoted texts
        lines.check_hidden_breaks(_quoted_spans(text, loader), name)
    return places.alias_items


MERGE = object()  # a path's step into what a plain '<<' key merges


class _Places:
    """The path of each node as the events arrive (a mapping's keys as written, a list's
    positions, ``MERGE`` for a plain '<<' key), to name where a list item written as an
    alias is: ``alias_items`` maps its path to its line. Where a merged value lands, and
    whether a key beside the merge overrides it, only the composed document shows
    (advisor.io.safe_yaml)."""

    def __init__(self) -> None:
        # one frame per open collection: [its path, is a mapping, next is a key, key, position]
        self.frames: list[list[Any]] = []
        self.alias_items: dict[tuple[Any, ...], int | None] = {}

    def follow(self, event: Any, line: int | None) -> None:
        if isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
            self.frames.pop()
            self._done("(a collection used as a key)")
            return
        if not isinstance(event, yaml.NodeEvent):
            return  # stream and document events
        path = self._path()
        if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
            mapping = isinstance(event, yaml.MappingStartEvent)
            self.frames.append([("(key)",) if path is None else path, mapping, True, None, 0])
            return
        if isinstance(event, yaml.AliasEvent) and path and not self.frames[-1][1]:  # an item
            self.alias_items[path] = line
        plain_merge = (
            isinstance(event, yaml.ScalarEvent) and event.value == "<<" and not event.style
        )
        self._done(MERGE if plain_merge else getattr(event, "value", "(alias)"))

    def _path(self) -> tuple[Any, ...] | None:
        """The path of the node starting now; None for a mapping's key."""
        if not self.frames:
            return ()
        path, mapping, key_next, key, position = self.frames[-1]
        if mapping:
            return None if key_next else (*path, key)
        return (*path, position)

    def _done(self, key: Any) -> None:
        """A node has ended: the next is its mapping's value or key, or the list's next item."""
        if not self.frames:
            return
        frame = self.frames[-1]
        if frame[1]:
            if frame[2]:
                frame[3] = key
            frame[2] = not frame[2]
        else:
            frame[4] += 1


def _quoted_spans(text: str, loader: Any) -> list[tuple[int, int]]:
    """(opening quote, after closing quote) of every quoted scalar, from the scanner's
    tokens: an event's span would start at an anchor and take in a comment before the
    quote."""
    return [
        (token.start_mark.index, token.end_mark.index)
        for token in yaml.scan(text, Loader=loader)
        if isinstance(token, yaml.ScalarToken) and token.style in ("'", '"')
    ]


def _count_entry(stack: list[list[Any]], name: str, line: int | None) -> None:
    """One more node directly in the innermost collection (a mapping counts keys and values)."""
    if stack:
        stack[-1][2] += 1
        if stack[-1][2] > stack[-1][3] * MAX_ENTRIES:
            raise InputError(
                f"a YAML list or mapping has more than {MAX_ENTRIES} entries", path=name, line=line
            )


_STANDARD = "tag:yaml.org,2002:"


def _check_tag(event: Any, name: str, line: int | None) -> None:
    """Refuse every explicit tag (``!!int 0x10``, ``!!timestamp``, ``!!python/...``, ``!x``):
    a profile, rule pack or question file needs none, and tags bypass the number rules."""
    tag = event.tag
    if tag is None:
        return  # no tag: a plain or quoted value, or an untagged list or mapping
    shown = "!!" + tag[len(_STANDARD) :] if tag.startswith(_STANDARD) else tag
    raise InputError(
        f"YAML tag '{shown[:60]}' is not allowed: write the plain value without a tag",
        path=name,
        line=line,
    )


def _check_scalar(event: Any, name: str, line: int | None) -> None:
    """Refuse a plain (unquoted) number too long to convert in bounded time."""
    value = event.value
    plain = event.implicit[0] if event.implicit else False
    if plain and len(value) > MAX_NUMBER_CHARS and _NUMERIC.fullmatch(value):
        raise InputError(
            f"number is too long ({len(value)} characters, limit {MAX_NUMBER_CHARS})",
            path=name,
            line=line,
        )
