"""Hidden-state prefetch in the engine (CPU build): uploads made while a token runs are read by
that token's later layers, counted by the decode graph itself, and the logits stay exact."""

from __future__ import annotations

import numpy as np
import pytest

from engine.model.inspect_gguf import inspect_model
from engine.residency.rotary import RotaryPolicy
from engine.runtime.experts import slot_cache
from engine.runtime.bindings import llama_cpp_module
from engine.runtime.llama_model import NativeModel, Sampling
from engine.runtime.experts.predictor import hidden_node_name
from engine.runtime.experts.prefetch import HiddenPrefetch
from engine.runtime.experts.routing import RoutingRecorder

pytestmark = pytest.mark.skipif(not slot_cache.available(),
                                reason="the installed llama-cpp-python has no slot cache")

PROMPT = "hello the model and the expert"


def greedy_logits(model: NativeModel, n: int) -> np.ndarray:
    llama = llama_cpp_module()
    model.set_sampling(Sampling(temperature=0))
    model.decode(model.tokenize(PROMPT))
    rows = []
    for _ in range(n):
        token = model.sample()
        row = llama.llama_get_logits_ith(model.ctx.ctx, -1)
        rows.append(np.ctypeslib.as_array(row, shape=(model.n_vocab,)).copy())
        model.decode([token], step=True)
    return np.array(rows)


def test_prefetched_experts_are_read_from_slots_in_the_same_token(tiny_moe_path, cpu_recipe):
    facts = inspect_model(str(tiny_moe_path))
    recorder = RoutingRecorder(hidden_name=hidden_node_name(facts.architecture))
    recorder.count_slot_reads = True
    recipe = cpu_recipe(expert_slots=(4,) * facts.n_layers, residency_policy="rotary")
    model = NativeModel(str(tiny_moe_path), recipe, recorder)
    stock = NativeModel(str(tiny_moe_path), cpu_recipe())
    try:
        cache = model.slot_cache
        cache.verify = True                       # the policy's hits against the published tables
        ahead = HiddenPrefetch.attach(model, facts)
        assert type(cache.policy) is RotaryPolicy   # the reference: its cap counts prefetches
        logits = greedy_logits(model, 40)
        assert ahead.prefetched > 0 and cache.totals.prefetches == ahead.prefetched
        # the graph's own slot lookups saw every hit the policy counted, prefetched ones included
        assert (recorder.slot_reads, recorder.slot_misses) == (cache.totals.hits, cache.totals.misses)
        assert cache.counters()["order_violations"] == 0
        np.testing.assert_array_equal(logits, greedy_logits(stock, 40))
    finally:
        model.close()
        stock.close()


def test_prefetch_needs_the_python_recorder_with_the_hidden_node(tiny_moe_path, cpu_recipe):
    facts = inspect_model(str(tiny_moe_path))
    model = NativeModel(str(tiny_moe_path), cpu_recipe(expert_slots=(4,) * facts.n_layers),
                        RoutingRecorder())
    try:
        with pytest.raises(ValueError, match="router-input node"):
            HiddenPrefetch.attach(model, facts)
    finally:
        model.close()


def test_cli_trace_keeps_hidden_states_and_probs_together(tiny_moe_path, tmp_path):
    from engine.__main__ import main
    from engine.residency.trace import load_trace

    out = tmp_path / "t.npz"
    assert main(["trace", str(tiny_moe_path), "--prompt", PROMPT, "--out", str(out), "--max-tokens", "6",
                 "--probs", "--hidden", "--no-slots"]) == 0
    trace = load_trace(str(out))
    facts = inspect_model(str(tiny_moe_path))
    assert trace.hidden is not None and trace.hidden.shape == (*trace.ids.shape[:2], facts.n_embd)
    assert trace.probs is not None and trace.pred is not None
    # the hidden state is the router's input: that layer's own router picks its own experts
    from engine.runtime.experts.predictor import read_tensor_f32

    router = read_tensor_f32(str(tiny_moe_path), f"blk.{facts.moe_layers[1]}.ffn_gate_inp.weight")
    chosen = np.argsort(-(trace.hidden[:, 1].astype(np.float32) @ router.T), axis=1)[:, :trace.k]
    assert (np.sort(chosen, axis=1) == np.sort(trace.ids[:, 1], axis=1)).mean() > 0.9
