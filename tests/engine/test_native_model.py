"""Loading the fixture model through llama.cpp: placement, tokens, routing, ownership."""

from __future__ import annotations

import ctypes

import gguf
import numpy as np
import pytest

from engine.errors import ModelLoadError
from engine.runtime.llama_model import NativeModel
from engine.runtime.bindings import GgmlTensor, OverrideArray, cpu_buffer_type, ggml
from engine.runtime.experts.routing import (NativeRoutingRecorder, RoutingRecorder, make_recorder,
                            parse_node_name)


def test_expert_tensors_of_chosen_layers_are_placed_on_cpu(tiny_moe_path, cpu_recipe):
    model = NativeModel(str(tiny_moe_path), cpu_recipe(cpu_expert_layers=(0, 2)))
    try:
        overridden = model.placement.overridden
    finally:
        model.close()
    expected = {f"blk.{layer}.ffn_{part}_exps.weight" for layer in (0, 2)
                for part in ("gate", "up", "down")}
    assert set(overridden) == expected
    assert set(overridden.values()) == {"CPU"}


def test_no_overrides_means_no_placement_report(tiny_moe_path, cpu_recipe):
    model = NativeModel(str(tiny_moe_path), cpu_recipe())
    model.close()
    assert model.placement.overridden == {}


def test_override_array_is_null_terminated():
    array = OverrideArray((r"^blk\.(0|1)\.ffn", "x"), cpu_buffer_type())
    assert [entry.pattern for entry in array.array] == [rb"^blk\.(0|1)\.ffn", b"x", None]
    assert array.array[0].buft == cpu_buffer_type()


def test_tensor_struct_layout_matches_ggml(tiny_moe_path, cpu_recipe):
    """The ctypes mirror of ggml_tensor must agree with ggml's own accessors."""
    seen = []

    def spy(tensor, ask, _):
        if ask and len(seen) < 50:
            seen.append((GgmlTensor.from_address(tensor).name, ggml().ggml_get_name(tensor)))
        return not ask

    recorder = RoutingRecorder()
    recorder._callback = type(recorder.callback)(spy)
    model = NativeModel(str(tiny_moe_path), cpu_recipe(), recorder)
    try:
        model.decode(model.tokenize("hello"))
    finally:
        model.close()
    assert seen and all(a == b for a, b in seen)


def test_close_is_idempotent_and_frees(tiny_moe_path, cpu_recipe):
    model = NativeModel(str(tiny_moe_path), cpu_recipe())
    model.close()
    model.close()
    assert model.ctx.ctx is None and model.model.model is None


def test_a_file_llama_cannot_load_gives_typed_error(tmp_path, cpu_recipe):
    broken = tmp_path / "broken.gguf"
    broken.write_bytes(b"GGUF" + b"\x03\x00\x00\x00" + b"\x00" * 64)
    with pytest.raises(ModelLoadError) as caught:
        NativeModel(str(broken), cpu_recipe())
    assert "could not be loaded" in caught.value.message


def test_tokenizer_uses_bpe_merges_and_special_tokens(tiny_moe_path, cpu_recipe):
    model = NativeModel(str(tiny_moe_path), cpu_recipe())
    try:
        the = model.tokenize(" the")
        words = model.tokenize(" the assistant")
        special = model.tokenize("<|im_start|>")
        text = b"".join(model.token_bytes(t) for t in words)
    finally:
        model.close()
    assert len(the) == 1                              # merged all the way to one token
    assert len(words) < len(" the assistant")         # merges applied, not bytes
    assert text == b" the assistant"
    assert len(special) == 1


def test_parse_node_name():
    assert parse_node_name(b"ffn_moe_topk-12") == (b"ffn_moe_topk", 12)
    assert parse_node_name(b"ffn_moe_weights-3") == (b"ffn_moe_weights", 3)
    assert parse_node_name(b"ffn_moe_weights-0 (reshaped)") == (b"", -1)
    assert parse_node_name(b"ffn_moe_topk_x-1") == (b"", -1)


# ---- routing: the record must equal the router computed independently ------------------

def _rms_norm(x, weight, eps=1e-6):
    return x / np.sqrt(np.mean(x * x) + eps) * weight


def reference_layer0_router_input(path, token: int) -> np.ndarray:
    """Layer 0's normalised FFN input for a single token at position 0 (attention = V path)."""
    tensors = {t.name: np.asarray(t.data, dtype=np.float32) for t in gguf.GGUFReader(path).tensors}
    x = tensors["token_embd.weight"][token]                                   # [n_embd]
    h = _rms_norm(x, tensors["blk.0.attn_norm.weight"])
    v = tensors["blk.0.attn_v.weight"] @ h                                    # [n_kv * d]
    n_head = tensors["blk.0.attn_q.weight"].shape[0] // tensors["blk.0.attn_q_norm.weight"].shape[0]
    v_heads = v.reshape(-1, tensors["blk.0.attn_q_norm.weight"].shape[0])     # [n_kv, d]
    per_head = np.repeat(v_heads, n_head // v_heads.shape[0], axis=0).reshape(-1)  # GQA
    x2 = x + tensors["blk.0.attn_output.weight"] @ per_head
    return _rms_norm(x2, tensors["blk.0.ffn_norm.weight"])


def reference_layer0_topk(path, token: int, k: int) -> tuple[np.ndarray, float]:
    """Router of layer 0 for a single token at position 0, in numpy."""
    router = np.asarray(next(t.data for t in gguf.GGUFReader(path).tensors
                             if t.name == "blk.0.ffn_gate_inp.weight"), dtype=np.float32)
    logits = router @ reference_layer0_router_input(path, token)
    order = np.argsort(-logits)
    return order[:k], float(logits[order[k - 1]] - logits[order[k]])


RECORDERS = {"python": lambda: RoutingRecorder(with_weights=True),
             "c": lambda: make_recorder(with_weights=True)}


@pytest.mark.parametrize("kind", sorted(RECORDERS))
def test_recorded_routing_equals_reference_router(tiny_moe_path, cpu_recipe, kind):
    recorder = RECORDERS[kind]()
    model = NativeModel(str(tiny_moe_path), cpu_recipe(), recorder)
    checked = 0
    try:
        for token in range(40, 120, 7):
            expected, margin = reference_layer0_topk(str(tiny_moe_path), token, k=2)
            if margin < 1e-2:      # near-tie: f16 rounding may legitimately swap them
                continue
            model.reuse_prefix([token, token])   # empty the context: position 0 again
            recorder.begin()
            model.decode([token])
            routing = recorder.take()
            assert sorted(routing.ids[0][-1]) == sorted(expected)
            weights = routing.weights[0][-1]
            assert np.all(weights > 0) and np.all(np.diff(weights) <= 0)  # top-k order
            checked += 1
    finally:
        model.close()
    assert checked >= 5


@pytest.mark.parametrize("kind", sorted(RECORDERS))
def test_routing_covers_every_layer_with_k_distinct_experts(tiny_moe_path, cpu_recipe, kind):
    recorder = RECORDERS[kind]()
    model = NativeModel(str(tiny_moe_path), cpu_recipe(), recorder)
    try:
        prompt = model.tokenize("the document and the question")
        recorder.begin()
        model.decode(prompt)
        routing = recorder.take()
    finally:
        model.close()
    assert sorted(routing.ids) == [0, 1, 2, 3]
    assert routing.ids[0].shape == (len(prompt), 2)
    assert routing.ids[3].shape == (1, 2)      # llama.cpp keeps only the output row in the last layer
    for ids in routing.ids.values():
        assert ids.min() >= 0 and ids.max() < 8
        assert all(len(set(row)) == 2 for row in ids)
    assert ctypes.sizeof(GgmlTensor) == 336


def test_c_recorder_is_built_here_and_sees_every_node(tiny_moe_path, cpu_recipe):
    recorder = make_recorder()
    assert isinstance(recorder, NativeRoutingRecorder)    # CI has a C compiler
    model = NativeModel(str(tiny_moe_path), cpu_recipe(), recorder)
    try:
        recorder.enabled = False
        model.decode(model.tokenize("the"))
        assert recorder.take().ids == {}                  # disabled: nothing copied
        recorder.enabled = True
        model.decode(model.tokenize(" model"))
    finally:
        model.close()
    assert recorder.nodes_seen > 100


def test_c_and_python_recorders_agree_on_a_whole_prompt(tiny_moe_path, cpu_recipe):
    results = []
    for recorder in (RoutingRecorder(with_weights=True), make_recorder(with_weights=True)):
        model = NativeModel(str(tiny_moe_path), cpu_recipe(), recorder)
        try:
            recorder.begin()
            model.decode(model.tokenize("the user asks the assistant a question"))
            results.append(recorder.take())
        finally:
            model.close()
    python, native = results
    assert sorted(python.ids) == sorted(native.ids) == [0, 1, 2, 3]
    for layer in python.ids:
        np.testing.assert_array_equal(python.ids[layer], native.ids[layer])
        np.testing.assert_allclose(python.weights[layer], native.weights[layer])




def test_c_recorder_captures_the_router_input(tiny_moe_path, cpu_recipe):
    recorder = make_recorder(hidden_name="ffn_norm", n_embd=64)
    model = NativeModel(str(tiny_moe_path), cpu_recipe(), recorder)
    try:
        recorder.begin()
        model.decode([77])
        routing = recorder.take()
    finally:
        model.close()
    assert sorted(routing.hidden) == [0, 1, 2, 3]
    expected = reference_layer0_router_input(str(tiny_moe_path), 77)
    np.testing.assert_allclose(routing.hidden[0], expected, rtol=0.05, atol=0.05)


def test_ggml_type_ids_come_from_gguf_and_match_the_bundled_ggml():
    """One source for ggml's type ids (gguf.GGMLQuantizationType), checked against the
    enum of the libggml this engine loads (llama-cpp-python's copy of it)."""
    from engine.runtime.llama_model import KV_TYPES
    from engine.runtime.experts.routing import GGML_TYPE_I32
    llama = pytest.importorskip("llama_cpp.llama_cpp")
    shared = [t for t in gguf.GGMLQuantizationType if hasattr(llama, f"GGML_TYPE_{t.name}")]
    assert len(shared) > 20
    assert all(getattr(llama, f"GGML_TYPE_{t.name}") == t.value for t in shared)
    assert KV_TYPES == {"f16": llama.GGML_TYPE_F16, "q8_0": llama.GGML_TYPE_Q8_0,
                        "q4_0": llama.GGML_TYPE_Q4_0}
    assert GGML_TYPE_I32 == llama.GGML_TYPE_I32
