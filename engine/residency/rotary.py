"""The rotary residency policy (placeholder while the design is measured)."""

from __future__ import annotations

from engine.residency.baselines import LFRUPolicy
from engine.residency.policy import register


@register
class RotaryPolicy(LFRUPolicy):
    name = "rotary"
