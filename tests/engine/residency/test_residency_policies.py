"""Invariants every policy keeps, checked on random traces and budgets (hypothesis)."""

import numpy as np
import pytest
from residency_helpers import random_trace
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.errors import BudgetError
from engine.residency.budget import Budget
from engine.residency.policies import POLICY_NAMES
from engine.residency.policy import REGISTRY, make_policy
from engine.residency.rotary import RotaryConfig
from engine.residency.slots import FREE

FAST = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
ONLINE_ADMIT_ALL = ("lru", "lfu", "lfru", "rotary")


def test_registry_matches_the_allowed_names():
    assert set(REGISTRY) == set(POLICY_NAMES)


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


def _replay_checked(policy, trace, prompt_every: int = 0):
    """Step through the trace checking invariants after every step."""
    hits = total = 0
    for t in range(trace.n_tokens):
        in_prompt = prompt_every and (t // prompt_every) % 2 == 1
        if in_prompt and not policy.in_prompt:
            policy.begin_prompt()
        elif not in_prompt and policy.in_prompt:
            _check_ops(policy, policy.end_prompt())
        for layer in range(trace.n_layers):
            ids = trace.ids[t, layer]
            result = policy.step(layer, ids, trace.weights[t, layer], None)
            _check_step(policy, layer, ids.tolist(), result, in_prompt)
            hits += result.hits
            total += result.hits + result.misses
    return hits / total


def _check_step(policy, layer, ids, result, in_prompt):
    table = policy.tables[layer]
    table.check()                                                   # table and ring agree
    assert len(table.resident()) <= table.n_slots
    assert result.hits + result.misses == len(ids)
    assert not {e for e, _ in result.evicts} & set(ids)             # used now, never evicted now
    assert len(result.admits) <= policy.upload_cap
    for expert, slot in zip(ids, result.slots):
        assert slot == FREE or table.slot_of[expert] == slot
    assert result.slots.count(FREE) == result.misses - len(result.admits)
    if in_prompt:
        assert not result.evicts and not result.prefetches          # prompt mode only reads
    _check_ops(policy, result.prefetches)


def _check_ops(policy, ops):
    for layer, expert, slot in ops:
        policy.tables[layer].check()


@FAST
@given(cases(), st.sampled_from(sorted(POLICY_NAMES)))
def test_invariants_hold_for_every_policy(case, name):
    n_expert, k, slots, cap, seed = case
    trace = random_trace(np.random.default_rng(seed), 40, 2, n_expert, k)
    policy = make_policy(name, Budget.uniform(2, slots, cap), n_expert, k)
    policy.prepare(trace.ids)
    _replay_checked(policy, trace, prompt_every=7)


@FAST
@given(cases())
def test_rotary_invariants_with_prefetch_and_backward_rotation(case):
    n_expert, k, slots, cap, seed = case
    rng = np.random.default_rng(seed)
    trace = random_trace(rng, 60, 3, n_expert, k, hot=3 * k + 4)
    guesses = rng.integers(0, n_expert, size=(60, 3, k + 2)).tolist()    # duplicates allowed
    config = RotaryConfig(return_votes=2, epoch=4, restore_per_step=3)
    policy = make_policy("rotary", Budget.uniform(3, slots, cap), n_expert, k, config=config,
                         predictor=lambda layer, t: guesses[t][layer + 1])
    for t in range(trace.n_tokens):
        for layer in range(3):
            result = policy.step(layer, trace.ids[t, layer], None, t)
            _check_step(policy, layer, trace.ids[t, layer].tolist(), result, False)


@FAST
@given(cases())
def test_opt_bounds_every_online_policy_that_admits_all_misses(case):
    n_expert, k, slots, _, seed = case
    trace = random_trace(np.random.default_rng(seed), 50, 2, n_expert, k)
    budget = Budget.uniform(2, slots)
    rates = {}
    for name in ONLINE_ADMIT_ALL + ("opt",):
        policy = make_policy(name, budget, n_expert, k)
        policy.prepare(trace.ids)
        rates[name] = _replay_checked(policy, trace)
    for name in ONLINE_ADMIT_ALL:
        assert rates["opt"] >= rates[name] - 1e-12, rates


def _reference_lru(rows, slots):
    """The textbook list: most recent at the end; batch members are touched before misses."""
    order, hits = [], []
    for ids in rows:
        hit = [e in order for e in ids]
        for e in ids:
            if e in order:
                order.remove(e)
                order.append(e)
        for e, was_hit in zip(ids, hit):
            if not was_hit:
                if len(order) == slots:
                    victim = next(x for x in order if x not in ids)
                    order.remove(victim)
                order.append(e)
        hits.append(sum(hit))
    return hits, set(order)


@FAST
@given(cases())
def test_lru_matches_a_reference_implementation(case):
    n_expert, k, slots, _, seed = case
    trace = random_trace(np.random.default_rng(seed), 60, 1, n_expert, k)
    rows = trace.ids[:, 0].tolist()
    policy = make_policy("lru", Budget.uniform(1, slots), n_expert, k)
    got = [policy.step(0, ids).hits for ids in rows]
    expected, resident = _reference_lru(rows, slots)
    assert got == expected
    assert set(policy.resident(0)) == resident


@pytest.mark.parametrize("name", ["rotary", "lru", "lfu", "lfru", "opt"])
def test_snapshot_restore_round_trip(name):
    rng = np.random.default_rng(3)
    first = random_trace(rng, 30, 2, 32, 4)
    second = random_trace(rng, 30, 2, 32, 4)
    policy = make_policy(name, Budget.uniform(2, 8), 32, 4)
    policy.prepare(np.concatenate([first.ids, second.ids]))
    for t in range(30):
        for layer in range(2):
            policy.step(layer, first.ids[t, layer])
    saved = policy.snapshot()
    for t in range(30):
        for layer in range(2):
            policy.step(layer, second.ids[t, layer])
    ops = policy.restore(saved)
    for layer in range(2):
        policy.tables[layer].check()
        assert set(policy.resident(layer)) == set(saved.resident[layer])
    assert all(policy.tables[layer].slot_of[e] == slot for layer, e, slot in ops)


def test_rotary_switch_context_brings_a_conversation_back():
    rng = np.random.default_rng(5)
    talk_a, talk_b = random_trace(rng, 40, 1, 64, 4), random_trace(rng, 40, 1, 64, 4)
    policy = make_policy("rotary", Budget.uniform(1, 10), 64, 4)
    assert policy.switch_context("a") == []
    for ids in talk_a.ids[:, 0]:
        policy.step(0, ids)
    set_a = set(policy.resident(0))
    policy.switch_context("b")
    for ids in talk_b.ids[:, 0]:
        policy.step(0, ids)
    before = set(policy.resident(0))
    ops = policy.switch_context("a")
    assert set(policy.resident(0)) == set_a
    assert {e for _, e, _ in ops} == set_a - before


def test_prompt_mode_reads_but_never_evicts_then_prewarms():
    policy = make_policy("rotary", Budget.uniform(1, 4), 16, 2)
    for ids in ([0, 1], [2, 3]):
        policy.step(0, ids)
    policy.begin_prompt()
    for _ in range(5):
        result = policy.step(0, [8, 9])
        assert result.evicts == [] and result.slots == [FREE, FREE]
    assert set(policy.resident(0)) == {0, 1, 2, 3}
    ops = policy.end_prompt()                                      # the prompt's experts come in
    assert {e for _, e, _ in ops} == {8, 9} and {8, 9} <= set(policy.resident(0))


def test_upload_cap_sends_the_rest_to_the_cpu():
    policy = make_policy("lru", Budget.uniform(1, 8, upload_cap=1), 16, 4)
    result = policy.step(0, [0, 1, 2, 3])
    assert len(result.admits) == 1 and result.cpu == 3 and result.slots.count(FREE) == 3
