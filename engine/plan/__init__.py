"""The memory planner: how a GGUF model is laid out across graphics memory and RAM.

hardware (what this computer has) -> presets (named choices) -> memory (what a layout costs)
-> layout (``plan``: the best recipe that fits) -> ladder (lighter recipes after a failed load)
-> speed (``describe``: fit level, plain words, expected speed).
"""

from engine.plan.ladder import fallback_ladder
from engine.plan.layout import layout_of, plan
from engine.plan.memory import Layout, ModelSizes, kv_cache_bytes, model_sizes
from engine.plan.presets import (AUTO, PRESETS, SAFEST, Preset, get_preset, preset_names, preset_words,
                                 pretend_hardware, resolve_preset)
from engine.plan.speed import PlanSummary, describe, expected_tokens_per_second
from engine.recipe import recipe_from_dict, recipe_to_dict

__all__ = ["AUTO", "PRESETS", "SAFEST", "Layout", "ModelSizes", "PlanSummary", "Preset", "describe",
           "expected_tokens_per_second", "fallback_ladder", "get_preset", "kv_cache_bytes",
           "layout_of", "model_sizes", "plan", "preset_names", "preset_words", "pretend_hardware", "recipe_from_dict",
           "recipe_to_dict", "resolve_preset"]
