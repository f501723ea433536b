"""What the engine knows about a model file, read from its GGUF header only.

``engine.model.inspect_gguf.inspect_model(path)`` fills these; the planner, the CLI and
the app read them. Frozen dataclasses so that they can be shared across threads.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field


# What a chat template with a thinking section contains (Qwen, GLM, Nemotron and DeepSeek's
# <think>, gpt-oss's channels, Gemma 4's thought channel, Seed-OSS, Ministral, Command-R7B).
THINKING_MARKERS = ("<think>", "enable_thinking", "reasoning_content", "<|channel|>",
                    "<|channel>", "<seed:think>", "[THINK]", "<|START_THINKING|>")


@dataclass(frozen=True)
class TensorInfo:
    name: str
    type_name: str          # ggml type name, e.g. "Q4_K", "F32", "MXFP4"
    shape: tuple[int, ...]  # GGUF order: ne[0] (innermost) first
    n_bytes: int
    layer: int | None       # block index from "blk.<i>."; None for embeddings/output
    is_expert: bool         # routed expert weights (ffn_*_exps), not shared experts


@dataclass(frozen=True)
class LayerBytes:
    index: int
    dense_bytes: int   # attention, norms, router, shared expert
    expert_bytes: int  # routed experts only (ffn_{gate,up,down,gate_up}_exps and their biases)


@dataclass(frozen=True)
class AttentionShape:
    """Enough of the attention layout to size the KV cache and recurrent state."""

    n_head: int = 0
    n_head_kv: int = 0
    key_length: int = 0            # per head
    value_length: int = 0          # per head
    kv_layers: int = 0             # layers that keep a full K/V cache
    swa_layers: int = 0            # layers with a sliding-window cache
    swa_window: int = 0
    recurrent_layers: int = 0      # linear-attention / SSM layers (fixed-size state)
    recurrent_state_bytes: int = 0  # per sequence, summed over recurrent layers (f32)
    mla_kv_dim: int = 0            # deepseek2 MLA: kv_lora_rank + rope dims per token per layer


@dataclass(frozen=True)
class ModelFacts:
    path: str
    file_size: int
    architecture: str
    name: str
    file_type: str                  # e.g. "Q4_K_M" when known, else ""
    n_layers: int
    n_embd: int
    n_ctx_train: int
    n_vocab: int
    n_expert: int                   # 0 for dense models
    n_expert_used: int
    n_expert_shared: int
    expert_ffn: int                 # expert feed-forward length
    attention: AttentionShape
    chat_template: str | None
    tensors: tuple[TensorInfo, ...] = field(repr=False)
    layers: tuple[LayerBytes, ...] = field(repr=False)
    other_dense_bytes: int = 0      # embeddings, output head, final norm, MTP layers

    @property
    def is_moe(self) -> bool:
        return self.n_expert > 1 and self.n_expert_used > 0

    @property
    def main_weight_type(self) -> str:
        """The ggml type of most of the weights that are multiplied, by count (matrices other
        than the token embeddings, which are only looked up): what the processor's kernels
        mostly read ("Q4_K" in a Q4_K_M file, which keeps some in Q6_K); "" when none."""
        counts: dict[str, int] = {}
        for t in self.tensors:
            if len(t.shape) >= 2 and t.name != "token_embd.weight":
                counts[t.type_name] = counts.get(t.type_name, 0) + math.prod(t.shape)
        return max(counts, key=lambda name: counts[name]) if counts else ""

    @property
    def looks_like_base_model(self) -> bool:
        """No chat template in the file: most likely a base model, which continues text
        rather than answering (the engine then uses llama.cpp's template for the family)."""
        return not (self.chat_template or "").strip()

    @property
    def thinks(self) -> bool:
        """The chat template has a thinking section (the planner gives such a model a longer
        context; engine/runtime/chat/chat_format.py reads the exact format)."""
        template = self.chat_template or ""
        return any(marker in template for marker in THINKING_MARKERS)

    @property
    def expert_bytes(self) -> int:
        return sum(layer.expert_bytes for layer in self.layers)

    @property
    def dense_bytes(self) -> int:
        return self.other_dense_bytes + sum(layer.dense_bytes for layer in self.layers)

    @property
    def tensor_bytes(self) -> int:
        return self.expert_bytes + self.dense_bytes

    @property
    def moe_layers(self) -> tuple[int, ...]:
        return tuple(layer.index for layer in self.layers if layer.expert_bytes > 0)

    def bytes_per_expert(self, layer: int) -> int:
        """One routed expert's weights (gate+up+down) in one layer."""
        if not self.is_moe:
            return 0
        return self.layers[layer].expert_bytes // self.n_expert
