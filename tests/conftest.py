"""Fixtures shared by engine and app tests: generated models, never downloaded."""

from __future__ import annotations

import os
import pathlib

import pytest

# The slot cache checks its own ordering in every test (uploads vs the waits that cover them,
# staging reuse); children inherit it. Off by default in the app.
os.environ.setdefault("ROTARY_SLOT_CHECK", "1")
# No processor calibration in the background after each load (engine/runtime/devices/cpu_calibration.py):
# tests/engine/test_cpu_calibration.py runs it where it means to.
os.environ.setdefault("ROTARY_CPU_CALIBRATION", "0")

from engine.demo.tiny_moe import write_tiny_moe


@pytest.fixture(scope="session")
def tiny_moe_path(tmp_path_factory) -> pathlib.Path:
    """A complete, loadable 4-layer qwen3moe GGUF (8 experts, top-2), ~0.6 MB."""
    return write_tiny_moe(tmp_path_factory.mktemp("models") / "tiny-moe.gguf", "test")


def make_cpu_recipe(**overrides):
    """A fixed CPU recipe for loading fixture models without the planner."""
    from engine.recipe import MemoryEstimate, Recipe

    values = dict(preset="test", n_gpu_layers=0, cpu_expert_layers=(), n_ctx=512, flash_attn=True,
                  kv_type="f16", n_batch=128, n_ubatch=128, n_threads=1, n_threads_batch=1,
                  vram=MemoryEstimate(), ram=MemoryEstimate())
    values.update(overrides)
    return Recipe(**values)


@pytest.fixture
def cpu_recipe():
    return make_cpu_recipe


@pytest.fixture(scope="session")
def tiny_merged_moe_path(tmp_path_factory) -> pathlib.Path:
    """A loadable 4-layer qwen35moe GGUF with merged ffn_gate_up_exps (8 experts, top-2)."""
    from tests.support.tiny_qwen35 import write_tiny_qwen35moe

    return write_tiny_qwen35moe(tmp_path_factory.mktemp("models") / "tiny-qwen35moe.gguf")
