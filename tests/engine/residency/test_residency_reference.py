"""Each baseline against a sequence worked out by hand, and the budget's remainder rule.

One layer, one expert per token (k = 1), two slots, unless a test says otherwise; "decide
after the token": a token hits what was resident before it, then its miss comes in.
"""

import numpy as np
import pytest

from engine.residency.budget import Budget
from engine.residency.policy import make_policy
from tools.residency_sim.simulate import run_policy
from engine.residency.trace import Trace


def run(name: str, experts: list[int], slots: int = 2, n_expert: int = 8, **options):
    policy = make_policy(name, Budget.uniform(1, slots), n_expert, 1, **options)
    hits = [policy.after_token(0, [e]).hits for e in experts]
    return hits, set(policy.tables[0].resident())


def test_lru_by_hand():
    # t4 [3]: 1 (last used t2) is older than 2 (t3): 1 goes. t5 [2] hits; t6 [1]: 3 (t4) goes.
    assert run("lru", [1, 1, 2, 3, 2, 1]) == ([0, 1, 0, 0, 1, 0], {1, 2})


def test_lfu_by_hand():
    # t4 [3]: counts 1:2, 2:1 -> 2 goes; t5 [2] (now 2 uses): 3 (1 use) goes; t6 [1] hits.
    assert run("lfu", [1, 1, 2, 3, 2, 1]) == ([0, 1, 0, 0, 0, 1], {1, 2})


def test_lfu_breaks_equal_counts_by_the_oldest_use():
    # t5 [4]: 1, 2 and 3 were used once each; 1 (t1) is the oldest of the unprotected two left.
    assert run("lfu", [1, 2, 3, 2, 4], slots=3) == ([0, 0, 0, 1, 0], {2, 3, 4})


@pytest.mark.parametrize("half_life, hits", [
    # h = 1: at t5 1's score 1.75 * 2^-2 = 0.44 is below 2's 1 * 2^-1 = 0.5: 1 goes; t6 [1]
    # misses (2 goes: 0.25 < 3's 0.5), t7 [2] misses (3 goes: 0.25 < 1's 0.61).
    (1.0, [0, 1, 1, 0, 0, 0, 0]),
    # h = 16: three uses keep 1 at ~2.7 against 2's ~0.96 at t5: 2 goes, t6 [1] hits, t7 misses.
    (16.0, [0, 1, 1, 0, 0, 1, 0]),
])
def test_lfru_by_hand(half_life, hits):
    assert run("lfru", [1, 1, 1, 2, 3, 1, 2], half_life=half_life) == (hits, {1, 2})


def test_static_pins_the_most_used_and_never_moves():
    counts = np.array([[0, 5, 1, 9, 3, 0, 0, 2]])                      # [layers, n_expert]
    hits, resident = run("static", [1, 3, 4, 1, 6], profile=counts)
    assert resident == {3, 1} and hits == [1, 1, 0, 1, 0]


def test_layer_places_whole_layers_from_the_last():
    policy = make_policy("layer", Budget.uniform(3, 4), 8, 1)          # 12 slots: one layer of 8
    assert [len(t.resident()) for t in policy.tables] == [0, 0, 8]


def test_opt_warm_start_holds_what_decode_uses_first():
    decode = [[5], [6], [5], [7], [6]]
    trace = Trace(np.array([[[0]], [[1]]] + [[d] for d in decode], dtype=np.int16), None,
                  {"n_expert": 8, "k": 1, "prompt_spans": [[0, 2]]}, "t")
    result = run_policy(trace, make_policy("opt", Budget.uniform(1, 2), 8, 1))
    assert result.warm_uploads == 2                                    # 5 and 6, used first
    assert result.decode.hits == 4                                     # only 7 misses (6 and 5 then)


def test_byte_budget_hands_the_rounding_remainder_out_layer_by_layer():
    assert Budget.from_bytes(10 * 100, 100, n_layers=3, n_expert=16).slots == (4, 3, 3)
    assert Budget.from_bytes(11 * 100, 100, n_layers=3, n_expert=16).slots == (4, 4, 3)
    # a layer that is full gets nothing more; what no layer can hold is left out
    assert Budget.from_bytes(8 * 100, 100, n_layers=2, n_expert=4, shares=[3, 1]).slots == (4, 4)
    assert Budget.from_bytes(10 * 100, 100, n_layers=2, n_expert=4).slots == (4, 4)
