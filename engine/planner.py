"""The memory planner: how a GGUF model is laid out across graphics memory and RAM.

``plan()`` turns ModelFacts + HardwareInfo + a preset into a Recipe. The layout follows
llama.cpp: ``n_gpu_layers`` puts the LAST layers (and, with -1, the output head) on the
GPU; the routed experts of the FIRST layers stay in RAM (like ``--n-cpu-moe N``).
Dense parts go to the GPU first: every token reads all of them, but only
n_expert_used/n_expert of each expert tensor, so a dense byte is worth far more there.

Sizes are in bytes; "GB" in texts shown to people means GiB, like Windows Task Manager,
so that an 8 GB card (8188 MiB) reads as "8.0 GB".
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Iterator, Mapping

from engine.errors import EngineError, InsufficientMemoryError
from engine.hardware import GIB, MIB, HardwareInfo
from engine.model_facts import ModelFacts
from engine.recipe import MemoryEstimate, Recipe

# Bytes per cached element: q8_0 packs 32 values in 34 bytes, q4_0 in 18.
KV_BYTES_PER_ELEMENT = {"f16": 2.0, "q8_0": 34 / 32, "q4_0": 18 / 32}
KV_PAD = 256                      # llama.cpp rounds KV cache cells up to a multiple of 256
PREFERENCES = ("context", "experts")
AUTO = "auto"


@dataclass(frozen=True)
class Preset:
    """A named set of choices for one kind of machine. Data only: no behaviour."""

    name: str
    vram_gb: float               # nominal card size it is made for; 0 = no GPU
    ram_gb: float                # typical RAM of such a machine (for pretend hardware)
    cores: int                   # typical physical cores (for pretend hardware)
    gpu_name: str
    gpu_bandwidth_gbs: float     # typical card's peak memory bandwidth
    n_ctx: int                   # target context length, tokens
    min_ctx: int                 # "experts" preference shrinks the context no further
    kv_type: str
    flash_attn: bool
    n_batch: int
    n_ubatch: int
    vram_headroom_bytes: int     # VRAM kept free for the driver, other programs, spikes
    ram_headroom_bytes: int      # RAM kept for the operating system and other programs
    prefer: str                  # when short: keep the "context" or more GPU "experts"
    use_gpu: bool = True


PRESETS: dict[str, Preset] = {p.name: p for p in (
    Preset("8gb-laptop", vram_gb=8, ram_gb=32, cores=8, gpu_name="RTX 4060 Laptop",
           gpu_bandwidth_gbs=256, n_ctx=4096, min_ctx=2048, kv_type="f16", flash_attn=True,
           n_batch=512, n_ubatch=512, vram_headroom_bytes=768 * MIB,
           ram_headroom_bytes=4 * GIB, prefer="context"),
    Preset("12gb-desktop", vram_gb=12, ram_gb=32, cores=8, gpu_name="RTX 4070",
           gpu_bandwidth_gbs=504, n_ctx=8192, min_ctx=4096, kv_type="f16", flash_attn=True,
           n_batch=2048, n_ubatch=512, vram_headroom_bytes=832 * MIB,
           ram_headroom_bytes=4 * GIB, prefer="experts"),
    Preset("16gb-desktop", vram_gb=16, ram_gb=64, cores=8, gpu_name="RTX 4080",
           gpu_bandwidth_gbs=717, n_ctx=16384, min_ctx=8192, kv_type="f16", flash_attn=True,
           n_batch=2048, n_ubatch=512, vram_headroom_bytes=896 * MIB,
           ram_headroom_bytes=6 * GIB, prefer="experts"),
    Preset("24gb-workstation", vram_gb=24, ram_gb=64, cores=12, gpu_name="RTX 4090",
           gpu_bandwidth_gbs=1008, n_ctx=32768, min_ctx=16384, kv_type="f16", flash_attn=True,
           n_batch=2048, n_ubatch=512, vram_headroom_bytes=1 * GIB,
           ram_headroom_bytes=6 * GIB, prefer="context"),
    Preset("cpu-only", vram_gb=0, ram_gb=32, cores=8, gpu_name="",
           gpu_bandwidth_gbs=0, n_ctx=4096, min_ctx=2048, kv_type="f16", flash_attn=True,
           n_batch=512, n_ubatch=512, vram_headroom_bytes=0,
           ram_headroom_bytes=4 * GIB, prefer="context", use_gpu=False),
)}


def _check_registry() -> None:
    # Caught at import, like vLLM's policy registry: a typo in data must not ship.
    for preset in PRESETS.values():
        if preset.prefer not in PREFERENCES or preset.kv_type not in KV_BYTES_PER_ELEMENT:
            raise ValueError(f"preset {preset.name!r} has an unknown prefer/kv_type")
        if not 0 < preset.min_ctx <= preset.n_ctx or preset.n_ubatch > preset.n_batch:
            raise ValueError(f"preset {preset.name!r} has inconsistent sizes")


_check_registry()


def preset_names() -> tuple[str, ...]:
    return (AUTO, *PRESETS)


def get_preset(name: str) -> Preset:
    if name not in PRESETS:
        raise EngineError(f"There is no setting called “{name}”.",
                          f"known presets: {', '.join(preset_names())}")
    return PRESETS[name]


def resolve_preset(name: str | None, hw: HardwareInfo) -> Preset:
    """"auto" (or None) picks the largest preset whose card is no bigger than this one."""
    if name not in (None, AUTO):
        return get_preset(name)
    if not hw.gpus:
        return PRESETS["cpu-only"]
    nominal_gb = round(hw.gpus[0].total_bytes / GIB)
    gpu_presets = sorted((p for p in PRESETS.values() if p.use_gpu), key=lambda p: p.vram_gb)
    fitting = [p for p in gpu_presets if p.vram_gb <= nominal_gb]
    return fitting[-1] if fitting else gpu_presets[0]


def pretend_hardware(preset_name: str) -> HardwareInfo:
    """The typical machine a preset is made for, to plan without the hardware."""
    preset = get_preset(preset_name)
    return HardwareInfo.pretend(vram_gb=preset.vram_gb, ram_gb=preset.ram_gb,
                                cores=preset.cores, name=preset.gpu_name or "none",
                                bandwidth_gbs=preset.gpu_bandwidth_gbs)


# ---- what the model is made of (computed once per plan) ------------------------------

@dataclass(frozen=True)
class ModelSizes:
    n_layers: int
    dense: tuple[int, ...]          # per layer index: attention, norms, router, shared expert
    experts: tuple[int, ...]        # per layer index: routed experts
    largest_expert_tensor: tuple[int, ...]
    moe_layers: tuple[int, ...]     # layer indices that have routed experts
    input_bytes: int                # token embeddings: llama.cpp always keeps them in RAM
    output_bytes: int               # output head, final norm, MTP: on the GPU only with -1
    active_expert_share: float      # n_expert_used / n_expert (1.0 for dense models)


def model_sizes(facts: ModelFacts) -> ModelSizes:
    n_layers = max(facts.n_layers, len(facts.layers))
    dense, experts = [0] * n_layers, [0] * n_layers
    for layer in facts.layers:
        dense[layer.index], experts[layer.index] = layer.dense_bytes, layer.expert_bytes
    input_bytes, output_bytes = _input_output_bytes(facts)
    share = facts.n_expert_used / facts.n_expert if facts.is_moe else 1.0
    moe_layers = tuple(i for i in range(n_layers) if experts[i] > 0)
    return ModelSizes(n_layers, tuple(dense), tuple(experts),
                      _largest_expert_tensors(facts, n_layers), moe_layers,
                      input_bytes, output_bytes, share)


def _input_output_bytes(facts: ModelFacts) -> tuple[int, int]:
    names = {t.name: t.n_bytes for t in facts.tensors if t.layer is None}
    embeddings = names.get("token_embd.weight", 0)
    output = facts.other_dense_bytes - embeddings
    if embeddings and "output.weight" not in names:
        output += embeddings  # tied embeddings: llama.cpp loads a second copy as the output head
    return embeddings, output


def _largest_expert_tensors(facts: ModelFacts, n_layers: int) -> tuple[int, ...]:
    largest = [0] * n_layers
    for tensor in facts.tensors:
        if tensor.is_expert and tensor.layer is not None and tensor.layer < n_layers:
            largest[tensor.layer] = max(largest[tensor.layer], tensor.n_bytes)
    for layer in facts.layers:  # no tensor list: assume gate+up fused, the worse case
        if not largest[layer.index] and layer.expert_bytes:
            largest[layer.index] = layer.expert_bytes // 2
    return tuple(largest)


# ---- the knobs and the layout --------------------------------------------------------

@dataclass(frozen=True)
class Settings:
    n_ctx: int
    kv_type: str
    flash_attn: bool
    n_batch: int
    n_ubatch: int


@dataclass(frozen=True)
class Layout:
    gpu_layers: int           # the last gpu_layers repeating layers sit on the GPU
    output_on_gpu: bool       # llama.cpp's n_gpu_layers = -1
    gpu_expert_layers: int    # the last gpu_expert_layers MoE layers keep experts on the GPU

    @property
    def uses_gpu(self) -> bool:
        return self.gpu_layers > 0 or self.output_on_gpu


CPU_ONLY = Layout(0, False, 0)


def _gpu_layer_ids(sizes: ModelSizes, layout: Layout) -> range:
    return range(sizes.n_layers - layout.gpu_layers, sizes.n_layers)


def _gpu_expert_ids(sizes: ModelSizes, layout: Layout) -> frozenset[int]:
    offloaded = [i for i in sizes.moe_layers if i >= sizes.n_layers - layout.gpu_layers]
    count = min(layout.gpu_expert_layers, len(offloaded))
    return frozenset(offloaded[len(offloaded) - count:])


# ---- KV cache ------------------------------------------------------------------------

def _pad(value: int, multiple: int) -> int:
    return -(-value // multiple) * multiple


def _full_attention_layers(facts: ModelFacts) -> int:
    a = facts.attention
    if a.kv_layers or not a.n_head_kv:
        return a.kv_layers
    return max(0, facts.n_layers - a.swa_layers - a.recurrent_layers)  # header left it out


def kv_cache_bytes(facts: ModelFacts, n_ctx: int, kv_type: str = "f16", n_ubatch: int = 512) -> int:
    """KV cache plus recurrent state for one sequence, as llama.cpp allocates them.

    Full-attention layers keep every cell; sliding-window layers keep
    min(n_ctx, window + n_ubatch) cells; MLA layers keep mla_kv_dim values per cell and
    no separate V; recurrent layers keep a fixed f32 state whatever the context.
    """
    a, per_value = facts.attention, KV_BYTES_PER_ELEMENT[kv_type]
    cells = _pad(n_ctx, KV_PAD)
    if a.mla_kv_dim:
        cached = cells * (a.kv_layers or facts.n_layers) * a.mla_kv_dim
    else:
        swa_cells = min(cells, _pad(a.swa_window + n_ubatch, KV_PAD))
        per_cell = a.n_head_kv * (a.key_length + a.value_length)
        cached = per_cell * (cells * _full_attention_layers(facts) + swa_cells * a.swa_layers)
    return int(cached * per_value) + a.recurrent_state_bytes


# ---- compute buffers -----------------------------------------------------------------
# llama.cpp reserves its compute buffers for the worst batch (n_ubatch tokens, every token
# an output). Modelled as the sum of the largest live tensors, f32 throughout:
#   logits            n_vocab x n_ubatch x 4            (on the device that has the output head)
#   activations       n_ubatch x width x 4 x 8           width = max(n_embd, n_head x head dim);
#                                                        8 live copies: residual, norm, q/k/v, out
#   FFN scratch       n_ubatch x n_expert_used x expert_ffn x 4 x 3   (gate, up, product);
#                     dense models: FFN length taken as 4 x n_embd
#   attention         flash: mask n_ctx x n_ubatch x 2 + n_head x n_ubatch x head dim x 4 x 2
#                     without: scores and softmax n_head x n_ctx x n_ubatch x 4 x 2
#   expert staging    prompts of >= 32 tokens copy a RAM layer's expert tensor to the GPU:
#                     the largest such tensor is reserved in the GPU buffer
#   CUDA runtime      384 MiB: CUDA context, cuBLAS workspace and kernels (NVML counts them)
#   host buffers      64 MiB of pinned staging and output buffers in RAM
# Check: Qwen3.6-35B-A3B with --n-cpu-moe 32 at 4096 context gives 6.33 GiB here; the
# published measurement on an RTX 4060 Laptop was about 6.3 GB.

ACTIVATION_COPIES = 8
CUDA_RUNTIME_BYTES = 384 * MIB
HOST_BUFFER_BYTES = 64 * MIB


def _logits_bytes(facts: ModelFacts, s: Settings) -> int:
    return facts.n_vocab * s.n_ubatch * 4


def _activation_bytes(facts: ModelFacts, s: Settings) -> int:
    width = max(facts.n_embd, facts.attention.n_head * facts.attention.key_length)
    return s.n_ubatch * width * 4 * ACTIVATION_COPIES


def _ffn_scratch_bytes(facts: ModelFacts, s: Settings) -> int:
    hidden = facts.n_expert_used * facts.expert_ffn if facts.is_moe else 4 * facts.n_embd
    return s.n_ubatch * hidden * 4 * 3


def _attention_scratch_bytes(facts: ModelFacts, s: Settings) -> int:
    a = facts.attention
    if not (_full_attention_layers(facts) or a.swa_layers or a.mla_kv_dim):
        return 0
    cells, head_dim = _pad(s.n_ctx, KV_PAD), max(a.key_length, 1)
    if s.flash_attn:
        return cells * s.n_ubatch * 2 + a.n_head * s.n_ubatch * head_dim * 4 * 2
    return a.n_head * cells * s.n_ubatch * 4 * 2


def _layer_scratch_bytes(facts: ModelFacts, s: Settings) -> int:
    return (_activation_bytes(facts, s) + _ffn_scratch_bytes(facts, s)
            + _attention_scratch_bytes(facts, s))


def _gpu_compute_bytes(facts: ModelFacts, sizes: ModelSizes, s: Settings, layout: Layout) -> int:
    if not layout.uses_gpu:
        return 0
    ram_expert_layers = set(sizes.moe_layers) - _gpu_expert_ids(sizes, layout)
    staging = max((sizes.largest_expert_tensor[i] for i in ram_expert_layers), default=0)
    logits = _logits_bytes(facts, s) if layout.output_on_gpu else 0
    return CUDA_RUNTIME_BYTES + _layer_scratch_bytes(facts, s) + logits + staging


def _cpu_compute_bytes(facts: ModelFacts, sizes: ModelSizes, s: Settings, layout: Layout) -> int:
    all_experts_on_gpu = len(_gpu_expert_ids(sizes, layout)) == len(sizes.moe_layers)
    cpu_works = layout.gpu_layers < sizes.n_layers or not all_experts_on_gpu
    scratch = _layer_scratch_bytes(facts, s) if cpu_works else 0
    logits = 0 if layout.output_on_gpu else _logits_bytes(facts, s)
    return HOST_BUFFER_BYTES + scratch + logits


# ---- estimates -----------------------------------------------------------------------

def estimate(facts: ModelFacts, sizes: ModelSizes, s: Settings, layout: Layout,
             headroom: tuple[int, int]) -> tuple[MemoryEstimate, MemoryEstimate]:
    """(VRAM, RAM) for this layout; headroom is (VRAM, RAM) kept free on purpose."""
    gpu_ids, gpu_experts = _gpu_layer_ids(sizes, layout), _gpu_expert_ids(sizes, layout)
    output_gpu = sizes.output_bytes if layout.output_on_gpu else 0
    dense_gpu = sum(sizes.dense[i] for i in gpu_ids) + output_gpu
    expert_gpu = sum(sizes.experts[i] for i in gpu_experts)
    kv_total = kv_cache_bytes(facts, s.n_ctx, s.kv_type, s.n_ubatch)
    kv_gpu = kv_total * layout.gpu_layers // max(sizes.n_layers, 1)  # spread evenly: approximation
    vram = MemoryEstimate(dense_gpu, expert_gpu, kv_gpu,
                          _gpu_compute_bytes(facts, sizes, s, layout),
                          headroom[0] if layout.uses_gpu else 0)
    ram = MemoryEstimate(sum(sizes.dense) + sizes.input_bytes + sizes.output_bytes - dense_gpu,
                         sum(sizes.experts) - expert_gpu, kv_total - kv_gpu,
                         _cpu_compute_bytes(facts, sizes, s, layout), headroom[1])
    return vram, ram


@dataclass(frozen=True)
class _Fit:
    settings: Settings
    layout: Layout
    vram: MemoryEstimate
    ram: MemoryEstimate


def _try(facts, sizes, s: Settings, layout: Layout, headroom) -> _Fit:
    vram, ram = estimate(facts, sizes, s, layout, headroom)
    return _Fit(s, layout, vram, ram)


def _vram_budget(hw: HardwareInfo) -> int:
    return min(hw.gpus[0].free_bytes, hw.gpus[0].total_bytes) if hw.gpus else 0


def _best_layout(facts, sizes, s: Settings, hw: HardwareInfo, headroom) -> _Fit:
    """Most of the model on the GPU that fits: dense parts first, then experts from the end."""
    budget, best = _vram_budget(hw), None
    for experts in range(len(sizes.moe_layers) + 1):  # VRAM grows with each expert layer
        candidate = _try(facts, sizes, s, Layout(sizes.n_layers, True, experts), headroom)
        if candidate.vram.total_bytes > budget:
            break
        best = candidate
    if best is not None:
        return best
    for layers in range(sizes.n_layers, 0, -1):  # not even the dense parts: whole layers
        candidate = _try(facts, sizes, s, Layout(layers, False, 0), headroom)
        if candidate.vram.total_bytes <= budget:
            return candidate
    return _try(facts, sizes, s, CPU_ONLY, headroom)


def _score(fit: _Fit) -> tuple[int, int]:
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
                    ctx_fixed: bool) -> _Fit:
    headroom = (preset.vram_headroom_bytes, preset.ram_headroom_bytes)
    if not (preset.use_gpu and hw.gpus):
        return _try(facts, sizes, settings, CPU_ONLY, headroom)
    fits = [_best_layout(facts, sizes, dataclasses.replace(settings, n_ctx=ctx), hw, headroom)
            for ctx in _context_candidates(preset, settings.n_ctx, ctx_fixed)]
    return max(fits, key=_score)  # max keeps the first (largest context) among equals


# ---- overrides -----------------------------------------------------------------------

SETTING_OVERRIDES = ("n_ctx", "kv_type", "flash_attn", "n_batch", "n_ubatch")
LAYOUT_OVERRIDES = ("gpu_expert_layers", "n_cpu_moe")
OTHER_OVERRIDES = ("n_threads", "n_threads_batch", "use_mmap")


def _check_overrides(overrides: Mapping[str, Any]) -> None:
    unknown = set(overrides) - set(SETTING_OVERRIDES + LAYOUT_OVERRIDES + OTHER_OVERRIDES)
    if unknown:
        raise EngineError("One of the advanced settings is not recognised.",
                          f"unknown planner overrides: {sorted(unknown)}")
    if overrides.get("kv_type", "f16") not in KV_BYTES_PER_ELEMENT:
        raise EngineError("The conversation memory format is not recognised.",
                          f"kv_type must be one of {sorted(KV_BYTES_PER_ELEMENT)}")


def _settings(facts: ModelFacts, preset: Preset, overrides: Mapping[str, Any]) -> Settings:
    target = min(preset.n_ctx, facts.n_ctx_train) if facts.n_ctx_train > 0 else preset.n_ctx
    chosen = Settings(target, preset.kv_type, preset.flash_attn, preset.n_batch, preset.n_ubatch)
    chosen = dataclasses.replace(chosen, **{k: overrides[k] for k in SETTING_OVERRIDES
                                            if k in overrides})
    if chosen.kv_type != "f16" and not chosen.flash_attn:
        if "flash_attn" in overrides:
            raise EngineError("A compact conversation memory needs the fast attention option.",
                              "llama.cpp requires flash attention for a quantized V cache")
        chosen = dataclasses.replace(chosen, flash_attn=True)
    return dataclasses.replace(chosen, n_ubatch=min(chosen.n_ubatch, chosen.n_batch))


def _forced_expert_layers(sizes: ModelSizes, overrides: Mapping[str, Any]) -> int | None:
    if "gpu_expert_layers" in overrides:
        return max(0, min(int(overrides["gpu_expert_layers"]), len(sizes.moe_layers)))
    if "n_cpu_moe" in overrides:  # llama.cpp semantics: experts of blk.0 .. blk.N-1 in RAM
        return sum(1 for i in sizes.moe_layers if i >= int(overrides["n_cpu_moe"]))
    return None


# ---- plan ----------------------------------------------------------------------------

def plan(facts: ModelFacts, hw: HardwareInfo, preset: str | None = None,
         overrides: Mapping[str, Any] | None = None) -> Recipe:
    """The recipe that puts as much of the model on the GPU as its memory allows."""
    overrides = dict(overrides or {})
    _check_overrides(overrides)
    chosen, sizes = resolve_preset(preset, hw), model_sizes(facts)
    settings = _settings(facts, chosen, overrides)
    fit = _fit_for_preset(facts, sizes, settings, chosen, hw, "n_ctx" in overrides)
    forced = _forced_expert_layers(sizes, overrides)
    if forced is not None and fit.layout.output_on_gpu:
        fit = _with_gpu_experts(facts, sizes, fit, forced, chosen)  # the user's choice stands
    elif fit.ram.total_bytes > hw.ram_total_bytes:
        raise _too_big(fit, hw, chosen)
    return _recipe(chosen.name, sizes, fit, hw, overrides, _plan_note(sizes, fit.layout, hw))


def _with_gpu_experts(facts, sizes, fit: _Fit, experts: int, preset: Preset) -> _Fit:
    headroom = (preset.vram_headroom_bytes, preset.ram_headroom_bytes)
    layout = dataclasses.replace(fit.layout, gpu_expert_layers=experts)
    return _try(facts, sizes, fit.settings, layout, headroom)


def _too_big(fit: _Fit, hw: HardwareInfo, preset: Preset) -> InsufficientMemoryError:
    need = (fit.vram.total_bytes - fit.vram.headroom_bytes
            + fit.ram.total_bytes - fit.ram.headroom_bytes)
    room = max(0, hw.ram_total_bytes - preset.ram_headroom_bytes)
    if fit.layout.uses_gpu:
        room += max(0, _vram_budget(hw) - preset.vram_headroom_bytes)
    return InsufficientMemoryError(
        f"This model is too big for this computer: it needs about {_gb(need)} GB, but the "
        f"graphics card and memory together have room for about {_gb(room)} GB. "
        "Try a smaller model.",
        f"need {need} bytes, room {room} bytes; vram {fit.vram}, ram {fit.ram}")


def _threads(hw: HardwareInfo) -> int:
    # Decode is limited by memory bandwidth; hyper-threads only add contention. One core is
    # left to the app and the desktop: ggml's threads wait for each other at every step, so
    # a thread that loses its core to another program stalls them all (measured here on
    # 2 cores under load: 2 threads wrote 5 tokens/s where 1 thread wrote 390).
    cores = hw.cpu_physical_cores or hw.cpu_logical_cores or 4
    return max(1, cores - 1)


def _recipe(preset: str, sizes: ModelSizes, fit: _Fit, hw: HardwareInfo,
            overrides: Mapping[str, Any], note: str) -> Recipe:
    s, layout = fit.settings, fit.layout
    ram_experts = tuple(i for i in sizes.moe_layers if i not in _gpu_expert_ids(sizes, layout))
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


def _settings_of(recipe: Recipe) -> Settings:
    return Settings(recipe.n_ctx, recipe.kv_type, recipe.flash_attn, recipe.n_batch,
                    recipe.n_ubatch)


def _parts_on_gpu(sizes: ModelSizes, layout: Layout) -> tuple[int, int]:
    if sizes.moe_layers:
        return layout.gpu_expert_layers, len(sizes.moe_layers)
    return layout.gpu_layers, sizes.n_layers


def _plan_note(sizes: ModelSizes, layout: Layout, hw: HardwareInfo) -> str:
    if not layout.uses_gpu:
        return "The whole model runs on the processor and stays in main memory."
    on_gpu, total = _parts_on_gpu(sizes, layout)
    card = hw.gpus[0].name if hw.gpus else "the graphics card"
    if on_gpu == total:
        return f"The whole model fits on the graphics card ({card})."
    return (f"{on_gpu} of {total} parts of the model are on the graphics card ({card}); "
            "the rest stays in main memory.")


# ---- fallback ladder -----------------------------------------------------------------

def fallback_ladder(facts: ModelFacts, hw: HardwareInfo, recipe: Recipe) -> Iterator[Recipe]:
    """Steps to try after a load failed for lack of memory, each lighter than the last.

    Fewer GPU expert layers (three steps) -> context 2048, 1024 -> KV cache q8_0, q4_0 ->
    processor only. Each step builds on the last one yielded; a step is skipped unless
    it lowers the VRAM estimate (the RAM estimate when no GPU is used) and fits in RAM.
    """
    sizes = model_sizes(facts)
    headroom = (recipe.vram.headroom_bytes, recipe.ram.headroom_bytes)
    current = _Fit(_settings_of(recipe), layout_of(recipe, sizes), recipe.vram, recipe.ram)
    for step in (_fewer_gpu_parts, _shorter_context, _compact_kv, _processor_only):
        for settings, layout, note in step(sizes, current):
            candidate = _try(facts, sizes, settings, layout, headroom)
            if _lighter(candidate, current) and candidate.ram.total_bytes <= hw.ram_total_bytes:
                current = candidate
                yield _recipe(recipe.preset, sizes, candidate, hw, _kept(recipe), note)


def _kept(recipe: Recipe) -> dict[str, Any]:
    return {"n_threads": recipe.n_threads, "n_threads_batch": recipe.n_threads_batch,
            "use_mmap": recipe.use_mmap}


def _lighter(candidate: _Fit, current: _Fit) -> bool:
    if current.layout.uses_gpu:
        return candidate.vram.total_bytes < current.vram.total_bytes
    return candidate.ram.total_bytes < current.ram.total_bytes


def _thirds(count: int) -> list[int]:
    return sorted({count * 2 // 3, count // 3, 0} - {count}, reverse=True)


def _fewer_gpu_parts(sizes: ModelSizes, current: _Fit):
    layout = current.layout
    if layout.gpu_expert_layers:
        for experts in _thirds(layout.gpu_expert_layers):
            fewer = dataclasses.replace(layout, gpu_expert_layers=experts)
            yield current.settings, fewer, _fewer_note(sizes, fewer)
    elif not sizes.moe_layers and layout.gpu_layers:  # dense model: whole layers move
        for layers in filter(None, _thirds(layout.gpu_layers)):  # none left = processor only
            fewer = Layout(layers, False, 0)
            yield current.settings, fewer, _fewer_note(sizes, fewer)


def _fewer_note(sizes: ModelSizes, layout: Layout) -> str:
    on_gpu, total = _parts_on_gpu(sizes, layout)
    return ("Not enough graphics memory, so more of the model stays in main memory "
            f"({on_gpu} of {total} parts on the graphics card).")


def _shorter_context(sizes: ModelSizes, current: _Fit):
    for ctx in (2048, 1024):
        if ctx < current.settings.n_ctx:
            words = round(ctx * WORDS_PER_TOKEN, -2)
            yield (dataclasses.replace(current.settings, n_ctx=ctx), current.layout,
                   "Not enough memory, so the assistant keeps a shorter conversation in mind "
                   f"(about {words:,.0f} words).")


def _compact_kv(sizes: ModelSizes, current: _Fit):
    notes = {"q8_0": "a more compact form", "q4_0": "an even more compact form"}
    for kv_type, form in notes.items():
        if KV_BYTES_PER_ELEMENT[kv_type] < KV_BYTES_PER_ELEMENT[current.settings.kv_type]:
            yield (dataclasses.replace(current.settings, kv_type=kv_type, flash_attn=True),
                   current.layout, f"Not enough memory, so the conversation is kept in {form}; "
                                   "answers may be slightly less precise.")


def _processor_only(sizes: ModelSizes, current: _Fit):
    if current.layout.uses_gpu:
        yield (current.settings, CPU_ONLY,
               "Not enough graphics memory, so the model runs on the processor only; "
               "answers will come much more slowly.")


# ---- describe: fit level, plain words, expected speed -----------------------------------
# Decode reads every active weight once per token, so time per token is bytes / bandwidth:
#   active bytes per layer = dense + n_expert_used / n_expert x routed expert bytes
#   GPU side at 50-75% of the card's peak bandwidth (NVML bus width x memory clock, or
#     32 GB/s per GiB of VRAM when unknown: 4060 Laptop 256/8, 4070 504/12, 4090 1008/24);
#   RAM side at 12-30 GB/s, what llama.cpp reaches on dual-channel laptop/desktop memory;
#   plus 0.05 ms per GPU layer (kernel launches) and 0.1 ms per layer whose experts run on
#     the processor (activations go to the CPU and back, with a sync).
# Check: Qwen3.6-35B-A3B, --n-cpu-moe 32, RTX 4060 Laptop gives 18-36 tokens/s here; the
# published measurement was 21. KV cache reads are left out (small at these contexts).

GPU_EFFICIENCY = (0.5, 0.75)
CPU_BANDWIDTH_BYTES_S = (12e9, 30e9)
GPU_BANDWIDTH_PER_GIB = 32e9
GPU_LAYER_OVERHEAD_S = 50e-6
CPU_EXPERT_HOP_S = 100e-6
# Graph building, sampling and Python per token: the floor that tiny models hit (the demo
# model, 20 MB, measured ~400 tokens/s on one core here, not the thousands bandwidth implies).
PER_TOKEN_OVERHEAD_S = 1.5e-3
WORDS_PER_TOKEN = 0.75            # English prose; other languages use more tokens per word
SLOW_TOKENS_PER_S = 5.0


@dataclass(frozen=True)
class PlanSummary:
    level: str                                 # "green", "yellow" or "red"
    text: str                                  # plain words for the user
    expected_tps: tuple[float, float]          # decode tokens/s, (low, high); (0, 0) if red


@dataclass(frozen=True)
class _ActiveBytes:
    gpu: float
    cpu: float
    gpu_layers: int
    cpu_expert_layers: int


def _active_bytes(sizes: ModelSizes, layout: Layout) -> _ActiveBytes:
    gpu_ids, gpu_experts = set(_gpu_layer_ids(sizes, layout)), _gpu_expert_ids(sizes, layout)
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


def expected_tokens_per_second(sizes: ModelSizes, layout: Layout,
                               hw: HardwareInfo) -> tuple[float, float]:
    """Decode speed range (tokens/s) from the bandwidth model above."""
    active, gpu_bw = _active_bytes(sizes, layout), _gpu_bandwidth(hw)
    fixed = (active.gpu_layers * GPU_LAYER_OVERHEAD_S + active.cpu_expert_layers * CPU_EXPERT_HOP_S
             + PER_TOKEN_OVERHEAD_S)
    speeds = []
    for efficiency, cpu_bw in zip(GPU_EFFICIENCY, CPU_BANDWIDTH_BYTES_S):
        gpu_time = active.gpu / (gpu_bw * efficiency) if active.gpu else 0.0
        speeds.append(1.0 / (gpu_time + active.cpu / cpu_bw + fixed))
    return speeds[0], speeds[1]


def _gb(n_bytes: float) -> str:
    value = n_bytes / GIB
    return f"{value:.1f}" if value < 10 else f"{value:.0f}"


def _red_text(recipe: Recipe, hw: HardwareInfo) -> str | None:
    if recipe.vram.total_bytes > _vram_budget(hw) and recipe.vram.total_bytes:
        return (f"This will not fit: the model needs about {_gb(recipe.vram.total_bytes)} GB on "
                f"the graphics card, but only {_gb(_vram_budget(hw))} GB is free.")
    if recipe.ram.total_bytes > hw.ram_total_bytes:
        return (f"This will not fit: the model needs about {_gb(recipe.ram.total_bytes)} GB of "
                f"memory, but this computer has {_gb(hw.ram_total_bytes)} GB.")
    return None


def _usage_text(recipe: Recipe, speed: tuple[float, float]) -> str:
    low, high = (round(v * WORDS_PER_TOKEN) for v in speed)
    words = f"{low}–{high}" if high > low else f"{max(low, 1)}"
    ram = _gb(recipe.ram.total_bytes - recipe.ram.headroom_bytes)
    if not recipe.vram.total_bytes:
        where = f"About {ram} GB in memory (the graphics card is not used)"
    else:
        where = f"About {_gb(recipe.vram.total_bytes - recipe.vram.headroom_bytes)} GB on the " \
                f"graphics card and {ram} GB in memory"
    return f"{where}; expect roughly {words} words per second."


def _warnings(recipe: Recipe, hw: HardwareInfo, speed: tuple[float, float]) -> list[str]:
    warnings = []
    if recipe.ram.total_bytes - recipe.ram.headroom_bytes > hw.ram_available_bytes:
        warnings.append("Other programs are using memory this model needs; close some first.")
    if speed[1] < SLOW_TOKENS_PER_S:
        warnings.append("Answers will come slowly on this computer.")
    return warnings


def describe(recipe: Recipe, facts: ModelFacts, hw: HardwareInfo) -> PlanSummary:
    """Green: fits with headroom. Yellow: fits but tight or slow. Red: will not fit."""
    red = _red_text(recipe, hw)
    if red:
        return PlanSummary("red", red, (0.0, 0.0))
    sizes = model_sizes(facts)
    speed = expected_tokens_per_second(sizes, layout_of(recipe, sizes), hw)
    warnings = _warnings(recipe, hw, speed)
    text = " ".join([_usage_text(recipe, speed), *warnings])
    return PlanSummary("yellow" if warnings else "green", text, speed)


# ---- JSON ------------------------------------------------------------------------------

def recipe_to_dict(recipe: Recipe) -> dict[str, Any]:
    """Plain JSON types; byte counts stay exact ints; totals added for readers."""
    data = dataclasses.asdict(recipe)
    data["cpu_expert_layers"] = list(recipe.cpu_expert_layers)
    for device in ("vram", "ram"):
        data[device]["total_bytes"] = getattr(recipe, device).total_bytes
    data["override_patterns"] = list(recipe.override_patterns())
    return data


def recipe_from_dict(data: Mapping[str, Any]) -> Recipe:
    """The inverse of recipe_to_dict (extra keys such as totals are ignored)."""
    names = {f.name for f in dataclasses.fields(Recipe)}
    values = {k: v for k, v in data.items() if k in names}
    estimate_names = {f.name for f in dataclasses.fields(MemoryEstimate)}
    for device in ("vram", "ram"):
        parts = {k: v for k, v in data[device].items() if k in estimate_names}
        values[device] = MemoryEstimate(**parts)
    values["cpu_expert_layers"] = tuple(values["cpu_expert_layers"])
    return Recipe(**values)
