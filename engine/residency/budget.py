"""How many GPU slots each layer gets, and how many uploads one step may start.

Budgets are slots per layer; a byte budget across layers is converted here, and layers
may receive different counts (``shares``), e.g. more where routing is more diverse.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.errors import BudgetError

# Qwen3.6-35B-A3B Q4_K_M: gate+up+down of one expert, 2048 x 512 x 3 weights at
# ~4.75 bits (Q4_K gate/up, Q6_K down in Q4_K_M) is about 1.78 MiB (anchors.md: ~1.8 MiB).
QWEN36_Q4KM_EXPERT_BYTES = int(1.78 * 2**20)


@dataclass(frozen=True)
class Budget:
    slots: tuple[int, ...]           # [layers] GPU slots per MoE layer
    upload_cap: int | None = None    # uploads per layer step; misses beyond it run on the CPU

    @property
    def n_layers(self) -> int:
        return len(self.slots)

    @property
    def total_slots(self) -> int:
        return sum(self.slots)

    @classmethod
    def uniform(cls, n_layers: int, slots: int, upload_cap: int | None = None) -> "Budget":
        return cls(tuple([int(slots)] * n_layers), upload_cap)

    @classmethod
    def from_fraction(cls, n_layers: int, n_expert: int, fraction: float,
                      upload_cap: int | None = None) -> "Budget":
        if not 0 < fraction <= 1:
            raise BudgetError(f"A residency fraction must be in (0, 1], got {fraction}")
        return cls.uniform(n_layers, max(1, round(fraction * n_expert)), upload_cap)

    @classmethod
    def from_bytes(cls, total_bytes: int, expert_bytes: int, n_layers: int, n_expert: int,
                   shares: list[float] | None = None, upload_cap: int | None = None) -> "Budget":
        """Split ``total_bytes`` of expert slots over layers in proportion to ``shares``."""
        total = int(total_bytes // expert_bytes)
        shares = shares or [1.0] * n_layers
        scale = total / sum(shares)
        slots = [min(n_expert, int(s * scale)) for s in shares]
        _hand_out_remainder(slots, total, n_expert)
        return cls(tuple(slots), upload_cap)

    def check(self, n_expert: int, k: int, n_layers: int | None = None) -> None:
        """Raise BudgetError when this budget cannot run a model with these sizes."""
        if n_layers is not None and n_layers != self.n_layers:
            raise BudgetError(f"Budget covers {self.n_layers} layers but the model has {n_layers}")
        for layer, slots in enumerate(self.slots):
            if slots < k:
                raise BudgetError(
                    f"Layer {layer} gets {slots} slots, fewer than the {k} experts each token uses")
            if slots > n_expert:
                raise BudgetError(f"Layer {layer} gets {slots} slots but has only {n_expert} experts")
        if self.upload_cap is not None and self.upload_cap < 0:
            raise BudgetError(f"Upload cap must be 0 or more, got {self.upload_cap}")


def _hand_out_remainder(slots: list[int], total: int, n_expert: int) -> None:
    # Rounding down leaves a few slots; give them one by one to layers with room.
    layer = 0
    while sum(slots) < total and any(s < n_expert for s in slots):
        if slots[layer] < n_expert:
            slots[layer] += 1
        layer = (layer + 1) % len(slots)
