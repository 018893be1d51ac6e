"""Read profiles from files and from the bundled examples."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from pydantic import ValidationError

from advisor.io.safe_yaml import YamlDocument, load_yaml_file, read_text_file
from advisor.io.validation import input_error_from_validation
from advisor.model.errors import InputError
from advisor.model.field_guards import yaml_kind
from advisor.model.option_hints import did_you_mean
from advisor.model.profile import Profile
from advisor.model.terminal_text import clip
from advisor.resources import data_dir


def load_profile(path: str | os.PathLike[str]) -> Profile:
    """Load and validate a YAML profile; every problem becomes an InputError."""
    return profile_from_document(load_yaml_file(path))


def profile_from_document(doc: YamlDocument) -> Profile:
    """Validate parsed YAML as a profile; every problem becomes an InputError."""
    if not isinstance(doc.data, dict):
        kind = yaml_kind(doc.data)
        raise InputError(f"a profile must be a YAML mapping, not {kind}", path=doc.path, line=1)
    if "facts" in doc.data:
        raise InputError(
            "facts are measured by the probes, not written in a profile",
            path=doc.path,
            line=doc.line_of(("facts",)),
            field="facts",
        )
    try:
        return Profile.model_validate(doc.data)
    except ValidationError as exc:
        raise input_error_from_validation(exc, doc) from None


@dataclass(frozen=True)
class Example:
    name: str
    path: Path
    description: str


def list_examples() -> list[Example]:
    """The bundled example profiles, sorted by name."""
    out = []
    for path in sorted(data_dir("examples").glob("*.yaml")):
        out.append(Example(path.stem, path, _first_comment(path)))
    return out


def example_path(name: str) -> Path:
    """Path of a bundled example by name, or an InputError listing the names."""
    examples = {e.name: e.path for e in list_examples()}
    if name not in examples:
        suggestion = did_you_mean(name, list(examples))
        raise InputError(
            f"no bundled example '{clip(name)}'{suggestion} (see `advisor examples`)",
            field="--example",
        )
    return examples[name]


def _first_comment(path: Path) -> str:
    for line in read_text_file(path).splitlines():
        if line.startswith("#"):
            return line.lstrip("# ").strip()
        if line.strip():
            break
    return ""
