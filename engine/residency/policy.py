"""The residency policy interface and its registry (vLLM eplb-policy style).

A policy owns one ``SlotTable`` per MoE layer. It works in the engine's semantics,
"decide after the token": decode token t runs with the tables published after token
t-1 (routed experts found in a slot are hits, the others run on the CPU that token);
then, per MoE layer, the engine calls::

    d = policy.after_token(layer, routed_ids, probs=None)   # routed_ids: [k] ints -> Decision
    # copy d.uploads [(expert, slot)] into GPU slots (<= upload cap), then publish the tables

``probs`` is the optional full router softmax [n_expert] of the step. A prompt batch
never calls ``after_token`` (it reads the tables and never evicts the decode set). On a
conversation switch ``switch_context(conversation_id)`` returns (layer, expert, slot)
uploads; ``snapshot()``/``restore()`` save and bring back a resident set.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import ClassVar

import numpy as np

from engine.errors import BudgetError
from engine.residency.budget import Budget
from engine.residency.slots import FREE, Decision, SlotTable

REGISTRY: dict[str, type["ResidencyPolicy"]] = {}
# name -> factory of the same policy with its step in C, None where it can't be built
# (filled by engine/residency/native_rotary.py); the registered class is the reference.
NATIVE: dict[str, object] = {}


def register(cls: type["ResidencyPolicy"]) -> type["ResidencyPolicy"]:
    """Class decorator: make a policy available under ``cls.name``."""
    if not cls.name or cls.name in REGISTRY:
        raise ValueError(f"policy name {cls.name!r} is empty or taken")
    REGISTRY[cls.name] = cls
    return cls


def make_policy(name: str, budget: Budget, n_expert: int, k: int, native: bool = True,
                **options) -> "ResidencyPolicy":
    """Build a registered policy by name; unknown names raise BudgetError listing the known ones.
    A policy with a native step gets it unless ``native=False`` (the Python reference)."""
    import engine.residency.policies  # noqa: F401, PLC0415  (fills REGISTRY and NATIVE)
    if name not in REGISTRY:
        raise BudgetError(f"Unknown residency policy '{name}'", f"known: {', '.join(sorted(REGISTRY))}")
    if native and name in NATIVE:
        policy = NATIVE[name](budget, n_expert, k, **options)
        if policy is not None:
            return policy
    return REGISTRY[name](budget, n_expert, k, **options)


class Snapshot:
    """A saved resident set: per layer, the experts that were in slots (plus policy extras)."""

    __slots__ = ("resident", "extra")

    def __init__(self, resident: list[list[int]], extra=None) -> None:
        self.resident = resident   # [layers][<= slots] expert ids
        self.extra = extra


class ResidencyPolicy(ABC):
    """Base class: the after-token flow; subclasses supply bookkeeping, ranking and victims."""

    name: ClassVar[str] = ""
    offline: ClassVar[bool] = False        # needs the whole trace first (call prepare)
    admits_misses: ClassVar[bool] = True   # False: nothing ever moves (static placements)
    protect_routed: ClassVar[bool] = True  # never evict an expert of the token just run

    def __init__(self, budget: Budget, n_expert: int, k: int, **options) -> None:
        budget.check(n_expert, k)
        if options:
            raise BudgetError(f"Policy '{self.name}' does not take options {sorted(options)}")
        self.budget, self.n_expert, self.k = budget, n_expert, k
        self.tables = [SlotTable(n_expert, slots) for slots in budget.slots]
        self.upload_cap = k if budget.upload_cap is None else budget.upload_cap
        self.clock = [0] * budget.n_layers      # [layers] decode tokens seen per layer

    # -- the per-token entry point -------------------------------------------------
    def after_token(self, layer: int, routed_ids, probs=None) -> Decision:
        """Count token t against the published tables, then stage the uploads for t + 1."""
        ids = routed_ids.tolist() if hasattr(routed_ids, "tolist") else list(routed_ids)
        slot_of = self.tables[layer].slot_of
        missed = [e for e in ids if slot_of[e] == FREE]          # ran on the CPU this token
        self.clock[layer] += 1
        self._observe(layer, ids, missed, probs)
        uploads: list = []
        evictions: list = []
        if missed and self.admits_misses and self.upload_cap > 0:
            self._decide(layer, ids, missed, uploads, evictions)
        return Decision(layer, len(ids) - len(missed), len(missed), uploads, evictions)

    def _decide(self, layer, ids, missed, uploads, evictions) -> None:
        """Demand admission: the best-ranked misses, up to the cap, each worth its victim."""
        table = self.tables[layer]
        protected = ids if self.protect_routed else ()
        for expert in self._rank(layer, missed)[: self.upload_cap]:
            if table.free:
                slot = table.free.pop()
            else:
                slot = self._victim(layer, protected)
                if not self._worth(layer, expert, table.expert_in[slot]):
                    return                       # ranked: later candidates are worth less
                evictions.append((table.expert_in[slot], slot))
                self._evict(layer, slot)
            self._admit(layer, expert, slot)
            uploads.append((expert, slot))

    def _admit(self, layer: int, expert: int, slot: int) -> None:
        self.tables[layer].admit(expert, slot)
        self._on_admit(layer, expert, slot)

    def _evict(self, layer: int, slot: int) -> int:
        expert = self.tables[layer].evict(slot)
        self._on_evict(layer, expert, slot)
        return expert

    # -- hooks ------------------------------------------------------------------------
    def _observe(self, layer: int, ids: list[int], missed: list[int], probs) -> None:
        """Bookkeeping for the routed experts of one token (``missed``: those not resident)."""

    def _rank(self, layer: int, missed: list[int]) -> list[int]:
        """Misses in the order they should be uploaded (the cap keeps the first ones)."""
        return missed

    def _worth(self, layer: int, expert: int, victim: int) -> bool:
        """Admission control: is ``expert`` worth evicting ``victim``? Default: always."""
        return True

    def _on_admit(self, layer: int, expert: int, slot: int) -> None:
        """An expert was staged into ``slot``."""

    def _on_evict(self, layer: int, expert: int, slot: int) -> None:
        """An expert left ``slot``."""

    @abstractmethod
    def _victim(self, layer: int, protected: list[int]) -> int:
        """The occupied slot to empty; never one holding an expert in ``protected``."""

    # -- offline data, conversations ------------------------------------------------------
    def prepare(self, ids) -> None:
        """Offline policies receive the whole decode trace ids [tokens, layers, k] here."""

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
        keep = list(wanted)
        uploads = []
        for expert in missing:
            slot = table.free.pop() if table.free else self._victim(layer, keep)
            if table.expert_in[slot] != FREE:
                self._evict(layer, slot)
            self._admit(layer, expert, slot)
            uploads.append((layer, expert, slot))
        return uploads

    # -- the prompt -----------------------------------------------------------------------
    PROMPT_WINDOW: ClassVar[int] = 64     # the last prompt tokens a warm start looks at

    def observe_prompt(self, routing) -> list:
        """The prompt's routing ids [tokens, layers, k] (-1 where a layer did not route a
        token), before the first decoded token: the experts its last tokens used most (up to
        2k a layer) become resident; returns
        (layer, expert, slot) uploads. Prompt tokens count as neither hits nor misses."""
        recent = np.asarray(routing)[-self.PROMPT_WINDOW:]
        uploads: list = []
        for layer, table in enumerate(self.tables[: recent.shape[1]]):
            routed = recent[:, layer].ravel()
            counts = np.bincount(routed[routed >= 0], minlength=self.n_expert)   # -1: not routed
            order = np.argsort(-counts, kind="stable")               # most used first
            wanted = [int(e) for e in order[: min(2 * self.k, table.n_slots)] if counts[e] > 0]
            uploads += self._restore_layer(layer, wanted)
        return uploads

    def resident(self, layer: int) -> list[int]:
        """slot -> expert (FREE = -1): the staged table after the last call."""
        return list(self.tables[layer].expert_in)
