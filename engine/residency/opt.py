"""OPT in the engine's semantics: Belady with the one-step delay and the upload cap.

After token t, with the whole future known, the misses of token t are candidates in the
order of their next use (soonest first), at most ``upload_cap`` of them; each goes into a
free slot, or replaces the resident whose next use is furthest away if it is needed
sooner than that resident (otherwise nothing more is uploaded: bypass). Experts never
used again are never uploaded. When the cap allows every miss to upload (cap >= k, the
default) it is the optimum of DEMAND admission (only experts the router just chose move
in, as in every policy here), checked against an exhaustive search on small traces in
the tests. Under a tighter cap it is only a reference: the tests keep a case where a
better schedule exists. A policy that prefetches unrouted experts is not bounded by it.
"""

from __future__ import annotations

import numpy as np

from engine.residency.base import ResidencyPolicy
from engine.residency.slots import FREE

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


class OptPolicy(ResidencyPolicy):
    name = "opt"
    offline = True
    protect_routed = False      # only the next use matters, also for the token just run

    def __init__(self, budget, n_expert, k, **options) -> None:
        super().__init__(budget, n_expert, k, **options)
        self.future: list[list[list[int]]] = []                  # [layers][tokens][k] next use
        self.rows: list[list[list[int]]] = []                    # [layers][tokens][k] decode ids
        self.due = [[NEVER] * n_expert for _ in budget.slots]   # [layers][n_expert] next use

    def prepare(self, ids) -> None:
        ids = np.asarray(ids)
        self.rows = [ids[:, layer, :].tolist() for layer in range(ids.shape[1])]   # [layers][tokens][k]
        self.future = [next_use(ids[:, layer, :]).tolist() for layer in range(ids.shape[1])]

    def observe_prompt(self, routing) -> list:
        """The oracle's warm start: each layer's slots hold the experts the coming decode
        tokens use first (Belady's initial fill), so that OPT still bounds a policy that
        warm-starts from the prompt."""
        uploads = []
        for layer, table in enumerate(self.tables):
            wanted = self._first_used(layer, table.n_slots)
            due = self.due[layer]
            for expert, when in wanted.items():
                due[expert] = when
            keep = set(wanted)
            for expert in wanted:
                if table.slot_of[expert] != FREE:
                    continue
                if table.free:
                    slot = table.free.pop()
                else:          # a resident not wanted soon; the furthest next use first
                    out = max((e for e in table.expert_in if e not in keep), key=due.__getitem__)
                    slot = table.slot_of[out]
                    self._evict(layer, slot)
                self._admit(layer, expert, slot)
                uploads.append((layer, expert, slot))
        return uploads

    def _first_used(self, layer: int, count: int) -> dict[int, int]:
        """The first ``count`` distinct experts the coming decode tokens use -> token of use."""
        first: dict[int, int] = {}
        rows = self.rows[layer]
        for t in range(self.clock[layer], len(rows)):
            for expert in rows[t]:
                if expert not in first and len(first) < count:
                    first[expert] = t
            if len(first) == count:
                break
        return first

    def _observe(self, layer, ids, missed, probs) -> None:
        due = self.due[layer]
        for expert, when in zip(ids, self.future[layer][self.clock[layer] - 1]):
            due[expert] = when

    def _rank(self, layer, missed):
        due = self.due[layer]
        return sorted((e for e in missed if due[e] != NEVER), key=due.__getitem__)

    def _victim(self, layer, protected) -> int:
        # The slots staged in this decision hold experts due sooner than any later
        # candidate, so they are never the furthest one.
        table, due = self.tables[layer], self.due[layer]
        candidates = (e for e in table.expert_in if e != FREE and e not in protected)
        return table.slot_of[max(candidates, key=due.__getitem__)]

    def _worth(self, layer, expert, victim) -> bool:
        return self.due[layer][expert] < self.due[layer][victim]
