"""Hidden-state prefetch: while a decoded token runs, fill the next MoE layer's slots with the
experts its router would pick from this layer's hidden state (pre-gating).

The Python routing recorder hands each MoE layer's normalised router input to ``on_hidden`` as
soon as the graph has computed it; layer j+1's router applied to it ranks layer j+1's experts;
the policy's ``prefetch_predicted`` uploads what it takes of that ranking (rotary: the best
``prefetch_top`` not resident, while that layer's predictions were routed often enough), out of
the same per-token upload cap as its after-token uploads; the slot cache publishes the table
before layer j+1 reads it. The decode graph then reads those experts from their slots in the same token
(counted from the graph's own ``ffn_moe_miss_ids`` when ``count_slot_reads`` is on).

It needs the eval callback on every node, a sync per requested node on a GPU (the notes' lesson
6), so the app does not switch it on; it is measured on the CPU build by
bench/bench_hidden_prefetch.py on a model whose router was trained (resources/models).
"""

from __future__ import annotations

from typing import Callable, Protocol

import numpy as np

from engine.model.facts import ModelFacts
from engine.residency.policy import make_policy
from engine.runtime.experts.predictor import RouterPredictor
from engine.runtime.experts.routing import NativeRoutingRecorder, RoutingRecorder
from engine.runtime.experts.slot_cache import SlotCache


class SlotHost(Protocol):
    """The loaded model as the prefetch sees it (engine.runtime.llama_model.NativeModel, which
    imports this folder: the prefetch names only what it uses of it)."""

    slot_cache: SlotCache | None
    recorder: RoutingRecorder | NativeRoutingRecorder | None
    before_step: Callable[[], None] | None


class HiddenPrefetch:
    """Pre-gating prefetch for one loaded model's slot cache (attach before the first token)."""

    def __init__(self, native: SlotHost, routers: dict[int, np.ndarray], k: int) -> None:
        cache, recorder = native.slot_cache, native.recorder
        if cache is None or not isinstance(recorder, RoutingRecorder) or not recorder.hidden_name:
            raise ValueError("hidden-state prefetch needs the slot cache and the Python routing "
                             "recorder with the router-input node")
        self.cache, self.recorder, self.routers, self.k = cache, recorder, routers, k
        self.index = {layer: j for j, layer in enumerate(cache.layers)}
        self.armed = False          # only decode steps (after_token follows them) prefetch
        self.prefetched = 0
        self._before = native.before_step
        native.before_step = self._arm
        recorder.on_hidden = self.on_hidden
        recorder.enabled = True
        if cache.policy.rings():
            # a native step cannot count prefetches against its cap: the Python reference can
            budget = cache.policy.budget
            cache.use_policy(make_policy(cache.policy.name, budget, cache.n_expert, k, native=False))

    @classmethod
    def attach(cls, native: SlotHost, facts: ModelFacts) -> "HiddenPrefetch":
        predictor = RouterPredictor.from_gguf(facts)
        return cls(native, dict(zip(predictor.layers, predictor.routers)), facts.n_expert_used)

    def _arm(self) -> None:
        if self._before is not None:
            self._before()
        self.armed = True

    def on_hidden(self, layer: int, state: np.ndarray) -> None:
        """Layer ``layer``'s router input of the running token: prefetch the next cached layer."""
        j = self.index.get(layer)
        if not self.armed or j is None:
            return
        if j + 1 >= len(self.cache.layers):
            self.armed = False      # the token's last cached layer: nothing after it
            return
        logits = self.routers[self.cache.layers[j + 1]] @ state.astype(np.float32)
        ranked = np.argsort(-logits, kind="stable")[: self.k]
        self.prefetched += self.cache.prefetch(j + 1, ranked.tolist())
