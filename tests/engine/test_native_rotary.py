"""The rotary policy's C step equals the Python reference, decision by decision and bit for bit.

Every comparison runs the two side by side on the same routing and checks, after every call,
the Decision (hits, misses, uploads, evictions), both tables, the free slots, the clock, the
rule followed, the shadows and their tallies; at the end the scores and boosts bit for bit.
"""

from __future__ import annotations

import ctypes
import os
import pathlib

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.residency import native_rotary
from engine.residency.base import Snapshot
from engine.residency.budget import Budget
from engine.residency.policy import make_policy
from engine.residency.rotary import NEVER, RotaryConfig, RotaryPolicy
from tools.residency_sim.synth import SynthSpec, synth_trace
from engine.residency.trace import load_trace

pytestmark = pytest.mark.skipif(not native_rotary.available(),
                                reason="no C compiler: the native rotary policy is not built")

ROOT = pathlib.Path(__file__).resolve().parents[2]
# The real traces lie beside the checkout (CI: a copy of shared/); a worktree elsewhere names them.
TRACES_DIR = pathlib.Path(os.environ.get("ROTARY_TRACES_DIR", ROOT.parent / "shared" / "traces"))
# The four families (each *_all holds its per-prompt files) and the chat logs with their prompts.
TRACES = sorted(TRACES_DIR.glob("*_all.npz")) + sorted(TRACES_DIR.glob("chat/*.route.csv"))


def pair(budget: Budget, n_expert: int, k: int, config: RotaryConfig | None = None):
    native = make_policy("rotary", budget, n_expert, k, config=config)
    reference = make_policy("rotary", budget, n_expert, k, native=False, config=config)
    assert type(native) is native_rotary.NativeRotaryPolicy and type(reference) is RotaryPolicy
    return native, reference


def same_state(native, reference, layer: int) -> None:
    got, want = native.tables[layer], reference.tables[layer]
    assert got.expert_in == want.expert_in
    assert got.slot_of == want.slot_of
    assert got.free == want.free
    got.check()
    assert int(native.clock[layer]) == reference.clock[layer]
    assert (int(native.rule[layer]), int(native.base[layer])) == (reference.rule[layer], reference.base[layer])
    assert native.shadows(layer) == reference.shadow[layer]
    assert np.array_equal(native.tally[layer].view(np.uint64), np.array(reference.tally[layer]).view(np.uint64))


def same_bits(native, reference) -> None:
    assert np.array_equal(native.score.view(np.uint64), np.array(reference.score).view(np.uint64))
    assert np.array_equal(native.boost.view(np.uint64), np.array(reference.boost).view(np.uint64))
    assert (native.token, native.match, native.start.tolist()) == \
        (reference.token, reference.match, reference.start)


def lockstep(native, reference, ids: np.ndarray, probs: np.ndarray | None = None) -> int:
    """Step both through ids [tokens, layers, k]; returns the uploads (so tests see turnover)."""
    uploads = 0
    for t, token in enumerate(ids.tolist()):
        for layer, routed in enumerate(token):
            p = None if probs is None else probs[t, layer]
            got, want = native.after_token(layer, routed, p), reference.after_token(layer, routed, p)
            assert (got.layer, got.hits, got.misses, got.uploads, got.evictions) == \
                (want.layer, want.hits, want.misses, want.uploads, want.evictions), (t, layer)
            same_state(native, reference, layer)
            uploads += len(want.uploads)
    same_bits(native, reference)
    return uploads


def synthetic(n_expert=32, k=4, n_layers=3, n_tokens=400, seed=0, **extra):
    spec = SynthSpec(n_expert=n_expert, k=k, n_layers=n_layers, n_tokens=n_tokens, seed=seed,
                     segment=80, prompt=0, **extra)
    return synth_trace(spec).ids


@pytest.mark.parametrize("slots", [4, 9, 32])                     # slots == k ... == n_expert
@pytest.mark.parametrize("cap", [0, 1, None])
@pytest.mark.parametrize("config", [RotaryConfig(), RotaryConfig(memory=64),
                                    RotaryConfig(memory=40, horizon=4, order=2, window=3.0),
                                    RotaryConfig(layer_match=False, half_lives=(2.0,), order=1),
                                    RotaryConfig(forecast=False, half_lives=(1.0, 8.0))],
                         ids=["default", "memory64", "small", "no-layer-match", "no-forecast"])
def test_synthetic_traces_decide_identically(slots, cap, config):
    ids = synthetic(seed=slots)
    native, reference = pair(Budget.uniform(3, slots, cap), 32, 4, config)
    uploads = lockstep(native, reference, ids)
    assert (uploads > 0) == (cap != 0)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n_expert=st.sampled_from([8, 16, 40]), k=st.integers(1, 4), data=st.data(),
       order=st.integers(-1, 4), horizon=st.integers(-2, 20), window=st.sampled_from([0.5, 4.0, 32.0]),
       memory=st.integers(1, 48), layer_match=st.booleans(), forecast=st.booleans(),
       half_lives=st.lists(st.sampled_from([0.25, 1.0, 8.0, 1e9, NEVER]), min_size=1, max_size=3),
       pool_weight=st.sampled_from([0.0, 0.5, 3.0]), seed=st.integers(0, 2**16))
def test_random_configs_decide_identically(n_expert, k, data, order, horizon, window, memory,
                                           layer_match, forecast, half_lives, pool_weight, seed):
    slots = tuple(data.draw(st.integers(k, n_expert)) for _ in range(2))
    cap = data.draw(st.one_of(st.none(), st.integers(0, k + 2)))
    rng = np.random.default_rng(seed)
    pool = rng.choice(n_expert, size=min(n_expert, 2 * k + 3), replace=False)
    ids = np.array([[rng.choice(pool, size=k, replace=False) for _ in range(2)]
                    for _ in range(120)], dtype=np.int16)                 # [tokens, 2 layers, k]
    config = RotaryConfig(order=order, horizon=horizon, window=window, memory=memory,
                          layer_match=layer_match, half_lives=tuple(half_lives), forecast=forecast,
                          pool=pool_weight, near_miss=data.draw(st.integers(0, 5)))
    scores = None
    if data.draw(st.booleans()):            # router scores with ties (one decimal), some < 0
        scores = np.round(rng.normal(0.3, 0.5, (*ids.shape[:2], n_expert)), 1).astype(np.float32)
    native, reference = pair(Budget(slots, cap), n_expert, k, config)
    lockstep(native, reference, ids, scores)
    snapshot = Snapshot([rng.choice(n_expert, size=n, replace=False).tolist() for n in slots])
    assert native.restore(snapshot) == reference.restore(snapshot)
    for layer in range(2):
        same_state(native, reference, layer)
    lockstep(native, reference, ids[:20])


def test_uneven_budgets_and_a_latent_trace():
    ids = synthetic(n_expert=64, k=6, n_layers=4, n_tokens=300, seed=3, mode="latent")
    native, reference = pair(Budget((6, 20, 64, 11), 2), 64, 6, RotaryConfig(memory=50))
    assert lockstep(native, reference, ids) > 0


def test_frequencies_renormalise_identically():
    # half-life 0.5 quadruples the boost each token: RENORMALISE_AT (1e150) is passed at ~250.
    ids = synthetic(n_tokens=600, seed=4)
    native, reference = pair(Budget.uniform(3, 6, 2), 32, 4, RotaryConfig(half_lives=(0.5, 16.0)))
    lockstep(native, reference, ids)
    assert max(max(b) for b in reference.boost) < 1e150     # 4 ** 600 without renormalising


@pytest.mark.parametrize("kind", ["softmax", "logits"])
def test_router_probabilities_credit_identically(kind):
    ids = synthetic(seed=6)
    rng = np.random.default_rng(6)
    scores = rng.normal(0, 1, (*ids.shape[:2], 32)).astype(np.float32)   # [tokens, layers, 32]
    np.put_along_axis(scores, ids.astype(np.int64), 4.0, axis=2)
    if kind == "softmax":
        scores = np.exp(scores) / np.exp(scores).sum(axis=2, keepdims=True)
    native, reference = pair(Budget.uniform(3, 8, 2), 32, 4)
    assert lockstep(native, reference, ids, scores) > 0


@pytest.mark.parametrize("path", TRACES, ids=[p.name.split(".")[0] for p in TRACES])
@pytest.mark.parametrize("fraction", [0.125, 0.25, 0.5])
def test_real_traces_decide_identically(path, fraction):
    trace = load_trace(str(path))
    slots = max(trace.k, round(fraction * trace.n_expert))      # granite: 12.5% of 40 < top-8
    native, reference = pair(Budget.uniform(trace.n_layers, slots), trace.n_expert, trace.k)
    prompt = trace.prompt_mask()
    if prompt.any():                                            # the chat logs: the warm start
        assert native.observe_prompt(trace.ids[prompt]) == reference.observe_prompt(trace.ids[prompt])
    assert lockstep(native, reference, trace.ids[~prompt][:600]) > 0


def test_real_traces_are_there_or_skipped():
    if not TRACES:
        pytest.skip(f"no traces in {TRACES_DIR}")
    assert all(load_trace(str(p)).n_tokens > 0 for p in TRACES)


def test_the_batch_entry_equals_layer_by_layer_calls():
    ids = synthetic(n_layers=5, seed=8).astype(np.int32)
    batch, reference = pair(Budget.uniform(5, 7, 2), 32, 4, RotaryConfig(memory=64))
    buffer = np.zeros((5, 4), dtype=np.int32)                           # reused, as the engine does
    for t, token in enumerate(ids):
        buffer[:] = token
        step = batch.after_token_all(buffer)
        decisions = [reference.after_token(layer, row.tolist()) for layer, row in enumerate(token)]
        assert step.total_uploads == sum(len(d.uploads) for d in decisions)
        for layer, d in enumerate(decisions):
            n_up, n_ev = int(step.n_uploads[layer]), int(step.n_evictions[layer])
            assert (int(step.hits[layer]), int(step.misses[layer])) == (d.hits, d.misses), t
            assert list(zip(step.upload_expert[layer, :n_up].tolist(),
                            step.upload_slot[layer, :n_up].tolist())) == d.uploads
            assert list(zip(step.eviction_expert[layer, :n_ev].tolist(),
                            step.eviction_slot[layer, :n_ev].tolist())) == d.evictions
            same_state(batch, reference, layer)
    same_bits(batch, reference)


def test_conversations_snapshots_and_restores_match():
    ids = synthetic(n_tokens=480, seed=9)
    native, reference = pair(Budget.uniform(3, 8, 2), 32, 4, RotaryConfig(memory=64))
    both = (native, reference)
    plan = [(1, 0, 80), (2, 80, 160), (1, 160, 240), (3, 240, 300), (2, 300, 380), (1, 380, 480)]
    saved = []
    for context, start, stop in plan:
        ops = [p.switch_context(context) for p in both]
        assert ops[0] == ops[1]
        lockstep(native, reference, ids[start:stop])
        snaps = [p.snapshot() for p in both]
        assert snaps[0].resident == snaps[1].resident
        saved.append(snaps[1])
    for snapshot in (saved[1], saved[0], Snapshot([[3, 1, 4, 15, 9, 26]] * 3)):
        ops = [p.restore(snapshot) for p in both]
        assert ops[0] == ops[1]
        for layer in range(3):
            same_state(native, reference, layer)
        lockstep(native, reference, ids[:40])


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(learn=st.integers(0, 60), feed=st.integers(0, 40), seed=st.integers(0, 2**16),
       slots=st.integers(4, 32))
def test_the_warm_start_decides_identically(learn, feed, seed, slots):
    """observe_prompt (rp_observe_prompt): learning, feeding, unrouted rows, then decoding."""
    rng = np.random.default_rng(seed)
    ids = synthetic(n_tokens=140, seed=seed % 50).astype(np.int32)
    prompt = ids[:50].copy()
    prompt[:-1, -1] = -1                        # as llama.cpp: the last layer routes the last row only
    prompt[rng.integers(0, 49), 0] = -1         # a token whose first layer is missing is skipped
    config = RotaryConfig(memory=64, prompt_learn=learn, prompt_feed=feed)
    native, reference = pair(Budget.uniform(3, slots, 2), 32, 4, config)
    lockstep(native, reference, ids[50:70])     # a conversation before this prompt
    got, want = native.observe_prompt(prompt), reference.observe_prompt(prompt)
    assert got == want and all(0 <= s < slots for _, _, s in got)
    for layer in range(3):
        same_state(native, reference, layer)
    same_bits(native, reference)
    lockstep(native, reference, ids[70:])
    with pytest.raises(ValueError):
        native.observe_prompt(np.full((2, 3, 4), -1, np.int32)[:, :, :3])   # wrong k
    bad = prompt[:2].copy()
    bad[0, 1, 0] = -1                                                       # half a row
    for policy in (native, reference):
        with pytest.raises(ValueError):
            policy.observe_prompt(bad)


def test_a_snapshot_larger_than_the_slots_fails_the_same_way():
    native, reference = pair(Budget.uniform(1, 4), 32, 4)
    everything = Snapshot([list(range(32))])
    for policy in (native, reference):
        policy.restore(everything)                                  # fills the 4 free slots
    assert native.tables[0].expert_in == reference.tables[0].expert_in == [0, 1, 2, 3]
    ops = [p.restore(Snapshot([[5, 6]])) for p in (native, reference)]   # victims by rank
    assert ops[0] == ops[1]
    for policy in (native, reference):
        with pytest.raises(IndexError):
            policy.restore(Snapshot([[0, 1, 2, 3, 5, 6, 7][::-1]]))  # every resident is wanted


def test_context_maps_hold_what_the_python_dicts_hold():
    ids = synthetic(n_tokens=700, seed=10, n_expert=16, k=2)
    native, reference = pair(Budget.uniform(3, 4), 16, 2, RotaryConfig(memory=64))
    for t in range(0, 700, 50):
        lockstep(native, reference, ids[t:t + 50])
        entries = sum(len(d) for d in (*reference.seen, *reference.seen_layer))
        assert native.map_entries() == entries <= (3 + 3) * 2 * 64       # bounded by 2 x memory


def test_out_of_order_and_bad_calls_raise():
    policy = make_policy("rotary", Budget.uniform(2, 4), 16, 2)
    with pytest.raises(RuntimeError, match="layer 0"):
        policy.after_token(1, [0, 1])
    with pytest.raises(ValueError):
        policy.after_token(0, [0, 1, 2])
    with pytest.raises(RuntimeError, match="out of range"):
        policy.after_token(0, [0, 16])
    assert policy.token == -1                                           # nothing happened
    policy.after_token(0, [0, 1])
    policy.close()
    policy.close()
    with pytest.raises(RuntimeError, match="closed"):
        policy.after_token(1, [0, 1])
    assert policy.tables[0].expert_in == [1, 0, -1, -1]   # still readable (ties: higher id first)


def test_selection_native_by_default_python_as_reference_and_fallback(monkeypatch):
    budget = Budget.uniform(2, 4)
    assert isinstance(make_policy("rotary", budget, 16, 2), native_rotary.NativeRotaryPolicy)
    assert type(make_policy("rotary", budget, 16, 2, native=False)) is RotaryPolicy
    configured = make_policy("rotary", budget, 16, 2, config=RotaryConfig(horizon=3))
    assert configured.cfg.horizon == 3
    monkeypatch.setattr(native_rotary, "available", lambda: False)   # as without a compiler
    assert type(make_policy("rotary", budget, 16, 2)) is RotaryPolicy


# ---- the engine runs the native policy ------------------------------------------------------

def _engine_available() -> bool:
    from engine.runtime.experts import slot_cache

    return slot_cache.available()


def test_the_slot_cache_signatures_are_the_ones_the_c_step_calls():
    # rotary_policy.c's rp_read_routing_fn, rp_upload_fn, rp_stage_fn and rp_commit_fn
    from engine.runtime.experts import slot_cache

    expected = {"read_routing": ["c_void_p", "LP_c_int", "LP_c_float"],
                "upload": ["c_void_p", "c_int", "c_int", "LP_c_int", "LP_c_int"],
                "stage": ["c_void_p", "c_int", "LP_c_int"],
                "commit": ["c_void_p"]}
    assert set(expected) == set(slot_cache.STEP_FAILURES)
    for name, args in expected.items():
        argtypes, restype = slot_cache._SIGNATURES[f"llama_slot_cache_{name}"]
        assert [a.__name__ for a in argtypes] == args, name
        assert restype.__name__ in ("c_int", "c_int32"), name


_READ = ctypes.CFUNCTYPE(ctypes.c_int32, ctypes.c_void_p, ctypes.POINTER(ctypes.c_int32),
                         ctypes.POINTER(ctypes.c_float))
_UPLOAD = ctypes.CFUNCTYPE(ctypes.c_int32, ctypes.c_void_p, ctypes.c_int32, ctypes.c_int32,
                           ctypes.POINTER(ctypes.c_int32), ctypes.POINTER(ctypes.c_int32))
_STAGE = ctypes.CFUNCTYPE(ctypes.c_int32, ctypes.c_void_p, ctypes.c_int32, ctypes.POINTER(ctypes.c_int32))
_COMMIT = ctypes.CFUNCTYPE(ctypes.c_int32, ctypes.c_void_p)


def _fake_libllama(calls: list, upload_status: int):
    """Stand-ins for libllama's slot-cache calls: each records itself; routing is 0..k-1."""
    def read(ctx, ids, probs):
        for i in range(4):                                  # 2 layers x k = 2
            ids[i] = i % 2
        calls.append(("read",))
        return 2
    def upload(ctx, il, n, experts, slots):
        calls.append(("upload", il, [experts[i] for i in range(n)], [slots[i] for i in range(n)]))
        return upload_status
    def stage(ctx, il, table):
        calls.append(("stage", il, [table[i] for i in range(4)]))
        return 0
    def commit(ctx):
        calls.append(("commit",))
        return 0
    kept = (_READ(read), _UPLOAD(upload), _STAGE(stage), _COMMIT(commit))
    return kept, {name: ctypes.cast(f, ctypes.c_void_p).value
                  for name, f in zip(("read_routing", "upload", "stage", "commit"), kept)}


def test_the_c_step_uploads_stages_and_publishes_what_it_decided():
    policy = make_policy("rotary", Budget.uniform(2, 4), 8, 2)
    calls = []
    kept, functions = _fake_libllama(calls, upload_status=0)
    step = policy.engine_step(functions, None, (5, 9), np.zeros((2, 2), dtype=np.int32))
    status, decided = step()
    assert status == 2 and decided.total_uploads == 4 and decided.misses.tolist() == [2, 2]
    # equal keys rank the higher expert first (Python's sorted(..., reverse=True))
    assert calls == [("read",), ("upload", 5, [1, 0], [0, 1]), ("stage", 5, [1, 0, -1, -1]),
                     ("upload", 9, [1, 0], [0, 1]), ("stage", 9, [1, 0, -1, -1]), ("commit",)]
    policy.close()


def test_a_failing_slot_cache_call_inside_the_c_step_is_reported_by_name():
    policy = make_policy("rotary", Budget.uniform(2, 4), 8, 2)
    calls = []
    kept, functions = _fake_libllama(calls, upload_status=-1)
    step = policy.engine_step(functions, None, (5, 9), np.zeros((2, 2), dtype=np.int32))
    with pytest.raises(native_rotary.SlotStepError) as caught:
        step()
    assert (caught.value.call, caught.value.status) == ("upload", -1)
    assert calls[-1][0] == "upload"                        # nothing staged after the failure
    policy.close()


@pytest.mark.skipif(not _engine_available(), reason="the installed llama-cpp-python has no slot cache")
def test_the_engine_decides_with_the_native_policy_and_matches_python(tiny_moe_path, cpu_recipe):
    from tools.residency_sim.simulate import replay
    from engine.runtime.llama_model import NativeModel, Sampling

    recipe = cpu_recipe(expert_slots=(3, 2, 3, 2), residency_policy="rotary", upload_cap=1)
    model = NativeModel(str(tiny_moe_path), recipe)
    try:
        cache = model.slot_cache
        assert isinstance(cache.policy, native_rotary.NativeRotaryPolicy)
        calls = []
        engine_step = cache._engine_step
        cache._engine_step = lambda: calls.append(1) or engine_step()
        cache.verify, cache.routing_log = True, []
        model.set_sampling(Sampling(temperature=0))
        model.decode(model.tokenize("hello the model and the expert"))
        steps = []
        for _ in range(64):
            model.decode([model.sample()], step=True)
            steps.append(model.last_residency)
        ids = np.stack([i for i, _ in cache.routing_log])              # [tokens, layers, k]
        resident = cache.resident()
        tables = [cache.policy.tables[j].expert_in for j in range(4)]
    finally:
        model.close()
    assert len(calls) == 64                                             # one call per token
    reference = make_policy("rotary", Budget((3, 2, 3, 2), 1), 8, 2, native=False)
    counts = replay(reference, ids)
    engine = (sum(s.hits for s in steps), sum(s.misses for s in steps), sum(s.uploads for s in steps))
    assert engine == (counts.hits, counts.misses, counts.uploads) and counts.uploads > 0
    assert tables == [reference.tables[j].expert_in for j in range(4)]
    assert resident == tuple(tuple(sorted(e for e in t if e >= 0)) for t in tables)
