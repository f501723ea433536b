"""The memory recipe: how a model is laid out across GPU memory and system RAM.

Produced by ``engine.plan``; applied by ``engine.runtime.bindings``. Frozen so that it can be
logged, compared and passed between threads safely.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Mapping

from engine.messages import Msg, from_data, to_data

EXPERT_TENSOR_PATTERN = r"ffn_(up|down|gate|gate_up)_exps"
# The residency policy the slot cache runs unless told otherwise: said here once (the
# registry in engine/residency/policy.py checks at import that it knows this name).
DEFAULT_POLICY = "rotary"


@dataclass(frozen=True)
class MemoryEstimate:
    """Bytes on one device (VRAM or RAM), broken down by what uses them."""

    dense_bytes: int = 0
    expert_bytes: int = 0
    kv_bytes: int = 0
    compute_bytes: int = 0
    headroom_bytes: int = 0

    @property
    def total_bytes(self) -> int:
        return (self.dense_bytes + self.expert_bytes + self.kv_bytes
                + self.compute_bytes + self.headroom_bytes)


@dataclass(frozen=True)
class TransferFigures:
    """Measured on this machine when the slot cache is set up, in GB/s of expert weights."""

    pinned_gbs: float      # host -> GPU slot from page-locked memory (0: no such path)
    pageable_gbs: float    # host -> GPU slot from the mmapped weights
    cpu_gbs: float         # the processor computing experts from the weights
    probe_s: float         # how long measuring took


@dataclass(frozen=True)
class TransferRule:
    """The upload cap chosen from the figures (engine/plan/transfer.py), and why."""

    cap: int               # uploads per layer per token
    link_gbs: float        # the copy path uploads take
    figures: TransferFigures
    reason: Msg            # plain words


@dataclass(frozen=True)
class Recipe:
    preset: str                          # registry name of the preset it came from
    n_gpu_layers: int                    # llama.cpp n_gpu_layers; 0 = CPU only, -1 = all
    cpu_expert_layers: tuple[int, ...]   # layers whose routed experts stay in system RAM
    n_ctx: int
    flash_attn: bool
    kv_type: str                         # "f16", "q8_0" or "q4_0"
    n_batch: int
    n_ubatch: int
    n_threads: int
    n_threads_batch: int
    vram: MemoryEstimate
    ram: MemoryEstimate
    use_mmap: bool = True
    note: Msg | None = None              # plain words: why this recipe (or this fallback step)
    # Per-expert slot cache (engine/runtime/experts/slot_cache.py): slots per model layer, 0 = none.
    expert_slots: tuple[int, ...] = ()
    residency_policy: str = DEFAULT_POLICY   # engine.residency registry name
    upload_cap: int | None = None        # uploads per layer per token; None = k
    router_probs: bool = False           # the policy also sees the router's scores (unmeasured)
    # RAM-resident experts in the GPU's page-locked memory (needs use_mmap False): uploads and
    # prompt batches copy them by DMA, without a staging copy. Costs that RAM to the system.
    pinned_experts: bool = False
    prompt_note: Msg | None = None       # plain words: why prompts are read n_ubatch at a time
    context_note: Msg | None = None      # plain words: why the context is shorter than was set

    @property
    def slot_layers(self) -> tuple[int, ...]:
        """Model layers that get expert slots, in order (policy layer j is the j-th)."""
        return tuple(i for i, n in enumerate(self.expert_slots) if n > 0)

    def override_patterns(self) -> tuple[str, ...]:
        """Regexes for llama.cpp's tensor buffer-type overrides (all mapped to CPU)."""
        if not self.cpu_expert_layers:
            return ()
        layers = "|".join(str(i) for i in sorted(self.cpu_expert_layers))
        return (rf"^blk\.({layers})\.{EXPERT_TENSOR_PATTERN}",)


# ---- JSON (the CLI's --json, saved recipes) ----------------------------------------------

def recipe_to_dict(recipe: Recipe) -> dict[str, Any]:
    """Plain JSON types; byte counts stay exact ints; totals added for readers."""
    data = dataclasses.asdict(recipe)
    data["note"] = to_data(recipe.note) if recipe.note is not None else None
    data["prompt_note"] = to_data(recipe.prompt_note) if recipe.prompt_note is not None else None
    data["context_note"] = to_data(recipe.context_note) if recipe.context_note is not None \
        else None
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
    values["expert_slots"] = tuple(values.get("expert_slots", ()))
    values["note"] = from_data(values["note"]) if values.get("note") else None
    values["prompt_note"] = from_data(values["prompt_note"]) if values.get("prompt_note") else None
    values["context_note"] = from_data(values["context_note"]) if values.get("context_note") \
        else None
    return Recipe(**values)
