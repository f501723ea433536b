"""The residency policy interface: what every policy does after a token, before decode, and
when the conversation changes.

A policy owns one ``SlotTable`` per MoE layer. It works in the engine's semantics,
"decide after the token": decode token t runs with the tables published after token
t-1 (routed experts found in a slot are hits, the others run on the CPU that token);
then, per MoE layer, the engine calls::

    d = policy.after_token(layer, routed_ids, probs=None)   # routed_ids: [k] ints -> Decision
    # copy d.uploads [(expert, slot)] into GPU slots (<= upload cap), then publish the tables

``probs`` is the optional full router softmax [n_expert] of the step. A prompt batch never
calls ``after_token``; once the prompt is read, before the first decode token, the engine
calls ``observe_prompt(routing)`` with the prompt's routed ids (the warm start) and uploads
what it returns. A conversation (re)starts with ``switch_context(conversation_id)``; the
policy keeps the resident sets of the last ``CONVERSATIONS_KEPT`` conversations and brings
one back on return. Those two and ``restore`` return (layer, expert, slot) uploads.
The registry of policies by name is ``engine.residency.policy``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections import OrderedDict
from typing import Callable, ClassVar, Sequence

import numpy as np

from engine.errors import BudgetError
from engine.residency.budget import Budget
from engine.residency.slots import FREE, Decision, SlotTable

CONVERSATIONS_KEPT = 16       # resident sets remembered, least recently used dropped first


class Snapshot:
    """A saved resident set: per layer, the experts that were in slots (plus policy extras)."""

    __slots__ = ("resident", "extra")

    def __init__(self, resident: list[list[int]], extra=None) -> None:
        self.resident = resident   # [layers][<= slots] expert ids
        self.extra = extra


class ConversationSets:
    """The resident sets of the last ``limit`` conversations by id (least recently used out)."""

    def __init__(self, limit: int = CONVERSATIONS_KEPT) -> None:
        self.limit = limit
        self._sets: OrderedDict[int, Snapshot] = OrderedDict()

    def save(self, conversation_id: int, snapshot: Snapshot) -> None:
        self._sets[conversation_id] = snapshot
        self._sets.move_to_end(conversation_id)
        while len(self._sets) > self.limit:
            self._sets.popitem(last=False)

    def take(self, conversation_id: int) -> Snapshot | None:
        """The saved set (marked as just used), or None."""
        if conversation_id not in self._sets:
            return None
        self._sets.move_to_end(conversation_id)
        return self._sets[conversation_id]

    def __len__(self) -> int:
        return len(self._sets)

    def __contains__(self, conversation_id: int) -> bool:
        return conversation_id in self._sets


def check_conversation_id(conversation_id) -> int:
    """Conversation ids are the app's integer ids (engine.api); anything else is a bug."""
    if not isinstance(conversation_id, (int, np.integer)) or isinstance(conversation_id, bool):
        raise TypeError(f"a conversation id is an int, got {type(conversation_id).__name__} "
                        f"{conversation_id!r}")
    return int(conversation_id)


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
        # SlotTable each, or a view with its fields (native_rotary.NativeSlotTable)
        self.tables: list = [SlotTable(n_expert, slots) for slots in budget.slots]
        self.upload_cap = k if budget.upload_cap is None else budget.upload_cap
        # [layers] uploads the token being computed already made (prefetch_predicted): they
        # come out of the same per-token cap as the after-token uploads
        self.spent = [0] * budget.n_layers
        self.clock: list[int] | np.ndarray = [0] * budget.n_layers  # [layers] decode tokens seen
        self.conversations = ConversationSets()
        self.conversation: int | None = None

    # -- a step in native code (engine/residency/native_rotary.py overrides these) ---------
    def engine_step(self, functions: dict, ctx, model_layers, ids) -> Callable[[], tuple] | None:
        """The whole step after a token in C for the slot cache, or None: this policy decides
        in Python, layer by layer (the default)."""
        return None

    def rings(self) -> list:
        """[layer] the live slot -> expert int32 views a native step updates ([]: none)."""
        return []

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
        room = self.upload_cap - self.spent[layer]
        self.spent[layer] = 0
        if missed and self.admits_misses and room > 0:
            self._decide(layer, ids, missed, uploads, evictions, room)
        return Decision(layer, len(ids) - len(missed), len(missed), uploads, evictions)

    def _decide(self, layer, ids, missed, uploads, evictions, room: int) -> None:
        """Demand admission: the best-ranked misses, up to ``room`` (the cap less this token's
        prefetches), each worth its victim."""
        table = self.tables[layer]
        protected = ids if self.protect_routed else ()
        for expert in self._rank(layer, missed)[:room]:
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
    def _victim(self, layer: int, protected: Sequence[int]) -> int:
        """The occupied slot to empty; never one holding an expert in ``protected``."""

    # -- offline data, conversations ------------------------------------------------------
    def prepare(self, ids) -> None:
        """Offline policies receive the whole decode trace ids [tokens, layers, k] here."""

    def switch_context(self, conversation_id: int) -> list:
        """A conversation (re)starts: keep the set the old one leaves with, bring back the new
        one's if it was seen among the last CONVERSATIONS_KEPT; (layer, expert, slot) uploads."""
        conversation_id = check_conversation_id(conversation_id)
        if conversation_id == self.conversation:
            return []
        if self.conversation is not None:
            self.conversations.save(self.conversation, self.snapshot())
        self.conversation = conversation_id
        saved = self.conversations.take(conversation_id)
        return self.restore(saved) if saved is not None else []

    # -- the warm start ---------------------------------------------------------------------
    # Last prompt tokens fed through after_token. Measured on the chat traces (LRU, LFU, LFRU):
    # +1..+16 points at 25-50% of the experts, -1.5..+3 at 12.5%; 32 is as good as the whole
    # prompt and costs fewer uploads.
    PROMPT_WARM: ClassVar[int] = 32

    def observe_prompt(self, routing: np.ndarray) -> list:
        """The prompt's routing, int32 [prompt tokens, layers, k] in token order (a row of -1:
        that layer did not route that token), once before the first decode token; returns the
        (layer, expert, slot) uploads wanted now. Default: the last PROMPT_WARM tokens go
        through the normal step, uncounted, and the tables' net change is uploaded."""
        if not self.PROMPT_WARM or not self.admits_misses:
            return []
        routing = check_prompt(routing, len(self.tables), self.k, self.n_expert)
        before = [list(table.expert_in) for table in self.tables]
        for token in routing[-self.PROMPT_WARM:].tolist():
            for layer, ids in enumerate(token):
                if ids[0] >= 0:
                    self.after_token(layer, ids)
        return changed_slots(before, [table.expert_in for table in self.tables])

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

    def prefetch(self, layer: int, experts: list[int]) -> list:
        """Upload ``experts`` of ``layer`` now, before they are routed (the simulator's
        intra-token prefetch study): each into a free slot or the lowest-ranked resident not
        among them; returns (expert, slot) uploads."""
        return [(expert, slot) for _, expert, slot in self._restore_layer(layer, experts)]

    def prefetch_predicted(self, layer: int, predicted: list[int]) -> list:
        """Experts of ``layer`` predicted for the token being computed (from an earlier layer's
        hidden state, before this layer routes), uploaded now: the not-resident ones in the
        predictor's order, as many as this token's upload cap still allows, each into a free
        slot or the lowest-ranked resident that is not predicted. They count against the same
        cap as this token's after-token uploads. Returns (expert, slot) uploads."""
        if not self.admits_misses:
            return []
        table = self.tables[layer]
        room = self.upload_cap - self.spent[layer]
        wanted = [e for e in dict.fromkeys(predicted) if table.slot_of[e] == FREE][:max(0, room)]
        uploads = []
        for expert in wanted:
            slot = table.free.pop() if table.free else self._victim(layer, predicted)
            if table.expert_in[slot] != FREE:
                self._evict(layer, slot)
            self._admit(layer, expert, slot)
            uploads.append((expert, slot))
        self.spent[layer] += len(uploads)
        return uploads

    def resident(self, layer: int) -> list[int]:
        """slot -> expert (FREE = -1): the staged table after the last call."""
        return list(self.tables[layer].expert_in)


def check_prompt(routing, n_layers: int, k: int, n_expert: int) -> np.ndarray:
    """routing as int32 [tokens, n_layers, k]; ValueError unless each row is all -1 (that layer
    did not route that token) or k ids in range."""
    routing = np.asarray(routing)
    if routing.ndim != 3 or routing.shape[1:] != (n_layers, k) or routing.dtype.kind not in "iu":
        raise ValueError(f"prompt routing must be ints [tokens, {n_layers}, {k}], got "
                         f"{routing.dtype} {routing.shape}")
    unrouted = (routing == -1).all(axis=2)
    if ((routing < 0) | (routing >= n_expert))[~unrouted].any():
        raise ValueError(f"prompt routing ids must be 0..{n_expert - 1}, or a whole row of -1")
    return routing.astype(np.int32, copy=False)


def changed_slots(before: list[list[int]], after: list[list[int]]) -> list:
    """(layer, expert, slot) for every slot whose expert differs between two sets of rings."""
    return [(layer, expert, slot) for layer, (old, new) in enumerate(zip(before, after))
            for slot, expert in enumerate(new) if expert != FREE and expert != old[slot]]
