"""The one profile YAML writer, in two styles.

- ``commented`` (``advisor ask``): the fields the profile says (a default is not an
  answer), each preceded by its help as a comment, values in block style, ready to edit
  and read back with the same answers.
- ``annotated`` (the report's appendix): every value filled in as a flow value. A value the
  profile did not give is shown commented out (``# name: value  # not said``), so the text
  read back gives the same answers; ``# default`` marks a given answer equal to the
  default. Strings escape braces as ``\\uXXXX`` (which YAML reads back), so no template
  engine sees ``{{`` or ``{%``.

In both styles a text holding characters a reader cannot see or that YAML reads as line
breaks (C1 controls, NEL, bidi controls, U+2028/9, zero-width and tag characters) is
written double-quoted with those characters as escapes: the file is inert and reads back
the same text.
"""

from __future__ import annotations

import json
import re
from typing import Any, Literal

from pydantic import BaseModel

from advisor.io.yaml_dump import dump_yaml
from advisor.model.profile import Profile
from advisor.model.said import said_paths
from advisor.model.terminal_text import INVISIBLE

Style = Literal["commented", "annotated"]
DEFAULT_HEADER = "Project profile for advisor, written by `advisor ask`."


def profile_yaml(profile: Profile, *, style: Style = "commented", header: str | None = None) -> str:
    """The profile as YAML in ``style`` (see the module docstring)."""
    data = _whole_numbers(profile.model_dump(mode="json"))
    lines: list[str] = []
    if style == "commented":
        lines += [
            f"# {header or DEFAULT_HEADER}",
            "# Use it with `advisor recommend FILE`; revise it with `advisor ask --from FILE`.",
            "",
        ]
    defaults = _whole_numbers(Profile().model_dump(mode="json"))
    said = said_paths(profile)
    if style == "commented" and not said:
        lines.append("{}")
    _model_lines(Profile, data, defaults, 0, lines, style, said)
    if style == "annotated":
        return "\n".join(lines)
    return "\n".join(lines).rstrip("\n") + "\n"


def _whole_numbers(value: Any) -> Any:
    """Whole floats as integers (parameters: 25000000, not 25000000.0); a float field
    reads either back as the same number."""
    if isinstance(value, dict):
        return {k: _whole_numbers(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_whole_numbers(v) for v in value]
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return int(value)
    return value


def _model_lines(
    model: type[BaseModel],
    data: dict[str, Any],
    defaults: dict[str, Any],
    depth: int,
    out: list[str],
    style: Style,
    said: frozenset[str],
    prefix: str = "",
) -> None:
    pad = "  " * depth
    commented = style == "commented"
    for name, info in model.model_fields.items():
        path = f"{prefix}{name}"
        given = path in said or any(p.startswith(path + ".") for p in said)
        if commented and not given:
            continue
        annotation = info.annotation
        nested = isinstance(annotation, type) and issubclass(annotation, BaseModel)
        if commented and depth == 0 and out and out[-1] != "":
            out.append("")
        if commented and info.description:
            out.append(f"{pad}# {info.description}")
        if nested:
            assert isinstance(annotation, type)
            doc = annotation.__dict__.get("__doc__")
            if commented and doc:
                out.append(f"{pad}# {' '.join(doc.split())}")
            out.append(f"{pad}{name}:" if commented or given else f"{pad}# {name}:")
            _model_lines(
                annotation, data[name], defaults[name], depth + 1, out, style, said, path + "."
            )
        elif commented and _has_hidden(data[name]):  # escaped, so it reads back the same
            out.append(f"{pad}{name}: {flow_scalar(data[name])}")
        elif commented:
            chunk = dump_yaml({name: data[name]}).rstrip("\n").splitlines()
            out.extend(pad + line for line in chunk)
        elif not given:  # shown, but commented out: reading it back must not make it an answer
            out.append(f"{pad}# {name}: {flow_scalar(data[name])}  # not said")
        else:
            mark = "  # default" if defaults.get(name) == data[name] else ""
            out.append(f"{pad}{name}: {flow_scalar(data[name])}{mark}")


def flow_scalar(value: Any) -> str:
    """A YAML flow value (JSON is valid YAML), with line separators and braces escaped."""
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(flow_scalar(v) for v in value) + "]"
    if isinstance(value, dict):
        items = (f"{flow_scalar(str(k))}: {flow_scalar(v)}" for k, v in value.items())
        return "{" + ", ".join(items) + "}"
    text = json.dumps(value, ensure_ascii=False)
    return _ESCAPED.sub(_escape, text) if isinstance(value, str) else text


# Written as YAML escapes: braces (no template engine sees '{{'), and the characters a
# reader cannot see or that YAML reads as line breaks (C1, NEL, bidi controls, U+2028/9,
# zero-width and tag characters), so the file is inert and reads back the same text.
# ZWNJ and ZWJ stay as typed: Persian, Indic scripts and emoji need them.
_HIDDEN = f"(?![\u200c\u200d])[\x7f-\x9f\ufffe\uffff{INVISIBLE}]"  # DEL, U+FFFE/F: not YAML
_ESCAPED = re.compile(f"[{{}}]|{_HIDDEN}")
_HAS_HIDDEN = re.compile(_HIDDEN)


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group(0))
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def _has_hidden(value: Any) -> bool:
    if isinstance(value, str):
        return bool(_HAS_HIDDEN.search(value))
    return isinstance(value, list) and any(_has_hidden(v) for v in value)
