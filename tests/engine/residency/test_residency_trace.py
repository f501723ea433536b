import json
import re

import numpy as np
import pytest

from engine.errors import TraceFormatError
from engine.residency.trace import load_trace, save_trace

META = {"model": "m", "architecture": "qwen35moe", "n_expert": 16, "source": "test"}


def _ids(tokens=3, layers=2, k=4, n_expert=16, seed=0):
    rng = np.random.default_rng(seed)
    return np.array([[rng.choice(n_expert, k, replace=False) for _ in range(layers)]
                     for _ in range(tokens)], dtype=np.int16)


def _write_raw(path, **arrays):
    with open(path, "wb") as handle:
        np.savez(handle, **arrays)
    return path


def test_round_trip_with_and_without_weights(tmp_path):
    ids = _ids()
    weights = np.random.default_rng(1).random(ids.shape).astype(np.float32)
    save_trace(tmp_path / "w.npz", ids, weights, META)
    save_trace(tmp_path / "n.npz", ids.astype(np.int64), None, META)
    with_w, without = load_trace(tmp_path / "w.npz"), load_trace(tmp_path / "n.npz")
    assert with_w.ids.dtype == np.int16 and np.array_equal(with_w.ids, ids)
    assert with_w.weights.dtype == np.float32 and np.allclose(with_w.weights, weights)
    assert without.weights is None
    assert with_w.meta["k"] == 4 and with_w.meta["architecture"] == "qwen35moe"
    assert (with_w.n_tokens, with_w.n_layers, with_w.k, with_w.n_expert) == (3, 2, 4, 16)


def test_save_trace_keeps_the_leads_signature(tmp_path):
    """`python -m engine trace` calls save_trace(str path, int32 ids, weights, meta, pred=,
    probs=); names given by keyword work too, and what was written loads back the same."""
    ids = _ids().astype(np.int32)
    pred = ids.astype(np.int16).copy()
    pred[:, 0] = -1
    probs = np.full((3, 2, 16), 1 / 16, np.float32)
    path = str(tmp_path / "t.npz")
    save_trace(path, ids=ids, weights=None, meta={**META, "layers": [3, 7]}, pred=pred, probs=probs)
    back = load_trace(path)
    assert back.ids.dtype == np.int16 and np.array_equal(back.ids, ids) and back.weights is None
    assert np.array_equal(back.pred, pred) and np.allclose(back.probs, probs)
    assert back.meta["layers"] == [3, 7] and back.meta["k"] == 4 and back.path == path
    assert not (tmp_path / "t.npz.npz").exists()           # the name is kept as given


@pytest.mark.parametrize("arrays, fragment", [
    ({"ids": _ids().astype(np.float32)}, "dtype float32"),
    ({"ids": _ids()[0]}, "shape [tokens, layers, k]"),
    ({"ids": np.zeros((0, 2, 4), np.int16)}, "empty"),
    ({"ids": _ids() + 20}, "out of range"),
    ({"ids": -_ids() - 1}, "out of range"),
    ({"ids": np.full((2, 1, 4), 3, np.int16)}, "repeats an expert"),
    ({"ids": _ids(), "weights": np.ones((3, 2, 3), np.float32)}, "weights shape"),
    ({"ids": _ids(), "weights": np.ones((3, 2, 4), np.int32)}, "weights must be float32"),
    ({"ids": _ids(), "weights": np.full((3, 2, 4), np.nan, np.float32)}, "NaN"),
])
def test_malformed_arrays_name_the_problem(tmp_path, arrays, fragment):
    path = _write_raw(tmp_path / "bad.npz", meta=np.array(json.dumps(META)), **arrays)
    with pytest.raises(TraceFormatError, match=re.escape(fragment)):
        load_trace(path)


@pytest.mark.parametrize("meta, fragment", [
    (None, "lacks the 'meta'"),
    ("not json", "not valid JSON"),
    (json.dumps([1, 2]), "JSON object"),
    (json.dumps({"model": "m"}), "n_expert"),
    (json.dumps({"n_expert": 16, "k": 3}), "k=3"),
    (json.dumps({"n_expert": 2}), "k=4"),
    (json.dumps({"n_expert": 16, "prompt_spans": [[0, 99]]}), "prompt span"),
])
def test_malformed_meta_names_the_problem(tmp_path, meta, fragment):
    arrays = {"ids": _ids()} if meta is None else {"ids": _ids(), "meta": np.array(meta)}
    with pytest.raises(TraceFormatError, match=re.escape(fragment)):
        load_trace(_write_raw(tmp_path / "bad.npz", **arrays))


def test_missing_ids_key(tmp_path):
    with pytest.raises(TraceFormatError, match="lacks the 'ids'"):
        load_trace(_write_raw(tmp_path / "bad.npz", meta=np.array(json.dumps(META))))


def test_not_a_file_or_not_npz(tmp_path):
    with pytest.raises(TraceFormatError, match="not found"):
        load_trace(tmp_path / "nope.npz")
    (tmp_path / "junk.npz").write_bytes(b"hello")
    with pytest.raises(TraceFormatError, match="Not a readable"):
        load_trace(tmp_path / "junk.npz")


def test_save_rejects_bad_input(tmp_path):
    with pytest.raises(TraceFormatError, match="n_expert"):
        save_trace(tmp_path / "t.npz", _ids(), None, {"model": "m"})
    with pytest.raises(TraceFormatError, match="out of range"):
        save_trace(tmp_path / "t.npz", _ids() + 16, None, META)
    assert not (tmp_path / "t.npz").exists()
