"""The fallback ladder: lighter recipes to try after a load failed for lack of memory."""

from __future__ import annotations

import dataclasses
from typing import Any, Iterator

from engine.model.facts import ModelFacts
from engine.plan.hardware import HardwareInfo
from engine.plan.layout import Fit, layout_of, make_recipe, parts_on_gpu, settings_of, try_layout
from engine.plan.memory import CPU_ONLY, KV_BYTES_PER_ELEMENT, Layout, ModelSizes, model_sizes
from engine.plan.speed import WORDS_PER_TOKEN
from engine.messages import Msg, msg
from engine.recipe import Recipe



# ---- fallback ladder -----------------------------------------------------------------

def fallback_ladder(facts: ModelFacts, hw: HardwareInfo, recipe: Recipe) -> Iterator[Recipe]:
    """Steps to try after a load failed for lack of memory, each lighter than the last.

    Fewer GPU expert layers (three steps) -> context 8192 .. 1024 -> KV cache q8_0, q4_0 ->
    processor only. Each step builds on the last one yielded; a step is skipped unless
    it lowers the VRAM estimate (the RAM estimate when no GPU is used) and fits in RAM.
    """
    sizes = model_sizes(facts)
    headroom = (recipe.vram.headroom_bytes, recipe.ram.headroom_bytes)
    current = Fit(settings_of(recipe), layout_of(recipe, sizes), recipe.vram, recipe.ram)
    for step in (_fewer_gpu_parts, _shorter_context, _compact_kv, _processor_only):
        for settings, layout, note in step(sizes, current):
            candidate = try_layout(facts, sizes, settings, layout, headroom)
            if _lighter(candidate, current) and candidate.ram.total_bytes <= hw.ram_total_bytes:
                current = candidate
                yield make_recipe(recipe.preset, sizes, candidate, hw, _kept(recipe), note)


def _kept(recipe: Recipe) -> dict[str, Any]:
    return {"n_threads": recipe.n_threads, "n_threads_batch": recipe.n_threads_batch,
            "use_mmap": recipe.use_mmap}


def _lighter(candidate: Fit, current: Fit) -> bool:
    if current.layout.uses_gpu:
        return candidate.vram.total_bytes < current.vram.total_bytes
    return candidate.ram.total_bytes < current.ram.total_bytes


def _thirds(count: int) -> list[int]:
    return sorted({count * 2 // 3, count // 3, 0} - {count}, reverse=True)


def _fewer_gpu_parts(sizes: ModelSizes, current: Fit):
    layout = current.layout
    if layout.gpu_expert_layers:
        for experts in _thirds(layout.gpu_expert_layers):
            fewer = dataclasses.replace(layout, gpu_expert_layers=experts)
            yield current.settings, fewer, _fewer_note(sizes, fewer)
    elif not sizes.moe_layers and layout.gpu_layers:  # dense model: whole layers move
        for layers in filter(None, _thirds(layout.gpu_layers)):  # none left = processor only
            fewer = Layout(layers, False, 0)
            yield current.settings, fewer, _fewer_note(sizes, fewer)


def _fewer_note(sizes: ModelSizes, layout: Layout) -> Msg:
    on_gpu, total = parts_on_gpu(sizes, layout)
    return msg("plan.fallback_fewer_parts", on_gpu=on_gpu, total=total)


def _shorter_context(sizes: ModelSizes, current: Fit):
    # From a long context (the planner weighs it by its cost: 16K and more) a step at a time.
    for ctx in (8192, 4096, 2048, 1024):
        if ctx < current.settings.n_ctx:
            words = round(ctx * WORDS_PER_TOKEN, -2)
            yield (dataclasses.replace(current.settings, n_ctx=ctx), current.layout,
                   msg("plan.fallback_shorter_context", words=words))


def _compact_kv(sizes: ModelSizes, current: Fit):
    notes = {"q8_0": "plan.fallback_compact_memory", "q4_0": "plan.fallback_more_compact_memory"}
    for kv_type, code in notes.items():
        if KV_BYTES_PER_ELEMENT[kv_type] < KV_BYTES_PER_ELEMENT[current.settings.kv_type]:
            yield (dataclasses.replace(current.settings, kv_type=kv_type, flash_attn=True),
                   current.layout, msg(code))


def _processor_only(sizes: ModelSizes, current: Fit):
    if current.layout.uses_gpu:
        yield (current.settings, CPU_ONLY, msg("plan.fallback_processor_only"))
