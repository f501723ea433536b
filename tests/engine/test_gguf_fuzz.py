"""Property-based fuzzing of the header reader: any bytes give ModelFacts or an EngineError, fast."""

from __future__ import annotations

import struct
import tempfile
import time

import gguf
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.errors import EngineError
from engine.model.inspect_gguf import inspect_model
from engine.model.facts import ModelFacts

TIME_LIMIT_S = 2.0
FUZZ_SETTINGS = settings(max_examples=200, deadline=2000,
                         suppress_health_check=[HealthCheck.too_slow])


def _seed_model(path) -> bytes:
    """A small but feature-rich valid file: vocabulary, per-layer list, MoE and shared experts."""
    writer = gguf.GGUFWriter(path, "qwen35moe")
    for key, value in [("block_count", 4), ("context_length", 512), ("embedding_length", 32),
                       ("attention.head_count", 4), ("expert_count", 4),
                       ("expert_used_count", 2), ("ssm.conv_kernel", 4),
                       ("ssm.inner_size", 16), ("ssm.state_size", 4), ("ssm.group_count", 2)]:
        writer.add_uint32(f"qwen35moe.{key}", value)
    writer.add_array("qwen35moe.rope.dimension_sections", [2, 2, 2, 0])
    writer.add_token_list([f"tok{i}" for i in range(40)])
    writer.add_chat_template("{{ messages }}")
    writer.add_tensor("token_embd.weight", np.zeros((40, 32), dtype=np.float32))
    for i in range(4):
        writer.add_tensor(f"blk.{i}.ffn_down_exps.weight", np.zeros((4, 32, 8), np.float16))
        writer.add_tensor(f"blk.{i}.ffn_up_shexp.weight", np.zeros((8, 32), np.float16))
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    with open(path, "rb") as f:
        return f.read()


@pytest.fixture(scope="module")
def seed_bytes(tmp_path_factory) -> bytes:
    data = _seed_model(tmp_path_factory.mktemp("fuzz") / "seed.gguf")
    assert isinstance(inspect_model_bytes(data), ModelFacts)  # the seed itself is valid
    return data


def inspect_model_bytes(data: bytes):
    with tempfile.NamedTemporaryFile(suffix=".gguf") as f:
        f.write(data)
        f.flush()
        return inspect_model(f.name)


def assert_facts_or_engine_error(data: bytes) -> None:
    started = time.perf_counter()
    try:
        result = inspect_model_bytes(data)
    except EngineError as e:
        assert e.message
    else:
        assert isinstance(result, ModelFacts)
    assert time.perf_counter() - started < TIME_LIMIT_S


@FUZZ_SETTINGS
@given(st.one_of(st.binary(max_size=512),
                 st.binary(max_size=512).map(lambda b: b"GGUF\x03\x00\x00\x00" + b)))
def test_random_bytes(data):
    assert_facts_or_engine_error(data)


# A mutation: overwrite bytes at a position, or plant a huge count there.
mutation = st.one_of(
    st.tuples(st.integers(0, 4095), st.binary(min_size=1, max_size=8)),
    st.tuples(st.integers(0, 4095), st.sampled_from(
        [struct.pack("<Q", v) for v in (0, 1, 2 ** 32, 2 ** 40, 2 ** 60, 2 ** 64 - 1)]
        + [struct.pack("<I", v) for v in (0, 7, 8, 9, 13, 255, 2 ** 32 - 1)])),
)


@FUZZ_SETTINGS
@given(mutations=st.lists(mutation, min_size=1, max_size=4),
       cut=st.one_of(st.none(), st.integers(0, 6000)))
def test_mutated_valid_header(seed_bytes, mutations, cut):
    data = bytearray(seed_bytes)
    for position, patch in mutations:
        position %= len(data)
        data[position:position + len(patch)] = patch
    if cut is not None:
        data = data[:cut]
    assert_facts_or_engine_error(bytes(data))
