"""Invariants every policy keeps in the engine's semantics, on random traces (hypothesis)."""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from residency_helpers import random_trace

from engine.errors import BudgetError
from engine.residency.budget import Budget
from engine.residency.policy import POLICIES, POLICY_NAMES, make_policy
from engine.residency.rotary import RotaryConfig
from tools.residency_sim.simulate import Counts, replay, run_policy
from engine.residency.slots import FREE
from engine.residency.trace import Trace

FAST = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
ONLINE = ("lru", "lfu", "lfru", "rotary")   # start from empty slots, like OPT (static/layer preload)


def test_registry_matches_the_allowed_names():
    assert tuple(POLICIES) == POLICY_NAMES
    assert all(entry.reference.name == name for name, entry in POLICIES.items())


def test_unknown_policy_and_options_are_budget_errors():
    budget = Budget.uniform(1, 4)
    with pytest.raises(BudgetError, match="Unknown residency policy 'nope'"):
        make_policy("nope", budget, 8, 2)
    with pytest.raises(BudgetError, match="does not take options"):
        make_policy("lru", budget, 8, 2, colour="red")


@st.composite
def cases(draw):
    n_expert = draw(st.sampled_from([8, 16, 32]))
    k = draw(st.integers(1, 4))
    slots = draw(st.integers(k, n_expert))
    cap = draw(st.one_of(st.none(), st.integers(0, k)))
    seed = draw(st.integers(0, 2**16))
    return n_expert, k, slots, cap, seed


def _replay_checked(policy, trace) -> Counts:
    """after_token through the trace, checking the contract after every call."""
    counts = Counts()
    for t in range(trace.n_tokens):
        for layer in range(trace.n_layers):
            ids = trace.ids[t, layer].tolist()
            before = list(policy.tables[layer].expert_in)
            decision = policy.after_token(layer, ids)
            _check_decision(policy, layer, ids, before, decision)
            counts.add(decision, policy.admits_misses)
    return counts


def _check_decision(policy, layer, ids, before, d):
    table = policy.tables[layer]
    table.check()                                                      # table and ring agree
    assert d.hits == sum(e in before for e in ids)                     # counted BEFORE the decision
    assert d.hits + d.misses == len(ids)
    assert len(d.uploads) <= policy.upload_cap
    slots = [s for _, s in d.uploads]
    assert len(set(slots)) == len(slots)                               # a published slot is written once
    evicted = dict((s, e) for e, s in d.evictions)
    assert len(evicted) == len(d.evictions)
    for expert, slot in d.uploads:
        assert expert not in before                                    # only non-residents are uploaded
        assert table.expert_in[slot] == expert
        assert before[slot] == evicted.get(slot, FREE)                 # a slot is free or named as evicted
    for slot, expert in evicted.items():
        assert slot in slots and before[slot] == expert                # only a slot receiving an upload empties
    after = [before[s] if s not in slots else dict((s2, e) for e, s2 in d.uploads)[s]
             for s in range(table.n_slots)]
    assert after == table.expert_in                                    # nothing else moved
    assert policy.resident(layer) == table.expert_in


@FAST
@given(cases(), st.sampled_from(sorted(POLICY_NAMES)))
def test_every_policy_keeps_the_after_token_contract(case, name):
    n_expert, k, slots, cap, seed = case
    trace = random_trace(np.random.default_rng(seed), 40, 2, n_expert, k)
    policy = make_policy(name, Budget.uniform(2, slots, cap), n_expert, k)
    policy.prepare(trace.ids)
    _replay_checked(policy, trace)


@FAST
@given(cases(), st.sampled_from(sorted(POLICY_NAMES)))
def test_replay_counts_equal_the_sum_of_after_token_decisions(case, name):
    n_expert, k, slots, cap, seed = case
    trace = random_trace(np.random.default_rng(seed), 30, 3, n_expert, k)
    engine_like = make_policy(name, Budget.uniform(3, slots, cap), n_expert, k)
    engine_like.prepare(trace.ids)
    expected = _replay_checked(engine_like, trace)
    simulated = make_policy(name, Budget.uniform(3, slots, cap), n_expert, k)
    simulated.prepare(trace.ids)
    assert replay(simulated, trace.ids) == expected
    again = make_policy(name, Budget.uniform(3, slots, cap), n_expert, k)
    assert run_policy(trace, again).decode == expected                 # the simulator's own path


@FAST
@given(cases())
def test_opt_bounds_every_online_policy(case):
    n_expert, k, slots, _, seed = case
    cap = k                           # OPT is exact (so a bound) when every miss may upload
    trace = random_trace(np.random.default_rng(seed), 50, 2, n_expert, k)
    budget = Budget.uniform(2, slots, cap)
    rates = {name: run_policy(trace, make_policy(name, budget, n_expert, k)).hit_rate
             for name in ONLINE + ("opt",)}
    for name in ONLINE:
        assert rates["opt"] >= rates[name] - 1e-12, rates


def _exhaustive_best(rows, n_expert, slots, cap):
    """Most hits over every demand-admission schedule (after token t: evict any residents,
    upload <= cap of token t's misses), by dynamic programming over resident sets."""
    from itertools import combinations

    states = {frozenset(): 0}
    for ids in rows:
        nxt = {}
        for resident, hits in states.items():
            hits += sum(e in resident for e in ids)
            missed = [e for e in ids if e not in resident]
            for n_up in range(min(cap, len(missed)) + 1):
                for up in combinations(missed, n_up):
                    keep_n = slots - n_up
                    for keep in combinations(sorted(resident), min(keep_n, len(resident))):
                        state = frozenset(keep) | frozenset(up)
                        if nxt.get(state, -1) < hits:
                            nxt[state] = hits
        states = nxt
    return max(states.values())


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 3), st.integers(0, 1), st.integers(0, 2**16))
def test_opt_equals_the_exhaustive_optimum_when_every_miss_may_upload(k, spare, seed):
    n_expert, slots = 6, k + 1 + spare
    trace = random_trace(np.random.default_rng(seed), 9, 1, n_expert, k, hot=n_expert)
    policy = make_policy("opt", Budget.uniform(1, slots, k), n_expert, k)
    got = run_policy(trace, policy).decode.hits
    assert got == _exhaustive_best(trace.ids[:, 0].tolist(), n_expert, slots, k)


def test_opt_under_a_tighter_cap_is_a_reference_not_the_optimum():
    # Found by hypothesis: with cap 1 < k = 2 greedy Belady gets 10 hits, the best schedule 11.
    rows = [[4, 0], [3, 1], [4, 3], [2, 1], [3, 1], [2, 1], [1, 0], [3, 0], [3, 2]]
    trace = Trace(np.array(rows, dtype=np.int16)[:, None, :], None, {"n_expert": 5, "k": 2}, "t")
    got = run_policy(trace, make_policy("opt", Budget.uniform(1, 3, 1), 5, 2)).decode.hits
    assert (got, _exhaustive_best(rows, 5, 3, 1)) == (10, 11)


def test_hits_count_against_the_tables_published_before():
    policy = make_policy("lru", Budget.uniform(1, 4), 16, 2)
    first = policy.after_token(0, [3, 5])
    assert (first.hits, first.misses) == (0, 2)                # empty tables: both ran on the CPU
    assert sorted(e for e, _ in first.uploads) == [3, 5]       # ...and are staged for the next token
    second = policy.after_token(0, [3, 5])
    assert (second.hits, second.misses, second.uploads) == (2, 0, [])


def test_upload_cap_leaves_the_rest_on_the_cpu():
    policy = make_policy("lru", Budget.uniform(1, 8, upload_cap=1), 16, 4)
    d = policy.after_token(0, [0, 1, 2, 3])
    assert d.misses == 4 and len(d.uploads) == 1
    assert policy.after_token(0, [0, 1, 2, 3]).hits == 1


def _reference_lru(rows, slots):
    """The textbook list: most recent at the end; a token's hits are touched, then its misses
    enter (after the token ran), each evicting the oldest."""
    order, hits = [], []
    for ids in rows:
        hit = [e for e in ids if e in order]
        hits.append(len(hit))
        for e in hit:
            order.remove(e)
            order.append(e)
        for e in ids:
            if e not in hit:
                if len(order) == slots:
                    order.pop(0)
                order.append(e)
    return hits, set(order)


@FAST
@given(cases())
def test_lru_matches_a_reference_implementation(case):
    n_expert, k, slots, _, seed = case
    rows = random_trace(np.random.default_rng(seed), 60, 1, n_expert, k).ids[:, 0].tolist()
    policy = make_policy("lru", Budget.uniform(1, slots), n_expert, k)
    got = [policy.after_token(0, ids).hits for ids in rows]
    expected, resident = _reference_lru(rows, slots)
    assert got == expected
    assert set(policy.resident(0)) - {FREE} == resident


@pytest.mark.parametrize("name", ["rotary", "lru", "lfu", "lfru", "opt"])
def test_snapshot_restore_round_trip(name):
    rng = np.random.default_rng(3)
    first, second = random_trace(rng, 30, 2, 32, 4), random_trace(rng, 30, 2, 32, 4)
    policy = make_policy(name, Budget.uniform(2, 8), 32, 4)
    policy.prepare(np.concatenate([first.ids, second.ids]))
    replay(policy, first.ids)
    saved = policy.snapshot()
    replay(policy, second.ids)
    ops = policy.restore(saved)
    for layer in range(2):
        policy.tables[layer].check()
        assert set(policy.tables[layer].resident()) == set(saved.resident[layer])
    assert all(policy.tables[layer].slot_of[e] == slot for layer, e, slot in ops)


def test_rotary_switch_context_brings_a_conversation_back():
    rng = np.random.default_rng(5)
    talk_a, talk_b = random_trace(rng, 40, 1, 64, 4), random_trace(rng, 40, 1, 64, 4)
    policy = make_policy("rotary", Budget.uniform(1, 10), 64, 4)
    assert policy.switch_context(1) == []
    replay(policy, talk_a.ids)
    set_a = set(policy.tables[0].resident())
    policy.switch_context(2)
    replay(policy, talk_b.ids)
    before = set(policy.tables[0].resident())
    ops = policy.switch_context(1)
    assert set(policy.tables[0].resident()) == set_a
    assert {e for _, e, _ in ops} == set_a - before


def test_rotary_forecasts_a_returning_context_and_bypasses_what_it_does_not_need():
    # A loop of 6 tokens over 12 experts with 4 slots: LRU thrashes, the forecast does not.
    loop = [[0, 1], [2, 3], [4, 5], [0, 1], [6, 7], [8, 9]]
    ids = np.array([[row] for row in loop * 20], dtype=np.int16)       # [tokens, 1 layer, k=2]
    trace = Trace(ids, None, {"n_expert": 12, "k": 2}, "loop")
    budget = Budget.uniform(1, 4)
    rotary = run_policy(trace, make_policy("rotary", budget, 12, 2))
    lru = run_policy(trace, make_policy("lru", budget, 12, 2))
    assert rotary.hit_rate > lru.hit_rate + 0.2
    assert rotary.decode.uploads < lru.decode.uploads / 2


def test_rotary_credits_experts_the_router_nearly_chose():
    """With probs, a resident the router nearly chose outlives a slightly more recent one."""
    n_expert, k = 16, 2
    near = np.zeros(n_expert, dtype=np.float32)
    near[[0, 5]], near[2] = 0.4, 0.15                                   # expert 2: the runner-up

    def run(probs):
        policy = make_policy("rotary", Budget.uniform(1, 3), n_expert, k,
                             config=RotaryConfig(layer_match=False))
        policy.after_token(0, [2, 5])                                  # 2 and 5 come in
        policy.after_token(0, [3, 5])                                  # 3 too: 2 is now the oldest
        policy.after_token(0, [0, 5], probs)                           # 0 needs one slot
        policy.after_token(0, [0, 5], probs)
        return set(policy.tables[0].resident())
    assert run(None) == {0, 5, 3}                                      # the oldest (2) made room
    assert run(near) == {0, 5, 2}                                      # the runner-up stayed


@pytest.mark.parametrize("name", ["static", "layer"])
def test_static_placements_never_upload(name):
    trace = random_trace(np.random.default_rng(1), 30, 2, 16, 2)
    result = run_policy(trace, make_policy(name, Budget.uniform(2, 8), 16, 2))
    assert result.decode.uploads == 0 and result.decode.evictions == 0


def test_rotary_forgets_contexts_older_than_its_memory():
    trace = random_trace(np.random.default_rng(9), 300, 2, 32, 2, hot=32)
    policy = make_policy("rotary", Budget.uniform(2, 4), 32, 2, config=RotaryConfig(memory=64),
                         native=False)          # the Python reference's dicts (native: its maps)
    replay(policy, trace.ids)
    assert all(policy.token - t <= 2 * 64 for seen in (*policy.seen, *policy.seen_layer)
               for t in seen.values())


@FAST
@given(cases())
def test_rotary_ignores_the_order_of_routed_ids_within_a_token(case):
    """Traces store sorted ids, the engine passes the router's rank order: same decisions.
    (LRU-like baselines may break recency ties by that order; rotary breaks them by id.)"""
    name = "rotary"
    n_expert, k, slots, cap, seed = case
    rng = np.random.default_rng(seed)
    trace = random_trace(rng, 40, 2, n_expert, k)
    shuffled = np.array([[rng.permutation(row) for row in token] for token in trace.ids])
    counts = []
    for ids in (np.sort(trace.ids, axis=2), shuffled):
        policy = make_policy(name, Budget.uniform(2, slots, k), n_expert, k)
        policy.prepare(ids)
        counts.append(replay(policy, ids))
    assert counts[0] == counts[1]
