"""The user's Advanced values: what Settings and ``engine plan`` may set, and their valid ranges.

One vocabulary (the planner's override names) and one set of ranges, shared by the app's
Settings (stored values, the dialog's spin boxes), the command line and the planning entry
point (engine/runtime/planning.py). Plain data: importing it plans nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from engine.errors import EngineError
from engine.messages import msg


@dataclass(frozen=True)
class Range:
    """Valid whole numbers of one Advanced value, both ends included."""

    low: int
    high: int

    def __contains__(self, value: object) -> bool:
        return type(value) is int and self.low <= value <= self.high


# Planner override name -> valid values. "vram_headroom_mib": graphics memory kept free for
# the driver and other programs (the preset's own is 768-1024 MiB; engine/plan/presets.py).
ADVANCED_RANGES: dict[str, Range] = {
    "n_ctx": Range(256, 1_048_576),
    "gpu_expert_layers": Range(0, 1000),
    "n_threads": Range(1, 512),
    "vram_headroom_mib": Range(0, 65_536),
}


def check_advanced(values: Mapping[str, Any]) -> dict[str, int]:
    """The Advanced values as the planner takes them; EngineError for an unknown name or a
    value out of its range (the app never stores such a value; the command line may)."""
    unknown = set(values) - set(ADVANCED_RANGES)
    if unknown:
        raise EngineError(msg("plan.unknown_setting"), f"unknown Advanced values: {sorted(unknown)}")
    for name, value in values.items():
        valid = ADVANCED_RANGES[name]
        if value not in valid:
            raise EngineError(msg("plan.unknown_setting"),
                              f"{name}={value!r} is outside {valid.low}..{valid.high}")
    return dict(values)
