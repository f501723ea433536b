"""Presets: named sets of choices for one kind of machine, found by name (a registry).

"auto" picks the largest preset whose card is no bigger than this computer's. This registry
is the one list of presets: the app's Settings, wizard and safer-setting button read their
names and titles from it (through app/bridge/engine_bridge.py).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.errors import EngineError
from engine.messages import Msg, msg
from engine.plan.hardware import GIB, MIB, HardwareInfo
from engine.plan.memory import KV_BYTES_PER_ELEMENT

PREFERENCES = ("context", "experts")
# Graphics memory every GPU preset keeps free for compute buffers, the driver and spikes:
# with less, the first long prompt runs out of memory (shared/notes/anchors.md, lesson 3).
MIN_VRAM_HEADROOM_BYTES = int(0.7 * GIB)
AUTO = "auto"
AUTO_TITLE = msg("plan.preset_auto")                 # Settings' list
AUTO_IN_A_SENTENCE = msg("plan.preset_auto_in_a_sentence")   # "Rotary will use …"

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
    title: Msg                   # plain words for Settings' list: "Laptop with an 8 GB …"
    in_a_sentence: Msg           # "Rotary will use {this}.": "the setting for laptops …"
    use_gpu: bool = True


PRESETS: dict[str, Preset] = {p.name: p for p in (
    Preset("8gb-laptop", vram_gb=8, ram_gb=32, cores=8, gpu_name="RTX 4060 Laptop",
           gpu_bandwidth_gbs=256, n_ctx=4096, min_ctx=2048, kv_type="f16", flash_attn=True,
           n_batch=512, n_ubatch=512, vram_headroom_bytes=768 * MIB,
           ram_headroom_bytes=4 * GIB, prefer="context",
           title=msg("plan.preset_8gb_laptop"),
           in_a_sentence=msg("plan.preset_8gb_laptop_in_a_sentence")),
    Preset("12gb-desktop", vram_gb=12, ram_gb=32, cores=8, gpu_name="RTX 4070",
           gpu_bandwidth_gbs=504, n_ctx=8192, min_ctx=4096, kv_type="f16", flash_attn=True,
           n_batch=2048, n_ubatch=512, vram_headroom_bytes=832 * MIB,
           ram_headroom_bytes=4 * GIB, prefer="experts",
           title=msg("plan.preset_12gb_desktop"),
           in_a_sentence=msg("plan.preset_12gb_desktop_in_a_sentence")),
    Preset("16gb-desktop", vram_gb=16, ram_gb=64, cores=8, gpu_name="RTX 4080",
           gpu_bandwidth_gbs=717, n_ctx=16384, min_ctx=8192, kv_type="f16", flash_attn=True,
           n_batch=2048, n_ubatch=512, vram_headroom_bytes=896 * MIB,
           ram_headroom_bytes=6 * GIB, prefer="experts",
           title=msg("plan.preset_16gb_desktop"),
           in_a_sentence=msg("plan.preset_16gb_desktop_in_a_sentence")),
    Preset("24gb-workstation", vram_gb=24, ram_gb=64, cores=12, gpu_name="RTX 4090",
           gpu_bandwidth_gbs=1008, n_ctx=32768, min_ctx=16384, kv_type="f16", flash_attn=True,
           n_batch=2048, n_ubatch=512, vram_headroom_bytes=1 * GIB,
           ram_headroom_bytes=6 * GIB, prefer="context",
           title=msg("plan.preset_24gb_workstation"),
           in_a_sentence=msg("plan.preset_24gb_workstation_in_a_sentence")),
    Preset("cpu-only", vram_gb=0, ram_gb=32, cores=8, gpu_name="",
           gpu_bandwidth_gbs=0, n_ctx=4096, min_ctx=2048, kv_type="f16", flash_attn=True,
           n_batch=512, n_ubatch=512, vram_headroom_bytes=0,
           ram_headroom_bytes=4 * GIB, prefer="context", use_gpu=False,
           title=msg("plan.preset_cpu_only"),
           in_a_sentence=msg("plan.preset_cpu_only_in_a_sentence")),
)}
# The whole model in system memory, on the processor: a computer without an NVIDIA card,
# and what "Use the safer setting" chooses after a failed or crashed load.
PROCESSOR_ONLY = SAFEST = "cpu-only"


def check_registry(presets: dict[str, Preset]) -> None:
    # Caught at import, like vLLM's policy registry: a typo in data must not ship.
    for preset in presets.values():
        if preset.prefer not in PREFERENCES or preset.kv_type not in KV_BYTES_PER_ELEMENT:
            raise ValueError(f"preset {preset.name!r} has an unknown prefer/kv_type")
        if not 0 < preset.min_ctx <= preset.n_ctx or preset.n_ubatch > preset.n_batch:
            raise ValueError(f"preset {preset.name!r} has inconsistent sizes")
        if preset.use_gpu and preset.vram_headroom_bytes < MIN_VRAM_HEADROOM_BYTES:
            raise ValueError(f"preset {preset.name!r} keeps less than 0.7 GB of VRAM free")
    if SAFEST not in presets or presets[SAFEST].use_gpu:
        raise ValueError(f"the safest preset {SAFEST!r} must exist and leave the GPU alone")


check_registry(PRESETS)


def preset_names() -> tuple[str, ...]:
    return (AUTO, *PRESETS)


def preset_words(name: str) -> tuple[Msg, Msg]:
    """(title, in a sentence) of a preset name or "auto", for people."""
    if name == AUTO:
        return AUTO_TITLE, AUTO_IN_A_SENTENCE
    preset = get_preset(name)
    return preset.title, preset.in_a_sentence


def get_preset(name: str) -> Preset:
    if name not in PRESETS:
        raise EngineError(msg("plan.unknown_preset", name=name),
                          f"known presets: {', '.join(preset_names())}")
    return PRESETS[name]


def resolve_preset(name: str | None, hw: HardwareInfo) -> Preset:
    """"auto" (or None) picks the largest preset whose card is no bigger than this one."""
    if name not in (None, AUTO):
        return get_preset(name)
    if not hw.gpus:
        return PRESETS[PROCESSOR_ONLY]
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
