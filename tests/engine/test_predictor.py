"""Next-layer prediction from hidden states, recorded by the engine."""

from __future__ import annotations

import threading

import numpy as np

from engine.api import ChatMessage, ChatRequest, LoadRequest
from engine.runtime.loader import load_with_fallback
from engine.runtime.experts.predictor import RouterPredictor, prediction_accuracy, read_tensor_f32


def test_routers_are_read_from_the_gguf(tiny_moe_path):
    router = read_tensor_f32(str(tiny_moe_path), "blk.1.ffn_gate_inp.weight")
    assert router.shape == (8, 64) and router.dtype == np.float32 and np.abs(router).sum() > 0


def test_first_layer_has_no_prediction_and_rows_are_top_k():
    routers = [np.eye(4, 3), np.array([[1.0, 0, 0], [0, 2.0, 0], [0, 0, 3.0], [0, 0, 0]])]
    predictor = RouterPredictor(routers, layers=[0, 1], k=2)
    pred = predictor.predict_token({0: np.array([1.0, 1.0, 1.0])})
    assert pred[0].tolist() == [-1, -1]
    assert sorted(pred[1].tolist()) == [1, 2]


def test_accuracy_counts_only_rows_with_a_prediction():
    pred = np.array([[[-1, -1], [1, 2]]], dtype=np.int16)
    ids = np.array([[[0, 5], [2, 3]]], dtype=np.int16)
    assert prediction_accuracy(pred, ids) == 0.5


def test_engine_trace_predicts_next_layer_far_above_chance(tiny_moe_path):
    loaded = load_with_fallback(LoadRequest(model_path=str(tiny_moe_path)), lambda *a: None,
                                lambda r: None, with_hidden=True)
    try:
        request = ChatRequest(messages=(ChatMessage("user", "hello the document"),),
                              max_tokens=48, temperature=1.0, seed=3)
        run = loaded.start_chat(request, threading.Event())
        for _ in run.records():
            pass
        trace = loaded.routing_trace(run.routing)
    finally:
        loaded.close()
    assert trace.pred is not None and trace.pred.shape == trace.ids.shape
    chance = 2 / 8
    assert prediction_accuracy(trace.pred, trace.ids) > 2 * chance
