"""The residency policy interface and its registry (vLLM eplb-policy style).

A policy owns one ``SlotTable`` per MoE layer and decides, token by token and layer by
layer, which routed experts are computed from GPU slots, which misses are uploaded
(admitted, evicting a slot) and which run on the CPU. ``step`` is meant to be called
from an engine callback: it works on short Python lists and allocates little.

Per token the engine calls, for each MoE layer in order::

    result = policy.step(layer, expert_ids, weights, hidden)   # expert_ids: [k] ints
    # upload result.admits (expert, slot) before the layer's matmul, remap ids through
    # result.slots (-1 = compute on the CPU), start result.prefetches asynchronously.

Around prompt processing: ``begin_prompt()`` ... ``end_prompt()`` (reads, never evicts).
On a conversation switch: ``switch_context(conversation_id)``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import ClassVar

from engine.errors import BudgetError
from engine.residency.budget import Budget
from engine.residency.slots import FREE, SlotTable, StepResult

REGISTRY: dict[str, type["ResidencyPolicy"]] = {}


def register(cls: type["ResidencyPolicy"]) -> type["ResidencyPolicy"]:
    """Class decorator: make a policy available under ``cls.name``."""
    if not cls.name or cls.name in REGISTRY:
        raise ValueError(f"policy name {cls.name!r} is empty or taken")
    REGISTRY[cls.name] = cls
    return cls


def make_policy(name: str, budget: Budget, n_expert: int, k: int, **options) -> "ResidencyPolicy":
    """Build a registered policy by name; unknown names raise BudgetError listing the known ones."""
    import engine.residency.policies  # noqa: F401  (fills REGISTRY)
    if name not in REGISTRY:
        raise BudgetError(f"Unknown residency policy '{name}'", f"known: {', '.join(sorted(REGISTRY))}")
    return REGISTRY[name](budget, n_expert, k, **options)


class Snapshot:
    """A saved resident set: per layer, the experts that were in slots (plus policy extras)."""

    __slots__ = ("resident", "extra")

    def __init__(self, resident: list[list[int]], extra=None) -> None:
        self.resident = resident   # [layers][<= slots] expert ids
        self.extra = extra


class ResidencyPolicy(ABC):
    """Base class: generic step flow; subclasses supply bookkeeping and victim choice."""

    name: ClassVar[str] = ""
    offline: ClassVar[bool] = False        # needs the whole trace first (call prepare)
    admits_misses: ClassVar[bool] = True   # False: misses always run on the CPU

    def __init__(self, budget: Budget, n_expert: int, k: int, **options) -> None:
        budget.check(n_expert, k)
        if options:
            raise BudgetError(f"Policy '{self.name}' does not take options {sorted(options)}")
        self.budget, self.n_expert, self.k = budget, n_expert, k
        self.tables = [SlotTable(n_expert, slots) for slots in budget.slots]
        self.upload_cap = k if budget.upload_cap is None else budget.upload_cap
        self.in_prompt = False
        self.clock = [0] * budget.n_layers      # [layers] steps taken per layer

    # -- the per-token entry point -------------------------------------------------
    def step(self, layer: int, expert_ids, weights=None, hidden=None) -> StepResult:
        ids = expert_ids.tolist() if hasattr(expert_ids, "tolist") else list(expert_ids)
        slot_of = self.tables[layer].slot_of
        slots = [slot_of[e] for e in ids]                   # [k] slot or FREE
        self.clock[layer] += 1
        self._on_use(layer, ids, slots, weights)
        admits: list = []
        evicts: list = []
        misses = slots.count(FREE)
        if misses and self.admits_misses:
            self._admit_misses(layer, ids, slots, admits, evicts)
        prefetches = self._prefetch(layer, ids, weights, hidden)
        return StepResult(layer, slots, len(ids) - misses, misses, admits, evicts, prefetches)

    def _admit_misses(self, layer, ids, slots, admits, evicts) -> None:
        table = self.tables[layer]
        for i, expert in enumerate(ids):
            if slots[i] != FREE:
                continue
            if len(admits) >= self.upload_cap or (self.in_prompt and not table.free):
                return                       # the rest run on the CPU this step
            slot = table.free.pop() if table.free else self._evict_for(layer, ids, evicts)
            table.admit(expert, slot)
            slots[i] = slot
            admits.append((expert, slot))
            self._on_admit(layer, expert, slot)

    def _evict_for(self, layer, ids, evicts) -> int:
        slot = self._victim(layer, ids)
        expert = self.tables[layer].evict(slot)
        evicts.append((expert, slot))
        self._on_evict(layer, expert, slot)
        return slot

    # -- hooks ------------------------------------------------------------------------
    def _on_use(self, layer: int, ids: list[int], slots: list[int], weights) -> None:
        """Bookkeeping for every expert this step uses (hits: slots[i] >= 0)."""

    def _on_admit(self, layer: int, expert: int, slot: int) -> None:
        """An expert was uploaded into ``slot``."""

    def _on_evict(self, layer: int, expert: int, slot: int) -> None:
        """An expert left ``slot``."""

    @abstractmethod
    def _victim(self, layer: int, protected: list[int]) -> int:
        """The slot to empty; never one holding an expert in ``protected``."""

    def _prefetch(self, layer, ids, weights, hidden) -> list:
        return []

    # -- phases, offline data, conversations --------------------------------------------
    def prepare(self, ids) -> None:
        """Offline policies receive the whole trace ids [tokens, layers, k] here."""

    def begin_prompt(self) -> None:
        """Prompt processing touches nearly every expert: admit into free slots only."""
        self.in_prompt = True

    def end_prompt(self) -> list:
        """Back to decode; returns (layer, expert, slot) uploads a policy wants now."""
        self.in_prompt = False
        return []

    def switch_context(self, context_id: str) -> list:
        """A conversation (re)starts; returns (layer, expert, slot) uploads. Default: none."""
        return []

    def snapshot(self) -> Snapshot:
        return Snapshot([table.resident() for table in self.tables])

    def restore(self, snapshot: Snapshot) -> list:
        """Make the snapshot's experts resident again; returns (layer, expert, slot) uploads."""
        uploads = []
        for layer, wanted in enumerate(snapshot.resident):
            uploads += self._restore_layer(layer, wanted)
        return uploads

    def _restore_layer(self, layer: int, wanted: list[int]) -> list:
        table = self.tables[layer]
        missing = [e for e in wanted if table.slot_of[e] == FREE][: table.n_slots]
        keep = set(wanted)
        uploads = []
        for expert in missing:
            slot = table.free.pop() if table.free else self._evict_for(layer, keep, [])
            table.admit(expert, slot)
            self._on_admit(layer, expert, slot)
            uploads.append((layer, expert, slot))
        return uploads

    def resident(self, layer: int) -> list[int]:
        return self.tables[layer].resident()
