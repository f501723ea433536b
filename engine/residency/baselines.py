"""Baseline policies the rotary policy is measured against.

``lru``   evict the least recently used resident (llama.cpp PR #27861's slot cache).
``lfu``   evict the resident used least often since the start (ties: least recent).
``lfru``  LRFU (Lee et al., 2001): a use adds 1 to a score that halves every
          ``half_life`` steps; evict the lowest. vLLM PR #37190 calls its variant LFRU.
``static`` pin a profile's most used experts per layer; misses always run on the CPU
          (thecodacus/llama.cpp PR #5).
``layer`` whole layers resident, the others on the CPU (llama.cpp ``--n-cpu-moe``).
"""

from __future__ import annotations

import math
from collections import OrderedDict

import numpy as np

from engine.residency.base import ResidencyPolicy
from engine.residency.slots import FREE, SlotTable


class LRUPolicy(ResidencyPolicy):
    name = "lru"

    def __init__(self, budget, n_expert, k, **options) -> None:
        super().__init__(budget, n_expert, k, **options)
        # [layers] resident expert -> None, oldest first
        self.order: list[OrderedDict[int, None]] = [OrderedDict() for _ in budget.slots]

    def _observe(self, layer, ids, missed, probs) -> None:
        order = self.order[layer]
        for expert in ids:
            if expert in order:
                order.move_to_end(expert)

    def _on_admit(self, layer, expert, slot) -> None:
        self.order[layer][expert] = None

    def _on_evict(self, layer, expert, slot) -> None:
        del self.order[layer][expert]

    def _victim(self, layer, protected) -> int:
        slot_of = self.tables[layer].slot_of
        return next(slot_of[e] for e in self.order[layer] if e not in protected)


class _ScoredPolicy(ResidencyPolicy):
    """Evicts the unprotected resident with the lowest ``_score`` (O(slots) per eviction);
    under the upload cap the highest-scoring misses go first."""

    def _rank(self, layer, missed):
        return sorted(missed, key=lambda e: self._score(layer, e), reverse=True)

    def _victim(self, layer, protected) -> int:
        table = self.tables[layer]
        score = self._score
        candidates = (e for e in table.expert_in if e != FREE and e not in protected)
        return table.slot_of[min(candidates, key=lambda e: score(layer, e))]

    def _score(self, layer: int, expert: int):
        raise NotImplementedError


class LFUPolicy(_ScoredPolicy):
    name = "lfu"

    def __init__(self, budget, n_expert, k, **options) -> None:
        super().__init__(budget, n_expert, k, **options)
        self.count = [[0] * n_expert for _ in budget.slots]      # [layers][n_expert] uses so far
        self.last = [[0] * n_expert for _ in budget.slots]       # [layers][n_expert] last step used

    def _observe(self, layer, ids, missed, probs) -> None:
        count, last, now = self.count[layer], self.last[layer], self.clock[layer]
        for expert in ids:
            count[expert] += 1
            last[expert] = now

    def _score(self, layer, expert):
        return (self.count[layer][expert], self.last[layer][expert])


class LFRUPolicy(_ScoredPolicy):
    name = "lfru"

    def __init__(self, budget, n_expert, k, half_life: float = 16.0, **options) -> None:
        super().__init__(budget, n_expert, k, **options)
        self.log_decay = -math.log(2.0) / half_life
        self.crf = [[0.0] * n_expert for _ in budget.slots]      # [layers][n_expert] log-score at last use
        self.last = [[0] * n_expert for _ in budget.slots]

    def _observe(self, layer, ids, missed, probs) -> None:
        crf, last, now = self.crf[layer], self.last[layer], self.clock[layer]
        for expert in ids:   # log(1 + exp(old + decay*dt)) keeps the score in log space
            x = crf[expert] + self.log_decay * (now - last[expert])
            crf[expert] = x + math.log1p(math.exp(-x)) if x > 0 else math.log1p(math.exp(x))
            last[expert] = now

    def _score(self, layer, expert):
        return self.crf[layer][expert] + self.log_decay * (self.clock[layer] - self.last[layer][expert])


class StaticPolicy(ResidencyPolicy):
    """Pins ``profile`` counts' top experts (counts [layers, n_expert]); nothing moves later."""

    name = "static"
    admits_misses = False

    def __init__(self, budget, n_expert, k, profile=None, **options) -> None:
        super().__init__(budget, n_expert, k, **options)
        if profile is not None:
            self.pin(np.asarray(profile))

    def prepare(self, ids) -> None:
        """Without a separate profile, pin the trace's own most used experts (optimistic)."""
        if not any(t.resident() for t in self.tables):
            self.pin(expert_counts(np.asarray(ids), self.n_expert))

    def pin(self, counts: np.ndarray) -> None:
        for layer, table in enumerate(self.tables):
            top = np.argsort(-counts[layer], kind="stable")[: table.n_slots]
            for slot, expert in enumerate(top.tolist()):
                table.admit(expert, slot)
            table.free.clear()

    def _victim(self, layer, protected) -> int:
        raise AssertionError("static never evicts")


class LayerPolicy(ResidencyPolicy):
    """As many whole layers as the slot total holds, counted from the last layer down."""

    name = "layer"
    admits_misses = False

    def __init__(self, budget, n_expert, k, **options) -> None:
        super().__init__(budget, n_expert, k, **options)
        n_gpu = min(budget.n_layers, budget.total_slots // n_expert)
        first_gpu = budget.n_layers - n_gpu
        # CPU layers lend their slot memory to the GPU layers, which hold every expert.
        self.tables = [SlotTable(n_expert, n_expert if layer >= first_gpu else 0)
                       for layer in range(budget.n_layers)]
        for table in self.tables[first_gpu:]:
            for expert in range(n_expert):
                table.admit(expert, expert)
            table.free.clear()

    def _victim(self, layer, protected) -> int:
        raise AssertionError("layer never evicts")


def expert_counts(ids: np.ndarray, n_expert: int) -> np.ndarray:
    """int64 [layers, n_expert]: how often each expert appears in ids [tokens, layers, k]."""
    n_layers = ids.shape[1]
    flat = ids.transpose(1, 0, 2).reshape(n_layers, -1).astype(np.int64)   # [layers, tokens*k]
    offsets = (np.arange(n_layers) * n_expert)[:, None]
    return np.bincount((flat + offsets).ravel(), minlength=n_layers * n_expert).reshape(n_layers, n_expert)
