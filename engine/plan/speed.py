"""Describe a recipe: fit level, plain words, expected speed."""

from __future__ import annotations

from dataclasses import dataclass

from engine.model.facts import ModelFacts
from engine.plan.hardware import GIB, HardwareInfo
from engine.plan.layout import layout_of, vram_budget
from engine.plan.memory import (CUDA_RUNTIME_BYTES, Layout, ModelSizes, gb_text, gpu_expert_ids,
                                gpu_layer_ids, model_sizes)
from engine.messages import Msg, msg, sentences, size
from engine.recipe import Recipe



# ---- describe: fit level, plain words, expected speed -----------------------------------
# Decode reads every active weight once per token, so time per token is bytes / bandwidth:
#   active bytes per layer = dense + n_expert_used / n_expert x routed expert bytes
#   GPU side at 50-75% of the card's peak bandwidth (NVML bus width x memory clock, or
#     32 GB/s per GiB of VRAM when unknown: 4060 Laptop 256/8, 4070 504/12, 4090 1008/24);
#   RAM side: each processor thread works through 3.5-22 GB/s of quantized weights (it
#     unpacks them as it goes), up to the 12-30 GB/s that dual-channel memory delivers;
#   plus 0.05 ms per GPU layer (kernel launches) and 0.1 ms per layer whose experts run on
#     the processor (activations go to the CPU and back, with a sync);
#   plus 0.15-1.0 ms per token for graph building, sampling and Python.
# The low end is a processor shared with other work, the high end an idle one.
# Checks: Qwen3.6-35B-A3B, --n-cpu-moe 32, RTX 4060 Laptop with 7 threads gives 18-36
# tokens/s here; the published measurement was 21. On a 2-core machine with 1 thread,
# bench/bench_speed_estimate.py measured a Q4_K_M calibration MoE (~66 MB read per token)
# at 59-102 tokens/s while other programs kept both cores busy and 145-204 when idle (a rule
# of memory bandwidth alone, 12-30 GB/s whatever the threads, says 143-271); a real small
# base model wrote 25-28 tokens/s where that rule says 45-103. Plain f16 weights (the demo,
# the fixtures) have nothing to unpack: a thread reads them about twice as fast per byte
# (measured: f16 calibration MoE 100 tokens/s idle, 216 MB per token). A newer core is faster
# still: on the project's 2-core AVX-512 CI machine (AMD EPYC, Zen 4 class) one idle thread wrote
# the Q4_K_M large calibration fixture at 300-328 tokens/s, about 21 GB/s of quantized weights,
# with the portable build and the AVX-512 one alike, so the fast end is 22 GB/s a thread.
# KV cache reads are left out (small at these contexts).
# A software device (lavapipe: Vulkan's shaders run on the processor) is never chosen by
# itself (engine/native/backends.py); where the environment makes it stand in for a card, its
# side runs at 1/40-1/4 of the processor's own rate: Gemma 3 270M wrote about 1 word a second
# on lavapipe where the processor gave 35-41 (issue 47, a new-user test), and the 213 MB
# bench fixture 1.0-2.5 tokens/s on lavapipe against 5.4-6.7 on the CPU build (a 2-core
# machine shared with a build, docs/backends.md). Graphics built into the processor is not
# used (it shares main memory): the plan is the processor's, and so is the estimate.

GPU_EFFICIENCY = (0.5, 0.75)
CPU_BANDWIDTH_BYTES_S = (12e9, 30e9)            # memory's limit, all threads together
CPU_BYTES_PER_THREAD_S = (3.5e9, 22e9)          # one thread's unpack-and-multiply rate
GPU_BANDWIDTH_PER_GIB = 32e9
GPU_LAYER_OVERHEAD_S = 50e-6
CPU_EXPERT_HOP_S = 100e-6
PER_TOKEN_OVERHEAD_S = (1.0e-3, 0.15e-3)        # (slow end, fast end) of the range
SOFTWARE_SHARE = (1 / 40, 1 / 4)                # a software device's rate / the processor's
# A token is a piece of a word. Every speed or length the app shows in words is tokens x
# this ratio (English prose; other languages use more tokens per word), and says so.
WORDS_PER_TOKEN = 0.75
SLOW_TOKENS_PER_S = 5.0
FLOAT_TYPES = frozenset({"F16", "BF16", "F32"})


@dataclass(frozen=True)
class PlanSummary:
    level: str                                 # "green", "yellow" or "red"
    text: Msg                                  # plain words for the user
    expected_tps: tuple[float, float]          # decode tokens/s, (low, high); (0, 0) if red
    measured: bool = False                     # the speed was measured on this computer


@dataclass(frozen=True)
class _ActiveBytes:
    gpu: float
    cpu: float
    gpu_layers: int
    cpu_expert_layers: int


def _active_bytes(sizes: ModelSizes, layout: Layout) -> _ActiveBytes:
    gpu_ids, gpu_experts = set(gpu_layer_ids(sizes, layout)), gpu_expert_ids(sizes, layout)
    share = sizes.active_expert_share
    gpu = sum(sizes.dense[i] for i in gpu_ids) + share * sum(sizes.experts[i] for i in gpu_experts)
    total = sum(sizes.dense) + share * sum(sizes.experts) + sizes.output_bytes
    gpu += sizes.output_bytes if layout.output_on_gpu else 0
    hops = len(set(sizes.moe_layers) - gpu_experts) if layout.uses_gpu else 0
    return _ActiveBytes(gpu, total - gpu, len(gpu_ids), hops)


def _gpu_bandwidth(hw: HardwareInfo) -> float:
    if not hw.gpus:
        return 0.0
    gpu = hw.gpus[0]
    return float(gpu.memory_bandwidth_bytes_s or GPU_BANDWIDTH_PER_GIB * gpu.total_bytes / GIB)


def float_share(facts: ModelFacts) -> float:
    """Share of the weight bytes stored as plain floats (F16, BF16, F32): nothing to unpack."""
    total = sum(t.n_bytes for t in facts.tensors)
    floats = sum(t.n_bytes for t in facts.tensors if t.type_name in FLOAT_TYPES)
    return floats / total if total else 0.0


def expected_tokens_per_second(sizes: ModelSizes, layout: Layout, hw: HardwareInfo,
                               threads: int | None = None,
                               floats: float = 0.0) -> tuple[float, float]:
    """Decode speed range (tokens/s) from the bandwidth model above; ``threads`` is the
    recipe's processor thread count (None: as many as the physical cores), ``floats`` the
    share of plain-float weights (``float_share``), which a thread reads twice as fast."""
    active, gpu_bw = _active_bytes(sizes, layout), _gpu_bandwidth(hw)
    threads = threads or hw.cpu_physical_cores or 1
    fixed = active.gpu_layers * GPU_LAYER_OVERHEAD_S + active.cpu_expert_layers * CPU_EXPERT_HOP_S
    software = bool(hw.gpus) and hw.gpus[0].software
    speeds = []
    for efficiency, ram_bw, per_thread, overhead, share in zip(
            GPU_EFFICIENCY, CPU_BANDWIDTH_BYTES_S, CPU_BYTES_PER_THREAD_S, PER_TOKEN_OVERHEAD_S,
            SOFTWARE_SHARE):
        per_thread *= 1.0 / (1.0 - floats / 2)      # bytes at 2x the rate for that share
        cpu_bw = min(ram_bw, per_thread * threads)
        device_bw = cpu_bw * share if software else gpu_bw * efficiency
        gpu_time = active.gpu / device_bw if active.gpu else 0.0
        speeds.append(1.0 / (gpu_time + active.cpu / cpu_bw + fixed + overhead))
    return speeds[0], speeds[1]



WORDS_PER_PAGE = 500    # a typed page, single-spaced


def context_text(n_ctx: int) -> Msg:
    """The context in words a person knows: "It keeps about 25 pages of a conversation in
    mind." (tokens x WORDS_PER_TOKEN words, WORDS_PER_PAGE words a page)."""
    pages = n_ctx * WORDS_PER_TOKEN / WORDS_PER_PAGE
    if pages < 1:
        return msg("plan.context_under_a_page")
    return msg("plan.context_pages", pages=round(pages))


def _red_text(recipe: Recipe, hw: HardwareInfo) -> Msg | None:
    if recipe.vram.total_bytes > vram_budget(hw) and recipe.vram.total_bytes:
        return msg("plan.wont_fit_card", need=gb_text(recipe.vram.total_bytes),
                   free=gb_text(vram_budget(hw)))
    if recipe.ram.total_bytes > hw.ram_total_bytes:
        return msg("plan.wont_fit_memory", need=gb_text(recipe.ram.total_bytes),
                   have=gb_text(hw.ram_total_bytes))
    return None


def speed_words(speed: tuple[float, float]) -> Msg:
    """"roughly 3–5 words per second", "roughly 1 word per second", "less than 1 word per
    second" (a software graphics device writes about one word a second)."""
    low, high = (round(v * WORDS_PER_TOKEN) for v in speed)
    if high < 1:
        return msg("plan.speed_under_a_word")
    if high > max(low, 1):
        return msg("plan.speed_words", words=f"{max(low, 1)}–{high}")
    return msg("plan.speed_one_word") if high == 1 else msg("plan.speed_words", words=f"{high}")


def _usage_text(recipe: Recipe, speed: tuple[float, float],
                hw: HardwareInfo | None = None) -> Msg:
    words = speed_words(speed)
    # gb_text's rule (GiB, whole numbers from 10), in MB below 0.1 (a tiny model said "0.0")
    ram = size(recipe.ram.total_bytes - recipe.ram.headroom_bytes, GIB, whole_from=10)
    if not recipe.vram.total_bytes:
        return msg("plan.usage_memory_only", ram=ram, speed=words)
    # The driver's own share (its context, kernels) is said apart: the model's share is what
    # the side panel measures from llama.cpp's buffers once it is loaded.
    driver = CUDA_RUNTIME_BYTES if recipe.vram.compute_bytes >= CUDA_RUNTIME_BYTES else 0
    vram = size(recipe.vram.total_bytes - recipe.vram.headroom_bytes - driver, GIB,
                whole_from=10)
    if hw is not None and hw.gpus and hw.gpus[0].software:   # never "the graphics card"
        return msg("plan.usage_software_and_memory", vram=vram, ram=ram, speed=words,
                   device=hw.gpus[0].name)
    if driver:
        return msg("plan.usage_card_driver_and_memory", vram=vram, ram=ram, speed=words,
                   driver=size(driver, GIB))
    return msg("plan.usage_card_and_memory", vram=vram, ram=ram, speed=words)


def _warnings(recipe: Recipe, hw: HardwareInfo, speed: tuple[float, float]) -> list[Msg]:
    warnings = []
    if recipe.ram.total_bytes - recipe.ram.headroom_bytes > hw.ram_available_bytes:
        warnings.append(msg("plan.memory_in_use"))
    if speed[1] < SLOW_TOKENS_PER_S:
        warnings.append(msg("plan.slow"))
    return warnings


def modelled_speed(recipe: Recipe, facts: ModelFacts, hw: HardwareInfo) -> tuple[float, float]:
    """The bandwidth model's writing-speed range (tokens/s) for this recipe on ``hw``."""
    sizes = model_sizes(facts)
    return expected_tokens_per_second(sizes, layout_of(recipe, sizes), hw, recipe.n_threads,
                                      float_share(facts))


def describe(recipe: Recipe, facts: ModelFacts, hw: HardwareInfo,
             measured: tuple[float, float, float] | None = None) -> PlanSummary:
    """Green: fits with headroom. Yellow: fits but tight or slow. Red: will not fit.
    ``measured``: (figure, low, high), the writing speed this model with this recipe showed
    on this computer (the app's answers). It replaces the model's 2-5x range, and the
    sentence names the one figure. A measurement does not carry over to another model:
    between the bench's fixtures it missed by up to 2-5x (bench/bench_speed_estimate.py)."""
    red = _red_text(recipe, hw)
    if red:
        return PlanSummary("red", red, (0.0, 0.0))
    speed = measured[1:] if measured else modelled_speed(recipe, facts, hw)
    shown = (measured[0], measured[0]) if measured else speed
    warnings = _warnings(recipe, hw, speed)
    context = (context_text(recipe.n_ctx), *([recipe.context_note] if recipe.context_note else []))
    text = sentences(_usage_text(recipe, shown, hw), *context, *warnings)
    return PlanSummary("yellow" if warnings else "green", text, speed, measured is not None)
