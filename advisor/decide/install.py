"""The recommended framework's install line, stack and starter code, chosen by the pack's
conditions from the whole profile (defaults included: a stack needs some answer), and,
for training hardware the chosen line does not serve, the line that does."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from advisor.decide.rules import RuleSet
from advisor.model.decision import InstallHint
from advisor.model.rulepack import InstallOption, StackItem


@dataclass(frozen=True)
class StarterText:
    code: str
    note: str | None


@dataclass(frozen=True)
class Setup:
    install: InstallOption | None
    # each listed training device the install line does not serve -> how to install for it
    install_elsewhere: dict[str, InstallHint]
    stack: list[StackItem]
    starter: StarterText


def served(option: InstallOption) -> set[str]:
    """The training hardware an install line serves: its ``serves`` list (every build
    runs on CPUs), or, for a pack line that does not say, the hardware its ``when`` asks
    for."""
    if option.serves is None:
        return {"cpu", *hardware_read(option.when)}
    return {"cpu", *(h.value for h in option.serves)}


def hardware_read(when: Any) -> set[str]:
    """The training hardware a raw `when` asks for (negated parts left out)."""
    if isinstance(when, list):
        return set().union(*(hardware_read(part) for part in when))
    if not isinstance(when, dict):
        return set()
    if when.get("field") == "hardware.training":
        values = [
            v
            for k, v in when.items()
            if k in ("contains", "contains_any", "contains_all", "in", "eq")
        ]
        flat = [x for v in values for x in (v if isinstance(v, list) else [v])]
        return {str(x) for x in flat}
    return hardware_read(when.get("all", [])) | hardware_read(when.get("any", []))


def choose_setup(
    ruleset: RuleSet, framework: str, context: dict[str, Any], training: list[str]
) -> Setup:
    """The first install line, the stack items and the first starter whose `when` holds
    in ``context``; ``training``: the training hardware the profile lists (or assumes)."""
    info = ruleset.meta.frameworks[framework]

    def holds(kind: str, i: int) -> bool:
        return ruleset.conditions[(framework, kind, i)].evaluate(context) is True

    stack = [item for i, item in enumerate(info.stack) if holds("stack", i)]
    install = next((opt for i, opt in enumerate(info.install) if holds("install", i)), None)
    elsewhere: dict[str, InstallHint] = {}
    if install is not None:
        for device in training:
            if device not in served(install):
                alone = {**context, "hardware.training": [device]}
                fits = [
                    ruleset.conditions[(framework, "install", i)].evaluate(alone) is True
                    for i in range(len(info.install))
                ]
                elsewhere[device] = _hint(info.install, fits, device)
    starter = next(
        (opt for i, opt in enumerate(info.starter) if holds("starter", i)),
        info.starter[-1],  # the last option has no `when` (FrameworkInfo checks it)
    )
    return Setup(install, elsewhere, stack, StarterText(starter.code, starter.note or None))


def _hint(options: list[InstallOption], fits: list[bool], device: str) -> InstallHint:
    """The first line that serves ``device`` among those whose `when` holds (``fits``)
    for this profile with ``device`` as its only training hardware, so that a line kept
    for other answers (an FPGA toolchain's pinned build) is not offered for it; else the
    note of the first line whose `when` asks for it (one that explains there is no build
    for it)."""
    fitting = (o for o, ok in zip(options, fits, strict=True) if ok)
    line = next((o for o in fitting if device in served(o)), None)
    if line is not None:
        return InstallHint(command=line.command, note=line.note)
    told = next((o for o in options if device in hardware_read(o.when)), None)
    return InstallHint(command=None, note=told.note if told else "")


def hedge_for(ruleset: RuleSet, context: dict[str, Any]) -> str:
    """The pack's hedge, unless the profile needs what it cannot hedge (hedge_unless)."""
    unless = ruleset.conditions.get(("", "hedge_unless", 0))
    return "" if unless is not None and unless.evaluate(context) is True else ruleset.meta.hedge
