"""The rotary residency policy: a slot ring turned by what the router produces.

Forward rotation: a hand walks the ring of slots; at each miss it samples the next
``scan`` occupied slots and empties the one whose expert is least likely to be used
soon. That estimate is the sum of two usage rates per token: a short window (recency:
routing reuse is very local, median reuse distance ~2 tokens) and a slowly decaying
frequency (protection: experts the current context keeps returning to).

Backward rotation: evicted experts go to a ghost ring stamped with the epoch they left
in; every ``epoch`` steps the ring's resident set is remembered (the ring's earlier
positions). When several misses in a short span hit ghosts from the same earlier epoch,
that context is back, and its remembered set is rotated back in a few slots per step
(``return_votes``; off by default because it did not pay on synthetic traces). A
conversation switch (``switch_context``) restores the set that conversation left with.

Prompt processing only reads; at its end (``end_prompt``) the experts the prompt used
most replace residents that scored lower (prewarm). With a ``predictor`` — a callable
``predictor(layer, hidden) -> expert ids of layer + 1`` (in the engine: the next layer's
router applied to this layer's hidden state) — it prefetches the next layer's experts.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from engine.residency.policy import ResidencyPolicy, Snapshot, register
from engine.residency.slots import FREE

NEVER_USED = -(1 << 40)


@dataclass(frozen=True)
class RotaryConfig:
    window: int = 12            # tokens in the recency window
    half_life: float = 50.0     # tokens for the frequency estimate to halve
    scan: int = 12              # occupied slots the hand compares per eviction (16: +0.1 pt, slower)
    ghost_factor: float = 2.0   # ghost ring length as a multiple of the slots
    epoch: int = 64             # steps between remembered ring positions
    epochs_kept: int = 8        # how far back the ring can rotate
    # Ghost hits from one old epoch that mean "that context is back"; 0 turns automatic
    # backward rotation off. Off by default: on synthetic traces it cost bytes and gained
    # nothing (demand misses refill a returning set as fast), see bench_residency_quality.
    return_votes: int = 0
    restore_per_step: int = 2   # backward-rotation uploads per step (on top of demand misses)
    prewarm: bool = True        # at the end of a prompt, admit what the prompt used most
    prefetch: int = 4           # most predicted next-layer experts uploaded per step


class _Ring:
    """Per-layer state besides the SlotTable; plain lists for cheap scalar access."""

    __slots__ = ("window", "history", "last", "freq", "total", "boost", "hand",
                 "ghost", "ghost_epoch", "ghost_at", "ghost_head", "epochs", "votes", "pending")

    def __init__(self, n_expert: int, n_slots: int, cfg: RotaryConfig) -> None:
        self.window = [0] * n_expert                 # [n_expert] uses within the window
        self.history: list = [[] for _ in range(cfg.window)]   # [window] id lists, by step % window
        self.last = [NEVER_USED] * n_expert          # [n_expert] step of last use
        self.freq = [0.0] * n_expert                 # [n_expert] decayed uses, inflated by boost
        self.total = 0.0                             # decayed selections, same inflation
        self.boost = 1.0                             # 2 ** (steps / half_life), renormalised
        self.hand = 0
        size = max(1, int(cfg.ghost_factor * n_slots))
        self.ghost = [FREE] * size                   # [ghosts] evicted experts, oldest overwritten
        self.ghost_epoch = [0] * size                # [ghosts] epoch each one left in
        self.ghost_at = [FREE] * n_expert            # [n_expert] index into ghost or FREE
        self.ghost_head = 0
        self.epochs: deque = deque(maxlen=cfg.epochs_kept)   # (epoch, resident experts)
        self.votes: dict[int, int] = {}              # old epoch -> ghost hits this epoch
        self.pending: list[int] = []                 # experts queued for backward rotation


@register
class RotaryPolicy(ResidencyPolicy):
    name = "rotary"

    def __init__(self, budget, n_expert, k, config: RotaryConfig | None = None,
                 predictor=None, **options) -> None:
        super().__init__(budget, n_expert, k, **options)
        self.cfg = config or RotaryConfig()
        self.window_len, self.epoch_len = self.cfg.window, self.cfg.epoch   # hot-path copies
        self.votes_needed = self.cfg.return_votes
        self.growth = 2.0 ** (1.0 / self.cfg.half_life)
        self.rings = [_Ring(n_expert, slots, self.cfg) for slots in budget.slots]
        self.predictor = predictor
        self.contexts: dict[str, Snapshot] = {}
        self.context: str | None = None

    # -- scoring ------------------------------------------------------------------
    def _scores(self, layer: int, experts: list[int]) -> list[float]:
        """Expected uses per token: recent window rate plus decayed long-run rate."""
        ring = self.rings[layer]
        window, freq = ring.window, ring.freq
        inv_w = 1.0 / self.window_len
        f_scale = self.k / ring.total if ring.total else 0.0
        return [window[e] * inv_w + freq[e] * f_scale for e in experts]

    def _on_use(self, layer, ids, slots, weights) -> None:
        ring = self.rings[layer]
        window, last, freq = ring.window, ring.last, ring.freq
        now = self.clock[layer]
        ring.boost *= self.growth
        boost = ring.boost
        for expert in ids:
            window[expert] += 1
            last[expert] = now
            freq[expert] += boost
        ring.total += boost * len(ids)
        history, at = ring.history, now % self.window_len      # ring buffer of id lists
        for expert in history[at]:
            window[expert] -= 1
        history[at] = ids
        if boost > 1e150:
            self._renormalise(ring)
        if self.votes_needed:
            if now % self.epoch_len == 0:
                self._new_epoch(layer, now // self.epoch_len)
            if FREE in slots:
                self._ghost_votes(layer, ids, slots)

    @staticmethod
    def _renormalise(ring: _Ring) -> None:
        scale = 1.0 / ring.boost
        ring.freq = [f * scale for f in ring.freq]
        ring.total *= scale
        ring.boost = 1.0

    # -- forward rotation: demand misses ------------------------------------------
    def _admit_misses(self, layer, ids, slots, admits, evicts) -> None:
        table = self.tables[layer]
        free = table.free
        miss_at = [i for i, s in enumerate(slots) if s == FREE]      # positions in ids
        if len(miss_at) > self.upload_cap:     # upload the misses most likely to be reused
            scores = self._scores(layer, [ids[i] for i in miss_at])
            ranked = sorted(range(len(miss_at)), key=scores.__getitem__, reverse=True)
            miss_at = [miss_at[j] for j in ranked[: self.upload_cap]]
        if self.in_prompt:
            miss_at = miss_at[: len(free)]
        need = len(miss_at) - len(free)
        victims = self._pick_victims(layer, need, set(ids)) if need > 0 else []
        for i in miss_at:
            if free:
                slot = free.pop()
            else:
                slot = victims.pop()
                evicts.append((self._evict(layer, slot), slot))
            table.admit(ids[i], slot)
            slots[i] = slot
            admits.append((ids[i], slot))

    def _pick_victims(self, layer: int, count: int, protected) -> list[int]:
        """The hand samples >= ``scan`` occupied slots ahead of it; returns the ``count`` lowest."""
        table, ring = self.tables[layer], self.rings[layer]
        n_slots, hand = table.n_slots, ring.hand
        uses, freq = ring.window, ring.freq
        inv_w = 1.0 / self.window_len
        f_scale = self.k / ring.total if ring.total else 0.0
        span = min(n_slots, max(self.cfg.scan, 2 * count) + len(protected))
        while True:
            ahead = table.expert_in[hand:hand + span]                   # [span] experts ahead
            if len(ahead) < span:
                ahead += table.expert_in[: span - len(ahead)]
            # (expected uses per token, offset from the hand), same formula as _scores
            scored = [(uses[e] * inv_w + freq[e] * f_scale, i)
                      for i, e in enumerate(ahead) if e != FREE and e not in protected]
            if len(scored) >= count or span == n_slots:
                break
            span = n_slots                                             # rare: sample mostly protected
        if not scored:
            return []
        chosen = [min(scored)] if count == 1 else sorted(scored)[:count]
        offsets = [i for _, i in chosen]
        ring.hand = (hand + max(offsets) + 1) % n_slots                # rotate past the last victim
        return [(hand + i) % n_slots for i in offsets]

    def _victim(self, layer, protected) -> int:
        return self._pick_victims(layer, 1, protected)[0]

    def _evict(self, layer: int, slot: int) -> int:
        """Empty ``slot``; its expert joins the ghost ring, stamped with the current epoch."""
        expert = self.tables[layer].evict(slot)
        if not self.votes_needed:
            return expert                      # automatic backward rotation off: no ghosts needed
        ring = self.rings[layer]
        head = ring.ghost_head
        old = ring.ghost[head]
        if old != FREE:
            ring.ghost_at[old] = FREE
        ring.ghost[head] = expert
        ring.ghost_epoch[head] = self.clock[layer] // self.cfg.epoch
        ring.ghost_at[expert] = head
        ring.ghost_head = head + 1 if head + 1 < len(ring.ghost) else 0
        return expert

    # -- backward rotation ----------------------------------------------------------
    def _new_epoch(self, layer: int, epoch: int) -> None:
        ring = self.rings[layer]
        ring.epochs.append((epoch, self.tables[layer].resident()))
        ring.votes.clear()

    def _ghost_votes(self, layer: int, ids, slots) -> None:
        """Misses that hit ghosts from an older epoch vote for rotating back to it."""
        ring = self.rings[layer]
        current = self.clock[layer] // self.cfg.epoch
        for expert, slot in zip(ids, slots):
            at = ring.ghost_at[expert] if slot == FREE else FREE
            if at == FREE:
                continue
            ring.ghost_at[expert] = FREE
            ring.ghost[at] = FREE
            old = ring.ghost_epoch[at]
            if old < current - 1:
                ring.votes[old] = ring.votes.get(old, 0) + 1
                if ring.votes[old] == self.cfg.return_votes > 0:
                    self._rotate_back(layer, old)

    def _rotate_back(self, layer: int, old_epoch: int) -> None:
        ring, slot_of = self.rings[layer], self.tables[layer].slot_of
        for epoch, resident in reversed(ring.epochs):
            if epoch <= old_epoch:
                ring.pending = [e for e in resident if slot_of[e] == FREE]
                return

    def _prefetch(self, layer, ids, weights, hidden) -> list:
        if self.in_prompt or (self.predictor is None and not self.rings[layer].pending):
            return []
        uploads = self._restore_some(layer, ids) if self.rings[layer].pending else []
        if self.predictor is not None and hidden is not None and layer + 1 < len(self.tables):
            uploads += self._prefetch_next(layer + 1, self.predictor(layer, hidden))
        return uploads

    def _restore_some(self, layer: int, ids) -> list:
        ring = self.rings[layer]
        batch = ring.pending[: self.cfg.restore_per_step]
        del ring.pending[: self.cfg.restore_per_step]
        return self._upload(layer, [e for e in batch if self.tables[layer].slot_of[e] == FREE], ids)

    def _prefetch_next(self, layer: int, guesses) -> list:
        table = self.tables[layer]
        wanted = [e for e in dict.fromkeys(guesses) if table.slot_of[e] == FREE]
        # protect every guess: a resident one must not make room for a prefetched one
        return self._upload(layer, wanted[: min(self.cfg.prefetch, table.n_slots)], guesses)

    def _upload(self, layer: int, experts: list[int], protected) -> list:
        """Admit ``experts`` outside a demand miss; returns (layer, expert, slot) ops."""
        table = self.tables[layer]
        need = len(experts) - len(table.free)
        victims = self._pick_victims(layer, need, protected) if need > 0 else []
        ops = []
        for expert in experts[: len(table.free) + len(victims)]:
            slot = table.free.pop() if table.free else victims.pop()
            if table.expert_in[slot] != FREE:
                self._evict(layer, slot)
            table.admit(expert, slot)
            ops.append((layer, expert, slot))
        return ops

    # -- prompts and conversations -------------------------------------------------
    def begin_prompt(self) -> None:
        super().begin_prompt()
        self.prompt_from = list(self.clock)

    def end_prompt(self) -> list:
        super().end_prompt()
        if not self.cfg.prewarm or not hasattr(self, "prompt_from"):
            return []
        ops = []
        for layer in range(len(self.tables)):
            ops += self._prewarm(layer, self.prompt_from[layer])
        return ops

    def _prewarm(self, layer: int, since: int) -> list:
        """Swap in prompt experts that now score above the weakest residents."""
        table, last = self.tables[layer], self.rings[layer].last
        used = [e for e in range(self.n_expert) if last[e] > since and table.slot_of[e] == FREE]
        if not used:
            return []
        resident = table.resident()
        incoming = sorted(zip(self._scores(layer, used), used), reverse=True)[: table.n_slots]
        outgoing = sorted(zip(self._scores(layer, resident), resident))
        outgoing = [(0.0, FREE)] * len(table.free) + outgoing
        swaps = [e for (score, e), (worst, _) in zip(incoming, outgoing) if score > worst]
        return self._upload(layer, swaps, swaps)

    def switch_context(self, context_id: str) -> list:
        """Remember the set the old conversation leaves with; restore the new one's."""
        if self.context is not None:
            self.contexts[self.context] = self.snapshot()
        self.context = context_id
        saved = self.contexts.get(context_id)
        return self.restore(saved) if saved is not None else []

    def snapshot(self) -> Snapshot:
        shares = [{e: ring.freq[e] / ring.total for e in table.resident()} if ring.total else {}
                  for table, ring in zip(self.tables, self.rings)]
        return Snapshot([table.resident() for table in self.tables], shares)

    def restore(self, snapshot: Snapshot) -> list:
        """Rotate the saved set back in and give it back its frequency protection."""
        ops = []
        for layer, wanted in enumerate(snapshot.resident):
            ring = self.rings[layer]
            for expert, share in (snapshot.extra[layer] if snapshot.extra else {}).items():
                ring.freq[expert] = max(ring.freq[expert], share * ring.total)
            ops += self._upload(layer, [e for e in wanted if self.tables[layer].slot_of[e] == FREE], set(wanted))
        return ops
