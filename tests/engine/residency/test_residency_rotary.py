"""Each mechanism of the rotary policy, with a test that fails when it is taken out.

The Python reference is exercised here (its state is plain lists); tests/engine/
test_native_rotary.py holds the C step to it decision by decision.
"""

import numpy as np
import pytest

from engine.residency.budget import Budget
from engine.residency.policy import make_policy
from engine.residency.rotary import ALWAYS, FORECAST_KEY, NEVER, OUTSCORE, RotaryConfig, RotaryPolicy
from tools.residency_sim.simulate import run_policy
from engine.residency.trace import Trace

COUNTS_ONLY = RotaryConfig(half_lives=(NEVER,), forecast=False)   # rules: (counts, ALWAYS/OUTSCORE)


def one_layer(rows: list[list[int]], n_expert: int) -> Trace:
    return Trace(np.array(rows, dtype=np.int16)[:, None, :], None, {"n_expert": n_expert,
                                                                     "k": len(rows[0])}, "t")


def test_each_shadow_runs_its_own_rule():
    # counts, two slots: at t4 [3] the always-admit shadow drops 2 (1 use against 1's two);
    # the admission-controlled one refuses 3, which does not outscore 2 (one use each).
    policy = RotaryPolicy(Budget.uniform(1, 2), 8, 1, config=COUNTS_ONLY)
    for expert in (1, 1, 2, 3):
        policy.after_token(0, [expert])
    assert policy.rules == [(0, ALWAYS), (0, OUTSCORE)]
    assert policy.shadow[0] == [{1, 3}, {1, 2}]


def test_tallies_are_each_shadows_hits_decayed_by_the_window():
    policy = RotaryPolicy(Budget.uniform(1, 2), 8, 1, config=RotaryConfig(half_lives=(NEVER,),
                                                                          forecast=False, window=1.0))
    for expert in (1, 1, 2, 3, 2):
        policy.after_token(0, [expert])
    # hits per token, always / outscore: t2 1/1, t5 0/1 (2 is only in the second shadow)
    assert policy.tally[0] == [1 * 0.5 ** 3, 1 * 0.5 ** 3 + 1]


def test_the_rule_with_the_best_tally_is_followed_and_ties_keep_the_current_one():
    policy = RotaryPolicy(Budget.uniform(1, 4), 8, 1)
    policy.rule[0] = 3
    policy.tally[0] = [1.0, 2.0, 2.0, 2.0, 0.0, 0.0, 0.0, 0.0, 0.5]
    policy._choose(0)
    assert policy.rule[0] == 3                                         # tied with 1 and 2: stays
    policy.tally[0][5] = 2.5
    policy._choose(0)
    assert (policy.rule[0], policy.base[0]) == (5, 2)                  # half-life 2 ranks the rest
    policy.tally[0][8] = 9.0
    policy._choose(0)
    assert (policy.rules[policy.rule[0]], policy.base[0]) == ((-1, OUTSCORE), 2)   # the forecast keeps it


def test_a_layer_weighs_the_other_layers_tallies_in_its_choice():
    # two layers, pool 0.5: a layer's merit is its tally + 0.25 x the rule's sum over layers.
    # Layer 0 alone prefers rule 2 (1.0 against 0.8); layer 1 found rule 5 far better.
    def choice(pool: float) -> int:
        policy = RotaryPolicy(Budget.uniform(2, 4), 8, 1, config=RotaryConfig(pool=pool))
        policy.tally = [[0.0, 0.0, 1.0, 0.0, 0.0, 0.8, 0.0, 0.0, 0.0],
                        [0.0, 0.0, 0.0, 0.0, 0.0, 4.0, 0.0, 0.0, 0.0]]
        policy.pooled = [a + b for a, b in zip(*policy.tally)]
        policy._choose(0)
        return policy.rule[0]
    assert (choice(0.5), choice(0.0)) == (5, 2)         # 0.8 + 0.25 x 4.8 = 2.0 > 1.0 + 0.25


def test_the_pooled_tally_is_the_sum_of_the_layers_tallies():
    policy = RotaryPolicy(Budget.uniform(3, 4), 16, 2)
    rng = np.random.default_rng(5)
    for _ in range(60):
        for layer in range(3):
            policy.after_token(layer, rng.choice(16, 2, replace=False).tolist())
    assert np.allclose(policy.pooled, np.sum(policy.tally, axis=0), rtol=1e-12)
    assert max(policy.pooled) > 0


def test_the_forecast_admits_as_the_best_plain_rule_unless_the_victim_is_forecast():
    # rules: (counts, ALWAYS), (counts, OUTSCORE), the forecast. Plain ALWAYS leads the plain
    # rules, the forecast leads overall: an unforecast miss that does not outscore an
    # unforecast victim comes in; a forecast victim is kept.
    policy = RotaryPolicy(Budget.uniform(1, 2), 8, 1, config=RotaryConfig(half_lives=(NEVER,)))
    policy.tally[0] = [2.0, 1.0, 3.0]
    policy._choose(0)
    assert (policy.rule[0], policy.base_admit[0]) == (2, ALWAYS)
    forecast_soon = FORECAST_KEY / 2
    assert policy._admits(0, 2, 1.0, 2.0)                       # neither forecast: admitted
    assert not policy._admits(0, 2, 1.0, forecast_soon)         # the victim is forecast
    assert policy._admits(0, 2, FORECAST_KEY, forecast_soon)    # forecast sooner than the victim
    policy.tally[0] = [1.0, 2.0, 3.0]
    policy._choose(0)
    assert policy.base_admit[0] == OUTSCORE and not policy._admits(0, 2, 1.0, 2.0)
    assert not policy._admits(0, 1, 1.0, 2.0) and policy._admits(0, 0, 1.0, 2.0)   # plain rules


def test_admission_control_leaves_a_one_off_on_the_cpu():
    # counts, two slots. By t5 the admission-controlled shadow has hit more (it kept 2), so it
    # is followed; at t6 expert 4 (one use) does not outscore the residents: no upload.
    policy = RotaryPolicy(Budget.uniform(1, 2), 8, 1, config=COUNTS_ONLY)
    decisions = [policy.after_token(0, [e]) for e in (1, 1, 2, 3, 2, 4, 2)]
    assert policy.rules[policy.rule[0]] == (0, OUTSCORE)
    assert (decisions[5].misses, decisions[5].uploads) == (1, [])
    assert decisions[6].hits == 1 and set(policy.tables[0].resident()) == {1, 2}


def test_eviction_takes_the_exact_lowest_score_anywhere_in_the_slots():
    policy = RotaryPolicy(Budget.uniform(1, 40), 64, 1, config=COUNTS_ONLY)
    for expert in range(40):                                    # expert e used 3 times, but 39 once
        for _ in range(1 if expert == 39 else 3):
            policy.after_token(0, [expert])
    decision = policy.after_token(0, [50])
    assert decision.evictions == [(39, policy.tables[0].slot_of[50])] == [(39, 39)]


def test_the_time_scale_follows_the_routing():
    rng = np.random.default_rng(0)
    popular = [[int(rng.choice(3))] if rng.random() < 0.6 else [int(rng.integers(3, 32))]
               for _ in range(300)]                                   # a hot three, one-offs between
    shifting = [[3 * phase % 30 + i % 3] for phase in range(15) for i in range(20)]
    budget = Budget.uniform(1, 4)
    hot = run_policy(one_layer(popular, 32), RotaryPolicy(budget, 32, 1)).hit_rate
    moving = run_policy(one_layer(shifting, 32), RotaryPolicy(budget, 32, 1)).hit_rate
    lfu = run_policy(one_layer(shifting, 32), make_policy("lfu", budget, 32, 1)).hit_rate
    lru = run_policy(one_layer(popular, 32), make_policy("lru", budget, 32, 1)).hit_rate
    assert hot >= 0.53 > lru + 0.1                  # frequency with admission, as LFU gets 0.56
    assert moving >= 0.7 > lfu + 0.5                # recency or the forecast, as LRU gets 0.85


def test_the_forecast_follows_a_passage_that_comes_round_again():
    rng = np.random.default_rng(1)
    passage = [sorted(rng.choice(32, 2, replace=False).tolist()) for _ in range(40)]
    trace = one_layer(passage * 6, 32)                 # a greedy loop: every expert as frequent
    budget = Budget.uniform(1, 8)
    rates = {name: run_policy(trace, RotaryPolicy(budget, 32, 2, config=cfg)).hit_rate
             for name, cfg in (("forecast", RotaryConfig()), ("without", RotaryConfig(forecast=False)))}
    simple = max(run_policy(trace, make_policy(p, budget, 32, 2)).hit_rate for p in ("lru", "lfu", "lfru"))
    assert rates["forecast"] >= rates["without"] + 0.08 and rates["forecast"] >= simple + 0.1


def test_the_warm_start_uploads_what_the_prompt_used_last():
    policy = RotaryPolicy(Budget.uniform(2, 3), 16, 2, config=RotaryConfig(prompt_feed=4))
    prompt = np.array([[[1, 2], [5, 6]]] * 10 + [[[3, 4], [7, 8]]] * 4, dtype=np.int32)
    prompt[:, 1] = np.where(np.arange(14)[:, None] < 13, -1, prompt[:, 1])   # layer 1: last row only
    uploads = policy.observe_prompt(prompt)
    assert {(layer, e) for layer, e, _ in uploads} == {(0, 3), (0, 4), (1, 7), (1, 8)}
    assert policy.after_token(0, [3, 4]).hits == 2 and policy.clock == [5, 1]   # 4 + 1 fed, 1 fed
    assert policy.score[0][0][1] > 0                                   # the learnt part counted too


def test_the_warm_start_learns_without_uploading_when_nothing_is_fed():
    policy = RotaryPolicy(Budget.uniform(1, 4), 16, 2, config=RotaryConfig(prompt_feed=0))
    assert policy.observe_prompt(np.array([[[1, 2]], [[1, 3]], [[1, 2]]], dtype=np.int32)) == []
    assert policy.tally[0] != [0.0] * len(policy.rules) and policy.clock == [0]


def test_a_prompt_token_without_its_first_layer_is_skipped_and_bad_rows_refused():
    policy = RotaryPolicy(Budget.uniform(2, 2), 8, 1)
    assert policy.observe_prompt(np.array([[[-1], [3]]], dtype=np.int32)) == []
    assert policy.token == -1
    with pytest.raises(ValueError, match="whole row of -1"):
        policy.observe_prompt(np.array([[[9], [3]]], dtype=np.int32))
    with pytest.raises(ValueError, match="prompt routing must be"):
        policy.observe_prompt(np.zeros((2, 3, 1), dtype=np.int32))
