"""Read a YAML file that ships with the advisor (its rule pack) without the hostile-input
checks: for the 400 KB of bundled rules they cost about 0.13 s of every run.

They are not skipped, only moved: tests/test_bundled_yaml.py runs the full reader
(``advisor.io.safe_yaml``) on every bundled file and requires that it accepts the file and
gives the same data. A user's file, a copy of a bundled one included, never comes here.
"""

from __future__ import annotations

import os

import yaml

from advisor.io.safe_yaml import SafeLoader, YamlDocument, load_yaml_text, read_text_file


def load_bundled_yaml_file(path: str | os.PathLike[str]) -> YamlDocument:
    """A bundled YAML file, read by the full reader's loader and constructors without its
    pre-pass and the walk that maps lines and refuses duplicate keys. The line map, which
    only an error needs, is built by the full reader on the first lookup; a file PyYAML
    cannot parse goes to the full reader, for its one-line error."""
    text = read_text_file(path)
    name = str(path)
    try:
        data = yaml.load(text, Loader=SafeLoader)  # the full reader's safe loader
    except yaml.YAMLError:
        return load_yaml_text(text, name)
    return YamlDocument(data=data, path=name, lazy_lines=lambda: load_yaml_text(text, name).lines)
