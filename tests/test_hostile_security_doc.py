"""SECURITY.md states each limit; these tests tie every figure to the code that enforces it
(the behaviour itself is proved by the hostile corpus and tests/test_hostile_*.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from advisor.cli.stop_signals import Stopped
from advisor.decide import pack_layout, rule_examples
from advisor.io import safe_read, yaml_guard
from advisor.model import errors, field_guards, profile, rulepack, terminal_text
from advisor.report import template_jail, template_sandbox
from probes.catalog import ENV_RANGES, TIME_SCALE_ENV, TIMEOUT_ENV
from probes.run import trust

DOC = (Path(__file__).resolve().parents[1] / "SECURITY.md").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("stated", "actual"),
    [
        ("**5 MB**", safe_read.MAX_BYTES == 5 * 1024 * 1024),
        ("**64** levels", yaml_guard.MAX_DEPTH == 64),
        ("**200,000** nodes", yaml_guard.MAX_NODES == 200_000),
        ("more than **10,000** entries", yaml_guard.MAX_ENTRIES == 10_000),
        ("longer than **100** characters", yaml_guard.MAX_NUMBER_CHARS == 100),
        ("at most **64** items", field_guards.MAX_LIST_ITEMS == 64),
        ("**10,000** characters", field_guards.MAX_TEXT_CHARS == 10_000),
        ("at most 64 characters", profile.MAX_COUNT_CHARS == 64),
        ("at 100,000 items", template_sandbox.MAX_SEQUENCE_PRODUCT == 100_000),
        ("at 1,000,000 characters or items", template_sandbox.MAX_STRING == 1_000_000),
        (
            "at 4,096 bits (exponents at 100)",
            template_sandbox.MAX_INT_BITS == 4096 and template_sandbox.MAX_EXPONENT == 100,
        ),
        ("`lipsum` at 9,999", template_sandbox.MAX_WIDTH == 9_999),
        ("**1 s of CPU time**", template_jail.CPU_SECONDS == 1),
        ("**256 MB** of address space", template_jail.MEMORY_BYTES == 256 * 1024 * 1024),
        ("a **10 s** wall-clock limit", template_jail.WALL_SECONDS == 10),
        ("at most **5,000,000** characters", template_sandbox.MAX_OUTPUT == 5_000_000),
        ("cut at 80 characters", terminal_text.ECHO_LIMIT == 80),
        ("a path at 200", errors.PATH_LIMIT == 200),
        ("the whole line at 600", terminal_text.LINE_LIMIT == 600),
        ("and below 10^15, the nested shape", trust.MAX_MEDIAN == 1e15),
        ("finite and below 10^18", trust.MAX_NUMBER == 1e18),
        (
            "at most 4,000 characters, at most 2,000 items",
            trust.MAX_TEXT == 4000 and trust.MAX_ITEMS == 2000,
        ),
        ("nesting at most 8 deep", trust.MAX_DEPTH == 8),
        ("at most **1,000** rule files", pack_layout.MAX_PACK_FILES == 1000),
        ("at most **5 MB** (both checked", pack_layout.MAX_PACK_BYTES == 5 * 1024 * 1024),
        ("at most **10,000** entries of any kind", pack_layout.MAX_PACK_ENTRIES == 10_000),
        ("at most **16** examples", rulepack.MAX_RULE_EXAMPLES == 16),
        ("at most **10,000** in all", rule_examples.MAX_PACK_EXAMPLES == 10_000),
        ("statuses `ok` or `skipped`", trust.CACHED_STATUSES == ("ok", "skipped")),
        ("`ADVISOR_PROBE_TIME_SCALE` (0.01 to 100)", ENV_RANGES[TIME_SCALE_ENV] == (0.01, 100.0)),
        ("`ADVISOR_PROBE_TIMEOUT` (1 to 86,400 seconds)", ENV_RANGES[TIMEOUT_ENV] == (1, 86400)),
        (
            "(143 for SIGTERM, 129 for SIGHUP)",
            Stopped(15).exit_code == 143 and Stopped(1).exit_code == 129,
        ),
    ],
)
def test_each_stated_limit_is_the_enforced_one(stated: str, actual: bool) -> None:
    assert stated in DOC
    assert actual
