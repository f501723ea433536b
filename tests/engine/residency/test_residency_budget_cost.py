import pytest

from engine.errors import BudgetError
from engine.residency.budget import QWEN36_Q4KM_EXPERT_BYTES, Budget
from tools.residency_sim.costmodel import RTX4060_LAPTOP
from engine.residency.policy import make_policy


def test_fewer_slots_than_experts_per_token_is_refused():
    with pytest.raises(BudgetError, match="Layer 1 gets 3 slots, fewer than the 4 experts"):
        Budget((8, 3)).check(n_expert=16, k=4)
    with pytest.raises(BudgetError, match="fewer than the 8 experts"):
        make_policy("rotary", Budget.uniform(2, 7), 256, 8)


def test_other_impossible_budgets():
    with pytest.raises(BudgetError, match="only 16 experts"):
        Budget.uniform(1, 17).check(16, 2)
    with pytest.raises(BudgetError, match=r"fraction must be in \(0, 1\]"):
        Budget.from_fraction(2, 16, 0.0)
    with pytest.raises(BudgetError, match="covers 2 layers"):
        Budget.uniform(2, 8).check(16, 2, n_layers=3)


def test_byte_budget_splits_by_shares_and_uses_every_slot():
    budget = Budget.from_bytes(100 * 1000, 1000, n_layers=3, n_expert=64, shares=[1, 2, 1])
    assert budget.total_slots == 100
    assert budget.slots[1] > budget.slots[0] and max(budget.slots) <= 64


def test_expert_size_matches_the_published_estimate():
    assert 1.7 * 2**20 < QWEN36_Q4KM_EXPERT_BYTES < 1.9 * 2**20


def test_cost_model_reproduces_the_published_recipe():
    # 8 of 40 layers' experts on the GPU, 32 on the CPU: the paper reports 21.06 t/s.
    per_token = {"hits": 8 * 8, "uploads": 0, "cpu": 32 * 8, "syncs": 32}
    speed = 1 / RTX4060_LAPTOP.token_seconds(per_token, trace_layers=40)
    assert speed == pytest.approx(21.06, rel=0.03)


def test_copies_overlap_compute_or_add_to_it_by_the_assumption():
    model = RTX4060_LAPTOP
    per_expert = model.expert_seconds()
    base = {"hits": 300, "cpu": 10, "syncs": 40}
    compute = model.token_fixed_s + 300 * per_expert["hit"] + 10 * per_expert["cpu"] + 40 * model.layer_sync_s
    for uploads in (1, 20, 500):
        copies = uploads * per_expert["upload"]
        per_token = {**base, "uploads": uploads}
        assert model.token_seconds(per_token, 40, "overlapped") == pytest.approx(max(compute, copies))
        assert model.token_seconds(per_token, 40, "serialised") == pytest.approx(compute + copies)
    few, many = ({**base, "uploads": n} for n in (1, 500))
    assert model.token_seconds(few, 40) == pytest.approx(compute)          # hidden behind compute
    assert model.token_seconds(many, 40) > compute                         # the link is the bottleneck
    assert model.token_seconds(few, 20) > model.token_seconds(few, 40)     # 20 trace layers scale to 40
    with pytest.raises(ValueError, match="overlap"):
        model.token_seconds(few, 40, "both")


def test_lru_hit_curves_match_lru_at_every_size_and_gain_split_spends_the_total():
    import numpy as np
    from residency_helpers import random_trace

    from engine.residency.policy import make_policy
    from tools.residency_sim.simulate import lru_hit_curves, run_policy, slots_by_gain

    trace = random_trace(np.random.default_rng(2), 80, 2, 12, 1, hot=8)    # k = 1: one stack order
    curves = lru_hit_curves(trace.ids, 12)
    for slots in (1, 3, 6):
        hits = run_policy(trace, make_policy("lru", Budget.uniform(2, slots), 12, 1)).decode.hits
        assert curves[:, slots].sum() == hits
    split = slots_by_gain(trace.ids, 12, 1, 9)
    assert sum(split) == 9 and min(split) >= 1
