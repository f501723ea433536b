"""Sizes in the sentences that say where a model is and what it will use: a tiny model (the
demo, a test fixture) is said in MB, never "0.0 GB"; a real one keeps its GB."""

from __future__ import annotations

import re

from engine.messages import render, size
from engine.plan.hardware import GIB
from engine.plan.speed import _usage_text
from engine.recipe import MemoryEstimate, Recipe
from engine.runtime.devices.placement import measure

TINY_CPU_LOG = ["load_tensors:   CPU_Mapped model buffer size =    19.48 MiB",
                "llama_context:        CPU  output buffer size =     0.58 MiB",
                "llama_kv_cache:        CPU KV buffer size =     2.00 MiB",
                "llama_context:        CPU compute buffer size =     3.01 MiB"]
TINY_GPU_LOG = ["load_tensors:      Vulkan0 model buffer size =    12.00 MiB",
                "load_tensors:   CPU_Mapped model buffer size =     7.48 MiB"]
ZERO_GB = re.compile(r"\b0\.0 ?GB")


def test_size_says_mb_below_a_tenth_of_a_gb():
    assert str(size(20e6)) == "20 MB"
    assert str(size(0.1e9)) == "0.1 GB" and str(size(5.44e9)) == "5.4 GB"
    assert str(size(0)) == "0 MB" and str(size(300)) == "1 MB"      # something is not nothing
    assert str(size(20 * 2**20, GIB)) == "20 MB"                    # the planner's MiB
    assert str(size(14.4 * GIB, GIB, whole_from=10)) == "14 GB"


def test_a_tiny_model_on_the_processor_is_said_in_mb():
    said = str(measure(TINY_CPU_LOG, {}).message)
    assert not ZERO_GB.search(said), said
    assert "(25 MB in main memory)" in said, said     # in the planner's unit (MiB), as planned


def test_a_tiny_model_on_the_graphics_card_is_said_in_mb():
    placed = measure(TINY_GPU_LOG, {"Vulkan0": "llvmpipe"}, slot_bytes=3 * 2**20,
                     slot_device="Vulkan0", backend="Vulkan")
    said = str(placed.message)
    assert not ZERO_GB.search(said), said
    assert ("15 MB of it there (3 MB of it for the parts the conversation uses most) and "
            "7 MB in main memory") in said, said


def test_the_plans_usage_of_a_tiny_model_is_said_in_mb():
    recipe = Recipe(preset="test", n_gpu_layers=-1, cpu_expert_layers=(), n_ctx=512,
                    flash_attn=True, kv_type="f16", n_batch=128, n_ubatch=128, n_threads=1,
                    n_threads_batch=1, vram=MemoryEstimate(dense_bytes=12 * 2**20),
                    ram=MemoryEstimate(expert_bytes=30 * 2**20))
    said = str(_usage_text(recipe, (900.0, 1000.0)))
    assert said.startswith("About 12 MB on the graphics card and 30 MB in memory"), said


def test_sizes_are_translated_with_their_sentence():
    korean = {"The model runs on the processor ({ram} in main memory); no graphics card is "
              "used.": "모델이 프로세서에서 실행됩니다(주 메모리 {ram}).", "{mb} MB": "{mb}MB"}
    said = render(measure(TINY_CPU_LOG, {}).message, korean.get)
    assert said == "모델이 프로세서에서 실행됩니다(주 메모리 25MB)."
