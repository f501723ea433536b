"""What a model is made of and how much memory a layout of it takes (VRAM, RAM).

The layout follows llama.cpp: ``n_gpu_layers`` puts the LAST layers (and, with -1, the
output head) on the GPU; the routed experts of the FIRST layers stay in RAM (like
``--n-cpu-moe N``). Sizes are in bytes; "GB" in texts shown to people means GiB, like
Windows Task Manager, so that an 8 GB card (8188 MiB) reads as "8.0 GB".
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.model.facts import ModelFacts
from engine.plan.hardware import GIB, MIB
from engine.recipe import MemoryEstimate

# Bytes per cached element: q8_0 packs 32 values in 34 bytes, q4_0 in 18.
KV_BYTES_PER_ELEMENT = {"f16": 2.0, "q8_0": 34 / 32, "q4_0": 18 / 32}
KV_PAD = 256                      # llama.cpp rounds KV cache cells up to a multiple of 256


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


def gpu_layer_ids(sizes: ModelSizes, layout: Layout) -> range:
    return range(sizes.n_layers - layout.gpu_layers, sizes.n_layers)


def gpu_expert_ids(sizes: ModelSizes, layout: Layout) -> frozenset[int]:
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
# llama.cpp reserves its compute buffers for the worst batch (n_ubatch tokens, each of them
# an output unless n_outputs_max says otherwise; the engine sets it to 1, as only the last
# token's logits are read). Modelled as the sum of the largest live tensors, f32 throughout:
#   logits            n_vocab x ENGINE_OUTPUTS x 4      (on the device that has the output head)
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
# Check: Qwen3.6-35B-A3B with --n-cpu-moe 32 at 4096 context gives 6.33 GiB here with stock
# llama.cpp's logits for all 512 tokens of a batch (stock_logits_bytes); the published
# measurement on an RTX 4060 Laptop was about 6.3 GB.

ACTIVATION_COPIES = 8
ENGINE_OUTPUTS = 1      # llama_context_params.n_outputs_max (engine/runtime/llama_model.py)
CUDA_RUNTIME_BYTES = 384 * MIB
HOST_BUFFER_BYTES = 64 * MIB


def _logits_bytes(facts: ModelFacts, s: Settings) -> int:
    return facts.n_vocab * min(s.n_ubatch, ENGINE_OUTPUTS) * 4


def stock_logits_bytes(facts: ModelFacts, s: Settings) -> int:
    """What stock llama.cpp reserves beyond the engine for logits (every token an output)."""
    return facts.n_vocab * (s.n_ubatch - min(s.n_ubatch, ENGINE_OUTPUTS)) * 4


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
    ram_expert_layers = set(sizes.moe_layers) - gpu_expert_ids(sizes, layout)
    staging = max((sizes.largest_expert_tensor[i] for i in ram_expert_layers), default=0)
    logits = _logits_bytes(facts, s) if layout.output_on_gpu else 0
    return CUDA_RUNTIME_BYTES + _layer_scratch_bytes(facts, s) + logits + staging


def _cpu_compute_bytes(facts: ModelFacts, sizes: ModelSizes, s: Settings, layout: Layout) -> int:
    all_experts_on_gpu = len(gpu_expert_ids(sizes, layout)) == len(sizes.moe_layers)
    cpu_works = layout.gpu_layers < sizes.n_layers or not all_experts_on_gpu
    scratch = _layer_scratch_bytes(facts, s) if cpu_works else 0
    logits = 0 if layout.output_on_gpu else _logits_bytes(facts, s)
    return HOST_BUFFER_BYTES + scratch + logits


# ---- estimates -----------------------------------------------------------------------

def estimate(facts: ModelFacts, sizes: ModelSizes, s: Settings, layout: Layout,
             headroom: tuple[int, int]) -> tuple[MemoryEstimate, MemoryEstimate]:
    """(VRAM, RAM) for this layout; headroom is (VRAM, RAM) kept free on purpose."""
    gpu_ids, gpu_experts = gpu_layer_ids(sizes, layout), gpu_expert_ids(sizes, layout)
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


def gb_text(n_bytes: float) -> str:
    value = n_bytes / GIB
    return f"{value:.1f}" if value < 10 else f"{value:.0f}"
