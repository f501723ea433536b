"""inspect_model: facts from real model layouts, small hand-made files, and bad input."""

from __future__ import annotations

import builtins
import json
import os
import pathlib
import struct
import time

import gguf
import numpy as np
import pytest

from engine.errors import (CorruptModelError, EngineError, ModelFileError, NotAGGUFError,
                           UnsupportedModelError)
from engine.model.inspect_gguf import inspect_model, summarize

MIB = 1 << 20
QWEN36 = "qwen3.6-35b-a3b-q4_k_m"


# ---- real layouts (shape fixtures) -----------------------------------------------------------

def test_qwen36_facts(shape_fixture):
    f = inspect_model(shape_fixture(QWEN36))
    assert (f.architecture, f.file_type, f.name) == ("qwen35moe", "Q4_K_M", "Qwen3.6-35B-A3B")
    assert (f.n_layers, f.n_embd, f.n_vocab, f.n_ctx_train) == (40, 2048, 248320, 262144)
    assert (f.n_expert, f.n_expert_used, f.n_expert_shared, f.expert_ffn) == (256, 8, 1, 512)
    assert f.is_moe and f.moe_layers == tuple(range(40))
    assert "<|im_start|>" in f.chat_template


def test_qwen36_attention_is_hybrid(shape_fixture):
    a = inspect_model(shape_fixture(QWEN36)).attention
    assert (a.n_head, a.n_head_kv, a.key_length, a.value_length) == (16, 2, 256, 256)
    assert (a.kv_layers, a.recurrent_layers, a.swa_layers) == (10, 30, 0)
    # n_embd_r = (4-1) * (4096 + 2*16*128); n_embd_s = 128 * 4096; f32, per sequence
    assert a.recurrent_state_bytes == 30 * 4 * (3 * 8192 + 128 * 4096)


def test_qwen36_expert_bytes(shape_fixture):
    f = inspect_model(shape_fixture(QWEN36))
    assert f.expert_bytes > 10 * f.dense_bytes
    average = f.expert_bytes / (f.n_layers * f.n_expert)
    assert 1.7 * MIB < average < 1.9 * MIB
    # Layers whose ffn_down is Q6_K (llama.cpp's use_more_bits) hold bigger experts.
    assert f.bytes_per_expert(0) == (2 * 0.5625 + 0.8203125) * MIB
    assert f.bytes_per_expert(5) == 3 * 0.5625 * MIB


def test_qwen36_tensor_details(shape_fixture):
    f = inspect_model(shape_fixture(QWEN36))
    by_name = {t.name: t for t in f.tensors}
    down = by_name["blk.0.ffn_down_exps.weight"]
    assert (down.type_name, down.shape, down.layer, down.is_expert) == (
        "Q6_K", (512, 2048, 256), 0, True)
    assert down.n_bytes == 512 * 2048 * 256 // 256 * 210
    assert not by_name["blk.0.ffn_down_shexp.weight"].is_expert
    assert not by_name["blk.0.ffn_gate_inp.weight"].is_expert
    assert by_name["output.weight"].layer is None
    assert f.other_dense_bytes == sum(by_name[n].n_bytes for n in
                                      ("token_embd.weight", "output.weight", "output_norm.weight"))


@pytest.mark.parametrize("name", ["qwen3.6-35b-a3b-q4_k_m", "qwen3-30b-a3b-q4_k_m",
                                  "mixtral-8x7b-q4_k_m", "gpt-oss-20b"])
def test_bytes_add_up(shape_fixture, name):
    f = inspect_model(shape_fixture(name))
    assert f.tensor_bytes == sum(t.n_bytes for t in f.tensors)
    assert 0 < f.file_size - f.tensor_bytes < 2 * MIB  # header and alignment padding


def test_qwen3_facts(shape_fixture):
    f = inspect_model(shape_fixture("qwen3-30b-a3b-q4_k_m"))
    assert (f.architecture, f.n_layers, f.n_vocab) == ("qwen3moe", 48, 151936)
    assert (f.n_expert, f.n_expert_used, f.n_expert_shared, f.expert_ffn) == (128, 8, 0, 768)
    assert (f.attention.kv_layers, f.attention.n_head_kv, f.attention.key_length) == (48, 4, 128)


def test_mixtral_is_llama_with_experts(shape_fixture):
    f = inspect_model(shape_fixture("mixtral-8x7b-q4_k_m"))
    assert (f.architecture, f.n_expert, f.n_expert_used, f.expert_ffn) == ("llama", 8, 2, 14336)
    assert (f.n_vocab, f.attention.kv_layers, f.attention.key_length) == (32000, 32, 128)
    assert f.bytes_per_expert(0) > 100 * MIB


def test_gpt_oss_alternates_sliding_window(shape_fixture):
    f = inspect_model(shape_fixture("gpt-oss-20b"))
    a = f.attention
    assert (a.kv_layers, a.swa_layers, a.swa_window) == (12, 12, 128)
    assert (f.file_type, f.n_expert, f.n_expert_used, f.n_vocab) == ("MXFP4_MOE", 32, 4, 201088)
    biases = [t for t in f.tensors if t.name == "blk.0.ffn_down_exps.bias"]
    assert biases[0].is_expert and biases[0].type_name == "F32"
    assert {t.type_name for t in f.tensors if t.is_expert and t.name.endswith("weight")} == {"MXFP4"}


def test_summary_is_json_ready(shape_fixture):
    f = inspect_model(shape_fixture("gpt-oss-20b"))
    summary = json.loads(json.dumps(summarize(f)))
    assert "tensors" not in summary and summary["tensor_count"] == len(f.tensors)
    assert len(summary["layers"]) == 24 and summary["layers"][3]["expert_bytes"] > 0
    assert summary["attention"]["swa_window"] == 128 and summary["is_moe"] is True


def test_header_only_is_read(shape_fixture, monkeypatch):
    path = shape_fixture(QWEN36)
    counter = _count_reads(monkeypatch, path)
    inspect_model(path)
    assert 0 < counter["bytes"] < 2 * MIB < os.stat(path).st_size


def _count_reads(monkeypatch, path):
    counter = {"bytes": 0}
    real_open = builtins.open

    class Counting:
        def __init__(self, f):
            self._f = f

        def read(self, n=-1):
            data = self._f.read(n)
            counter["bytes"] += len(data)
            return data

        def __getattr__(self, name):
            return getattr(self._f, name)

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self._f.close()

    def fake_open(file, *args, **kwargs):
        f = real_open(file, *args, **kwargs)
        return Counting(f) if os.fspath(file) == os.fspath(path) else f

    monkeypatch.setattr(builtins, "open", fake_open)
    return counter


# ---- small hand-made models --------------------------------------------------------------------

def write_model(path, arch="llama", n_layers=2, n_embd=64, n_vocab=50, extra=(), tensors=None):
    """A small GGUF with real (zero) tensor data, written by the reference writer."""
    writer = gguf.GGUFWriter(path, arch)
    writer.add_block_count(n_layers)
    writer.add_context_length(256)
    writer.add_embedding_length(n_embd)
    writer.add_head_count(4)
    writer.add_name("small test model")
    writer.add_token_list([f"t{i}" for i in range(n_vocab)])
    for key, value in extra:
        writer.add_key_value(key, value, gguf.GGUFValueType.get_type(value))
    tensors = tensors if tensors is not None else dense_tensors(n_layers, n_embd, n_vocab)
    for name, shape in tensors:
        writer.add_tensor(name, np.zeros(shape, dtype=np.float32))
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    return pathlib.Path(path)


def dense_tensors(n_layers, n_embd, n_vocab):
    tensors = [("token_embd.weight", (n_vocab, n_embd)), ("output_norm.weight", (n_embd,))]
    for i in range(n_layers):
        tensors += [(f"blk.{i}.attn_q.weight", (n_embd, n_embd)),
                    (f"blk.{i}.ffn_up.weight", (2 * n_embd, n_embd))]
    return tensors


def test_dense_model_reported_as_dense(tmp_path):
    f = inspect_model(write_model(tmp_path / "dense.gguf"))
    assert (f.architecture, f.n_layers, f.n_vocab, f.n_embd) == ("llama", 2, 50, 64)
    assert (f.n_expert, f.expert_ffn, f.expert_bytes) == (0, 0, 0)
    assert not f.is_moe and f.moe_layers == () and f.bytes_per_expert(0) == 0
    assert f.layers[0].dense_bytes == (64 * 64 + 128 * 64) * 4
    assert (f.attention.key_length, f.attention.kv_layers) == (16, 2)
    assert f.chat_template is None and f.file_type == ""


def test_mtp_layers_count_as_other_dense_bytes(tmp_path):
    # block_count includes the MTP block; llama.cpp's n_layer() leaves it out.
    path = write_model(tmp_path / "mtp.gguf", n_layers=3,
                       extra=[("llama.nextn_predict_layers", 1)])
    f = inspect_model(path)
    assert f.n_layers == 2 and len(f.layers) == 2
    mtp = sum(t.n_bytes for t in f.tensors if t.layer == 2)
    assert mtp > 0 and f.other_dense_bytes == mtp + 50 * 64 * 4 + 64 * 4


def test_recurrent_layer_list_overrides_interval(tmp_path):
    extra = [("qwen35.attention.recurrent_layers", [True, False, True, True]),
             ("qwen35.ssm.conv_kernel", 4), ("qwen35.ssm.inner_size", 32),
             ("qwen35.ssm.state_size", 8), ("qwen35.ssm.group_count", 2)]
    f = inspect_model(write_model(tmp_path / "hybrid.gguf", arch="qwen35", n_layers=4,
                                  extra=extra))
    a = f.attention
    assert (a.recurrent_layers, a.kv_layers) == (3, 1)
    assert a.recurrent_state_bytes == 3 * 4 * (3 * (32 + 2 * 2 * 8) + 8 * 32)


def test_deepseek2_mla_and_shared_experts(tmp_path):
    extra = [("deepseek2.expert_count", 4), ("deepseek2.expert_used_count", 2),
             ("deepseek2.expert_shared_count", 2), ("deepseek2.expert_feed_forward_length", 32),
             ("deepseek2.attention.kv_lora_rank", 512), ("deepseek2.rope.dimension_count", 64)]
    tensors = dense_tensors(1, 64, 50) + [("blk.0.ffn_down_exps.weight", (4, 64, 32))]
    f = inspect_model(write_model(tmp_path / "ds.gguf", arch="deepseek2", n_layers=1,
                                  extra=extra, tensors=tensors))
    assert (f.n_expert, f.n_expert_shared, f.attention.mla_kv_dim) == (4, 2, 576)
    assert f.layers[0].expert_bytes == 4 * 64 * 32 * 4


def test_unknown_architecture_is_named(tmp_path):
    with pytest.raises(UnsupportedModelError) as info:
        inspect_model(write_model(tmp_path / "foo.gguf", arch="foo"))
    assert info.value.message == ("Rotary cannot run this kind of model yet (its design is "
                                  "called “foo”).")


def test_non_ascii_path_works(tmp_path):
    folder = tmp_path / "모델 测试"
    folder.mkdir()
    f = inspect_model(write_model(folder / "модель.gguf"))
    assert f.n_layers == 2 and "модель" in f.path


def test_tiny_moe_fixture_with_vocabulary(tmp_path):
    tiny_moe = pytest.importorskip("engine.demo.tiny_moe")
    spec = tiny_moe.SPECS["test"]
    f = inspect_model(tiny_moe.write_tiny_moe(tmp_path / "tiny.gguf", "test"))
    assert (f.n_layers, f.n_expert, f.n_expert_used) == (spec.n_layer, spec.n_expert,
                                                        spec.n_expert_used)
    assert f.is_moe and f.n_vocab > 0 and f.expert_bytes > 0


# ---- bad input ------------------------------------------------------------------------------------

def _string(s: bytes) -> bytes:
    return struct.pack("<Q", len(s)) + s


def raw_gguf(version=3, n_tensors=0, n_kv=0, body=b"", magic=b"GGUF") -> bytes:
    return magic + struct.pack("<IQQ", version, n_tensors, n_kv) + body


def _inspect_bytes(tmp_path, data: bytes, name="bad.gguf"):
    path = tmp_path / name
    path.write_bytes(data)
    started = time.perf_counter()
    try:
        return inspect_model(path)
    finally:
        assert time.perf_counter() - started < 1.0


@pytest.mark.parametrize("data, words", [
    (b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj", "PDF"),
    (b"Hello, this is a text file.\n" * 20, "not a model Rotary can use"),
    (b"", "too short"),
    (b"tjgg\x01\x00\x00\x00" + bytes(64), "old format"),
])
def test_not_a_gguf(tmp_path, data, words):
    with pytest.raises(NotAGGUFError) as info:
        _inspect_bytes(tmp_path, data)
    assert words in info.value.message
    assert "GGUF" not in info.value.message and "GGUF" in info.value.details   # jargon for IT


@pytest.mark.parametrize("version", [1, 4, 99])
def test_unknown_version(tmp_path, version):
    with pytest.raises(UnsupportedModelError, match=f"version {version}"):
        _inspect_bytes(tmp_path, raw_gguf(version=version))


def test_big_endian_file_is_unsupported(tmp_path):
    data = b"GGUF" + struct.pack(">IQQ", 3, 0, 0)
    with pytest.raises(UnsupportedModelError, match="big-endian"):
        _inspect_bytes(tmp_path, data)


def test_truncated_header(tmp_path):
    whole = write_model(tmp_path / "whole.gguf").read_bytes()
    for cut in (6, 30, 200, len(whole) // 3):
        with pytest.raises(CorruptModelError):
            _inspect_bytes(tmp_path, whole[:cut])


def test_truncated_tensor_data(tmp_path):
    whole = write_model(tmp_path / "whole.gguf").read_bytes()
    with pytest.raises(CorruptModelError, match="incomplete"):
        _inspect_bytes(tmp_path, whole[:-100])


@pytest.mark.parametrize("body, n_tensors, n_kv", [
    (struct.pack("<Q", 2 ** 60) + b"key", 0, 1),                           # key length 2**60
    (_string(b"k") + struct.pack("<I", 8) + struct.pack("<Q", 2 ** 60), 0, 1),  # value 2**60
    (b"", 10 ** 12, 0),                                                     # 10**12 tensors
    (b"", 0, 10 ** 12),                                                     # 10**12 settings
    (_string(b"k") + struct.pack("<IIQ", 9, 0, 2 ** 40), 0, 1),            # 2**40-item array
    (_string(b"k") + struct.pack("<IIQ", 9, 8, 2 ** 40), 0, 1),            # 2**40 strings
])
def test_absurd_lengths_fail_fast(tmp_path, body, n_tensors, n_kv):
    data = raw_gguf(n_tensors=n_tensors, n_kv=n_kv, body=body) + bytes(4096)
    with pytest.raises(CorruptModelError):
        _inspect_bytes(tmp_path, data)


def test_absurd_tensor_shape(tmp_path):
    arch = _string(b"general.architecture") + struct.pack("<I", 8) + _string(b"llama")
    info = _string(b"t") + struct.pack("<I4QIQ", 4, 2 ** 40, 2 ** 40, 2 ** 40, 1, 0, 0)
    with pytest.raises(CorruptModelError):
        _inspect_bytes(tmp_path, raw_gguf(n_tensors=1, n_kv=1, body=arch + info))


def test_missing_required_setting(tmp_path):
    arch = _string(b"general.architecture") + struct.pack("<I", 8) + _string(b"llama")
    with pytest.raises(CorruptModelError, match="missing"):
        _inspect_bytes(tmp_path, raw_gguf(n_kv=1, body=arch))


def test_missing_file(tmp_path):
    with pytest.raises(ModelFileError, match="could not be found"):
        inspect_model(tmp_path / "nope.gguf")


def test_folder(tmp_path):
    with pytest.raises(ModelFileError, match="folder") as info:
        inspect_model(tmp_path)
    assert not isinstance(info.value, NotAGGUFError)


def test_unreadable_file_simulated(tmp_path, monkeypatch):
    # Tests run as root, where chmod 000 does not stop reading; simulate the refusal.
    path = write_model(tmp_path / "locked.gguf")
    real_open = builtins.open

    def refusing_open(file, *args, **kwargs):
        if os.fspath(file) == os.fspath(path):
            raise PermissionError(13, "Permission denied", os.fspath(file))
        return real_open(file, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", refusing_open)
    with pytest.raises(ModelFileError, match="not allowed"):
        inspect_model(path)


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0,
                    reason="root can read chmod 000 files; covered by the simulated test")
def test_unreadable_file_real(tmp_path):
    path = write_model(tmp_path / "locked.gguf")
    path.chmod(0)
    try:
        with pytest.raises(ModelFileError, match="not allowed"):
            inspect_model(path)
    finally:
        path.chmod(0o644)


def test_errors_carry_plain_message_and_details(tmp_path):
    with pytest.raises(EngineError) as info:
        _inspect_bytes(tmp_path, raw_gguf(n_tensors=10 ** 12))
    assert info.value.message.startswith("The model file")
    assert "10" in info.value.details
