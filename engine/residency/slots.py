"""The slot pool of one layer and what a policy decides after a token.

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


class Decision:
    """What ``after_token`` decided for one layer after one decode token.

    ``hits``/``misses`` count the routed experts against the tables published BEFORE the
    call (the misses ran on the CPU this token). ``uploads`` [(expert, slot)] are copied
    into GPU slots before the next token (at most the upload cap); ``evictions``
    [(expert, slot)] are the residents they replace (a free slot has none).
    """

    __slots__ = ("layer", "hits", "misses", "uploads", "evictions")

    def __init__(self, layer: int, hits: int, misses: int, uploads: list, evictions: list) -> None:
        self.layer = layer
        self.hits = hits
        self.misses = misses
        self.uploads = uploads          # [(expert, slot)]
        self.evictions = evictions      # [(expert, slot)]

    def __repr__(self) -> str:
        return (f"Decision(layer={self.layer}, hits={self.hits}, misses={self.misses}, "
                f"uploads={self.uploads}, evictions={self.evictions})")
