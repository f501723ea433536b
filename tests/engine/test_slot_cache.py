"""The expert slot cache on the CPU build: exactness, counting, budgets, prompts, conversations.

The banks live in a second CPU buffer here, so the cached graph must give bitwise the same
logits as the stock one; on a CUDA build the banks are in GPU memory instead.
"""

from __future__ import annotations

import ctypes
import os

import numpy as np
import pytest

from engine.errors import BudgetError
from engine.residency.policy import Snapshot, make_policy
from engine.residency.budget import Budget
from engine.runtime.experts import slot_cache
from engine.runtime.bindings import GgmlTensor, ggml, llama_cpp_module
from engine.runtime.llama_model import NativeModel, Sampling
from engine.runtime.experts.routing import RoutingRecorder

pytestmark = [
    pytest.mark.skipif(not slot_cache.available(),
                       reason="the installed llama-cpp-python is a stock build (no slot cache); "
                              "python3 bootstrap.py test builds the patched one"),
]

TOKENS = 128
PROMPT = "hello the model and the expert"


def load(path, cpu_recipe, slots=(), policy="lru", upload_cap=None, recorder=None, **extra):
    recipe = cpu_recipe(expert_slots=tuple(slots), residency_policy=policy, upload_cap=upload_cap,
                        **extra)
    model = NativeModel(str(path), recipe, recorder)
    model.set_sampling(Sampling(temperature=0))
    if model.slot_cache is not None:
        model.slot_cache.verify = True      # engine-side hit count checked against the tables
        model.slot_cache.routing_log = []
    return model


def greedy(model: NativeModel, n: int = TOKENS, prompt: str = PROMPT):
    """Greedy tokens, the logits that chose each, and the residency of every decode step."""
    llama = llama_cpp_module()
    model.decode(model.tokenize(prompt))
    tokens, logits, steps = [], [], []
    for _ in range(n):
        token = model.sample()
        row = llama.llama_get_logits_ith(model.ctx.ctx, -1)
        logits.append(np.ctypeslib.as_array(row, shape=(model.n_vocab,)).copy())
        tokens.append(token)
        model.decode([token], step=True)
        steps.append(model.last_residency)
    return tokens, np.array(logits), steps


@pytest.fixture(scope="session")
def reference(tiny_moe_path, tiny_merged_moe_path):
    """Cache-off greedy runs of both fixtures, computed once."""
    from engine.recipe import MemoryEstimate, Recipe

    def recipe(**overrides):   # the same fixed CPU recipe as the cpu_recipe fixture
        values = dict(preset="test", n_gpu_layers=0, cpu_expert_layers=(), n_ctx=512,
                      flash_attn=True, kv_type="f16", n_batch=128, n_ubatch=128, n_threads=1,
                      n_threads_batch=1, vram=MemoryEstimate(), ram=MemoryEstimate())
        return Recipe(**{**values, **overrides})

    out = {}
    for name, path in (("separate", tiny_moe_path), ("merged", tiny_merged_moe_path)):
        model = load(path, recipe)
        try:
            out[name] = greedy(model)[:2]
        finally:
            model.close()
    return out


@pytest.fixture
def fixture_path(request, tiny_moe_path, tiny_merged_moe_path):
    return {"separate": tiny_moe_path, "merged": tiny_merged_moe_path}[request.param]


def n_layers_of(model: NativeModel) -> int:
    return int(model.metadata()[model.metadata()["general.architecture"] + ".block_count"])


@pytest.mark.parametrize("fixture_path", ["separate", "merged"], indirect=True)
@pytest.mark.parametrize("policy", ["lru", "rotary"])
def test_cache_on_gives_bitwise_the_stock_logits_with_evictions(fixture_path, policy, reference,
                                                                cpu_recipe, request):
    layout = request.node.callspec.params["fixture_path"]
    probe = load(fixture_path, cpu_recipe)
    n_layers = n_layers_of(probe)
    probe.close()
    model = load(fixture_path, cpu_recipe, slots=[2] * n_layers, policy=policy)   # k = 2 of 8
    try:
        tokens, logits, steps = greedy(model)
    finally:
        model.close()
    ref_tokens, ref_logits = reference[layout]
    assert tokens == ref_tokens
    assert np.array_equal(logits.view(np.uint32), ref_logits.view(np.uint32))
    assert sum(s.uploads for s in steps[1:]) > 2 * n_layers * 8   # slots really turned over
    assert sum(s.hits for s in steps) > 0 and sum(s.misses for s in steps) > 0


@pytest.mark.parametrize("router_probs", [False, True])
@pytest.mark.parametrize("policy", ["lru", "rotary"])
def test_engine_counts_equal_the_simulator_on_the_same_routing(tiny_moe_path, cpu_recipe, policy,
                                                               router_probs):
    from tools.residency_sim.simulate import replay

    model = load(tiny_moe_path, cpu_recipe, slots=[3, 2, 3, 2], policy=policy, upload_cap=1,
                 router_probs=router_probs)
    try:
        _, _, steps = greedy(model, n=96)
        log = model.slot_cache.routing_log
        ids = np.stack([i for i, _ in log])            # [tokens, layers, k]
        probs = np.stack([p for _, p in log]) if router_probs else None  # [tokens, layers, n_expert]
        assert all((p is None) == (not router_probs) for _, p in log)
    finally:
        model.close()
    counts = replay(make_policy(policy, Budget((3, 2, 3, 2), 1), 8, 2), ids, probs)
    engine = (sum(s.hits for s in steps), sum(s.misses for s in steps), sum(s.uploads for s in steps))
    assert engine == (counts.hits, counts.misses, counts.uploads)
    assert counts.steps == 96 * 4 and counts.misses > 0 and counts.uploads > 0


def _miss_ids_recorder():
    """cb_eval that keeps every ``ffn_moe_miss_ids`` tensor: -1 where the bank computed the row."""
    seen: list[np.ndarray] = []

    def on_node(tensor, ask, _user):
        name = GgmlTensor.from_address(tensor).name
        if ask:
            return name.startswith(b"ffn_moe_miss_ids")
        data = np.zeros(2, dtype=np.int32)
        ggml().ggml_backend_tensor_get(tensor, data.ctypes.data, 0, data.nbytes)
        seen.append(data)
        return True

    recorder = RoutingRecorder()
    recorder._callback = type(recorder.callback)(on_node)
    return recorder, seen


def test_all_hit_reads_every_expert_from_the_slots(tiny_moe_path, cpu_recipe, reference):
    recorder, miss_ids = _miss_ids_recorder()
    model = load(tiny_moe_path, cpu_recipe, slots=[8] * 4, recorder=recorder)
    try:
        cache = model.slot_cache
        uploaded = cache.restore(Snapshot([list(range(8))] * 4))   # every expert of every layer
        assert uploaded == 32 * cache.expert_bytes[0]
        miss_ids.clear()
        tokens, logits, steps = greedy(model)
    finally:
        model.close()
    assert all(s.misses == 0 and s.hits == 4 * 2 for s in steps)
    decode_ids = np.stack(miss_ids[-TOKENS * 4:])
    assert (decode_ids == -1).all()                      # the CPU computed no expert at all
    assert tokens == reference["separate"][0]
    assert np.array_equal(logits.view(np.uint32), reference["separate"][1].view(np.uint32))


def test_all_miss_when_nothing_may_be_uploaded(tiny_moe_path, cpu_recipe, reference):
    model = load(tiny_moe_path, cpu_recipe, slots=[2] * 4, upload_cap=0)
    try:
        tokens, logits, steps = greedy(model)
    finally:
        model.close()
    assert all(s.hits == 0 and s.misses == 8 and s.uploads == 0 for s in steps)
    assert tokens == reference["separate"][0]
    assert np.array_equal(logits.view(np.uint32), reference["separate"][1].view(np.uint32))


def test_a_budget_below_the_experts_of_one_token_fails_at_load(tiny_moe_path, cpu_recipe):
    with pytest.raises(BudgetError, match="fewer than the 2 experts"):
        load(tiny_moe_path, cpu_recipe, slots=[1, 2, 2, 2])


def test_native_init_refuses_too_few_slots(tiny_moe_path, cpu_recipe):
    model = load(tiny_moe_path, cpu_recipe)
    try:
        api = slot_cache.native_api()
        status = api.llama_slot_cache_init(model.ctx.ctx, slot_cache._i32([1, 0, 0, 0]), 4)
    finally:
        model.close()
    assert status == -5


def test_cache_off_is_the_stock_path(tiny_moe_path, cpu_recipe):
    from engine.api import ChatMessage
    from engine.runtime.generation.generate import stream_generate

    model = load(tiny_moe_path, cpu_recipe)
    try:
        assert model.slot_cache is None and model.slot_cache_note is None
        records = list(stream_generate(model, [ChatMessage("user", "hi")], max_tokens=4,
                                       sampling=Sampling(temperature=0)))
    finally:
        model.close()
    assert records and all(r.expert_hits is None and r.expert_hit_rate is None for r in records)


def test_step_records_carry_the_slot_cache_numbers(tiny_moe_path, cpu_recipe):
    from engine.api import ChatMessage
    from engine.runtime.generation.generate import stream_generate

    model = load(tiny_moe_path, cpu_recipe, slots=[4] * 4)
    try:
        records = list(stream_generate(model, [ChatMessage("user", "hi")], max_tokens=24,
                                       sampling=Sampling(temperature=0)))
    finally:
        model.close()
    later = records[1:]
    assert later and all(r.expert_hits + r.expert_misses == 8 for r in later)
    assert records[0].expert_hits == 0 and records[0].expert_misses == 0   # read with the prompt
    assert sum(r.expert_uploaded_bytes for r in later) > 0
    assert 0.0 <= later[-1].expert_hit_rate <= 1.0
    assert len(later[-1].resident_experts) == 4
    # Per layer: 4 cached layers, each with k = 2 routed experts, summing to the token's hits.
    assert all(len(r.expert_layer_hits) == 4 and sum(r.expert_layer_hits) == r.expert_hits
               and all(0 <= h <= 2 for h in r.expert_layer_hits) for r in later)


def test_a_prompt_batch_after_decoding_leaves_the_decode_set_alone(tiny_moe_path, cpu_recipe):
    model = load(tiny_moe_path, cpu_recipe, slots=[3] * 4)
    try:
        greedy(model, n=16)
        before = (model.slot_cache.resident(), [model.slot_cache.policy.resident(j) for j in range(4)])
        model.decode(model.tokenize(" and the document summary for you"))   # a prompt batch
        assert model.last_residency is None
        assert model.slot_cache.after_token() is None       # no decode step ran: nothing to read
        after = (model.slot_cache.resident(), [model.slot_cache.policy.resident(j) for j in range(4)])
    finally:
        model.close()
    assert after == before


def test_conversation_switch_restores_the_saved_slots_and_reports_bytes(tiny_moe_path, cpu_recipe):
    model = load(tiny_moe_path, cpu_recipe, slots=[3] * 4)
    try:
        cache = model.slot_cache
        greedy(model, n=12, prompt="hello the model")
        saved, saved_set = cache.snapshot(), cache.resident()
        greedy(model, n=12, prompt=" question answer summary document rotary")
        moved = cache.resident() != saved_set
        uploaded = cache.restore(saved)
        restored = cache.resident()
    finally:
        model.close()
    assert restored == saved_set
    if moved:
        assert uploaded > 0 and uploaded % cache.expert_bytes[0] == 0


def test_stock_build_falls_back_and_says_so(tiny_moe_path, cpu_recipe, monkeypatch):
    monkeypatch.setattr(slot_cache, "available", lambda: False)
    model = load(tiny_moe_path, cpu_recipe, slots=[2] * 4)
    try:
        assert model.slot_cache is None
        assert model.slot_cache_note == slot_cache.STOCK_MESSAGE
    finally:
        model.close()


def test_trace_replay_forces_the_routing(tiny_moe_path, cpu_recipe):
    forced = np.array([[[1, 6], [0, 3], [7, 2], [5, 4]]] * 5, dtype=np.int32)   # [t, layers, k]
    model = load(tiny_moe_path, cpu_recipe, slots=[2] * 4)
    try:
        model.decode(model.tokenize(PROMPT))
        for row in forced:
            model.slot_cache.force_routing(row)
            model.decode([model.sample()], step=True)
        model.slot_cache.force_routing(None)
        got = np.stack([ids for ids, _ in model.slot_cache.routing_log])
    finally:
        model.close()
    assert np.array_equal(got, forced)


def test_routing_replay_starts_and_stops_mid_conversation(tiny_moe_path, cpu_recipe):
    """tools/routing_replay.py switched on after decoded tokens (a re-reserve then, which once
    crashed lavapipe: tests/engine/test_vulkan_rereserve.py) routes from the next step on,
    cycling its rows, and the router chooses again after stop()."""
    from tools.routing_replay import RoutingReplay

    forced = np.array([[[1, 6], [0, 3], [7, 2], [5, 4]], [[2, 5], [4, 1], [3, 0], [6, 7]]],
                      dtype=np.int32)
    model = load(tiny_moe_path, cpu_recipe, slots=[2] * 4)
    try:
        model.decode(model.tokenize(PROMPT))
        for _ in range(2):
            model.decode([model.sample()], step=True)
        replay = RoutingReplay(model, forced).start()
        for _ in range(3):
            model.decode([model.sample()], step=True)
        replay.stop()
        for _ in range(2):
            model.decode([model.sample()], step=True)
        got = np.stack([ids for ids, _ in model.slot_cache.routing_log])
    finally:
        model.close()
    assert np.array_equal(got[2:5], forced[[0, 1, 0]])
    routed = np.concatenate([got[:2], got[5:]])      # the router's own choices
    assert len(got) == 7 and not any(np.array_equal(row, f) for row in routed for f in forced)


def test_expert_bytes_match_the_tensor_slabs(tiny_moe_path, cpu_recipe):
    model = load(tiny_moe_path, cpu_recipe)
    try:
        size = slot_cache.expert_bytes(model.model.model, 0)
    finally:
        model.close()
    assert size == 3 * 64 * 32 * 2     # gate, up, down: n_embd x n_ff f16 each
    assert ctypes.sizeof(ctypes.c_int32) == 4


def test_switching_conversations_brings_their_slots_back(tiny_moe_path, cpu_recipe):
    model = load(tiny_moe_path, cpu_recipe, slots=[3] * 4)
    try:
        cache = model.slot_cache
        assert cache.switch_conversation(1) == 0
        greedy(model, n=12, prompt="hello the model")
        first = cache.resident()
        cache.switch_conversation(2)
        greedy(model, n=12, prompt=" question answer summary document rotary")
        moved = cache.switch_conversation(1)
        back = cache.resident()
    finally:
        model.close()
    assert back == first
    assert moved % cache.expert_bytes[0] == 0 and cache.totals.restored_bytes >= moved


def _cli(*args, stdin="hello the model\n\n", module="engine"):
    import json
    import subprocess
    import sys

    result = subprocess.run([sys.executable, "-m", module, *args], input=stdin,
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout) if "--json" in args else result


def test_cli_chat_prints_slot_cache_counts_as_json(tiny_moe_path):
    stats = _cli("chat", str(tiny_moe_path), "--max-tokens", "24", "--temperature", "0",
                 "--slots", "2", "--policy", "lru", "--json")
    assert stats["slot_cache"] and stats["policy"] == "lru"
    assert stats["hits"] + stats["misses"] == 4 * 2 * stats["decode_steps"] > 0
    assert stats["uploads"] > 0 and stats["uploaded_bytes"] == stats["uploads"] * 3 * 64 * 32 * 2
    # the ordering check (on in the tests: tests/conftest.py) reaches the JSON
    assert stats["counters"]["order_checks"] >= stats["decode_steps"]
    assert stats["counters"]["order_violations"] == 0
    off = _cli("chat", str(tiny_moe_path), "--max-tokens", "8", "--no-slots", "--json")
    assert not off["slot_cache"] and off["hits"] == 0


def test_cli_replays_a_trace_through_the_cache(tiny_moe_path, tmp_path):
    trace = tmp_path / "t.npz"
    _cli("trace", str(tiny_moe_path), "--prompt", "the document", "--out", str(trace),
         "--max-tokens", "16", "--temperature", "1.0", "--seed", "3")
    stats = _cli(str(trace), str(tiny_moe_path), "--max-tokens", "24", "--temperature", "0",
                 "--slots", "2", "--json", module="tools.routing_replay")
    assert stats["decode_steps"] > 0 and stats["hits"] + stats["misses"] == 8 * stats["decode_steps"]


def test_cli_trace_records_its_full_length_when_the_model_loops(tiny_moe_path, tmp_path):
    """Greedy on these random weights repeats itself within ~90 tokens, where a chat answer is
    stopped; a measurement runs its length."""
    from engine.residency.trace import load_trace

    trace = tmp_path / "loop.npz"
    _cli("trace", str(tiny_moe_path), "--prompt", "the document", "--out", str(trace),
         "--max-tokens", "300", "--temperature", "0")
    assert load_trace(trace).ids.shape[0] == 300


def test_a_replay_needs_the_slot_cache(tiny_moe_path, tmp_path):
    import subprocess
    import sys

    trace = tmp_path / "t.npz"
    _cli("trace", str(tiny_moe_path), "--prompt", "the document", "--out", str(trace),
         "--max-tokens", "4")
    result = subprocess.run([sys.executable, "-m", "tools.routing_replay", str(trace),
                             str(tiny_moe_path), "--no-slots", "--json"], input="hi\n\n",
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 2 and "slot cache" in result.stderr


def test_native_tables_refuse_a_slot_without_its_weights(tiny_moe_path, cpu_recipe):
    model = load(tiny_moe_path, cpu_recipe, slots=[2] * 4)
    try:
        api, ctx, i32 = slot_cache.native_api(), model.ctx.ctx, slot_cache._i32
        assert api.llama_slot_cache_stage(ctx, 0, i32([5, -1])) == -6       # never uploaded
        assert api.llama_slot_cache_upload(ctx, 0, 1, i32([5]), i32([0])) == 0
        assert api.llama_slot_cache_stage(ctx, 0, i32([5, 5])) == -1        # twice
        assert api.llama_slot_cache_stage(ctx, 0, i32([5, -1])) == 0
        assert api.llama_slot_cache_upload(ctx, 0, 1, i32([9]), i32([0])) == -1   # no expert 9
        assert api.llama_slot_cache_upload(ctx, 7, 1, i32([1]), i32([0])) == -7   # not cached
    finally:
        model.close()


def test_an_upload_over_a_published_slot_unpublishes_it_at_commit(tiny_moe_path, cpu_recipe,
                                                                  reference):
    """Slot 0 holds expert 5, then expert 6's weights land in it without a new table:
    the commit must not let expert 5 read expert 6's weights (logits stay exact)."""
    model = load(tiny_moe_path, cpu_recipe, slots=[2] * 4, upload_cap=0)
    try:
        api, ctx, i32 = slot_cache.native_api(), model.ctx.ctx, slot_cache._i32
        for layer in range(4):
            api.llama_slot_cache_upload(ctx, layer, 2, i32([5, 1]), i32([0, 1]))
            api.llama_slot_cache_stage(ctx, layer, i32([5, 1]))
        api.llama_slot_cache_commit(ctx)
        for layer in range(4):
            api.llama_slot_cache_upload(ctx, layer, 1, i32([6]), i32([0]))
        api.llama_slot_cache_commit(ctx)
        model.slot_cache.verify = False     # the Python mirror does not see raw API calls
        tokens, logits, _ = greedy(model)
    finally:
        model.close()
    assert tokens == reference["separate"][0]
    assert np.array_equal(logits.view(np.uint32), reference["separate"][1].view(np.uint32))


def test_no_memory_for_the_slots_steps_down_to_the_stock_layout(tiny_moe_path, monkeypatch):
    """A failed slot allocation is a memory failure: the loader tries half, then stock."""
    from engine.api import LoadRequest
    from engine.plan.hardware import HardwareInfo
    from engine.runtime import loader

    def no_memory(self, *args, **kwargs):
        raise slot_cache.SlotCacheError(slot_cache.E_ALLOC, "The expert slot cache could not be set up")

    monkeypatch.setattr(slot_cache.SlotCache, "__init__", no_memory)
    monkeypatch.setattr("engine.plan.hardware.probe",
                        lambda: HardwareInfo.pretend(vram_gb=0, ram_gb=8, cores=2))
    from engine.recipe import MemoryEstimate, Recipe

    slotted = Recipe(preset="cpu-only", n_gpu_layers=0, cpu_expert_layers=(), n_ctx=512, flash_attn=True,
                     kv_type="f16", n_batch=128, n_ubatch=128, n_threads=1, n_threads_batch=1,
                     vram=MemoryEstimate(), ram=MemoryEstimate(), expert_slots=(4, 4, 4, 4))
    steps = []
    loaded = loader.load_with_fallback(LoadRequest(str(tiny_moe_path), recipe=slotted),
                                       lambda f, m: None, steps.append)
    try:
        assert loaded.native.slot_cache is None and not loaded.recipe.expert_slots
        assert steps and steps[0].expert_slots == (2, 2, 2, 2)      # half the slots first
    finally:
        loaded.close()


def _anon_huge_kib() -> int:
    with open("/proc/self/smaps_rollup") as rollup:
        return next(int(line.split()[1]) for line in rollup if line.startswith("AnonHugePages:"))


def _transparent_huge_pages() -> str:
    try:
        with open("/sys/kernel/mm/transparent_hugepage/enabled") as mode:
            return mode.read().split("[")[1].split("]")[0]
    except (OSError, IndexError):
        return "unavailable"


@pytest.mark.skipif(_transparent_huge_pages() not in ("madvise", "always"),
                    reason="Linux transparent huge pages are off or absent here")
@pytest.mark.skipif("libasan" in os.environ.get("LD_PRELOAD", ""),
                    reason="AddressSanitizer's allocator lays memory out itself (tools/sanitize.py: "
                           "201 of 208 MiB in huge pages, 0.969)")
def test_cpu_slot_banks_live_in_huge_pages(tmp_path, cpu_recipe):
    # With 4 KiB pages, reading the host banks cost ~10% more than the mmapped weights; banks
    # in a malloc'ed buffer had only its 2 MiB-aligned middle (86%) in huge pages.
    from engine.demo.tiny_moe import SPECS, write_tiny_moe

    spec = SPECS["bench"]                          # banks of ~200 MiB: room for 2 MiB pages
    path = write_tiny_moe(tmp_path / "bench-moe.gguf", "bench")
    before = _anon_huge_kib()
    model = load(path, cpu_recipe, slots=(spec.n_expert,) * spec.n_layer)
    try:
        grown = (_anon_huge_kib() - before) * 1024
        assert grown >= 0.97 * model.slot_cache.bank_bytes, (grown, model.slot_cache.bank_bytes)
    finally:
        model.close()
