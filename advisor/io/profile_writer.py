"""The one profile YAML writer, in two styles.

- ``commented`` (``advisor ask``): the fields the profile says (a default is not an
  answer), each preceded by its help as a comment, values in block style, ready to edit
  and read back with the same answers.
- ``annotated`` (the report's appendix): every value filled in as a flow value. A value the
  profile did not give is shown commented out (``# name: value  # not said``), so the text
  read back gives the same answers; ``# default`` marks a given answer equal to the
  default. Strings escape line separators and braces
  as ``\\uXXXX`` (which YAML reads back), so no template engine sees ``{{`` or ``{%``.
"""

from __future__ import annotations

import json
from typing import Any, Literal

from pydantic import BaseModel

from advisor.io.safe_yaml import dump_yaml
from advisor.model.profile import Profile
from advisor.model.said import said_paths

Style = Literal["commented", "annotated"]
DEFAULT_HEADER = "Project profile for advisor, written by `advisor ask`."


def profile_yaml(profile: Profile, *, style: Style = "commented", header: str | None = None) -> str:
    """The profile as YAML in ``style`` (see the module docstring)."""
    data = profile.model_dump(mode="json")
    lines: list[str] = []
    if style == "commented":
        lines += [
            f"# {header or DEFAULT_HEADER}",
            "# Use it with `advisor recommend FILE`; revise it with `advisor ask --from FILE`.",
            "",
        ]
    defaults = Profile().model_dump(mode="json")
    said = said_paths(profile)
    if style == "commented" and not said:
        lines.append("{}")
    _model_lines(Profile, data, defaults, 0, lines, style, said)
    if style == "annotated":
        return "\n".join(lines)
    return "\n".join(lines).rstrip("\n") + "\n"


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
    if isinstance(value, str):
        for ch in ("\u2028", "\u2029", "\u0085", "{", "}"):
            text = text.replace(ch, f"\\u{ord(ch):04x}")
    return text
