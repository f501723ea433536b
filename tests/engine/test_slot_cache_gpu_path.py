"""The slot cache's GPU path, checked on the CPU build: no eval callback, no host waits, the
prompt's routing kept for a warm start that changes nothing in the results, the probe.

On the CPU build the uploads are plain copies (no copy stream), so these tests prove the
bookkeeping and exactness of the same code the CUDA build runs asynchronously.
"""

from __future__ import annotations

import threading

import numpy as np
import pytest

from engine.api import ChatMessage, ChatRequest, LoadRequest
from engine.runtime.experts import slot_cache
from engine.runtime.llama_model import NativeModel, Sampling
from engine.runtime.experts.routing import RoutingRecorder

pytestmark = pytest.mark.skipif(not slot_cache.available(),
                                reason="needs the patched llama-cpp-python (bootstrap builds it)")

PROMPT = "hello the model and the expert, and the expert again and the model"


def open_model(path, cpu_recipe, slots, policy="lru", recorder=None, **extra):
    recipe = cpu_recipe(expert_slots=tuple(slots), residency_policy=policy, **extra)
    model = NativeModel(str(path), recipe, recorder)
    model.set_sampling(Sampling(temperature=0))
    return model


def greedy_after_prompt(model: NativeModel, n: int = 48):
    """Prompt, warm start, then n greedy tokens: (tokens, logits [n, vocab])."""
    from engine.runtime.bindings import llama_cpp_module

    llama = llama_cpp_module()
    model.decode(model.tokenize(PROMPT))
    model.after_prompt()
    tokens, logits = [], []
    for _ in range(n):
        token = model.sample()
        row = llama.llama_get_logits_ith(model.ctx.ctx, -1)
        logits.append(np.ctypeslib.as_array(row, shape=(model.n_vocab,)).copy())
        tokens.append(token)
        model.decode([token], step=True)
    return tokens, np.array(logits)


def test_the_loader_installs_no_eval_callback_by_default(tiny_moe_path, cpu_recipe):
    from engine.runtime.loader import load_with_fallback

    recipe = cpu_recipe(expert_slots=(2, 2, 2, 2), residency_policy="lru")
    loaded = load_with_fallback(LoadRequest(str(tiny_moe_path), recipe=recipe),
                                lambda *_: None, lambda *_: None)
    try:
        assert loaded.recorder is None and loaded.native.recorder is None
        assert not loaded.native._context_params().cb_eval   # NULL: no scheduler callback
        assert loaded.native._context_params().n_outputs_max == 1
        run = loaded.start_chat(ChatRequest((ChatMessage("user", "hello"),), max_tokens=24,
                                            temperature=0.0), threading.Event())
        records = list(run.records())
        assert records and all(r.syncs == 0 for r in records)   # no host wait per token here
        assert sum(r.expert_hits + r.expert_misses for r in records) > 0
    finally:
        loaded.close()


def test_the_recorder_costs_a_sync_per_claimed_node(tiny_moe_path, cpu_recipe):
    from engine.runtime.generation.generate import GenerationRun

    model = open_model(tiny_moe_path, cpu_recipe, (2, 2, 2, 2), recorder=RoutingRecorder())
    try:
        run = GenerationRun(model, (ChatMessage("user", "hello"),), 16, Sampling(temperature=0),
                            threading.Event(), 1)
        records = list(run.records())
        assert records and all(r.syncs == 4 for r in records)   # one top-k node per MoE layer
    finally:
        model.close()


def test_the_prompt_routing_is_recorded_as_the_router_chose_it(tiny_moe_path, cpu_recipe):
    recorder = RoutingRecorder()
    model = open_model(tiny_moe_path, cpu_recipe, (2, 2, 2, 2), recorder=recorder)
    try:
        model.slot_cache.prompt_log = []
        tokens = model.tokenize(PROMPT)
        recorder.begin()
        model.decode(tokens)
        seen = recorder.take()
        model.after_prompt()
        kept = model.slot_cache.prompt_log[0]                     # [tokens, layers, k]
        assert kept.shape == (len(tokens), 4, 2)
        for layer in range(3):
            assert np.array_equal(kept[:, layer, :], seen.ids[layer])
        # the last layer routes only the output token: the others are -1 (not routed)
        assert np.array_equal(kept[-1:, 3, :], seen.ids[3]) and (kept[:-1, 3, :] == -1).all()
        assert model.slot_cache.counters()["prompt_tokens"] == len(tokens)
    finally:
        model.close()


@pytest.mark.parametrize("policy", ["lru", "rotary"])
def test_warm_start_uploads_and_the_logits_stay_bitwise_the_stock_ones(
        tiny_moe_path, tiny_merged_moe_path, cpu_recipe, policy):
    for path in (tiny_moe_path, tiny_merged_moe_path):
        stock = open_model(path, cpu_recipe, ())
        try:
            ref_tokens, ref_logits = greedy_after_prompt(stock)
        finally:
            stock.close()
        model = open_model(path, cpu_recipe, (3, 3, 3, 3), policy=policy)
        try:
            before = model.slot_cache.counters()["upload_bytes"]
            model.decode(model.tokenize(PROMPT))
            moved = model.slot_cache.warm_start()
            assert moved > 0 and model.slot_cache.counters()["upload_bytes"] > before
            assert any(model.slot_cache.resident())           # the first token finds experts
            model.close()
            model = open_model(path, cpu_recipe, (3, 3, 3, 3), policy=policy)
            tokens, logits = greedy_after_prompt(model)
            counts = model.slot_cache.counters()
        finally:
            model.close()
        assert tokens == ref_tokens
        assert np.array_equal(logits.view(np.uint32), ref_logits.view(np.uint32))
        # host banks: plain copies, nothing asynchronous, and the host never waited
        assert counts["sync_copies"] > 0 and counts["async_copies"] == 0
        assert counts["host_waits"] == 0 and counts["graph_waits"] == 0


def test_the_probe_measures_within_its_budget(tiny_moe_path, cpu_recipe):
    model = open_model(tiny_moe_path, cpu_recipe, (2, 2, 2, 2))
    try:
        figures = model.slot_cache.probe(budget_ms=120)
        assert figures.cpu_gbs > 0 and figures.pageable_gbs > 0
        assert figures.pinned_gbs == 0                # host banks: no page-locked path
        assert figures.probe_s <= 0.2
        model.decode(model.tokenize(PROMPT))          # the cache still works afterwards
        model.slot_cache.warm_start()
        with pytest.raises(slot_cache.SlotCacheError):
            model.slot_cache.probe(budget_ms=10)       # would overwrite uploaded experts
    finally:
        model.close()


def test_the_python_mirrors_match_the_patched_header():
    """STATUS_TEXT and COUNTERS restate libllama's enums (patch 0002's llama-slot-cache.h)."""
    import pathlib
    import re

    patch = (pathlib.Path(slot_cache.__file__).parents[2] / "native" / "patches"
             / "0002-llama-slot-cache-state-and-api.patch").read_text(encoding="utf-8")
    header = patch.split("include/llama-slot-cache.h", 2)[2].split("diff --git", 1)[0]
    errors = {int(v): n for n, v in re.findall(r"LLAMA_SLOT_CACHE_(E_\w+)\s*=\s*(-\d+)", header)}
    assert sorted(errors) == sorted(slot_cache.STATUS_TEXT)
    counters = re.findall(r"LLAMA_SLOT_CACHE_(\w+)\s*=\s*(\d+), //", header)
    assert [name.lower() for name, _ in counters] == list(slot_cache.COUNTERS)
    assert [int(v) for _, v in counters] == list(range(len(slot_cache.COUNTERS)))
