"""Safe YAML reading with line numbers, and atomic writing.

Every file a user hands us (profile, rule pack, questions, answers) comes through
``load_yaml_file``. It never constructs Python objects from tags, refuses alias bombs
and absurd nesting before building anything, and remembers the line of every key so
that validation errors can point at it.
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from advisor.io import safe_read
from advisor.io.text_lines import LineIndex
from advisor.io.yaml_errors import MERGE_TAG, reader_error, yaml_error
from advisor.io.yaml_guard import (  # noqa: F401 (MAX_DEPTH, MAX_NODES re-exported)
    MAX_DEPTH,
    MAX_NODES,
    MERGE,
    precheck_events,
)
from advisor.io.yaml_merges import field_name, landing, merge_sources
from advisor.model.errors import InputError
from advisor.model.field_guards import underflows

MAX_BYTES = safe_read.MAX_BYTES

PathKey = tuple[Any, ...]

# libyaml's C parser when available (about 10x faster); both are safe loaders.
_BaseLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class SafeLoader(_BaseLoader):  # type: ignore[misc,valid-type]
    """The safe loader with decimal numbers only: YAML 1.1's base-60 (``1:00``), octal
    (``010``), binary (``0b101``) and hex (``0x10``) stay the text they look like, so a
    number field refuses them (or reads ``010`` as ten) instead of a silent 60, 8, 5, 16."""


_INT = "tag:yaml.org,2002:int"
_FLOAT = "tag:yaml.org,2002:float"
# Dates stay text too: the models parse them, so '2024-13-45' is an error at its field and
# line (a project named 2024-13-45 is a name), not a constructor failure with neither.
_TIMESTAMP = "tag:yaml.org,2002:timestamp"
_STR = "tag:yaml.org,2002:str"
_VALUE = "tag:yaml.org,2002:value"  # YAML 1.1's '=' scalar, which no constructor builds
SafeLoader.yaml_implicit_resolvers = {
    first: [(tag, rx) for tag, rx in resolvers if tag not in (_INT, _FLOAT, _TIMESTAMP, _VALUE)]
    for first, resolvers in _BaseLoader.yaml_implicit_resolvers.items()
}
SafeLoader.add_implicit_resolver(
    _INT,
    # decimal only (no octal 010, 0b101, 0x10); an underscore only between groups of three
    # digits (1_000_000): '1_5' stays text, which a number field refuses, never a silent 15
    re.compile(r"^[-+]?(?:0|[1-9][0-9]*|[1-9][0-9]{0,2}(?:_[0-9]{3})+)$"),
    list("-+0123456789"),
)
SafeLoader.add_implicit_resolver(
    _FLOAT,
    re.compile(
        r"^(?:[-+]?(?:[0-9]+|[1-9][0-9]{0,2}(?:_[0-9]{3})+)\.[0-9]*(?:[eE][-+][0-9]+)?"
        r"|\.[0-9]+(?:[eE][-+][0-9]+)?"
        # YAML 1.2's exponent without a point ('1e3', '2E-1'), which JSON and the schema
        # read as a number too, so `size: 1e1` is ten wherever the profile is read
        r"|[-+]?[0-9]+(?:\.[0-9]*)?[eE][-+]?[0-9]+"
        r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$"
    ),
    list("-+0123456789."),
)


def _construct_float(loader: yaml.constructor.SafeConstructor, node: yaml.ScalarNode) -> Any:
    """A float, except one that underflows (``1.0e-400`` is not 0, which a field may read as
    'no limit'): that stays the text it is, so its field refuses it at its line."""
    value = loader.construct_yaml_float(node)
    return str(node.value) if underflows(str(node.value)) else value


SafeLoader.add_constructor(_FLOAT, _construct_float)


@dataclass
class YamlDocument:
    """Parsed YAML data plus the line of each key path (1-based)."""

    data: Any
    path: str
    lines: dict[PathKey, int] = field(default_factory=dict)
    # builds ``lines`` on the first lookup (a bundled file's map, which only an error needs)
    lazy_lines: Callable[[], dict[PathKey, int]] | None = field(
        default=None, repr=False, compare=False
    )

    def line_of(self, loc: PathKey) -> int | None:
        """Line of the deepest known prefix of ``loc``. The map records a key as written,
        so a key YAML read as a number (``1: x``) is also looked up as its text."""
        if self.lazy_lines is not None:
            self.lines, self.lazy_lines = self.lazy_lines(), None
        loc = tuple(loc)
        while loc:
            for key in (loc, (*loc[:-1], str(loc[-1]))):
                if key in self.lines:
                    return self.lines[key]
            loc = loc[:-1]
        return self.lines.get((), None)


def read_text_file(path: str | os.PathLike[str]) -> str:
    """Read a UTF-8 text file through the one bounded reader (regular files only, 5 MB)."""
    return safe_read.read_text(path, limit=MAX_BYTES)


def load_yaml_file(path: str | os.PathLike[str]) -> YamlDocument:
    """Read and parse one YAML file safely."""
    return load_yaml_text(read_text_file(path), str(path))


def load_yaml_text(text: str, name: str = "<string>") -> YamlDocument:
    """Parse YAML text safely into plain data with a line map."""
    if "\x00" in text:
        raise InputError("contains NUL bytes; is this a binary file?", path=name)
    text = text.removeprefix("\ufeff")  # libyaml's marks do not count a leading BOM
    alias_items = _precheck_events(text, name)
    loader = SafeLoader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            raise InputError("the file is empty", path=name, line=1)
        index = LineIndex(text)
        lines: dict[PathKey, int] = {(): index.line_of_mark(node.start_mark) or 1}
        landed: dict[PathKey, PathKey | None] = {}  # where merged values land (None: overridden)
        try:
            _collect_lines(node, (), lines, name, index, landed)  # before merges are flattened
        except InputError as exc:  # a rule pack names the item by its id (item_labels)
            exc.document = node
            raise
        for written, line in alias_items.items():  # a list item written as *alias: its line
            where = landing(written, landed)
            if line and where in lines:
                lines[where] = line
        data = loader.construct_document(node)
    except yaml.MarkedYAMLError as exc:
        raise yaml_error(exc, name, text) from None
    except yaml.reader.ReaderError as exc:
        raise reader_error(exc, name, text) from None
    except yaml.YAMLError as exc:
        raise InputError(f"invalid YAML: {exc}", path=name) from None
    except RecursionError:
        raise InputError("YAML nesting is too deep", path=name) from None
    except (ValueError, OverflowError) as exc:  # e.g. an integer too long to convert
        raise InputError(f"a value cannot be read: {exc}", path=name) from None
    finally:
        loader.dispose()
    return YamlDocument(data=data, path=name, lines=lines)


def _precheck_events(text: str, name: str) -> dict[PathKey, int | None]:
    """Refuse hostile shapes (see advisor.io.yaml_guard) before anything is built; the line
    of each list item written as an alias, by its path."""
    try:
        return precheck_events(text, name, SafeLoader)
    except yaml.MarkedYAMLError as exc:
        raise yaml_error(exc, name, text) from None
    except yaml.reader.ReaderError as exc:
        raise reader_error(exc, name, text) from None
    except yaml.YAMLError as exc:
        raise InputError(f"invalid YAML: {exc}", path=name) from None


def _collect_lines(
    node: yaml.Node,
    loc: PathKey,
    lines: dict[PathKey, int],
    name: str,
    text_lines: LineIndex,
    landed: dict[PathKey, PathKey | None] | None = None,
) -> None:
    """Record the line of every key and item (iteratively); refuse duplicate keys. A node
    reached again through an alias is not walked again: paths inside its later uses take
    the line of the key or item that holds the alias (so the map stays the size of the
    file, not of its expansion). A list item written as an alias gets the alias's own line
    from the caller: the composed node is the anchor's, and so is its mark.

    A ``<<`` merge is checked before PyYAML flattens it: a key written next to it overrides
    the merged one (YAML's rule, not a duplicate); a key that two merged mappings both
    bring, and a merged mapping that merges again, are refused, because PyYAML resolves
    both in ways that depend on how Python stores the key's text."""
    todo: list[tuple[yaml.Node, PathKey]] = [(node, loc)]
    seen = 0
    walked: set[int] = set()
    while todo:
        current, where = todo.pop()
        seen += 1
        if seen > MAX_NODES:
            return
        if isinstance(current, yaml.CollectionNode):
            if id(current) in walked:
                continue
            walked.add(id(current))
        children: list[tuple[yaml.Node, PathKey]] = []
        if isinstance(current, yaml.MappingNode):
            seen_keys: set[Any] = set()
            merged: dict[Any, yaml.Node] = {}
            sources: list[tuple[tuple[int, ...], yaml.MappingNode]] = []
            merge_at = -1  # where the '<<' key is among the children; -1: none yet
            for key_node, value_node in current.value:
                key = _key_text(key_node)
                line = text_lines.line_of_mark(key_node.start_mark)
                _check_key_text(key_node, name, line, where)
                if key_node.tag == MERGE_TAG:
                    if merge_at >= 0:
                        raise InputError(
                            "duplicate key '<<'", path=name, line=line, field=field_name(where, key)
                        )
                    found = merge_sources(value_node)
                    if found is None:  # an alias to a text or a list, say
                        raise InputError(
                            "'<<' merges a mapping or a list of mappings (quote '<<' for the text)",
                            path=name,
                            line=line,
                            field=field_name(where, key),
                        )
                    sources, merge_at = found, len(children)
                    for _, source in sources:
                        _merge_keys(source, merged, name, text_lines, (*where, key))
                    continue
                if _key_value(key_node) in seen_keys:
                    raise InputError(
                        f"duplicate key '{key}'", path=name, line=line, field=field_name(where, key)
                    )
                seen_keys.add(_key_value(key_node))
                sub = (*where, key)
                lines.setdefault(sub, line or 1)
                children.append((value_node, sub))
            for key_node in merged.values():  # a merged key takes the line it was written on
                line = text_lines.line_of_mark(key_node.start_mark) or 1
                lines.setdefault((*where, _key_text(key_node)), line)
            # the merged values, walked where the loaded data will hold them (a value a key
            # written beside the merge overrides is walked apart, for its own duplicates)
            kept = [(at, k, v) for at, source in sources for k, v in source.value]
            children[max(merge_at, 0) : max(merge_at, 0)] = [
                (v, (*where, *((MERGE,) if _key_value(k) in seen_keys else ()), _key_text(k)))
                for _, k, v in kept
            ]
            if landed is not None:  # as written, a merged key's path steps through MERGE
                for at, k, _ in kept:
                    lands = None if _key_value(k) in seen_keys else (*where, _key_text(k))
                    written = (*where, MERGE, *at, _key_text(k))
                    landed.setdefault(written, lands)
        elif isinstance(current, yaml.SequenceNode):
            for position, item in enumerate(current.value):
                sub = (*where, position)
                lines.setdefault(sub, text_lines.line_of_mark(item.start_mark) or 1)
                children.append((item, sub))
        todo.extend(reversed(children))  # walked in document order: an anchor before its aliases


def _key_text(node: yaml.Node) -> str:
    """A key as the user wrote it (a list or mapping used as a key is named, not dumped)."""
    if isinstance(node, yaml.ScalarNode):
        return str(node.value)
    kind = "a list" if isinstance(node, yaml.SequenceNode) else "a mapping"
    return f"({kind} used as a key, at offset {node.start_mark.index})"  # never equal to another


_BOOL = "tag:yaml.org,2002:bool"
_NULL = "tag:yaml.org,2002:null"
# keys no input has: a profile's, a pack's and a question file's keys are all text
_NOT_TEXT = {_BOOL: "a boolean", _NULL: "null", _INT: "a number", _FLOAT: "a number"}
_SPECIAL_FLOATS = {".inf": math.inf, "+.inf": math.inf, "-.inf": -math.inf, ".nan": math.nan}


def _key_value(node: yaml.Node) -> Any:
    """A key as the loaded mapping will hold it, so spellings of one value (``1`` and
    ``1.0``, ``yes`` and ``on``, ``~`` and ``null``) are one key, as PyYAML's dict makes
    them; texts stay texts. Lists and mappings used as keys are never equal."""
    if not isinstance(node, yaml.ScalarNode) or node.tag == _STR:
        return _key_text(node)
    text = str(node.value).replace("_", "")
    if node.tag == _BOOL:
        return text.lower() in ("yes", "true", "on")
    if node.tag == _NULL:
        return None
    if node.tag == _INT:
        return int(text)
    if node.tag == _FLOAT:
        value = _SPECIAL_FLOATS.get(text.lower()) or float(text)
        # an underflowing float is kept as its text by the loader (_construct_float)
        return str(node.value) if underflows(str(node.value)) else value
    return _key_text(node)


def _check_key_text(key_node: yaml.Node, name: str, line: int | None, where: PathKey) -> None:
    """A key YAML reads as a boolean, null or number is refused at its own line, named as
    written (in a merged mapping too)."""
    if isinstance(key_node, yaml.ScalarNode) and key_node.tag in _NOT_TEXT:
        key = _key_text(key_node)
        raise InputError(
            f"Keys should be strings: YAML reads the key {key!r} as "
            f"{_NOT_TEXT[key_node.tag]}; quote it if it is meant as text",
            path=name,
            line=line,
            field=field_name(where, key),
        )


def _merge_keys(
    source: yaml.MappingNode,
    merged: dict[Any, yaml.Node],
    name: str,
    text_lines: LineIndex,
    at: PathKey,
) -> None:
    """Add a merged mapping's keys to ``merged``; refuse a key two sources bring, and a
    source that merges again (``at``: the ``<<`` key's path, for the message)."""
    own: set[Any] = set()
    field = field_name(at[:-1], at[-1])
    for key_node, _ in source.value:
        line = text_lines.line_of_mark(key_node.start_mark)
        _check_key_text(key_node, name, line, at)
        if key_node.tag == MERGE_TAG:
            raise InputError(
                "a mapping merged with '<<' may not use '<<' itself; write its keys out",
                path=name,
                line=line,
                field=field,
            )
        key, value = _key_text(key_node), _key_value(key_node)
        if value in own:
            raise InputError(f"duplicate key '{key}'", path=name, line=line, field=field)
        own.add(value)
        if value in merged:
            raise InputError(
                f"key '{key}' comes from two merged mappings; merge it from one only",
                path=name,
                line=line,
                field=field,
            )
        merged[value] = key_node


def check_writable(target: Path, *, force: bool = False) -> Path:
    """Refuse a bad output path before anything is written (advisor.io.safe_write); return
    its folder."""
    from advisor.io.safe_write import check_output

    check_output(str(target), force=force)
    return Path(os.path.dirname(str(target)) or ".")


def write_atomic(
    path: str | os.PathLike[str], text: str, *, force: bool = False, private: bool = False
) -> None:
    """Write ``text`` atomically; never replace a file without ``force`` (io.safe_write)."""
    from advisor.io.safe_write import write_atomic as _write

    _write(os.fspath(path), text, force=force, private=private)
