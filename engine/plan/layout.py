"""The layout search: the recipe that puts as much of the model on the GPU as fits.

Dense parts go to the GPU first: every token reads all of them, but only
n_expert_used/n_expert of each expert tensor, so a dense byte is worth far more there.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Mapping

from engine.errors import EngineError, InsufficientMemoryError
from engine.model.facts import ModelFacts
from engine.plan.hardware import MIB, HardwareInfo
from engine.plan.memory import (CPU_ONLY, KV_BYTES_PER_ELEMENT, Layout, ModelSizes, Settings,
                                estimate, gb_text, gpu_expert_ids, model_sizes)
from engine.plan.presets import Preset, resolve_preset
from engine.plan.slots import with_expert_slots
from engine.messages import Msg, msg
from engine.recipe import DEFAULT_POLICY, MemoryEstimate, Recipe



@dataclass(frozen=True)
class Fit:
    settings: Settings
    layout: Layout
    vram: MemoryEstimate
    ram: MemoryEstimate


def try_layout(facts, sizes, s: Settings, layout: Layout, headroom) -> Fit:
    vram, ram = estimate(facts, sizes, s, layout, headroom)
    return Fit(s, layout, vram, ram)


def vram_budget(hw: HardwareInfo) -> int:
    return min(hw.gpus[0].free_bytes, hw.gpus[0].total_bytes) if hw.gpus else 0


def _best_layout(facts, sizes, s: Settings, hw: HardwareInfo, headroom) -> Fit:
    """Most of the model on the GPU that fits: dense parts first, then experts from the end."""
    budget, best = vram_budget(hw), None
    for experts in range(len(sizes.moe_layers) + 1):  # VRAM grows with each expert layer
        candidate = try_layout(facts, sizes, s, Layout(sizes.n_layers, True, experts), headroom)
        if candidate.vram.total_bytes > budget:
            break
        best = candidate
    if best is not None:
        return best
    for layers in range(sizes.n_layers, 0, -1):  # not even the dense parts: whole layers
        candidate = try_layout(facts, sizes, s, Layout(layers, False, 0), headroom)
        if candidate.vram.total_bytes <= budget:
            return candidate
    return try_layout(facts, sizes, s, CPU_ONLY, headroom)


def _score(fit: Fit) -> tuple[int, int]:
    return fit.layout.gpu_layers + fit.layout.output_on_gpu, fit.layout.gpu_expert_layers


def _context_candidates(preset: Preset, target: int, fixed: bool) -> list[int]:
    if fixed or preset.prefer == "context":
        return [target]
    sizes, ctx = [], target
    while ctx >= min(preset.min_ctx, target):
        sizes.append(ctx)
        ctx //= 2
    return sizes


def _fit_for_preset(facts, sizes, settings: Settings, preset: Preset, hw: HardwareInfo,
                    ctx_fixed: bool) -> Fit:
    headroom = (preset.vram_headroom_bytes, preset.ram_headroom_bytes)
    if not (preset.use_gpu and hw.gpus):
        return try_layout(facts, sizes, settings, CPU_ONLY, headroom)
    fits = [_best_layout(facts, sizes, dataclasses.replace(settings, n_ctx=ctx), hw, headroom)
            for ctx in _context_candidates(preset, settings.n_ctx, ctx_fixed)]
    return max(fits, key=_score)  # max keeps the first (largest context) among equals


# ---- overrides -----------------------------------------------------------------------

SETTING_OVERRIDES = ("n_ctx", "kv_type", "flash_attn", "n_batch", "n_ubatch")
LAYOUT_OVERRIDES = ("gpu_expert_layers", "n_cpu_moe")
OTHER_OVERRIDES = ("n_threads", "n_threads_batch", "use_mmap", "vram_headroom_mib")
# Expert slot cache (engine/plan/slots.py): "slot_layout" moves every expert layer to RAM and
# fills the freed VRAM with slots; "slots" (per layer) / "slot_gib" (total) fix their size.
SLOT_OVERRIDES = ("slot_layout", "slots", "slot_gib", "policy")


def _check_overrides(overrides: Mapping[str, Any]) -> None:
    unknown = set(overrides) - set(SETTING_OVERRIDES + LAYOUT_OVERRIDES + OTHER_OVERRIDES
                                   + SLOT_OVERRIDES)
    if unknown:
        raise EngineError(msg("plan.unknown_setting"),
                          f"unknown planner overrides: {sorted(unknown)}")
    if overrides.get("kv_type", "f16") not in KV_BYTES_PER_ELEMENT:
        raise EngineError(msg("plan.unknown_memory_format"),
                          f"kv_type must be one of {sorted(KV_BYTES_PER_ELEMENT)}")


def _with_headroom(preset: Preset, overrides: Mapping[str, Any]) -> Preset:
    """The preset with the user's graphics-memory headroom (layout and slots keep it free)."""
    if "vram_headroom_mib" not in overrides or not preset.use_gpu:
        return preset
    return dataclasses.replace(preset, vram_headroom_bytes=int(overrides["vram_headroom_mib"]) * MIB)


def _settings(facts: ModelFacts, preset: Preset, overrides: Mapping[str, Any]) -> Settings:
    target = min(preset.n_ctx, facts.n_ctx_train) if facts.n_ctx_train > 0 else preset.n_ctx
    chosen = Settings(target, preset.kv_type, preset.flash_attn, preset.n_batch, preset.n_ubatch)
    chosen = dataclasses.replace(chosen, **{k: overrides[k] for k in SETTING_OVERRIDES
                                            if k in overrides})
    if chosen.kv_type != "f16" and not chosen.flash_attn:
        if "flash_attn" in overrides:
            raise EngineError(msg("plan.compact_memory_needs_fast_attention"),
                              "llama.cpp requires flash attention for a quantized V cache")
        chosen = dataclasses.replace(chosen, flash_attn=True)
    return dataclasses.replace(chosen, n_ubatch=min(chosen.n_ubatch, chosen.n_batch))


# ---- prompt batches ---------------------------------------------------------------------
# Every prompt micro-batch of 32+ tokens copies the experts it uses from main memory to the
# graphics card once (llama.cpp's scheduler; at 512+ tokens nearly all of a layer's experts),
# so with experts in RAM a larger micro-batch reads long prompts several times faster. Its
# price is compute-buffer memory, taken from what holds experts on the GPU (layers or slots).
UBATCH_CHOICES = (2048, 1024)
UBATCH_VRAM_SHARE = 0.10     # at most this share of the experts' VRAM goes to larger batches


def _prompt_batch(facts, sizes, fit: Fit, preset: Preset, hw: HardwareInfo,
                  overrides: Mapping[str, Any], slot_layout: bool) -> tuple[Settings, Msg | None]:
    """The micro-batch for prompts, and why in plain words (None when the preset's stands)."""
    s, layout = fit.settings, fit.layout
    experts_in_ram = slot_layout or len(gpu_expert_ids(sizes, layout)) < len(sizes.moe_layers)
    if "n_ubatch" in overrides or not (layout.uses_gpu and sizes.moe_layers and experts_in_ram):
        return s, None
    headroom = (preset.vram_headroom_bytes, preset.ram_headroom_bytes)
    # VRAM the experts can have at this micro-batch: everything but them and the headroom
    expert_room = vram_budget(hw) - (fit.vram.total_bytes - fit.vram.expert_bytes)
    for n_ubatch in UBATCH_CHOICES:
        if n_ubatch <= s.n_ubatch:
            break
        bigger = dataclasses.replace(s, n_batch=max(s.n_batch, n_ubatch), n_ubatch=n_ubatch)
        extra = try_layout(facts, sizes, bigger, layout, headroom).vram.total_bytes \
            - fit.vram.total_bytes
        if extra <= UBATCH_VRAM_SHARE * expert_room:
            return bigger, msg("plan.prompt_batch", n_ubatch=f"{n_ubatch:,}",
                               stock=f"{s.n_ubatch:,}", gb=gb_text(extra))
    return s, None


def _forced_expert_layers(sizes: ModelSizes, overrides: Mapping[str, Any]) -> int | None:
    if "gpu_expert_layers" in overrides:
        return max(0, min(int(overrides["gpu_expert_layers"]), len(sizes.moe_layers)))
    if "n_cpu_moe" in overrides:  # llama.cpp semantics: experts of blk.0 .. blk.N-1 in RAM
        return sum(1 for i in sizes.moe_layers if i >= int(overrides["n_cpu_moe"]))
    return None


# ---- plan ----------------------------------------------------------------------------

# ---- context by its cost ----------------------------------------------------------------
# A longer context costs what its KV cache (and attention scratch) takes from the experts'
# graphics memory, and that depends on the attention layout: Qwen3.6-35B-A3B keeps KV in 10
# of its 40 layers (the rest are recurrent), gpt-oss in half (the others slide over 128
# tokens), Qwen3-30B-A3B in all 48. The rule, on the shape fixtures (tests/engine/
# test_context_cost.py prints the table): the context doubles from the preset's while the
# experts on the GPU (slots or layers) lose at most 1/16 of what the preset's context leaves
# them; a model that thinks (1-3k tokens an answer) gets up to 16K while they lose at most a
# quarter. No further than 64K or the model's training context. Qwen3.6 at 8 GB: 16K for 4
# of 67 slots a layer (32K would take 10); Qwen3-30B-A3B: 16K for 9 of 38.
CONTEXT_COST = 1 / 16
THINKING_CONTEXT = 16384
THINKING_CONTEXT_COST = 1 / 4
CONTEXT_CAP = 65536


def plan(facts: ModelFacts, hw: HardwareInfo, preset: str | None = None,
         overrides: Mapping[str, Any] | None = None) -> Recipe:
    """The recipe that puts as much of the model on the GPU as its memory allows, with the
    longest context the rule above lets it pay for (unless the user fixed the context)."""
    overrides = dict(overrides or {})
    trained = _within_training(facts, overrides)
    base = _plan(facts, hw, preset, overrides)
    if "n_ctx" in overrides:
        return dataclasses.replace(base, context_note=trained)   # the user's context stands
    if _forced_expert_layers(model_sizes(facts), overrides) is not None:
        return base                 # the user's own layout stands
    best, ctx = base, base.n_ctx * 2
    while ctx <= min(CONTEXT_CAP, facts.n_ctx_train or CONTEXT_CAP):
        try:
            longer = _plan(facts, hw, preset, {**overrides, "n_ctx": ctx})
        except EngineError:
            break
        if not _worth_it(facts, hw, base, longer):
            break
        best, ctx = longer, ctx * 2
    return best


def _within_training(facts: ModelFacts, overrides: dict[str, Any]) -> Msg | None:
    """The user's context where the model was trained for it; else the trained length, and
    why in words. Beyond it a model loses track (llama.cpp only warns of the overflow), and
    the engine sets no RoPE scaling of its own to stretch it; a file that says no training
    length keeps the user's value."""
    asked, trained = overrides.get("n_ctx"), facts.n_ctx_train
    if asked is None or trained <= 0 or int(asked) <= trained:
        return None
    overrides["n_ctx"] = trained
    return msg("plan.context_trained", trained=trained, asked=int(asked))


def _worth_it(facts: ModelFacts, hw: HardwareInfo, base: Recipe, longer: Recipe) -> bool:
    """Does the longer context cost the experts no more than the rule allows?"""
    if longer.n_gpu_layers != base.n_gpu_layers or (
            base.n_gpu_layers and longer.vram.total_bytes > vram_budget(hw)):
        return False                # it would push whole layers off the graphics card
    if base.n_gpu_layers == 0:      # the processor: RAM is the only price, and it fit
        return facts.thinks and longer.n_ctx <= THINKING_CONTEXT
    before, after = base.vram.expert_bytes, longer.vram.expert_bytes
    if before <= 0:
        return False                # no experts on the card to weigh it against
    cost = max(0.0, 1 - after / before)
    allowed = THINKING_CONTEXT_COST if facts.thinks and longer.n_ctx <= THINKING_CONTEXT \
        else CONTEXT_COST
    return cost <= allowed


def _plan(facts: ModelFacts, hw: HardwareInfo, preset: str | None,
          overrides: dict[str, Any]) -> Recipe:
    _check_overrides(overrides)
    chosen, sizes = _with_headroom(resolve_preset(preset, hw), overrides), model_sizes(facts)
    settings = _settings(facts, chosen, overrides)
    fit = _fit_for_preset(facts, sizes, settings, chosen, hw, "n_ctx" in overrides)
    settings, prompt_note = _prompt_batch(facts, sizes, fit, chosen, hw, overrides,
                                          bool(overrides.get("slot_layout")))
    if prompt_note:
        fit = _fit_for_preset(facts, sizes, settings, chosen, hw, "n_ctx" in overrides)
    forced = _forced_expert_layers(sizes, overrides)
    if forced is not None and fit.layout.output_on_gpu:
        fit = _with_gpu_experts(facts, sizes, fit, forced, chosen)  # the user's choice stands
    elif fit.ram.total_bytes > hw.ram_total_bytes:
        raise _too_big(fit, hw, chosen)
    recipe = make_recipe(chosen.name, sizes, fit, hw, overrides, _plan_note(sizes, fit.layout, hw))
    recipe = _slots(recipe, facts, sizes, fit, chosen, hw, overrides, forced is not None)
    return dataclasses.replace(recipe, prompt_note=prompt_note)


def _slots(recipe: Recipe, facts, sizes, fit: Fit, preset: Preset, hw: HardwareInfo,
           overrides, layout_forced: bool) -> Recipe:
    """Expert slots when asked for: on the slot layout, or added to the planned one."""
    slots, gib = overrides.get("slots"), overrides.get("slot_gib")
    policy = overrides.get("policy") or DEFAULT_POLICY
    wants_layout = bool(overrides.get("slot_layout")) and not layout_forced
    if slots == 0 or gib == 0 or not (wants_layout or slots or gib):
        return recipe
    slot_bytes = int(gib * 2**30) if gib is not None else None
    if wants_layout and fit.layout.output_on_gpu and sizes.moe_layers:
        # Slots in every layer beat whole layers on the GPU: a token uses few experts of each.
        spread = _with_gpu_experts(facts, sizes, fit, 0, preset)
        base = make_recipe(recipe.preset, sizes, spread, hw, overrides,
                           _plan_note(sizes, spread.layout, hw))
        slotted = with_expert_slots(base, facts, hw, slots=slots, slot_bytes=slot_bytes,
                                    policy=policy)
        if slotted.expert_slots:
            return slotted
    return with_expert_slots(recipe, facts, hw, slots=slots, slot_bytes=slot_bytes, policy=policy)


def _with_gpu_experts(facts, sizes, fit: Fit, experts: int, preset: Preset) -> Fit:
    headroom = (preset.vram_headroom_bytes, preset.ram_headroom_bytes)
    layout = dataclasses.replace(fit.layout, gpu_expert_layers=experts)
    return try_layout(facts, sizes, fit.settings, layout, headroom)


def _too_big(fit: Fit, hw: HardwareInfo, preset: Preset) -> InsufficientMemoryError:
    need = (fit.vram.total_bytes - fit.vram.headroom_bytes
            + fit.ram.total_bytes - fit.ram.headroom_bytes)
    room = max(0, hw.ram_total_bytes - preset.ram_headroom_bytes)
    if fit.layout.uses_gpu:
        room += max(0, vram_budget(hw) - preset.vram_headroom_bytes)
    return InsufficientMemoryError(
        msg("plan.too_big", need=gb_text(need), room=gb_text(room)),
        f"need {need} bytes, room {room} bytes; vram {fit.vram}, ram {fit.ram}")


def _threads(hw: HardwareInfo) -> int:
    # Decode is limited by memory bandwidth; hyper-threads only add contention. One core is
    # left to the app and the desktop: ggml's threads wait for each other at every step, so
    # a thread that loses its core to another program stalls them all (measured here on
    # 2 cores under load: 2 threads wrote 5 tokens/s where 1 thread wrote 390).
    cores = hw.cpu_physical_cores or hw.cpu_logical_cores or 4
    return max(1, cores - 1)


def make_recipe(preset: str, sizes: ModelSizes, fit: Fit, hw: HardwareInfo,
            overrides: Mapping[str, Any], note: Msg) -> Recipe:
    s, layout = fit.settings, fit.layout
    ram_experts = tuple(i for i in sizes.moe_layers if i not in gpu_expert_ids(sizes, layout))
    threads = int(overrides.get("n_threads", _threads(hw)))
    return Recipe(preset=preset, n_gpu_layers=_n_gpu_layers(layout), cpu_expert_layers=ram_experts,
                  n_ctx=s.n_ctx, flash_attn=s.flash_attn, kv_type=s.kv_type, n_batch=s.n_batch,
                  n_ubatch=s.n_ubatch, n_threads=threads,
                  n_threads_batch=int(overrides.get("n_threads_batch", threads)),
                  vram=fit.vram, ram=fit.ram, use_mmap=bool(overrides.get("use_mmap", True)),
                  note=note)


def _n_gpu_layers(layout: Layout) -> int:
    return -1 if layout.output_on_gpu else layout.gpu_layers


def layout_of(recipe: Recipe, sizes: ModelSizes) -> Layout:
    """Read the layout back from a recipe (for describe and the fallback ladder)."""
    if recipe.n_gpu_layers < 0 or recipe.n_gpu_layers > sizes.n_layers:
        gpu_layers, output = sizes.n_layers, True
    else:
        gpu_layers, output = recipe.n_gpu_layers, False
    first_gpu = sizes.n_layers - gpu_layers
    ram = set(recipe.cpu_expert_layers)
    experts = sum(1 for i in sizes.moe_layers if i >= first_gpu and i not in ram)
    return Layout(gpu_layers, output, experts)


def settings_of(recipe: Recipe) -> Settings:
    return Settings(recipe.n_ctx, recipe.kv_type, recipe.flash_attn, recipe.n_batch,
                    recipe.n_ubatch)


def parts_on_gpu(sizes: ModelSizes, layout: Layout) -> tuple[int, int]:
    if sizes.moe_layers:
        return layout.gpu_expert_layers, len(sizes.moe_layers)
    return layout.gpu_layers, sizes.n_layers


def _plan_note(sizes: ModelSizes, layout: Layout, hw: HardwareInfo) -> Msg:
    if not layout.uses_gpu:
        return msg("plan.note_processor_only")
    on_gpu, total = parts_on_gpu(sizes, layout)
    card = hw.gpus[0].name if hw.gpus else msg("plan.the_graphics_card")
    if on_gpu == total:
        return msg("plan.note_all_on_card", card=card)
    return msg("plan.note_parts_on_card", on_gpu=on_gpu, total=total, card=card)
