"""A profile's said answers, ready to be changed one at a time by the sensitivity analysis,
and whether a changed profile contradicts itself (rules/data/consistency.yaml)."""

from __future__ import annotations

from typing import Any

from advisor.decide.conditions import build_context
from advisor.decide.consistency import Check, contradicts, tripped_ids
from advisor.decide.measured import machine_context
from advisor.model.facts import Facts
from advisor.model.profile import Profile
from advisor.model.said import said_paths

# The device an accelerator sits in: an Arm Ethos-U microNPU beside a Cortex-M
# microcontroller, a phone's NPU or Neural Engine in a phone, the others in an edge box.
HOST_OF = {"arm_ethos": "microcontroller", "mobile_npu": "mobile", "apple_neural_engine": "mobile"}


class SaidContext:
    """The profile's said context (facts included), ready to be changed one answer at a time."""

    def __init__(self, profile: Profile, facts: Facts) -> None:
        self.said = said_paths(profile)
        self.context = build_context(profile, facts, self.said)
        self.full = build_context(profile, None)
        self.priorities = profile.priorities.model_dump()
        self._already: tuple[frozenset[str], frozenset[str]] | None = None

    def assumed(self, context: dict[str, Any]) -> dict[str, Any]:
        """``context`` with every answer it does not say at its default: a single change
        keeps everything else as it stands, the defaults the report assumes included."""
        return {**self.full, **context}

    def clashes(self, checks: tuple[Check, ...], context: dict[str, Any]) -> bool:
        """Whether the changed ``context`` trips a check the profile does not trip already,
        read either as said or with its unsaid answers at their defaults."""
        if self._already is None:
            assumed = tripped_ids(checks, self.assumed(self.context))
            self._already = (tripped_ids(checks, self.context), assumed)
        said, assumed = self._already
        return contradicts(checks, said, context) or contradicts(
            checks, assumed, self.assumed(context)
        )

    def added_device_cannot_run(
        self, checks: tuple[Check, ...], path: str, old: Any, new: Any
    ) -> bool:
        """Whether a device target or accelerator that a change adds could not run the
        project's model. The checks let two targets stand for two models of a profile (a
        server model beside a phone one), but an added device must run the model the
        profile sizes: it is judged as the only device, by the checks that read the model's
        size (an added accelerator in the device it sits in, HOST_OF, with no budget given
        for it: the profile's budget is its smallest device's). Other
        checks are left to ``clashes``, so a server added to a phone app is not refused
        because the phone's accelerator would then have no device target."""
        if path not in ("deployment.targets", "deployment.edge_hardware"):
            return False
        added = [v for v in new or [] if v not in (old or self.full.get(path) or [])]
        if not added:
            return False
        sized = tuple(c for c in checks if "model.parameters" in c.fields())
        alone = {**self.context, path: added}
        # the device's own memory is not the budget the profile gave for its smallest device
        alone.pop("deployment.device_memory_mb", None)
        if path == "deployment.edge_hardware":  # in the device it belongs to, and nothing else
            alone["deployment.targets"] = sorted({HOST_OF.get(a, "edge") for a in added})
        return contradicts(sized, tripped_ids(sized, self.context), machine_context(alone)[0])

    def changed(self, path: str, new: Any) -> tuple[dict[str, Any], dict[str, Any]]:
        """(context, priorities) with one answer said as ``new`` (None: dropped)."""
        context = dict(self.context)
        priorities = dict(self.priorities)
        if new is None:
            context.pop(path, None)
            if path.startswith("priorities."):
                priorities[path.split(".", 1)[1]] = 3
        else:
            context[path] = new
            if path.startswith("priorities."):
                priorities[path.split(".", 1)[1]] = new
        return machine_context(context)[0], priorities
