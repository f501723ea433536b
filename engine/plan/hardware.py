"""What this computer has: the GPUs the installed llama.cpp can run on, system RAM and cores.

The GPU list comes from llama.cpp's own device list (ggml's backend registry of each installed
back-end variant, engine/native/backends.py): a card is planned for only when the build that
will run can use it. NVML adds what it knows of NVIDIA cards (PCIe link, memory bandwidth,
live memory readings for the gauge) and names the NVIDIA cards that no installed back-end can
use (``unused_gpus``, each with a sentence saying why and what to do).

Nothing here raises: a laptop without an NVIDIA card, without the driver or with a
broken NVML is a normal answer (an empty ``gpus`` tuple and a plain ``nvml_status``).
RAM, cores and this process's resident memory come from psutil. Every failure swallowed
here leaves one line in the log for IT (a failure that repeats, such as the VRAM gauge's
reading twice a second, only when it starts).
"""

from __future__ import annotations

import atexit
import dataclasses
import importlib
import logging
import os
import threading
from dataclasses import dataclass
from typing import Any

import psutil

from engine.native import backends

from engine.messages import Msg, msg

GIB = 1024 ** 3
MIB = 1024 ** 2

log = logging.getLogger("rotary.hardware")
PSUTIL_ERRORS = (psutil.Error, OSError, RuntimeError)   # locked-down or unusual systems

STATUS_FOUND = "NVIDIA driver found"
STATUS_NO_GPU = "No NVIDIA graphics card found"
STATUS_NO_LIBRARY = "NVIDIA management library not available"


@dataclass(frozen=True)
class GpuInfo:
    index: int
    name: str
    total_bytes: int
    free_bytes: int
    driver_version: str
    pcie_gen: int = 0                   # 0 = unknown
    pcie_width: int = 0                 # lanes; 0 = unknown
    memory_bandwidth_bytes_s: int = 0   # peak, from bus width x memory clock; 0 = unknown
    backend: str = ""                   # "CUDA", "Vulkan"; "" = unknown (NVML only, pretend)
    device: str = ""                    # ggml's device name ("Vulkan0"): what --device takes
    integrated: bool = False            # shares system memory: gets no slots
    software: bool = False              # a graphics API on the processor (lavapipe)
    why_unused: Msg | None = None       # in unused_gpus: why this build cannot use it, what to do


@dataclass(frozen=True)
class VramReading:
    used_bytes: int
    total_bytes: int
    process_bytes: int | None = None    # held by this process (NVML); None when not reported

    @property
    def free_bytes(self) -> int:
        return max(0, self.total_bytes - self.used_bytes)


@dataclass(frozen=True)
class HardwareInfo:
    gpus: tuple[GpuInfo, ...]
    ram_total_bytes: int
    ram_available_bytes: int
    cpu_physical_cores: int
    cpu_logical_cores: int
    nvml_status: str
    nvml_detail: str = ""     # the raw NVML error, for "Copy details"
    is_pretend: bool = False  # made up for planning, not measured
    unused_gpus: tuple[GpuInfo, ...] = ()   # seen, but not run on (``why_unused`` says why)

    @property
    def has_gpu(self) -> bool:
        return bool(self.gpus)

    @classmethod
    def pretend(cls, vram_gb: float = 8, ram_gb: float = 32, cores: int = 8,
                name: str = "Pretend GPU", vram_free_gb: float | None = None,
                bandwidth_gbs: float = 0) -> "HardwareInfo":
        """Hardware made up from nominal sizes, so that plans can be made without it."""
        gpus = () if vram_gb <= 0 else (_pretend_gpu(vram_gb, name, vram_free_gb, bandwidth_gbs),)
        ram_total = int(ram_gb * GIB)
        return cls(gpus=gpus, ram_total_bytes=ram_total,
                   ram_available_bytes=int(ram_total * PRETEND_AVAILABLE_RAM_SHARE),
                   cpu_physical_cores=cores, cpu_logical_cores=2 * cores,
                   nvml_status=STATUS_FOUND if gpus else STATUS_NO_GPU, is_pretend=True)


# Other programs typically hold about a quarter of RAM on an office machine.
PRETEND_AVAILABLE_RAM_SHARE = 0.75


def nominal_to_nvml_bytes(vram_gb: float) -> int:
    """GeForce cards report slightly less than their nominal size (8 GB -> 8188 MiB)."""
    return int(round(vram_gb * 1024 - vram_gb / 2)) * MIB


def _pretend_gpu(vram_gb: float, name: str, free_gb: float | None, bandwidth_gbs: float) -> GpuInfo:
    total = nominal_to_nvml_bytes(vram_gb)
    free = total if free_gb is None else min(total, int(free_gb * GIB))
    return GpuInfo(index=0, name=name, total_bytes=total, free_bytes=free,
                   driver_version="", memory_bandwidth_bytes_s=int(bandwidth_gbs * 1e9))


# ---- NVML session: initialised once, lazily, shared by probe() and read_vram() ----

@dataclass(frozen=True)
class _NvmlState:
    lib: Any | None   # the pynvml module once nvmlInit succeeded, else None
    status: str
    detail: str = ""


_lock = threading.Lock()
_state: _NvmlState | None = None
_handles: dict[int, Any] = {}


_reported: set[str] = set()   # failures already in the log, until they stop


def _report(what: str, exc: BaseException, level: int = logging.WARNING) -> None:
    """One log line for IT when a failure starts; a repeat of it stays quiet."""
    if what not in _reported:
        _reported.add(what)
        log.log(level, "%s: %s: %s", what, type(exc).__name__, exc)


def _recovered(what: str) -> None:
    if what in _reported:
        _reported.discard(what)
        log.info("%s works again", what)


def _nvml_errors(lib: Any) -> tuple[type[Exception], ...]:
    # pynvml raises NVMLError subclasses; a broken driver library can also raise OSError.
    return (getattr(lib, "NVMLError", OSError), OSError)


def _init_nvml() -> _NvmlState:
    try:
        lib = importlib.import_module("pynvml")
    except ImportError as exc:
        _report("NVML unavailable (pynvml cannot be imported)", exc, logging.INFO)
        return _NvmlState(None, STATUS_NO_LIBRARY, f"pynvml import failed: {exc}")
    try:
        lib.nvmlInit()
    except _nvml_errors(lib) as exc:
        _report("NVML unavailable (nvmlInit failed)", exc, logging.INFO)
        detail = f"nvmlInit failed: {type(exc).__name__}: {exc}"
        return _NvmlState(None, _status_for_init_error(lib, exc), detail)
    atexit.register(_shutdown_quietly, lib)
    return _NvmlState(lib, STATUS_FOUND)


def _status_for_init_error(lib: Any, exc: Exception) -> str:
    # A missing driver means no usable card; anything else is a library problem.
    driver_missing = getattr(lib, "NVMLError_DriverNotLoaded", None)
    if driver_missing is not None and isinstance(exc, driver_missing):
        return STATUS_NO_GPU
    return STATUS_NO_LIBRARY


def _shutdown_quietly(lib: Any) -> None:
    try:
        lib.nvmlShutdown()
    except _nvml_errors(lib) as exc:     # at exit: nothing left to do but say so
        log.info("nvmlShutdown failed: %s: %s", type(exc).__name__, exc)


def _nvml() -> _NvmlState:
    global _state
    if _state is None:
        _state = _init_nvml()
    return _state


def _forget_nvml() -> None:
    """Drop the cached NVML session (tests swap the pynvml module)."""
    global _state
    with _lock:
        _state = None
        _handles.clear()


def _handle(lib: Any, index: int) -> Any:
    if index not in _handles:
        _handles[index] = lib.nvmlDeviceGetHandleByIndex(index)
    return _handles[index]


def read_vram(index: int = 0) -> VramReading | None:
    """Used/total graphics memory now; cheap enough to poll twice a second."""
    with _lock:
        lib = _nvml().lib
        if lib is None:
            return None
        try:
            info = lib.nvmlDeviceGetMemoryInfo(_handle(lib, index))
        except _nvml_errors(lib) as exc:  # GPU lost, driver reset, bad index: "unknown"
            _handles.pop(index, None)
            _report(f"reading graphics memory of GPU {index} failed", exc)
            return None
        _recovered(f"reading graphics memory of GPU {index} failed")
        mine = _process_vram(lib, _handles.get(index))
    return VramReading(used_bytes=int(info.used), total_bytes=int(info.total), process_bytes=mine)


def _process_vram(lib: Any, handle: Any) -> int | None:
    """Graphics memory this process holds; None where the driver does not say (WDDM)."""
    try:
        processes = lib.nvmlDeviceGetComputeRunningProcesses(handle)
    except _nvml_errors(lib) as exc:      # NotSupported under Windows' WDDM driver model
        _report("NVML does not say which processes use the GPU", exc, logging.INFO)
        return None
    used = [p.usedGpuMemory for p in processes if p.pid == os.getpid()]
    if not used:
        return 0
    return None if any(u is None for u in used) else int(sum(used))


# ---- probe --------------------------------------------------------------------------

def probe() -> HardwareInfo:
    """Everything the planner needs to know about this computer. Never raises."""
    nvml_gpus, status, detail = _probe_gpus()
    gpus, unused = usable_gpus(nvml_gpus, _selection())
    ram_total, ram_available = _ram_bytes()
    physical, logical = _cpu_cores()
    return HardwareInfo(gpus=gpus, ram_total_bytes=ram_total, ram_available_bytes=ram_available,
                        cpu_physical_cores=physical, cpu_logical_cores=logical,
                        nvml_status=status, nvml_detail=detail, unused_gpus=unused)


def _selection():
    """The back-end variant this process runs (or will), or None where none is installed."""
    try:
        if not backends.installed_variants():
            return None              # no llama.cpp here at all: NVML's word is all there is
        return backends.select()
    except Exception:  # probe never raises; the listing logs its own failures
        log.warning("listing llama.cpp's devices failed", exc_info=True)
        return None


def usable_gpus(nvml_gpus: tuple[GpuInfo, ...], selection) -> tuple[tuple[GpuInfo, ...],
                                                                     tuple[GpuInfo, ...]]:
    """(GPUs to plan for, GPUs seen but not used). The chosen device first; NVML's facts are
    added to the device they name. Without a selection (no llama.cpp installed) NVML's list
    stands as it is."""
    if selection is None:
        return nvml_gpus, ()
    listed = [(item, d) for item in selection.listing for d in item.devices
              if d.kind in ("gpu", "igpu", "software")]
    chosen = selection.device
    runs = [d for item, d in listed if item.variant == selection.variant and chosen is not None
            and (d.kind == "gpu" or (d == chosen and d.kind == "software"))]
    runs.sort(key=lambda d: d != chosen)
    gpus = tuple(_from_device(d, _nvml_match(d, nvml_gpus)) for d in runs)
    reason = {"igpu": "hardware.gpu_integrated", "software": "hardware.gpu_software"}
    unused = [dataclasses.replace(_from_device(d, _nvml_match(d, nvml_gpus)),
                                  why_unused=msg(reason[d.kind], name=d.description))
              for _, d in _unique(listed) if d.kind in reason and d not in runs]
    seen = {g.name.lower() for g in gpus} | {g.name.lower() for g in unused}
    if chosen is None or not gpus:
        seen |= {d.description.lower() for _, d in listed}
    # a back-end that did not start, or started but could not open its card (CUDA's "driver
    # insufficient"): the driver is the likely fix
    failed = [item for item in selection.listing if item.error or item.note]
    for gpu in nvml_gpus:
        if gpu.name.lower() in seen:
            continue
        why = (msg("hardware.gpu_backend_failed", name=gpu.name) if failed
               else msg("hardware.gpu_no_backend", name=gpu.name))
        unused.append(dataclasses.replace(gpu, why_unused=why))
    return gpus, tuple(unused)


def _unique(listed):
    """A card listed by several variants (CUDA0 and Vulkan0) once."""
    seen, out = set(), []
    for item, device in listed:
        if device.description.lower() not in seen:
            seen.add(device.description.lower())
            out.append((item, device))
    return out


def _nvml_match(device, nvml_gpus: tuple[GpuInfo, ...]) -> GpuInfo | None:
    """NVML's entry for a ggml device: the same name, or, with one NVIDIA card, CUDA's."""
    for gpu in nvml_gpus:
        if gpu.name.lower() == device.description.lower():
            return gpu
    if device.backend == "CUDA" and len(nvml_gpus) == 1:
        return nvml_gpus[0]
    return None


def _from_device(device, nvml: GpuInfo | None) -> GpuInfo:
    """A ggml device as GpuInfo; NVML's live free memory and link facts where it knows them."""
    free = device.free_bytes
    if nvml is None and device.kind == "gpu":     # no NVML: ggml's reading now, once loaded
        free = (backends.live_memory(device.name) or (free, 0))[0]
    base = GpuInfo(index=0, name=device.description or device.name,
                   total_bytes=device.total_bytes, free_bytes=free, driver_version="")
    if nvml is not None:
        base = dataclasses.replace(nvml, total_bytes=nvml.total_bytes or device.total_bytes)
    return dataclasses.replace(base, backend=device.backend, device=device.name,
                               integrated=device.kind == "igpu",
                               software=device.kind == "software")


def _probe_gpus() -> tuple[tuple[GpuInfo, ...], str, str]:
    with _lock:
        state = _nvml()
        if state.lib is None:
            return (), state.status, state.detail
        try:
            gpus = _list_gpus(state.lib)
        except Exception as exc:  # probe never raises; an older pynvml may
            # lack a function (AttributeError) as well as fail a query (NVMLError)
            log.warning("listing the NVIDIA GPUs failed", exc_info=True)
            return (), STATUS_NO_LIBRARY, f"NVML query failed: {type(exc).__name__}: {exc}"
    return gpus, (STATUS_FOUND if gpus else STATUS_NO_GPU), ""


def _list_gpus(lib: Any) -> tuple[GpuInfo, ...]:
    driver = _text(lib.nvmlSystemGetDriverVersion())
    return tuple(_gpu_info(lib, i, driver) for i in range(lib.nvmlDeviceGetCount()))


def _gpu_info(lib: Any, index: int, driver: str) -> GpuInfo:
    handle = _handle(lib, index)
    memory = lib.nvmlDeviceGetMemoryInfo(handle)
    return GpuInfo(index=index, name=_text(lib.nvmlDeviceGetName(handle)),
                   total_bytes=int(memory.total), free_bytes=int(memory.free),
                   driver_version=driver,
                   pcie_gen=_optional(lib, lib.nvmlDeviceGetMaxPcieLinkGeneration, handle),
                   pcie_width=_optional(lib, lib.nvmlDeviceGetMaxPcieLinkWidth, handle),
                   memory_bandwidth_bytes_s=_bandwidth(lib, handle))


def _bandwidth(lib: Any, handle: Any) -> int:
    # GDDR/HBM move data on both clock edges: bytes/s = bus bits / 8 x MHz x 1e6 x 2.
    bus_bits = _optional(lib, lib.nvmlDeviceGetMemoryBusWidth, handle)
    clock_mhz = _optional(lib, lib.nvmlDeviceGetMaxClockInfo, handle,
                          getattr(lib, "NVML_CLOCK_MEM", 2))
    return bus_bits // 8 * clock_mhz * 2_000_000


def _optional(lib: Any, query: Any, *args: Any) -> int:
    """Secondary facts (PCIe link, memory clock) are often unsupported on laptops."""
    try:
        return int(query(*args))
    except _nvml_errors(lib) as exc:
        _report(f"NVML cannot say {getattr(query, '__name__', 'a detail')}", exc, logging.INFO)
        return 0


def _text(value: Any) -> str:
    return value.decode(errors="replace") if isinstance(value, bytes) else str(value)


# ---- RAM and CPU cores (psutil: one well-kept library instead of per-OS code) ---------

def _ram_bytes() -> tuple[int, int]:
    """(total, available) in bytes; (0, 0) when the system will not say."""
    try:
        memory = psutil.virtual_memory()
    except PSUTIL_ERRORS as exc:
        _report("the system does not say how much memory it has", exc)
        return 0, 0
    return int(memory.total), int(memory.available)


def _cpu_cores() -> tuple[int, int]:
    """(physical, logical) that this process may use; physical falls back to logical."""
    logical = _usable_logical_cores()
    try:
        physical = psutil.cpu_count(logical=False) or 0
    except PSUTIL_ERRORS as exc:
        _report("the system does not say how many processor cores it has", exc, logging.INFO)
        physical = 0
    return (min(physical, logical) if physical else logical), logical


def _usable_logical_cores() -> int:
    # Containers and job objects may allow fewer CPUs than the machine has.
    try:
        return len(psutil.Process().cpu_affinity()) or 1
    except (AttributeError, *PSUTIL_ERRORS) as exc:  # macOS has no cpu_affinity; AccessDenied
        _report("the processor cores allowed to Rotary are unknown; counting all", exc,
                logging.INFO)
        return psutil.cpu_count(logical=True) or os.cpu_count() or 1


def process_ram_bytes() -> int:
    """Resident memory of this process now (what Task Manager shows); 0 when unknown."""
    try:
        rss = int(psutil.Process().memory_info().rss)
    except PSUTIL_ERRORS as exc:
        _report("the memory Rotary holds cannot be read", exc)
        return 0
    _recovered("the memory Rotary holds cannot be read")
    return rss
