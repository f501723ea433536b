"""Belady's OPT: evict the resident whose next use lies furthest in the future.

Offline (needs the whole trace through ``prepare``). It is the upper bound on hit rate
for policies that admit every miss and do not prefetch; with an upload cap, prompt
mode or prefetching it is only a reference point.
"""

from __future__ import annotations

import heapq

import numpy as np

from engine.residency.policy import ResidencyPolicy, register

NEVER = np.iinfo(np.int64).max


def next_use(ids: np.ndarray) -> np.ndarray:
    """int64 [tokens, k] for one layer's ids [tokens, k]: next token using the same expert."""
    n_tokens, k = ids.shape
    token = np.repeat(np.arange(n_tokens, dtype=np.int64), k)          # [tokens*k]
    key = ids.astype(np.int64).ravel() * n_tokens + token              # sorts by expert, then token
    order = np.argsort(key, kind="stable")
    sorted_key = key[order]
    same_expert = (sorted_key[1:] // n_tokens) == (sorted_key[:-1] // n_tokens)
    following = np.full(n_tokens * k, NEVER, dtype=np.int64)
    following[order[:-1][same_expert]] = token[order[1:][same_expert]]
    return following.reshape(n_tokens, k)


@register
class OptPolicy(ResidencyPolicy):
    name = "opt"
    offline = True

    def __init__(self, budget, n_expert, k, **options) -> None:
        super().__init__(budget, n_expert, k, **options)
        self.future: list[list[list[int]]] = []                  # [layers][tokens][k] next use
        self.heaps = [[] for _ in budget.slots]                 # [layers] (-next use, expert)
        self.due = [[NEVER] * n_expert for _ in budget.slots]   # [layers][n_expert] current next use

    def prepare(self, ids) -> None:
        ids = np.asarray(ids)
        self.future = [next_use(ids[:, layer, :]).tolist() for layer in range(ids.shape[1])]

    def _on_use(self, layer, ids, slots, weights) -> None:
        following = self.future[layer][self.clock[layer] - 1]
        heap, due = self.heaps[layer], self.due[layer]
        for expert, when in zip(ids, following):
            due[expert] = when
            heapq.heappush(heap, (-when, expert))

    def _victim(self, layer, protected) -> int:
        heap, due, slot_of = self.heaps[layer], self.due[layer], self.tables[layer].slot_of
        held = []
        while True:
            neg_when, expert = heapq.heappop(heap)
            if due[expert] != -neg_when:
                continue                                       # superseded by a later use
            if expert in protected:
                held.append((neg_when, expert))                # used now (maybe admitted next)
                continue
            if slot_of[expert] < 0:
                continue                                       # not resident: pushed again on use
            for entry in held:
                heapq.heappush(heap, entry)
            return slot_of[expert]
