"""The rotary residency policy: the routing comes round again, so look where it went last time.

Decoding repeats itself at every scale (a phrase, a code idiom, a greedy loop) and the
routing repeats with it: MoE routing at the first MoE layer is nearly a function of the
token, so the first layer's ids of the last ``order`` tokens identify "where we are".
When that context occurred before, the routing that followed it then is the forecast
for the next ``horizon`` tokens (measured on the real traces: 62-94% of the forecast
experts are right where a context matched, 42-84% of tokens). Decisions use only routing
up to token t, so they are legal in the engine's "decide after the token" semantics.

Per layer, after token t:
* a resident or a miss forecast at distance d is worth keeping in proportion to 1/d
  (Belady on the forecast); the others rank below every forecast expert, by a decayed
  frequency (LRFU with half-life ``half_life``).
* a miss is uploaded only when it outranks the victim (admission control: an expert the
  forecast does not need stays on the CPU instead of costing an upload).
* the victim is the lowest-ranked of ``scan`` occupied slots ahead of a hand that walks
  the slot ring (the rotation; it bounds the step cost at large slot counts).
* with the router's full probabilities (``probs``), experts the router nearly chose get
  that share of a use in the frequency (mechanism tested on fixtures; unmeasured on real
  traces, which carry no probabilities).

Calls must come layer 0 first for every token (layer 0's call opens a new token).

This class is the reference. ``make_policy("rotary", ...)`` gives the same policy with its
step in C (native_rotary.NativeRotaryPolicy, identical decisions, tested step by step)
wherever that compiles; ``make_policy("rotary", ..., native=False)`` gives this one.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import chain

import numpy as np

from engine.residency.base import ResidencyPolicy
from engine.residency.slots import FREE

RENORMALISE_AT = 1e150


@dataclass(frozen=True)
class RotaryConfig:
    order: int = 3              # tokens of layer-0 routing that identify a context (falls back to shorter)
    horizon: int = 16           # tokens of the past continuation used as the forecast
    half_life: float = 8.0      # tokens for the frequency of unforecast experts to halve (chosen
                                # on all four real families; the bench scores it held-out)
    scan: int = 16              # occupied slots the hand compares per eviction
    memory: int = 8192          # tokens of routing history kept for matching
    near_miss: int = 0          # with probs: top non-routed experts credited (0: 2 * k)
    layer_match: bool = True    # no layer-0 context match: match this layer's own routing


class RotaryPolicy(ResidencyPolicy):
    name = "rotary"

    def __init__(self, budget, n_expert, k, config: RotaryConfig | None = None, **options) -> None:
        super().__init__(budget, n_expert, k, **options)
        self.cfg = cfg = config or RotaryConfig()
        n_layers = budget.n_layers
        self.growth = 2.0 ** (1.0 / cfg.half_life)
        self.freq = [[0.0] * n_expert for _ in range(n_layers)]   # [layers][n_expert] decayed uses x boost
        self.boost = [1.0] * n_layers
        self.hand = [0] * n_layers
        self.history: list = [None] * cfg.memory    # [memory] per token: [layers] routed id lists
        self.signature: list = [None] * cfg.memory  # [memory] layer-0 ids of each token (a tuple)
        self.seen = [{} for _ in range(cfg.order)]  # per context length: context -> last token
        self.token = -1                              # decode tokens seen - 1
        self.match = -1                              # past token whose context equals the current one
        self.forecast: list = [None] * n_layers  # [layers] expert -> distance (1..horizon), lazy
        self.start = [-1] * n_layers              # [layers] past token the forecast follows
        self.seen_layer = [{} for _ in range(n_layers)]  # [layers] routed ids -> last token

    # -- bookkeeping -------------------------------------------------------------------
    def _observe(self, layer, ids, missed, probs) -> None:
        if layer == 0:
            self._next_token(ids)
        self.history[self.token % self.cfg.memory][layer] = ids
        self._count(layer, ids, probs)
        start = self.match
        if self.cfg.layer_match:
            key = tuple(sorted(ids))
            if start < 0:
                start = self.seen_layer[layer].get(key, -1)
                if self.token - start >= self.cfg.memory - self.cfg.horizon:
                    start = -1
            self.seen_layer[layer][key] = self.token
        self.start[layer] = start          # the forecast is built only if a decision needs it
        self.forecast[layer] = None

    def _next_token(self, ids0: list[int]) -> None:
        """Open token t, find the latest earlier token whose context matches (longest first)."""
        cfg, t = self.cfg, self.token + 1
        self.token = t
        self.history[t % cfg.memory] = [None] * len(self.tables)
        self.signature[t % cfg.memory] = tuple(sorted(ids0))   # the engine gives rank order
        if t and t % cfg.memory == 0:
            self._forget_before(t - cfg.memory)
        self.match = -1
        for length in range(min(cfg.order, t + 1), 0, -1):
            key = tuple(self.signature[(t - i) % cfg.memory] for i in range(length))
            earlier = self.seen[length - 1].get(key, -1)
            if self.match < 0 and earlier >= 0 and t - earlier < cfg.memory - cfg.horizon:
                self.match = earlier
            self.seen[length - 1][key] = t

    def _forget_before(self, oldest: int) -> None:
        """Drop contexts whose history rows are overwritten (keeps the dicts bounded)."""
        for seen in (*self.seen, *self.seen_layer):
            for key in [key for key, t in seen.items() if t < oldest]:
                del seen[key]

    def _forecast(self, layer: int, start: int) -> dict[int, int]:
        """expert -> first distance at which it followed token ``start`` (known rows only)."""
        memory, history = self.cfg.memory, self.history
        rows = [(d, history[(start + d) % memory][layer])          # nearest written last
                for d in range(min(self.cfg.horizon, self.token - start), 0, -1)]
        return {expert: d for d, row in rows if row is not None for expert in row}

    def _count(self, layer: int, ids: list[int], probs) -> None:
        boost = self.boost[layer] * self.growth
        self.boost[layer] = boost
        freq = self.freq[layer]
        for expert in ids:
            freq[expert] += boost
        if probs is not None:
            self._credit_near_misses(layer, ids, probs, boost)
        if boost > RENORMALISE_AT:
            self.freq[layer] = [f / boost for f in freq]
            self.boost[layer] = 1.0

    def _credit_near_misses(self, layer: int, ids: list[int], probs, boost: float) -> None:
        """The router's runners-up get a share of a use (see near_miss_credits)."""
        freq = self.freq[layer]
        for expert, share in near_miss_credits(probs, ids, self.cfg.near_miss or 2 * self.k):
            freq[expert] += boost * share

    # -- ranking: forecast experts by distance, then the rest by decayed frequency ---------
    def _keys(self, layer: int, experts) -> list[float]:
        """Rank keys: 1e9 / d for an expert forecast at distance d, else its decayed frequency
        (freq / boost <= 1 / (1 - 2^(-1/half_life)), far below any forecast key)."""
        forecast = self.forecast[layer]
        if forecast is None:
            start = self.start[layer]
            forecast = self.forecast[layer] = self._forecast(layer, start) if start >= 0 else {}
        freq, inv_boost = self.freq[layer], 1.0 / self.boost[layer]
        return [1e9 / forecast[e] if e in forecast else freq[e] * inv_boost for e in experts]

    def _decide(self, layer, ids, missed, uploads, evictions) -> None:
        """Best-ranked misses first; each takes a free slot or the lowest-ranked sampled
        resident, only while it outranks that resident (admission control)."""
        table = self.tables[layer]
        keys = self._keys(layer, missed)
        ranked = sorted(zip(keys, missed), reverse=True)[: self.upload_cap]
        need = len(ranked) - len(table.free)
        victims = self._sample_victims(layer, need, ids) if need > 0 else []
        for key, expert in ranked:
            if table.free:
                slot = table.free.pop()
            else:
                if not victims or victims[0][0] >= key:
                    return                                   # not worth its upload: stays on the CPU
                _, slot = victims.pop(0)
                evictions.append((table.expert_in[slot], slot))
                self._evict(layer, slot)
            self._admit(layer, expert, slot)
            uploads.append((expert, slot))

    def _sample_victims(self, layer: int, count: int, protected) -> list[tuple[float, int]]:
        """The hand samples >= ``scan`` occupied, unprotected slots ahead of it; returns the
        ``count`` lowest-ranked as (key, slot), lowest first, and rotates past the last."""
        ring, hand = self.tables[layer].expert_in, self.hand[layer]
        n_slots, want = len(ring), max(self.cfg.scan, count)
        order = chain(range(hand, n_slots), range(hand))       # the ring, starting at the hand
        if n_slots > want:       # stop after ``want`` candidates (a list comprehension cannot)
            slots = []
            for slot in order:
                if ring[slot] != FREE and ring[slot] not in protected:
                    slots.append(slot)
                    if len(slots) == want:
                        break
        else:                    # the hand sees the whole ring anyway
            slots = [slot for slot in order if ring[slot] != FREE and ring[slot] not in protected]
        pairs = zip(self._keys(layer, [ring[slot] for slot in slots]), slots)
        if count == 1:           # (key, slot) pairs are distinct: min is sorted's first
            chosen = [min(pairs)] if slots else []
        else:
            chosen = sorted(pairs)[:count]
        if chosen:
            last = max(chosen, key=lambda pair: (pair[1] - hand) % n_slots)[1]
            self.hand[layer] = (last + 1) % n_slots
        return chosen

    def _victim(self, layer, protected) -> int:
        return self._sample_victims(layer, 1, protected)[0][1]


def near_miss_top(probs, n_routed: int, runners_up: int) -> tuple[np.ndarray, np.ndarray]:
    """probs as float32 [n_expert] and the indices [count] of its best ``runners_up +
    n_routed`` scores (the native policy credits from the same indices)."""
    probs = np.asarray(probs, dtype=np.float32)                        # [n_expert]
    count = min(len(probs), runners_up + n_routed)
    return probs, np.argpartition(probs, len(probs) - count)[-count:]  # [count] best scores


def near_miss_credits(probs, ids: list[int], runners_up: int) -> list[tuple[int, float]]:
    """(expert, share) for the router's top non-routed experts: the probability relative to
    the top one as a use. Scores that are not probabilities (negative or > 1: raw logits,
    e.g. gpt-oss gating) count as exp(score - top), a softmax ratio."""
    probs, top = near_miss_top(probs, len(ids), runners_up)
    values = probs[top].tolist()
    peak = max(values)
    logits = peak > 1.0 or min(values) < 0.0
    routed = set(ids)
    return [(expert, math.exp(value - peak) if logits else value / peak if peak > 0 else 0.0)
            for expert, value in zip(top.tolist(), values) if expert not in routed]
