"""Where the loaded model is: bytes per device, from what llama.cpp allocated.

llama.cpp logs every buffer it allocates while loading a model and creating its context
(``<buffer> model buffer size = … MiB``, ``KV buffer``, ``RS buffer``, ``compute buffer``);
the C API has no call for it (``llama_get_memory_breakdown`` is C++ only), so the lines
captured during the load (bindings.NativeLog) are the record. A buffer named after a GPU
device ("Vulkan0", "CUDA0") is on that card; every other one ("CPU", "CPU_Mapped",
"CPU_REPACK", "Vulkan_Host", "CUDA_Host": pinned system memory) is in main memory. The slot
cache's banks sit on the device of their layers: the card when the cache runs on it.
"""

from __future__ import annotations

import re
from collections import defaultdict

from engine.api import DeviceUse, Placement
from engine.messages import msg, size

BUFFER_LINE = re.compile(r"(\S+)\s+(model|KV|RS|compute|output) buffer size\s*=\s*([\d.]+) MiB")
FIELDS = {"model": "model_bytes", "KV": "cache_bytes", "RS": "cache_bytes",
          "compute": "compute_bytes", "output": "compute_bytes"}
MIB = 2 ** 20
GB = 2 ** 30       # the planner's unit (engine/plan/speed.py), so the estimate and this agree


def buffer_sizes(lines: list[str]) -> dict[tuple[str, str], int]:
    """(buffer name, kind) → bytes, from llama.cpp's load log (MiB with two decimals)."""
    sizes: dict[tuple[str, str], int] = defaultdict(int)
    for line in lines:
        found = BUFFER_LINE.search(line)
        if found:
            name, kind, mib = found.groups()
            sizes[(name, FIELDS[kind])] += int(round(float(mib) * MIB))
    return dict(sizes)


def measure(lines: list[str], gpu_names: dict[str, str], slot_bytes: int = 0,
            slot_device: str = "CPU", backend: str = "CPU", unused=(),
            software: frozenset[str] = frozenset()) -> Placement:
    """The placement of one load. ``gpu_names``: GPU device name → description (the devices
    this process's back-end has); ``slot_device``: where the slot banks are; ``unused``:
    GpuInfo of cards seen but not used (their ``why_unused`` joins the sentence);
    ``software``: device names that imitate a graphics card on the processor."""
    totals: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for (name, field), n_bytes in buffer_sizes(lines).items():
        totals[name if name in gpu_names else "CPU"][field] += n_bytes
    if slot_bytes:
        totals[slot_device]["slot_bytes"] += slot_bytes
    devices = [DeviceUse("CPU", "", **totals.pop("CPU", {}))]
    devices += [DeviceUse(name, gpu_names.get(name, ""), **fields)
                for name, fields in sorted(totals.items())]
    placement = Placement(tuple(devices), backend if len(devices) > 1 else "CPU")
    return Placement(placement.devices, placement.backend,
                     describe(placement, unused, software), tuple(g.name for g in unused))


def describe(placement: Placement, unused=(), software: frozenset[str] = frozenset()):
    ram = size(placement.ram.total_bytes, GB, whole_from=10)
    gpu = placement.gpu
    if gpu is None:
        # No buffer sizes in the load's log: where it runs is known, how much it holds not
        # (it said "0 MB in main memory").
        text = msg("runtime.placed_processor", ram=ram) if placement.ram.total_bytes \
            else msg("runtime.placed_processor_unmeasured")
        reasons = [g.why_unused for g in unused if g.why_unused is not None]
        return msg("runtime.placed_with_unused", placed=text, unused=reasons[0]) if reasons \
            else text
    name = gpu.description or gpu.device
    if gpu.device in software:          # never called a graphics card (issue 47)
        return msg("runtime.placed_software", device=name,
                   gpu=size(gpu.total_bytes, GB, whole_from=10), ram=ram)
    if gpu.slot_bytes:
        return msg("runtime.placed_gpu_slots", device=name,
                   gpu=size(gpu.total_bytes, GB, whole_from=10),
                   slots=size(gpu.slot_bytes, GB, whole_from=10), ram=ram)
    return msg("runtime.placed_gpu", device=name, gpu=size(gpu.total_bytes, GB, whole_from=10),
               ram=ram)
