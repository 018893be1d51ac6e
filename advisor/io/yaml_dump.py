"""Writing YAML that reads back as written: the one dumper of profiles and rule pages."""

from __future__ import annotations

from typing import Any

import yaml

from advisor.io.safe_yaml import SafeLoader


class _Dumper(yaml.SafeDumper):
    """Quotes a text that either reader would take for something else: YAML 1.1's forms
    (``010``, ``2024-01-01``, ``yes``) and this loader's own (``1e3`` is a number here), so
    what the advisor writes reads back as the same text, here and in other YAML tools."""


_Dumper.yaml_implicit_resolvers = {
    first: list(yaml.SafeDumper.yaml_implicit_resolvers.get(first, []))
    + list(SafeLoader.yaml_implicit_resolvers.get(first, []))
    for first in {*yaml.SafeDumper.yaml_implicit_resolvers, *SafeLoader.yaml_implicit_resolvers}
}


def dump_yaml(data: Any) -> str:
    """Dump plain data as block-style YAML, keys in the given order; every text reads back
    as the same text."""
    return yaml.dump(
        data, Dumper=_Dumper, sort_keys=False, allow_unicode=True, default_flow_style=False
    )
