"""Intra-token prefetch. ``replay_with_prefetch``: uploads on top of the after-token cap, as
many as the link moves while a layer computes, judged in the simulator only (the decision and
its numbers are printed by bench/bench_residency_quality.py). ``replay_predicted`` (at the end):
the engine's hidden-state prefetch, within the same cap (engine/runtime/experts/prefetch.py).

While layer l of decode token t computes, the experts predicted for layer l + 1 are uploaded
into its slots, as many as the PCIe link moves in layer l's modelled compute time (the cost
model's hit, CPU-miss and sync times for what layer l really did) once the previous token's
after-token uploads are through, each into a free slot or the policy's lowest-ranked resident. They count as hits when layer l + 1 routes to them, and
as uploads in the modelled time (hidden behind compute when copies overlap, added to it when
they are serialised). Predictors of layer l + 1 from layer l:

* ``NextRouter``: layer l + 1's router on layer l's hidden state, where a trace records it
  (``pred``, as ``python -m engine trace`` writes it);
* ``CoOccurrence`` otherwise: how often each expert of layer l + 1 ran with each expert of
  layer l in earlier decode tokens (counts learned online; the previous layer's routing).
"""

from __future__ import annotations

import numpy as np

from engine.residency.base import ResidencyPolicy
from tools.residency_sim.costmodel import RTX4060_LAPTOP, CostModel


class CoOccurrence:
    """Layer l + 1's experts ranked by how often they ran with layer l's current experts."""

    name = "previous layer's routing (co-occurrence, learned online)"
    offset = 0                                       # unused: the counts carry no position

    def __init__(self, n_layers: int, n_expert: int) -> None:
        self.counts = np.zeros((max(0, n_layers - 1), n_expert, n_expert), dtype=np.float32)

    def predict(self, t: int, layer: int, previous: list[int]) -> list[int]:
        """Experts for ``layer`` (>= 1) of token t from ``previous``, layer - 1's ids; best first."""
        scores = self.counts[layer - 1][previous].sum(axis=0)          # [n_expert]
        order = np.argsort(-scores, kind="stable")
        return order[: np.count_nonzero(scores)].tolist()

    def learn(self, token: list[list[int]]) -> None:
        """After the token ran: its [layers][k] ids join the counts."""
        for layer in range(len(token) - 1):
            self.counts[layer][np.ix_(token[layer], token[layer + 1])] += 1.0


class NextRouter:
    """A trace's ``pred`` rows: the next router applied to the current hidden state."""

    name = "the next layer's router on the current hidden state (trace pred)"

    def __init__(self, pred: np.ndarray) -> None:
        self.pred = pred.tolist()                    # [decode tokens][layers][k], -1: none
        self.offset = 0                              # decode tokens before the span replayed now

    def predict(self, t: int, layer: int, previous: list[int]) -> list[int]:
        return [e for e in self.pred[self.offset + t][layer] if e >= 0]

    def learn(self, token: list[list[int]]) -> None:
        pass


def layer_allowance(model: CostModel, hits: int, misses: int, dynamic: bool) -> float:
    """Uploads the link moves while one (trace) layer computes, in that layer's own units."""
    cost = model.expert_seconds()
    compute = (model.token_fixed_s / model.model_layers + hits * cost["hit"] + misses * cost["cpu"]
               + (model.layer_sync_s if dynamic or misses else 0.0))
    return compute / cost["upload"]


def replay_with_prefetch(policy: ResidencyPolicy, ids, predictor, counts,
                         model: CostModel = RTX4060_LAPTOP):
    """simulate.replay with prefetches before every layer but the first; returns ``counts``
    (Counts; ``prefetches`` counts the intra-token uploads)."""
    rows = ids.tolist() if hasattr(ids, "tolist") else ids
    dynamic = policy.admits_misses
    queued = 0                          # the previous token's after-token uploads go first
    for t, token in enumerate(rows):
        carry = -float(queued)
        queued = 0
        for layer, routed in enumerate(token):
            budget = max(0, int(carry)) if layer else 0      # what moved while layer - 1 ran
            carry -= budget
            if budget:
                slot_of = policy.tables[layer].slot_of
                wanted = [e for e in predictor.predict(t, layer, token[layer - 1])
                          if slot_of[e] < 0][:budget]
                counts.prefetches += len(policy.prefetch(layer, wanted))
            decision = policy.after_token(layer, routed)
            counts.add(decision, dynamic)
            queued += len(decision.uploads)
            carry += layer_allowance(model, decision.hits, decision.misses, dynamic)
        predictor.learn(token)
    return counts


def replay_predicted(policy: ResidencyPolicy, ids, pred, counts):
    """The engine's hidden-state prefetch (engine/runtime/experts/prefetch.py) replayed: while token t
    runs, layer l >= 1 gets ``pred[t][l]`` (its experts predicted from layer l-1's hidden state
    of the same token) through ``prefetch_predicted`` before it routes, within the same per-token
    upload cap as the after-token uploads; then every layer's ``after_token`` counts token t
    against the tables, prefetches included. Returns ``counts`` (``prefetches``: those uploads)."""
    rows = ids.tolist() if hasattr(ids, "tolist") else ids
    guesses = pred.tolist() if hasattr(pred, "tolist") else pred
    dynamic = policy.admits_misses
    for token, guess in zip(rows, guesses):
        for layer in range(1, len(token)):
            wanted = [e for e in guess[layer] if e >= 0]
            if wanted:
                counts.prefetches += len(policy.prefetch_predicted(layer, wanted))
        for layer, routed in enumerate(token):
            counts.add(policy.after_token(layer, routed), dynamic)
    return counts
