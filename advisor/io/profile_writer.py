"""The one profile YAML writer, in two styles.

- ``commented`` (``advisor ask``): every field preceded by its help as a comment, values
  in block style, ready to edit and read back.
- ``annotated`` (the report's appendix): every value filled in as a flow value, with
  ``# default`` where it equals the default. Strings escape line separators and braces
  as ``\\uXXXX`` (which YAML reads back), so no template engine sees ``{{`` or ``{%``.
"""

from __future__ import annotations

import json
from typing import Any, Literal

from pydantic import BaseModel

from advisor.io.safe_yaml import dump_yaml
from advisor.model.profile import Profile

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
    _model_lines(Profile, data, defaults, 0, lines, style)
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
) -> None:
    pad = "  " * depth
    commented = style == "commented"
    for name, info in model.model_fields.items():
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
            out.append(f"{pad}{name}:")
            _model_lines(annotation, data[name], defaults[name], depth + 1, out, style)
        elif commented:
            chunk = dump_yaml({name: data[name]}).rstrip("\n").splitlines()
            out.extend(pad + line for line in chunk)
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
