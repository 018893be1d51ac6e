"""Which measurements may score: only those taken on the kind of machine the project uses.

Speed, compile-time and scaling figures from a 2-core laptop say little about a project
that trains on a GPU cluster. When the probed machine's accelerator is not among the
hardware the profile says it trains or serves on (or the profile does not say), those
facts are withheld from the rules: the report still shows the measurements, marked as not
scored, and the rules that read them stand aside with the reason.
"""

from __future__ import annotations

from typing import Any

# Facts about the installation rather than the machine's speed: always usable.
MACHINE_INDEPENDENT = frozenset(
    {
        "facts.accelerator",
        "facts.accelerator_count",
        "facts.installed",
        "facts.failed",
        "facts.noisy",
    }
)


def machine_context(context: dict[str, Any]) -> tuple[dict[str, Any], str | None]:
    """The context with machine-dependent facts withheld when the machine does not match.

    Returns the (possibly reduced) context and the reason, or None when nothing was withheld.
    """
    kind = context.get("facts.accelerator")
    if kind is None:
        return context, None
    used = set(context.get("hardware.training") or []) | set(
        context.get("hardware.inference") or []
    )
    if kind in used:
        return context, None
    # what still counts is said, so a report that scores a failed framework is not read as
    # contradicting its "not scored"
    counts = "(whether each framework installed and ran still counts)"
    if used:
        where = ", ".join(sorted(used))
        reason = (
            f"measured on {kind}, but the project trains or serves on {where}: speed figures "
            f"shown, not scored {counts}"
        )
    else:
        reason = (
            f"measured on {kind}; the profile does not say which hardware the project uses: "
            f"speed figures shown, not scored {counts}"
        )
    reduced = {
        k: (None if k.startswith("facts.") and k not in MACHINE_INDEPENDENT else v)
        for k, v in context.items()
    }
    return reduced, reason
