"""Shape fixtures: real layouts, real sizes, (almost) no disk."""

from __future__ import annotations

import os

import gguf
import pytest

from tests.support.shapes import SHAPES, assign_q4_k_m

NAMES = sorted(SHAPES)


@pytest.mark.parametrize("name", NAMES)
def test_size_within_3_percent_of_published_file(shape_fixture, name):
    size = os.stat(shape_fixture(name)).st_size
    published = SHAPES[name].published_bytes
    assert abs(size - published) / published < 0.03, (size, published)


@pytest.mark.parametrize("name", NAMES)
def test_file_is_sparse(shape_fixture, name):
    st = os.stat(shape_fixture(name))
    if st.st_blocks * 512 >= st.st_size:
        pytest.skip("this filesystem does not support sparse files")
    assert st.st_blocks * 512 < 4 << 20  # the header only


@pytest.mark.parametrize("name", NAMES)
def test_gguf_reader_agrees_with_the_spec(shape_fixture, name):
    # The reference reader sees the same tensors, shapes and types as the spec describes.
    reader = gguf.GGUFReader(shape_fixture(name))
    seen = {t.name: (tuple(int(n) for n in t.shape), t.tensor_type.name) for t in reader.tensors}
    expected = {t.name: (t.shape, t.type_name) for t in SHAPES[name].tensors}
    assert seen == expected
    arch = reader.fields["general.architecture"]
    assert arch.contents() == SHAPES[name].architecture


def test_qwen36_layout_follows_llama_cpp():
    names = {t.name: t for t in SHAPES["qwen3.6-35b-a3b-q4_k_m"].tensors}
    assert "blk.3.attn_q.weight" in names and "blk.3.ssm_conv1d.weight" not in names
    assert "blk.0.ssm_conv1d.weight" in names and "blk.0.attn_q.weight" not in names
    assert names["blk.3.attn_q.weight"].shape == (2048, 2 * 16 * 256)  # query + gate
    assert names["blk.0.attn_qkv.weight"].shape == (2048, 2 * 16 * 128 + 32 * 128)
    assert names["blk.0.ffn_down_exps.weight"].shape == (512, 2048, 256)
    assert not any(".40." in n for n in names)  # no MTP block in the Q4_K_M release


def test_q4_k_m_mixing_rules():
    spec = {t.name: t.type_name for t in SHAPES["qwen3-30b-a3b-q4_k_m"].tensors}
    assert spec["token_embd.weight"] == "Q4_K" and spec["output.weight"] == "Q6_K"
    assert spec["blk.0.ffn_down_exps.weight"] == "Q6_K"    # first eighth
    assert spec["blk.6.ffn_down_exps.weight"] == "Q4_K"
    assert spec["blk.8.ffn_down_exps.weight"] == "Q6_K"    # every third in the middle
    assert spec["blk.47.attn_v.weight"] == "Q6_K"          # last eighth
    assert spec["blk.0.ffn_gate_inp.weight"] == "F32" and spec["blk.0.attn_norm.weight"] == "F32"
    mixtral = {t.name: t.type_name for t in SHAPES["mixtral-8x7b-q4_k_m"].tensors}
    assert mixtral["blk.5.attn_v.weight"] == "Q8_0" and mixtral["blk.5.attn_k.weight"] == "Q8_0"
    assert mixtral["blk.5.attn_output.weight"] == "Q5_K"


def test_k_quant_falls_back_when_rows_do_not_fit_blocks():
    specs = assign_q4_k_m([("blk.0.ffn_up.weight", (2880, 64))], n_layers=1, n_expert=0)
    assert specs[0].type_name == "Q5_0"


def test_gpt_oss_types():
    types = {t.name: t.type_name for t in SHAPES["gpt-oss-20b"].tensors}
    assert types["blk.0.ffn_gate_exps.weight"] == "MXFP4"
    assert types["blk.0.ffn_gate_exps.bias"] == "F32"
    assert types["blk.0.attn_q.weight"] == "Q8_0" and types["output.weight"] == "Q8_0"
    assert types["blk.0.attn_sinks.weight"] == "F32"
