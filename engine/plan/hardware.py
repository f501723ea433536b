"""What this computer has: NVIDIA GPUs (through NVML), system RAM and CPU cores.

Nothing here raises: a laptop without an NVIDIA card, without the driver or with a
broken NVML is a normal answer (an empty ``gpus`` tuple and a plain ``nvml_status``).
RAM and cores come from the operating system directly (no psutil dependency).
"""

from __future__ import annotations

import atexit
import ctypes
import glob
import importlib
import os
import struct
import subprocess
import sys
import threading
from dataclasses import dataclass
from typing import Any

GIB = 1024 ** 3
MIB = 1024 ** 2

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


@dataclass(frozen=True)
class VramReading:
    used_bytes: int
    total_bytes: int

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


def _init_nvml() -> _NvmlState:
    try:
        lib = importlib.import_module("pynvml")
    except ImportError as exc:
        return _NvmlState(None, STATUS_NO_LIBRARY, f"pynvml import failed: {exc}")
    try:
        lib.nvmlInit()
    except Exception as exc:  # NVMLError subclasses, or OSError from a broken library
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
    except Exception:
        pass


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
        except Exception:  # GPU lost, driver reset, bad index: the gauge shows "unknown"
            _handles.pop(index, None)
            return None
    return VramReading(used_bytes=int(info.used), total_bytes=int(info.total))


# ---- probe --------------------------------------------------------------------------

def probe() -> HardwareInfo:
    """Everything the planner needs to know about this computer. Never raises."""
    gpus, status, detail = _probe_gpus()
    ram_total, ram_available = _ram_bytes()
    physical, logical = _cpu_cores()
    return HardwareInfo(gpus=gpus, ram_total_bytes=ram_total, ram_available_bytes=ram_available,
                        cpu_physical_cores=physical, cpu_logical_cores=logical,
                        nvml_status=status, nvml_detail=detail)


def _probe_gpus() -> tuple[tuple[GpuInfo, ...], str, str]:
    with _lock:
        state = _nvml()
        if state.lib is None:
            return (), state.status, state.detail
        try:
            gpus = _list_gpus(state.lib)
        except Exception as exc:
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
                   pcie_gen=_optional(lib.nvmlDeviceGetMaxPcieLinkGeneration, handle),
                   pcie_width=_optional(lib.nvmlDeviceGetMaxPcieLinkWidth, handle),
                   memory_bandwidth_bytes_s=_bandwidth(lib, handle))


def _bandwidth(lib: Any, handle: Any) -> int:
    # GDDR/HBM move data on both clock edges: bytes/s = bus bits / 8 x MHz x 1e6 x 2.
    bus_bits = _optional(lib.nvmlDeviceGetMemoryBusWidth, handle)
    clock_mhz = _optional(lib.nvmlDeviceGetMaxClockInfo, handle, getattr(lib, "NVML_CLOCK_MEM", 2))
    return bus_bits // 8 * clock_mhz * 2_000_000


def _optional(query: Any, *args: Any) -> int:
    """Secondary facts (PCIe link, memory clock) are often unsupported on laptops."""
    try:
        return int(query(*args))
    except Exception:
        return 0


def _text(value: Any) -> str:
    return value.decode(errors="replace") if isinstance(value, bytes) else str(value)


# ---- RAM ----------------------------------------------------------------------------

def _ram_bytes() -> tuple[int, int]:
    """(total, available) in bytes; (0, 0) when the system will not say."""
    readers = {"win32": _windows_ram, "darwin": _mac_ram}
    try:
        return readers.get(sys.platform, _linux_ram)()
    except Exception:
        return _sysconf_ram()


def _linux_ram() -> tuple[int, int]:
    with open("/proc/meminfo", encoding="ascii") as meminfo:
        return parse_meminfo(meminfo.read())


def parse_meminfo(text: str) -> tuple[int, int]:
    fields = {}
    for line in text.splitlines():
        key, _, rest = line.partition(":")
        parts = rest.split()
        if parts and parts[0].isdigit():
            fields[key.strip()] = int(parts[0]) * 1024  # values are in kB
    total = fields.get("MemTotal", 0)
    available = fields.get("MemAvailable", fields.get("MemFree", 0))
    return total, available


def _sysconf_ram() -> tuple[int, int]:
    try:
        page = os.sysconf("SC_PAGE_SIZE")
        return page * os.sysconf("SC_PHYS_PAGES"), page * os.sysconf("SC_AVPHYS_PAGES")
    except (AttributeError, OSError, ValueError):
        return 0, 0


class _MemoryStatusEx(ctypes.Structure):
    _fields_ = [("dwLength", ctypes.c_uint32), ("dwMemoryLoad", ctypes.c_uint32),
                ("ullTotalPhys", ctypes.c_uint64), ("ullAvailPhys", ctypes.c_uint64),
                ("ullTotalPageFile", ctypes.c_uint64), ("ullAvailPageFile", ctypes.c_uint64),
                ("ullTotalVirtual", ctypes.c_uint64), ("ullAvailVirtual", ctypes.c_uint64),
                ("ullAvailExtendedVirtual", ctypes.c_uint64)]


def _windows_ram() -> tuple[int, int]:
    status = _MemoryStatusEx()
    status.dwLength = ctypes.sizeof(_MemoryStatusEx)
    kernel32 = ctypes.windll.kernel32  # type: ignore[attr-defined]
    if not kernel32.GlobalMemoryStatusEx(ctypes.byref(status)):
        return 0, 0
    return int(status.ullTotalPhys), int(status.ullAvailPhys)


def _mac_ram() -> tuple[int, int]:
    total = _mac_sysctl_int("hw.memsize")
    return total, _mac_available_ram(total)


def _mac_available_ram(total: int) -> int:
    # Free, inactive and speculative pages can all be handed to a new program.
    out = subprocess.run(["vm_stat"], capture_output=True, text=True, timeout=5).stdout
    page = int(out.split("page size of")[1].split()[0]) if "page size of" in out else 4096
    pages = 0
    for line in out.splitlines():
        key, _, value = line.partition(":")
        if key.strip() in ("Pages free", "Pages inactive", "Pages speculative"):
            pages += int(value.strip().rstrip("."))
    return min(total, pages * page) if pages else total // 2


def _mac_sysctl_int(name: str) -> int:
    out = subprocess.run(["sysctl", "-n", name], capture_output=True, text=True, timeout=5)
    return int(out.stdout.strip() or 0)


# ---- CPU cores ----------------------------------------------------------------------

def _cpu_cores() -> tuple[int, int]:
    """(physical, logical); physical falls back to logical when unknown."""
    logical = _usable_logical_cores()
    readers = {"win32": _windows_physical_cores, "darwin": _mac_physical_cores}
    try:
        physical = readers.get(sys.platform, _linux_physical_cores)()
    except Exception:
        physical = 0
    return (min(physical, logical) if physical else logical), logical


def _usable_logical_cores() -> int:
    # Containers and job objects may allow fewer CPUs than the machine has.
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0)) or 1
    return os.cpu_count() or 1


def _linux_physical_cores() -> int:
    pairs = set()
    for topology in glob.glob("/sys/devices/system/cpu/cpu[0-9]*/topology"):
        with open(os.path.join(topology, "physical_package_id")) as package, \
                open(os.path.join(topology, "core_id")) as core:
            pairs.add((package.read().strip(), core.read().strip()))
    return len(pairs)


def _mac_physical_cores() -> int:
    return _mac_sysctl_int("hw.physicalcpu")


RELATION_PROCESSOR_CORE = 0


def _windows_physical_cores() -> int:
    kernel32 = ctypes.windll.kernel32  # type: ignore[attr-defined]
    size = ctypes.c_uint32(0)
    kernel32.GetLogicalProcessorInformationEx(RELATION_PROCESSOR_CORE, None, ctypes.byref(size))
    buffer = ctypes.create_string_buffer(size.value)
    if not kernel32.GetLogicalProcessorInformationEx(RELATION_PROCESSOR_CORE, buffer,
                                                     ctypes.byref(size)):
        return 0
    return count_processor_core_records(buffer.raw[:size.value])


def count_processor_core_records(buffer: bytes) -> int:
    """Walk SYSTEM_LOGICAL_PROCESSOR_INFORMATION_EX records (Relationship, Size, ...)."""
    count, offset = 0, 0
    while offset + 8 <= len(buffer):
        relationship, size = struct.unpack_from("<II", buffer, offset)
        if size == 0:
            break
        count += relationship == RELATION_PROCESSOR_CORE
        offset += size
    return count
