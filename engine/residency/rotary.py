"""The rotary residency policy: pick the time scale that is working now, and look where the
routing went the last time this context came round.

No single rule wins everywhere. On routing that repeats (greedy generations, loops, code) the
forecast "what followed this routing context last time" is right most of the time; on short
sampled chat turns routing is popularity-driven and a frequency with the right memory wins;
small slot counts want admission control (refuse an upload that would evict something worth
more), large ones do not. So each layer runs, beside its real slots, a few *shadow* caches of
the same size, one per candidate rule, on the same routing (bookkeeping only, nothing is
uploaded), and follows the rule whose shadow hit most over the recent past:

* a decayed use count (LRFU) at each half-life of ``half_lives`` (default 4, 16, 64 tokens and
  never), each with demand admission (every miss comes in, the lowest score goes) or with
  admission control (only when the miss outscores the victim);
* the forecast: experts forecast at distance d rank by 1/d above all others, the rest by the
  current best half-life's score; an upload is refused when the resident it would evict is
  forecast sooner, and otherwise admitted as the best plain rule (by the same tally) admits.

The shadows' hits are tallied with a half-life of ``window`` tokens. A layer follows the rule
with the highest tally plus ``pool`` times the mean tally of that rule over all layers: a
128-token chat gives one layer little evidence, and the layers mostly agree on the time
scale. Ties keep the current rule. Eviction takes the exact lowest-ranked unprotected
resident. Decisions use only routing up to token t, so they are legal in the engine's
"decide after the token" semantics.

The forecast (the first version's whole policy): the first MoE layer's ids of the last
``order`` tokens identify "where we are" (routing there is nearly a function of the token);
where that context occurred before, the routing that followed it then is the forecast for the
next ``horizon`` tokens; without such a match, a layer's own routing is matched.

Warm start (``observe_prompt``): the prompt's routing trains the scores, shadows and the
forecast's memory (its last ``prompt_learn`` tokens); its last ``prompt_feed`` tokens then go
through the normal step, so the slots start the answer with what the prompt used.

With the router's full probabilities (``probs``), experts the router nearly chose get that
share of a use in every score (mechanism tested on fixtures; unmeasured on real traces).
Calls must come layer 0 first for every token (layer 0's call opens a new token).

This class is the reference. ``make_policy("rotary", ...)`` gives the same policy with its
step in C (native_rotary.NativeRotaryPolicy, identical decisions, tested step by step)
wherever that compiles; ``make_policy("rotary", ..., native=False)`` gives this one.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from engine.residency.base import ResidencyPolicy, changed_slots, check_prompt
from engine.residency.slots import FREE

RENORMALISE_AT = 1e150
NEVER = math.inf                  # a half-life that never decays: plain use counts
FORECAST_KEY = 1e12               # 1e12 / d: above any score (counts stay far below 1e12)
ALWAYS, OUTSCORE = 0, 1           # admission: every miss / a miss that outscores the victim


@dataclass(frozen=True)
class RotaryConfig:
    half_lives: tuple[float, ...] = (4.0, 16.0, 64.0, NEVER)   # candidate time scales, tokens
    window: float = 32.0        # half-life in tokens of the shadow-hit tally that picks a rule
    pool: float = 0.5           # weight of the all-layer mean tally in each layer's choice
    forecast: bool = True       # the forecast is a candidate rule
    order: int = 3              # tokens of layer-0 routing that identify a context (falls back to shorter)
    horizon: int = 16           # tokens of the past continuation used as the forecast
    memory: int = 8192          # tokens of routing history kept for matching
    layer_match: bool = True    # no layer-0 context match: match this layer's own routing
    near_miss: int = 0          # with probs: top non-routed experts credited (0: 2 * k)
    prompt_learn: int = 256     # last prompt tokens that train the policy before decoding
    prompt_feed: int = 32       # ... of which the last go through the normal step (uploads)
    prefetch_top: int = 4       # of a hidden-state prediction (best first), the experts prefetched
    prefetch_precision: float = 0.3  # prefetch only while this share of a layer's would-be
                                     # prefetches (decayed over ~32 tokens) was routed

    def __post_init__(self) -> None:
        if not self.half_lives or any(not h > 0 for h in self.half_lives) or not self.window > 0 \
                or not self.pool >= 0:
            raise ValueError(f"rotary needs positive half-lives and window, and pool >= 0, got {self}")

    def candidates(self) -> list[tuple[int, int]]:
        """(half-life index or -1 for the forecast, admission) of every shadowed rule."""
        rules = [(i, admit) for i in range(len(self.half_lives)) for admit in (ALWAYS, OUTSCORE)]
        return rules + ([(-1, OUTSCORE)] if self.forecast else [])


class RotaryPolicy(ResidencyPolicy):
    name = "rotary"

    def __init__(self, budget, n_expert, k, config: RotaryConfig | None = None, **options) -> None:
        super().__init__(budget, n_expert, k, **options)
        self.cfg = cfg = config or RotaryConfig()
        n_layers, n_half = budget.n_layers, len(cfg.half_lives)
        self.growth = [1.0 if h == NEVER else 2.0 ** (1.0 / h) for h in cfg.half_lives]
        self.fade = 2.0 ** (-1.0 / cfg.window)                      # tally decay per token
        self.rules = cfg.candidates()
        self.score = [[[0.0] * n_expert for _ in range(n_half)] for _ in range(n_layers)]  # [L][H][E]
        self.boost = [[1.0] * n_half for _ in range(n_layers)]                          # [L][H]
        self.shadow: list[list[set[int]]] = [[set() for _ in self.rules]   # [L][rules] members
                                             for _ in range(n_layers)]
        self.tally = [[0.0] * len(self.rules) for _ in range(n_layers)]     # [L][rules] decayed hits
        self.pooled = [0.0] * len(self.rules)   # [rules] sum of the layers' tallies
        self.pool = cfg.pool / n_layers          # weight of that sum in a layer's choice
        self.plain = [r for r, (half, _) in enumerate(self.rules) if half >= 0]   # not the forecast
        self.forecast_floor = FORECAST_KEY / max(1, cfg.horizon)   # keys >= this: forecast
        self.rule = [0] * n_layers          # [L] the rule followed now
        self.base = [0] * n_layers          # [L] half-life index the forecast ranks the rest by
        self.base_admit = [ALWAYS] * n_layers   # [L] the best plain rule's admission
        # the forecast's memory (per token, shared by the layers)
        self.history: list = [None] * cfg.memory    # [memory] per token: [layers] routed id lists
        self.signature: list = [None] * cfg.memory  # [memory] layer-0 ids of each token (a tuple)
        self.seen: list[dict] = [{} for _ in range(cfg.order)]  # per context length: context -> token
        self.token = -1                              # tokens seen - 1 (prompt tokens included)
        self.match = -1                              # past token whose context equals the current one
        self.forecast: list = [None] * n_layers  # [layers] expert -> distance (1..horizon), lazy
        self.start = [-1] * n_layers              # [layers] past token the forecast follows
        self.seen_layer: list[dict] = [{} for _ in range(n_layers)]  # [layers] routed ids -> last token
        # hidden-state prefetch: [layers] the not-resident predictions of the running token, and
        # how many such predictions were routed, of how many (decayed like the tallies)
        self.guess: list[list[int]] = [[] for _ in range(n_layers)]
        self.guess_used = [0.0] * n_layers
        self.guess_made = [0.0] * n_layers

    # -- the step --------------------------------------------------------------------------
    def _observe(self, layer, ids, missed, probs) -> None:
        guess = self.guess[layer]
        if guess:
            self.guess_used[layer] = self.guess_used[layer] * self.fade + sum(e in guess for e in ids)
            self.guess_made[layer] = self.guess_made[layer] * self.fade + len(guess)
            self.guess[layer] = []
        self._learn(layer, ids, probs)

    def _learn(self, layer: int, ids: list[int], probs) -> None:
        """Everything but the real slots: tally the shadows' hits, remember the routing, count
        the uses, move the shadows, pick the rule to follow."""
        tally, pooled, fade = self.tally[layer], self.pooled, self.fade
        for r, members in enumerate(self.shadow[layer]):
            hits = tally[r] * fade + sum(e in members for e in ids)
            pooled[r] += hits - tally[r]
            tally[r] = hits
        self._remember(layer, ids)
        self._count(layer, ids, probs)
        for r in range(len(self.rules)):
            self._move_shadow(layer, r, ids)
        self._choose(layer)

    def _choose(self, layer: int) -> None:
        tally, pooled, pool, now = self.tally[layer], self.pooled, self.pool, self.rule[layer]
        merit = [tally[r] + pool * pooled[r] for r in range(len(tally))]
        best = max(range(len(tally)), key=lambda r: (merit[r], r == now, -r))
        self.rule[layer] = best
        if self.rules[best][0] >= 0:
            self.base[layer] = self.rules[best][0]
        if self.plain:
            plain = max(self.plain, key=lambda r: (merit[r], -r))
            self.base_admit[layer] = self.rules[plain][1]

    def _admits(self, layer: int, r: int, key: float, victim_key: float) -> bool:
        """Rule r's admission of a miss ranked ``key`` over a victim ranked ``victim_key``.
        The forecast refuses only for a victim forecast sooner; else it admits as the best
        plain rule does (refusing everything unforecast lost on chat traces)."""
        if key > victim_key:
            return True
        if self.rules[r][0] >= 0:
            return self.rules[r][1] == ALWAYS
        return victim_key < self.forecast_floor and self.base_admit[layer] == ALWAYS

    def _move_shadow(self, layer: int, r: int, ids: list[int]) -> None:
        """Rule r's decision on its shadow: as _decide, without uploads."""
        members = self.shadow[layer][r]
        missed = [e for e in ids if e not in members]
        if not missed:
            return
        key = self._key_of(layer, r)
        for expert_key, expert in sorted(((key(e), e) for e in missed), reverse=True)[: self.upload_cap]:
            if len(members) < self.tables[layer].n_slots:
                members.add(expert)
                continue
            victim_key, victim = min((key(e), e) for e in members if e not in ids)
            if not self._admits(layer, r, expert_key, victim_key):
                return
            members.discard(victim)
            members.add(expert)

    def _decide(self, layer, ids, missed, uploads, evictions, room: int) -> None:
        """The followed rule: best-ranked misses first (``room`` of them: the cap less this
        token's prefetches), each into a free slot or the exact lowest-ranked unprotected
        resident's, that one only if the rule admits it."""
        table = self.tables[layer]
        rule = self.rule[layer]
        key = self._key_of(layer, rule)
        for expert_key, expert in sorted(((key(e), e) for e in missed), reverse=True)[:room]:
            if table.free:
                slot = table.free.pop()
            else:
                victim_key, victim = min((key(e), e) for e in table.expert_in
                                         if e != FREE and e not in ids)
                if not self._admits(layer, rule, expert_key, victim_key):
                    return                                   # not worth its upload: stays on the CPU
                slot = table.slot_of[victim]
                evictions.append((victim, slot))
                self._evict(layer, slot)
            self._admit(layer, expert, slot)
            uploads.append((expert, slot))

    def _victim(self, layer, protected) -> int:
        key = self._key_of(layer, self.rule[layer])
        table = self.tables[layer]
        ranked = [(key(e), e) for e in table.expert_in if e != FREE and e not in protected]
        if not ranked:
            raise IndexError("no slot can be emptied (every resident is wanted)")
        return table.slot_of[min(ranked)[1]]

    # -- ranking ----------------------------------------------------------------------------
    def _key_of(self, layer: int, r: int):
        """Rule r's rank of an expert: its raw score at the rule's half-life, or for the
        forecast FORECAST_KEY / d when forecast at distance d, else score * (1 / boost)."""
        half = self.rules[r][0]
        if half >= 0:
            return self.score[layer][half].__getitem__
        forecast = self.forecast[layer]
        if forecast is None:
            start = self.start[layer]
            forecast = self.forecast[layer] = self._forecast(layer, start) if start >= 0 else {}
        score, inv_boost = self.score[layer][self.base[layer]], 1.0 / self.boost[layer][self.base[layer]]
        return lambda e: FORECAST_KEY / forecast[e] if e in forecast else score[e] * inv_boost

    def _count(self, layer: int, ids: list[int], probs) -> None:
        """Every half-life's score: a use adds the current boost (growth ** uses so far)."""
        credits = near_miss_credits(probs, ids, self.cfg.near_miss or 2 * self.k) if probs is not None else ()
        scores, boosts = self.score[layer], self.boost[layer]
        for i, growth in enumerate(self.growth):
            boost = boosts[i] * growth
            boosts[i] = boost
            score = scores[i]
            for expert in ids:
                score[expert] += boost
            for expert, share in credits:
                score[expert] += boost * share
            if boost > RENORMALISE_AT:
                scores[i] = [s / boost for s in score]
                boosts[i] = 1.0

    # -- the forecast's memory ----------------------------------------------------------------
    def _remember(self, layer: int, ids: list[int]) -> None:
        if layer == 0:
            self._next_token(ids)
        self.history[self.token % self.cfg.memory][layer] = ids
        start = self.match
        if self.cfg.layer_match:
            key = tuple(sorted(ids))
            if start < 0:
                start = self.seen_layer[layer].get(key, -1)
                if self.token - start >= self.cfg.memory - self.cfg.horizon:
                    start = -1
            self.seen_layer[layer][key] = self.token
        self.start[layer] = start          # the forecast is built only if a rank needs it
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

    # -- hidden-state prefetch ---------------------------------------------------------------
    def prefetch_predicted(self, layer: int, predicted: list[int]) -> list:
        """The base class's prefetch of the best ``prefetch_top`` predicted experts (more of a
        top-k prediction buys hits with uploads that serialised copies pay for), while this
        layer's predictions of not-resident experts were routed often enough to pay."""
        wanted = predicted[: self.cfg.prefetch_top]
        slot_of = self.tables[layer].slot_of
        self.guess[layer] = [e for e in wanted if slot_of[e] == FREE]
        made = self.guess_made[layer]
        if made >= 1.0 and self.guess_used[layer] < self.cfg.prefetch_precision * made:
            return []
        return super().prefetch_predicted(layer, wanted)

    # -- the warm start -------------------------------------------------------------------------
    def observe_prompt(self, routing) -> list:
        """Learn from the prompt's last ``prompt_learn`` tokens; its last ``prompt_feed`` go
        through the normal step. A token whose layer 0 did not route is skipped."""
        routing = check_prompt(routing, len(self.tables), self.k, self.n_expert).tolist()
        rows = [token for token in routing[max(0, len(routing) - self.cfg.prompt_learn):]
                if token[0][0] >= 0]
        feed = min(len(rows), self.cfg.prompt_feed)
        before = [list(table.expert_in) for table in self.tables]
        for n, token in enumerate(rows):
            step = self.after_token if n >= len(rows) - feed else self._learn
            for layer, ids in enumerate(token):
                if ids[0] >= 0:
                    step(layer, ids, None)
        return changed_slots(before, [table.expert_in for table in self.tables])


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
