"""The slot pool of one layer and what a policy step decides.

A layer owns ``n_slots`` fixed GPU slots. ``slot_of`` is the lookup table the matmul
reads (expert id -> slot, -1 = not resident); ``expert_in`` is the ring itself
(slot -> expert id, -1 = free). Both are plain lists: a policy step touches a handful
of entries, and list indexing is several times cheaper than numpy scalar access.
"""

from __future__ import annotations

FREE = -1


class SlotTable:
    """Expert->slot lookup table and slot ring of one layer, always kept in agreement."""

    __slots__ = ("slot_of", "expert_in", "free")

    def __init__(self, n_expert: int, n_slots: int) -> None:
        self.slot_of = [FREE] * n_expert       # [n_expert] slot index or FREE
        self.expert_in = [FREE] * n_slots      # [n_slots] expert id or FREE
        self.free = list(range(n_slots - 1, -1, -1))  # stack: slot 0 is handed out first

    @property
    def n_slots(self) -> int:
        return len(self.expert_in)

    def resident(self) -> list[int]:
        return [e for e in self.expert_in if e != FREE]

    def admit(self, expert: int, slot: int) -> None:
        self.expert_in[slot] = expert
        self.slot_of[expert] = slot

    def evict(self, slot: int) -> int:
        expert = self.expert_in[slot]
        self.expert_in[slot] = FREE
        self.slot_of[expert] = FREE
        return expert

    def check(self) -> None:
        """Raise AssertionError when table and ring disagree (used by tests)."""
        for slot, expert in enumerate(self.expert_in):
            assert expert == FREE or self.slot_of[expert] == slot, (slot, expert)
        for expert, slot in enumerate(self.slot_of):
            assert slot == FREE or self.expert_in[slot] == expert, (expert, slot)
        assert sorted(self.free) == [s for s, e in enumerate(self.expert_in) if e == FREE]


class StepResult:
    """What one policy step decided for one layer and one token (or prompt batch row).

    ``slots[i]`` is where ``expert_ids[i]`` is computed: a slot index, or -1 for the CPU.
    ``admits`` are uploads to do before this layer's matmul; ``evicts`` the slots they
    overwrite; ``prefetches`` are (layer, expert, slot) uploads for later layers that may
    run asynchronously.
    """

    __slots__ = ("layer", "slots", "hits", "misses", "admits", "evicts", "prefetches")

    def __init__(self, layer: int, slots: list[int], hits: int, misses: int,
                 admits: list, evicts: list, prefetches: list | None = None) -> None:
        self.layer = layer
        self.slots = slots              # [k] slot or -1 (CPU)
        self.hits = hits
        self.misses = misses
        self.admits = admits            # [(expert, slot)]
        self.evicts = evicts            # [(expert, slot)]
        self.prefetches = prefetches if prefetches is not None else []  # [(layer, expert, slot)]

    @property
    def cpu(self) -> int:
        """Misses computed on the CPU this step (not admitted: cap or prompt mode)."""
        return self.misses - len(self.admits)

    def __repr__(self) -> str:
        return (f"StepResult(layer={self.layer}, hits={self.hits}, misses={self.misses}, "
                f"admits={self.admits}, evicts={self.evicts}, prefetches={self.prefetches})")
