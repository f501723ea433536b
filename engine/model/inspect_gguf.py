"""Model facts from the GGUF header only: tensor data is never read.

Sizes come from each tensor's type and shape (``gguf.GGML_QUANT_SIZES``); the attention
layout follows what llama.cpp derives from the same keys (src/llama-model.cpp, src/models/).
"""

from __future__ import annotations

import dataclasses
import os
import pathlib
import re
import traceback
from typing import Mapping, TypeGuard

import gguf

from engine.errors import CorruptModelError, EngineError, UnsupportedModelError
from engine.messages import msg
from engine.model.gguf_header import GGUFArray, GGUFHeader, TensorEntry, read_header
from engine.model.facts import AttentionShape, LayerBytes, ModelFacts, TensorInfo

# llama.cpp architecture names. "llama" with expert_count > 0 is Mixtral-style MoE.
MOE_ARCHITECTURES = frozenset({
    "qwen3moe", "qwen35moe", "qwen2moe", "deepseek2", "gpt-oss", "olmoe",
})
DENSE_ARCHITECTURES = frozenset({
    "llama", "mistral3", "qwen2", "qwen3", "qwen35", "gemma", "gemma2", "gemma3",
    "phi2", "phi3", "granite", "olmo2", "command-r", "cohere2", "starcoder2", "internlm2",
})
SUPPORTED_ARCHITECTURES = MOE_ARCHITECTURES | DENSE_ARCHITECTURES

# Sliding-window layer pattern llama.cpp assumes when the file has no pattern key
# (load_swa_pattern(ml, n) in src/models/<arch>.cpp).
SWA_PATTERN_DEFAULTS: Mapping[str, int] = {"gpt-oss": 2, "gemma2": 2, "gemma3": 6, "cohere2": 4}
# Hybrid linear-attention models: every n-th layer is full attention (src/models/qwen35*.cpp).
FULL_ATTENTION_INTERVAL_DEFAULTS: Mapping[str, int] = {"qwen35moe": 4, "qwen35": 4}

MAX_LAYERS = 512      # LLAMA_MAX_LAYERS
MAX_EXPERTS = 1024    # LLAMA_MAX_EXPERTS
F32_BYTES = 4         # llama.cpp keeps recurrent state in f32

LAYER_PREFIX = re.compile(r"^blk\.(\d+)\.")
ROUTED_EXPERT = re.compile(r"\.ffn_(?:gate|up|down|gate_up)_exps(?:\.|$)")
SHARED_EXPERT = re.compile(r"\.ffn_(?:gate|up|down)_shexp\.")


def inspect_model(path: str | os.PathLike) -> ModelFacts:
    """Read a GGUF file's header and describe the model; raises EngineError subclasses.
    A split model's first part (``name-00001-of-00003.gguf``) describes the whole model:
    the other parts' tensors and sizes are added (llama.cpp loads all parts from the first)."""
    try:
        return facts_from_header(os.fspath(path), _with_other_parts(os.fspath(path)))
    except EngineError:
        raise
    except Exception as e:  # a bug or a case the checks missed: still a typed error
        raise CorruptModelError(msg("model.settings_unreadable"),
                                "".join(traceback.format_exception_only(e)).strip()) from e


def facts_from_header(path: str, header: GGUFHeader) -> ModelFacts:
    arch = _architecture(header.metadata)
    s = _Settings(header.metadata, arch)
    n_layers = _trunk_layers(s)
    tensors = tuple(_tensor_info(t) for t in header.tensors)
    n_expert, n_expert_used = _expert_counts(s)
    layers, other = _layer_bytes(tensors, n_layers)
    n_embd = s.int("embedding_length")
    return ModelFacts(
        path=path, file_size=header.file_size, architecture=arch,
        name=_model_name(header.metadata, path), file_type=_file_type(header.metadata),
        n_layers=n_layers, n_embd=n_embd, n_ctx_train=s.int("context_length"),
        n_vocab=_vocab_size(s, tensors), n_expert=n_expert, n_expert_used=n_expert_used,
        n_expert_shared=_shared_experts(s, tensors, n_expert),
        expert_ffn=_expert_ffn(s, tensors, n_expert),
        attention=_attention_shape(s, n_layers, n_embd),
        chat_template=_text(header.metadata, gguf.Keys.Tokenizer.CHAT_TEMPLATE),
        tensors=tensors, layers=layers, other_dense_bytes=other,
    )


SPLIT_FIRST = re.compile(r"^(?P<base>.+)-00001-of-(?P<count>\d{5})\.gguf$", re.IGNORECASE)


def _with_other_parts(path: str) -> GGUFHeader:
    header = read_header(path)
    match = SPLIT_FIRST.match(os.path.basename(path))
    if match is None or int(match["count"]) < 2:
        return header
    tensors, size = list(header.tensors), header.file_size
    for no in range(2, int(match["count"]) + 1):
        part = read_header(os.path.join(os.path.dirname(path),
                                        f"{match['base']}-{no:05d}-of-{match['count']}.gguf"))
        tensors += part.tensors
        size += part.file_size
    return dataclasses.replace(header, tensors=tuple(tensors), file_size=size)


class _Settings:
    """Typed access to ``<arch>.*`` keys; wrong types count as a damaged file."""

    def __init__(self, metadata: Mapping[str, object], arch: str) -> None:
        self.metadata, self.arch = metadata, arch

    def key(self, suffix: str) -> str:
        return f"{self.arch}.{suffix}"

    def has(self, suffix: str) -> bool:
        return self.key(suffix) in self.metadata

    def int(self, suffix: str, default: int | None = None) -> int:
        """A count; per-layer lists give their largest entry (as llama.cpp's *_max())."""
        key = self.key(suffix)
        value = self.metadata.get(key)
        if value is None:
            if default is None:
                raise CorruptModelError(msg("model.damaged"), f"missing setting {key}")
            return default
        return _as_count(key, value)

    def flags(self, suffix: str) -> tuple[bool, ...] | None:
        value = self.metadata.get(self.key(suffix))
        if isinstance(value, GGUFArray) and value.values is not None:
            return tuple(bool(v) for v in value.values)
        return None


def _as_count(key: str, value: object) -> int:
    if isinstance(value, GGUFArray):
        items = value.values or ()
        value = max((v for v in items if _is_int(v)), default=0)
    if not _is_int(value) or value < 0:
        raise CorruptModelError(msg("model.damaged"), f"impossible setting {key} = {value!r}")
    return value


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _architecture(metadata: Mapping[str, object]) -> str:
    arch = metadata.get(gguf.Keys.General.ARCHITECTURE)
    if not isinstance(arch, str) or not arch:
        raise CorruptModelError(msg("model.no_design"), "general.architecture is missing")
    if arch not in SUPPORTED_ARCHITECTURES:
        raise UnsupportedModelError(
            msg("model.unsupported_design", design=_printable(arch[:64])),
            f"architecture {arch[:64]!r}; supported: {', '.join(sorted(SUPPORTED_ARCHITECTURES))}")
    return arch


def _printable(text: str) -> str:
    return "".join(c if c.isprintable() else "?" for c in text)


def _trunk_layers(s: _Settings) -> int:
    # block_count includes multi-token-prediction blocks; llama.cpp's n_layer() excludes them.
    n_all = s.int("block_count")
    n_nextn = s.int("nextn_predict_layers", 0)
    if not 1 <= n_all <= MAX_LAYERS or n_nextn > n_all:
        raise CorruptModelError(msg("model.damaged"), "impossible number of layers: "
                                f"block_count={n_all}, nextn_predict_layers={n_nextn}")
    return n_all - n_nextn


def _expert_counts(s: _Settings) -> tuple[int, int]:
    n_expert = s.int("expert_count", 0)
    n_used = s.int("expert_used_count", 0)
    if n_expert > MAX_EXPERTS or n_used > n_expert:
        raise CorruptModelError(msg("model.damaged"), "impossible number of experts: "
                                f"expert_count={n_expert}, expert_used_count={n_used}")
    return n_expert, n_used


def _shared_experts(s: _Settings, tensors: tuple[TensorInfo, ...], n_expert: int) -> int:
    if s.has("expert_shared_count"):
        return s.int("expert_shared_count")
    # qwen2moe / qwen35moe have one shared expert but write no count for it.
    has_shexp = any(SHARED_EXPERT.search(t.name) for t in tensors)
    return 1 if n_expert and has_shexp else 0


def _expert_ffn(s: _Settings, tensors: tuple[TensorInfo, ...], n_expert: int) -> int:
    if not n_expert:
        return 0
    # Mixtral-style llama files have no expert key: their experts use feed_forward_length.
    for suffix in ("expert_feed_forward_length", "feed_forward_length"):
        if s.has(suffix) and s.int(suffix):
            return s.int(suffix)
    down = next((t for t in tensors if ".ffn_down_exps." in t.name), None)
    return down.shape[0] if down else 0


def _vocab_size(s: _Settings, tensors: tuple[TensorInfo, ...]) -> int:
    if s.has("vocab_size"):
        return s.int("vocab_size")
    tokens = s.metadata.get(gguf.Keys.Tokenizer.LIST)
    if isinstance(tokens, GGUFArray):
        return tokens.length
    embd = next((t for t in tensors if t.name == "token_embd.weight"), None)
    return embd.shape[1] if embd and len(embd.shape) > 1 else 0


def _model_name(metadata: Mapping[str, object], path: str) -> str:
    name = _text(metadata, gguf.Keys.General.NAME)
    return name if name else pathlib.Path(path).stem


def _file_type(metadata: Mapping[str, object]) -> str:
    value = metadata.get(gguf.Keys.General.FILE_TYPE)
    if not _is_int(value):
        return ""
    try:
        name = gguf.LlamaFileType(value).name
    except ValueError:
        return ""
    return {"ALL_F32": "F32", "GUESSED": ""}.get(name, name.removeprefix("MOSTLY_"))


def _text(metadata: Mapping[str, object], key: str) -> str | None:
    value = metadata.get(key)
    return value if isinstance(value, str) else None


def _tensor_info(entry: TensorEntry) -> TensorInfo:
    match = LAYER_PREFIX.match(entry.name)
    return TensorInfo(
        name=entry.name,
        type_name=gguf.GGMLQuantizationType(entry.type_id).name,
        shape=entry.shape,
        n_bytes=entry.n_bytes,
        layer=int(match.group(1)) if match else None,
        is_expert=bool(ROUTED_EXPERT.search(entry.name)),
    )


def _layer_bytes(tensors: tuple[TensorInfo, ...],
                 n_layers: int) -> tuple[tuple[LayerBytes, ...], int]:
    dense, expert, other = [0] * n_layers, [0] * n_layers, 0
    for t in tensors:
        if t.layer is None or t.layer >= n_layers:  # embeddings, output head, MTP blocks
            other += t.n_bytes
        elif t.is_expert:
            expert[t.layer] += t.n_bytes
        else:
            dense[t.layer] += t.n_bytes
    layers = tuple(LayerBytes(i, dense[i], expert[i]) for i in range(n_layers))
    return layers, other


def _attention_shape(s: _Settings, n_layers: int, n_embd: int) -> AttentionShape:
    n_head = s.int("attention.head_count", 0)
    key_length = s.int("attention.key_length", n_embd // n_head if n_head else 0)
    recurrent = _recurrent_flags(s, n_layers)
    swa = tuple(w and not r for w, r in zip(_swa_flags(s, n_layers), recurrent))
    n_recurrent, n_swa = sum(recurrent), sum(swa)
    return AttentionShape(
        n_head=n_head,
        n_head_kv=s.int("attention.head_count_kv", n_head),
        key_length=key_length,
        value_length=s.int("attention.value_length", key_length),
        kv_layers=n_layers - n_recurrent - n_swa,
        swa_layers=n_swa,
        swa_window=s.int("attention.sliding_window", 0) if n_swa else 0,
        recurrent_layers=n_recurrent,
        recurrent_state_bytes=n_recurrent * _recurrent_state_per_layer(s),
        mla_kv_dim=_mla_kv_dim(s),
    )


def _recurrent_flags(s: _Settings, n_layers: int) -> tuple[bool, ...]:
    listed = s.flags("attention.recurrent_layers")
    if listed is not None:
        return _fit(listed, n_layers)
    default = FULL_ATTENTION_INTERVAL_DEFAULTS.get(s.arch)
    if default is None:
        return (False,) * n_layers
    interval = s.int("full_attention_interval", default)
    if interval < 1:
        raise CorruptModelError(msg("model.damaged"), "impossible attention layout: "
                                f"{s.key('full_attention_interval')} = {interval}")
    return tuple((i + 1) % interval != 0 for i in range(n_layers))


def _swa_flags(s: _Settings, n_layers: int) -> tuple[bool, ...]:
    if not s.int("attention.sliding_window", 0):
        return (False,) * n_layers
    listed = s.flags("attention.sliding_window_pattern")
    if listed is not None:
        return _fit(listed, n_layers)
    default = SWA_PATTERN_DEFAULTS.get(s.arch)
    n_pattern = s.int("attention.sliding_window_pattern", default if default else 1)
    # llama_hparams::set_swa_pattern: pattern 0 means every layer is sliding-window.
    return tuple(n_pattern == 0 or i % n_pattern < n_pattern - 1 for i in range(n_layers))


def _fit(flags: tuple[bool, ...], n_layers: int) -> tuple[bool, ...]:
    return (flags + (False,) * n_layers)[:n_layers]


def _recurrent_state_per_layer(s: _Settings) -> int:
    # llama_hparams::n_embd_r() (conv state) + n_embd_s() (ssm state), one sequence, f32.
    d_conv = s.int("ssm.conv_kernel", 0)
    d_inner = s.int("ssm.inner_size", 0)
    d_state = s.int("ssm.state_size", 0)
    n_group = s.int("ssm.group_count", 0)
    conv = max(d_conv - 1, 0) * (d_inner + 2 * n_group * d_state)
    return F32_BYTES * (conv + d_state * d_inner)


def _mla_kv_dim(s: _Settings) -> int:
    # DeepSeek MLA caches the compressed KV (kv_lora_rank) plus the rope part of the key.
    kv_lora_rank = s.int("attention.kv_lora_rank", 0)
    return kv_lora_rank + s.int("rope.dimension_count", 0) if kv_lora_rank else 0


def summarize(facts: ModelFacts) -> dict:
    """JSON-ready description for ``python -m engine info MODEL --json`` (no tensor list)."""
    a = facts.attention
    return {
        "path": facts.path, "file_size": facts.file_size, "name": facts.name,
        "architecture": facts.architecture, "file_type": facts.file_type,
        "n_layers": facts.n_layers, "n_embd": facts.n_embd, "n_ctx_train": facts.n_ctx_train,
        "n_vocab": facts.n_vocab, "is_moe": facts.is_moe, "n_expert": facts.n_expert,
        "n_expert_used": facts.n_expert_used, "n_expert_shared": facts.n_expert_shared,
        "expert_ffn": facts.expert_ffn, "has_chat_template": facts.chat_template is not None,
        "chat_template": facts.chat_template,
        "attention": {name: getattr(a, name) for name in a.__dataclass_fields__},
        "tensor_count": len(facts.tensors), "tensor_bytes": facts.tensor_bytes,
        "expert_bytes": facts.expert_bytes, "dense_bytes": facts.dense_bytes,
        "other_dense_bytes": facts.other_dense_bytes,
        "moe_layers": list(facts.moe_layers),
        "layers": [{"index": layer.index, "dense_bytes": layer.dense_bytes,
                    "expert_bytes": layer.expert_bytes} for layer in facts.layers],
    }
