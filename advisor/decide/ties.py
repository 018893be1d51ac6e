"""How a tie at the top of the ranking was broken, in words for the report."""

from __future__ import annotations

from itertools import pairwise

from advisor.model.decision import RankEntry


def tied_at_top(ranking: list[RankEntry], raw: dict[str, float]) -> list[RankEntry]:
    """The frameworks still standing whose raw score equals the winner's, the winner first
    (just the winner when nothing ties with it)."""
    top = round(raw[ranking[0].framework], 9)
    return [r for r in ranking if not r.vetoed and round(raw[r.framework], 9) == top]


def tie_sentence(tied: list[RankEntry], answers: dict[str, float]) -> str:
    """How a tie at the top (``tied``, from :func:`tied_at_top`) was broken: by what the
    answers alone gave (when the prior levelled them), by the number of supporting rules,
    or, when those are equal too, alphabetically; with three tied, each one's place after
    the one before it."""
    names = ", ".join(r.name for r in tied[:-1]) + f" and {tied[-1].name}"
    if len(tied) > 2:
        reasons = [_pair_reason(a, b, answers) for a, b in pairwise(tied)]
        return f"{names} scored the same: " + "; ".join(reasons) + "."
    lead = answers[tied[0].framework] - answers[tied[1].framework]
    if round(lead, 9) > 0:
        return (
            f"{names} scored the same only because of the prior; the answers alone put "
            f"{tied[0].name} {lead:.1f} points ahead, and what the profile says outranks "
            "the prior."
        )
    counts = " vs ".join(str(r.supporting_rules) for r in tied)
    if tied[0].supporting_rules == tied[1].supporting_rules:
        return (
            f"{names} scored the same and have as many supporting rules ({counts}); the tie "
            "was broken alphabetically."
        )
    return (
        f"{names} scored the same; the tie was broken by the number of supporting rules ({counts})."
    )


def _pair_reason(a: RankEntry, b: RankEntry, answers: dict[str, float]) -> str:
    """Why ``a`` is placed before ``b``, which it ties with."""
    lead = answers[a.framework] - answers[b.framework]
    if round(lead, 9) > 0:
        return (
            f"{b.name} is level with {a.name} only because of the prior, and the answers alone "
            f"put it {lead:.1f} points behind"
        )
    if a.supporting_rules != b.supporting_rules:
        return (
            f"{a.name} comes before {b.name} on supporting rules "
            f"({a.supporting_rules} vs {b.supporting_rules})"
        )
    return (
        f"{a.name} and {b.name} have as many supporting rules ({a.supporting_rules}) and are "
        "ordered alphabetically"
    )


def against_the_shares(first: RankEntry, runner_up: RankEntry, shares: dict[str, float]) -> str:
    """A sentence for a tie whose runner-up wins more of the random perturbations than the
    framework the tie-break chose ('' otherwise): the shares cannot settle a tie."""
    ours, theirs = shares.get(first.framework, 0.0), shares.get(runner_up.framework, 0.0)
    if theirs <= ours:
        return ""
    return (
        f" The random perturbations favour {runner_up.name} ({theirs:.0%} against {ours:.0%}): "
        "a tie has no margin, so noise and changed answers fall either way; read the verdict "
        "as a coin toss settled by that rule."
    )
