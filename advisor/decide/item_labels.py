"""Name a rule or a consistency check by its id in an error the YAML reader raises.

The reader refuses a duplicate key before any rule is built, so its error says where by
position (``rules[1].title``, counted from 1); the rule loaders name a rule as
``rule ID: field`` (and a check as ``check ID: field``). This reads the id from the node
tree that read composed (the error carries it: the duplicate is found after the guards
passed), and relabels; the file is never read a second time, which a file swapped in
between, or a large one, would make unsafe or slow.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

from advisor.decide.pack_layout import charge_pack_read
from advisor.io.bundled_yaml import load_bundled_yaml_file
from advisor.io.safe_yaml import YamlDocument, load_yaml_text, read_text_file
from advisor.model.errors import InputError

_POSITION = re.compile(r"^(rules|checks)\[(\d+)\](?:\.(.+))?$")
RULE_ID = r"^[A-Z]{2,5}[0-9]{3}$"  # the Rule model's id pattern (decide/rules.py)
CHECK_ID = r"^CON[0-9]{3}$"  # a consistency check's (decide/consistency.py)
_IDS = {"rules": ("rule", re.compile(RULE_ID)), "checks": ("check", re.compile(CHECK_ID))}


def item_label(section: str, rid: Any, index: int) -> str:
    """How an error names a rule or check: ``rule ID`` (``check ID``) when ``rid`` is a
    well-formed id, else its position in the file (``rules[N]``, counted from 1 like every
    list an error names): an id that is not one (a long text, or one holding ": ") must not
    push the field out of the message or fake another."""
    kind, pattern = _IDS[section]
    if isinstance(rid, str) and pattern.match(rid):
        return f"{kind} {rid}"
    return f"{section}[{index + 1}]"


def _child(node: yaml.Node | None, key: str | int) -> yaml.Node | None:
    """The value under ``key`` of a mapping node, or item ``key`` of a sequence node."""
    if isinstance(node, yaml.MappingNode) and isinstance(key, str):
        found = [v for k, v in node.value if isinstance(k, yaml.ScalarNode) and k.value == key]
        return found[0] if found else None
    if isinstance(node, yaml.SequenceNode) and isinstance(key, int):
        return node.value[key] if key < len(node.value) else None
    return None


def _key_like_a_position(root: yaml.Node, section: str) -> bool:
    """Whether the document has a top-level key written like a position (``rules[1]``,
    ``rules[1].title``): its own path reads the same as an item's, so the error keeps the
    key as the reader named it rather than blame a rule that has nothing wrong."""
    if not isinstance(root, yaml.MappingNode):
        return False
    prefix = f"{section}["
    return any(
        isinstance(k, yaml.ScalarNode) and str(k.value).startswith(prefix) for k, _ in root.value
    )


def item_named(error: InputError) -> InputError:
    """``error`` with ``rules.N.x`` written ``rule ID: x`` (``checks.N.x``: ``check ID: x``),
    or ``rules[N]: x`` when the item has no text id; unchanged when it names no item."""
    match = _POSITION.match(error.field or "")
    if not match:
        return error
    section, index, rest = match[1], int(match[2]) - 1, match[3]
    root = error.document  # the guarded read's own nodes: the file is never read again
    if index < 0 or not isinstance(root, yaml.Node) or _key_like_a_position(root, section):
        return error
    id_node = _child(_child(_child(root, section), index), "id")
    rid = id_node.value if isinstance(id_node, yaml.ScalarNode) else None
    label = item_label(section, rid, index)
    error.field = f"{label}: {rest}" if rest else label
    return error


def bundled_file(path: Path) -> Path | None:
    """The real path of ``path`` when it is a regular file of the rule pack that ships with
    the advisor (None otherwise). Read that path, not ``path``: a link swapped after this
    check then cannot bring another file past the checks the bundled pack skips."""
    from advisor.resources import data_dir

    try:
        real = path.resolve(strict=True)
    except (OSError, RuntimeError):
        return None
    inside = real.is_file() and real.is_relative_to(data_dir("rules").resolve())
    return real if inside else None


def load_pack_yaml(path: Path) -> YamlDocument:
    """One YAML file of a rule pack, read by the safe reader (the bundled pack's own files
    without its hostile-input checks, which the tests run on them); an error that names a
    rule or check by position names it by its id (see ``item_named``)."""
    real = bundled_file(path)
    try:
        if real:
            return load_bundled_yaml_file(real)
        text = read_text_file(path)
        charge_pack_read(path, len(text.encode("utf-8", "surrogatepass")))  # before parsing
        return load_yaml_text(text, str(path))
    except InputError as exc:
        raise item_named(exc) from None
