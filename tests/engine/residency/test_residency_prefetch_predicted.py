"""Prefetch from predictions within the same upload cap (policy and simulator)."""

from __future__ import annotations

import numpy as np
import pytest

from engine.residency.budget import Budget
from engine.residency.policy import make_policy
from engine.residency.trace import Trace
from engine.runtime.experts.routing import parse_node_name
from tools.residency_sim.predicted import gap_shares, run_all
from tools.residency_sim.simulate import run_policy

META = {"model": "m", "architecture": "a", "source": "test", "n_expert": 8, "k": 2}


def test_prefetches_come_out_of_the_tokens_upload_cap():
    policy = make_policy("lru", Budget((4,), upload_cap=2), n_expert=8, k=2)
    assert [e for e, _ in policy.prefetch_predicted(0, [5, 6, 7])] == [5, 6]   # two fit the cap
    decision = policy.after_token(0, [5, 7])
    assert (decision.hits, decision.misses, decision.uploads) == (1, 1, [])  # no room left
    decision = policy.after_token(0, [7, 1])                  # a new token: the cap again
    assert len(decision.uploads) == 2


def test_rotary_prefetch_evicts_an_unpredicted_resident_and_hits_the_same_token():
    policy = make_policy("rotary", Budget((2,), upload_cap=2), n_expert=8, k=2, native=False)
    for ids in ([0, 1], [0, 1], [0, 1]):
        policy.after_token(0, ids)
    assert sorted(policy.tables[0].resident()) == [0, 1]
    assert [e for e, _ in policy.prefetch_predicted(0, [0, 4])] == [4]    # 1 goes, 0 stays
    assert policy.after_token(0, [0, 4]).hits == 2


def test_the_native_rotary_step_refuses_prefetch():
    policy = make_policy("rotary", Budget((2,)), n_expert=8, k=2)
    if type(policy).__name__ != "NativeRotaryPolicy":
        pytest.skip("no C compiler for the native policy")
    with pytest.raises(NotImplementedError):
        policy.prefetch_predicted(0, [1])


def _trace(pred_from_truth: bool) -> Trace:
    rng = np.random.default_rng(0)
    ids = np.stack([np.stack([rng.choice(8, 2, replace=False) for _ in range(3)])
                    for _ in range(200)]).astype(np.int16)               # [tokens, 3 layers, 2]
    pred = ids.copy() if pred_from_truth else np.full_like(ids, -1)
    pred[:, 0] = -1
    return Trace(ids, None, dict(META), "t", pred)


def test_perfect_predictions_make_every_later_layer_hit_in_the_simulator():
    trace = _trace(True)
    policy = make_policy("rotary", Budget((2, 2, 2)), 8, 2, native=False)
    result = run_policy(trace, policy, predicted=True)
    later = result.decode.hits - 0                 # layer 0 has no prediction: count it apart
    assert result.decode.prefetches > 0
    assert later >= 2 * 2 * 200                    # layers 1 and 2 hit every routed expert


def test_without_predictions_it_is_the_plain_replay():
    trace = _trace(False)
    with_none = run_policy(trace, make_policy("lru", Budget((3, 3, 3)), 8, 2), predicted=True)
    plain = run_policy(trace, make_policy("lru", Budget((3, 3, 3)), 8, 2))
    assert (with_none.decode.hits, with_none.decode.uploads) == (plain.decode.hits, plain.decode.uploads)


def test_gap_shares_are_against_the_best_simple_policy_and_opt():
    rows = run_all(_trace(True), fraction=0.25)
    assert rows["opt"]["hit"] >= max(rows[p]["hit"] for p in ("lru", "lfu", "lfru"))
    shares = gap_shares(rows, "rotary + prediction")
    assert shares["hit"] is not None and shares["hit"] > 1.0    # perfect prediction passes OPT


def test_the_hidden_node_is_parsed_only_when_asked():
    assert parse_node_name(b"ffn_norm-3", b"ffn_norm") == (b"ffn_norm", 3)
    assert parse_node_name(b"ffn_norm-3") == (b"", -1)
    assert parse_node_name(b"ffn_moe_miss_ids-2") == (b"ffn_moe_miss_ids", 2)


def test_the_probe_learns_a_linear_routing_and_recall_counts_shared_ids():
    from tools.hidden_prediction import probe_scores, recall, top_k, train_probe

    assert recall(np.array([[1, 2], [3, 4]]), np.array([[2, 5], [3, 4]])) == 0.75
    rng = np.random.default_rng(1)
    w_true = rng.standard_normal((16, 8))
    x = rng.standard_normal((600, 16))
    ids = top_k(x @ w_true, 2)
    w = train_probe(x[:400], ids[:400], n_expert=8)
    assert recall(top_k(probe_scores(w, x[400:]), 2), ids[400:]) > 0.8     # unseen rows
