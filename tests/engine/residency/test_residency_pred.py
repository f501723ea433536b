"""Recorded extras of a trace: next-layer predictions (``pred``, latent synth) and router ``probs``."""

import json
import re

import numpy as np
import pytest
from residency_helpers import random_trace

from engine.errors import TraceFormatError
from tools.residency_sim.__main__ import main
from engine.residency.budget import Budget
from engine.residency.policy import make_policy
from tools.residency_sim.predictors import prediction_accuracy
from tools.residency_sim.simulate import run_policy
from tools.residency_sim.synth import SynthSpec, reuse_stats, synth_trace
from engine.residency.trace import Trace, load_trace, save_trace

META = {"model": "m", "n_expert": 16}


def _ids(tokens=5, layers=3, k=4, seed=0):
    rng = np.random.default_rng(seed)
    return np.array([[rng.choice(16, k, replace=False) for _ in range(layers)]
                     for _ in range(tokens)], dtype=np.int16)        # [tokens, layers, k]


def _perfect(ids):
    """The true ids as a prediction, with row 0 empty as the format requires."""
    pred = ids.copy()
    pred[:, 0] = -1
    return pred


def _write_raw(path, **arrays):
    with open(path, "wb") as handle:
        np.savez(handle, meta=np.array(json.dumps(META)), **arrays)
    return path


def test_pred_round_trips_and_is_optional(tmp_path):
    ids = _ids()
    pred = _perfect(ids).astype(np.int64)
    pred[2, 1, 3] = -1                                               # a hole: "no prediction"
    save_trace(tmp_path / "p.npz", ids, None, META, pred=pred)
    save_trace(tmp_path / "n.npz", ids, None, META)                   # the old positional call
    with_pred, without = load_trace(tmp_path / "p.npz"), load_trace(tmp_path / "n.npz")
    assert with_pred.pred.dtype == np.int16 and np.array_equal(with_pred.pred, pred)
    assert without.pred is None


@pytest.mark.parametrize("pred, fragment", [
    (_perfect(_ids()).astype(np.float32), "pred must be integers (int16), got dtype float32"),
    (_perfect(_ids())[:, :2], "pred shape (5, 2, 4) differs from ids (5, 3, 4)"),
    (_perfect(_ids()) + 16, "pred out of range"),
    (np.full((5, 3, 4), -2, np.int16), "pred out of range: found -2..-2, expected -1..15"),
    (np.full((5, 3, 4), 40000, np.int32), "pred do not fit int16"),
    (_ids(), "pred row 0 must be all -1"),                          # the off-by-one convention
])
def test_bad_pred_names_the_problem_on_load_and_save(tmp_path, pred, fragment):
    path = _write_raw(tmp_path / "bad.npz", ids=_ids(), pred=pred)
    with pytest.raises(TraceFormatError, match=re.escape(fragment)):
        load_trace(path)
    with pytest.raises(TraceFormatError, match=re.escape(fragment)):
        save_trace(tmp_path / "out.npz", _ids(), None, META, pred=pred)
    assert not (tmp_path / "out.npz").exists()


def test_prediction_accuracy_counts_true_experts_found():
    ids = np.array([[[0, 1], [2, 3], [4, 5]]], np.int16)             # [1 token, 3 layers, k=2]
    pred = np.array([[[-1, -1], [3, 7], [5, 4]]], np.int16)
    assert prediction_accuracy(ids, pred) == pytest.approx(0.75)      # (1/2 + 2/2) / 2
    assert prediction_accuracy(ids[:, :1], pred[:, :1]) is None       # one layer: nothing to predict


def test_latent_synth_predicts_like_a_model():
    spec = SynthSpec(n_expert=64, k=6, n_layers=4, n_tokens=600, mode="latent", seed=2)
    trace = synth_trace(spec)
    assert np.array_equal(trace.pred, synth_trace(spec).pred)        # deterministic
    assert np.all(trace.pred[:, 0] == -1) and np.all(trace.pred[:, 1:] >= 0)
    assert np.allclose(trace.weights.sum(axis=2), 1, atol=1e-5)
    accuracy = prediction_accuracy(trace.ids, trace.pred)
    assert 0.75 < accuracy < 0.95                                     # published: 80-89%
    stats = reuse_stats(trace.ids)
    assert 0.3 < stats["repeat_next"] < 0.65 and stats["median_distance"] <= 3


def test_latent_accuracy_follows_the_drift():
    def accuracy(drift):
        spec = SynthSpec(n_expert=64, k=6, n_layers=3, n_tokens=300, mode="latent", layer_drift=drift)
        trace = synth_trace(spec)
        return prediction_accuracy(trace.ids, trace.pred)
    assert accuracy(0.0) == 1.0
    assert accuracy(0.1) > accuracy(0.3) > accuracy(0.6)


def test_latent_spec_errors():
    with pytest.raises(TraceFormatError, match="Unknown synthetic mode 'magic'"):
        synth_trace(SynthSpec(mode="magic"))
    with pytest.raises(TraceFormatError, match="token_corr"):
        synth_trace(SynthSpec(mode="latent", token_corr=1.0))


def test_stats_reports_the_recorded_pred_accuracy(tmp_path, capsys):
    latent = tmp_path / "latent.npz"
    assert main(["synth", str(latent), "--preset", "latent-e64-k6", "--n-tokens", "200",
                 "--n-layers", "3", "--prompt", "16"]) == 0
    assert main(["stats", str(latent)]) == 0 and "pred_accuracy" in capsys.readouterr().out


def _probs(ids, n_expert, rng):
    """A router softmax [tokens, layers, n_expert] whose top-k are exactly ``ids``."""
    logits = rng.normal(0, 1, (*ids.shape[:2], n_expert)).astype(np.float32)
    np.put_along_axis(logits, ids.astype(np.int64), 5.0, axis=2)
    e = np.exp(logits)
    return e / e.sum(axis=2, keepdims=True)


def test_probs_round_trip_and_are_optional(tmp_path):
    ids = _ids()
    probs = _probs(ids, 16, np.random.default_rng(0))
    save_trace(tmp_path / "p.npz", ids, None, META, probs=probs)
    assert np.allclose(load_trace(tmp_path / "p.npz").probs, probs)
    save_trace(tmp_path / "n.npz", ids, None, META)
    assert load_trace(tmp_path / "n.npz").probs is None


@pytest.mark.parametrize("probs, fragment", [
    (np.zeros((5, 3, 8), np.float32), "should be \\[tokens, layers, n_expert\\]"),
    (np.full((5, 3, 16), np.nan, np.float32), "finite and non-negative"),
    (np.zeros((5, 3, 16), np.int32), "must be float32"),
])
def test_bad_probs_name_the_problem(tmp_path, probs, fragment):
    path = _write_raw(tmp_path / "bad.npz", ids=_ids(), probs=probs)
    with pytest.raises(TraceFormatError, match=fragment):
        load_trace(path)


def test_the_simulator_hands_probs_to_the_policy():
    """Same ids, with and without probs: rotary's decisions change only through probs."""
    rng = np.random.default_rng(4)
    trace = random_trace(rng, 120, 2, 32, 4, hot=16)
    with_probs = Trace(trace.ids, None, trace.meta, "p", probs=_probs(trace.ids, 32, rng))
    budget = Budget.uniform(2, 6)
    plain = run_policy(trace, make_policy("rotary", budget, 32, 4))
    fed = run_policy(with_probs, make_policy("rotary", budget, 32, 4))
    assert (fed.decode.hits, fed.decode.uploads) != (plain.decode.hits, plain.decode.uploads)
    assert run_policy(with_probs, make_policy("lru", budget, 32, 4)).decode == \
        run_policy(trace, make_policy("lru", budget, 32, 4)).decode       # lru ignores probs
