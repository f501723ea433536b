"""Hardware probe: NVML through a fake pynvml module, RAM and cores from the OS."""

from __future__ import annotations

import sys
import threading
import types

import pytest

from engine.plan import hardware
from engine.plan.hardware import (STATUS_FOUND, STATUS_NO_GPU, STATUS_NO_LIBRARY, HardwareInfo,
                             VramReading, process_ram_bytes, probe, read_vram)

MIB = 1024 ** 2


class FakeNvml(types.ModuleType):
    """Just enough of pynvml: one RTX 4060 Laptop unless told otherwise."""

    def __init__(self, count: int = 1, init_error: str | None = None) -> None:
        super().__init__("pynvml")
        self.NVMLError = type("NVMLError", (Exception,), {})
        for name in ("LibraryNotFound", "DriverNotLoaded", "GpuIsLost", "NotSupported", "Unknown"):
            setattr(self, f"NVMLError_{name}", type(f"NVMLError_{name}", (self.NVMLError,), {}))
        self.NVML_CLOCK_MEM = 2
        self.count, self.init_calls, self.handle_calls = count, 0, 0
        self.init_error = getattr(self, init_error) if init_error else None
        self.used, self.failing, self.name = 900 * MIB, False, "NVIDIA GeForce RTX 4060 Laptop GPU"

    def nvmlInit(self) -> None:
        self.init_calls += 1
        if self.init_error:
            raise self.init_error()

    def nvmlShutdown(self) -> None:
        pass

    def nvmlSystemGetDriverVersion(self) -> str:
        return "572.16"

    def nvmlDeviceGetCount(self) -> int:
        return self.count

    def nvmlDeviceGetHandleByIndex(self, index: int) -> object:
        self.handle_calls += 1
        if index >= self.count:
            raise self.NVMLError_Unknown()
        return ("handle", index)

    def nvmlDeviceGetName(self, handle: object) -> str | bytes:
        return self.name

    def nvmlDeviceGetMemoryInfo(self, handle: object) -> types.SimpleNamespace:
        if self.failing:
            raise self.NVMLError_GpuIsLost()
        total = 8188 * MIB
        return types.SimpleNamespace(total=total, used=self.used, free=total - self.used)

    def nvmlDeviceGetComputeRunningProcesses(self, handle: object) -> list:
        import os
        return [types.SimpleNamespace(pid=os.getpid(), usedGpuMemory=700 * MIB),
                types.SimpleNamespace(pid=1, usedGpuMemory=100 * MIB)]

    def nvmlDeviceGetMaxPcieLinkGeneration(self, handle: object) -> int:
        return 4

    def nvmlDeviceGetMaxPcieLinkWidth(self, handle: object) -> int:
        raise self.NVMLError_NotSupported()  # laptops often refuse this one

    def nvmlDeviceGetMemoryBusWidth(self, handle: object) -> int:
        return 128

    def nvmlDeviceGetMaxClockInfo(self, handle: object, clock: int) -> int:
        return 8001 if clock == self.NVML_CLOCK_MEM else 2370


@pytest.fixture
def install(monkeypatch):
    """install(fake) puts a fake pynvml in place and starts a fresh NVML session. NVML's own
    answers, as on a machine without llama.cpp's device list (tests/engine/test_backends.py
    combines the two)."""
    monkeypatch.setattr(hardware.atexit, "register", lambda *args: None)
    monkeypatch.setattr(hardware, "_selection", lambda: None)

    def put(module: object) -> object:
        monkeypatch.setitem(sys.modules, "pynvml", module)
        hardware._forget_nvml()
        return module

    yield put
    hardware._forget_nvml()


def test_one_gpu(install):
    install(FakeNvml())
    info = probe()
    assert info.nvml_status == STATUS_FOUND and info.has_gpu
    (gpu,) = info.gpus
    assert gpu.name == "NVIDIA GeForce RTX 4060 Laptop GPU" and gpu.driver_version == "572.16"
    assert gpu.total_bytes == 8188 * MIB and gpu.free_bytes == (8188 - 900) * MIB
    assert (gpu.pcie_gen, gpu.pcie_width) == (4, 0)          # unsupported query -> 0
    assert gpu.memory_bandwidth_bytes_s == 16 * 8001 * 2_000_000  # 256 GB/s


def test_name_as_bytes_from_older_pynvml(install):
    fake = install(FakeNvml())
    fake.name = b"NVIDIA GeForce RTX 3060"
    assert probe().gpus[0].name == "NVIDIA GeForce RTX 3060"


@pytest.mark.parametrize("error, status", [
    ("NVMLError_Unknown", STATUS_NO_LIBRARY),
    ("NVMLError_LibraryNotFound", STATUS_NO_LIBRARY),
    ("NVMLError_DriverNotLoaded", STATUS_NO_GPU),
])
def test_nvml_init_errors_are_a_normal_answer(install, error, status):
    install(FakeNvml(init_error=error))
    info = probe()
    assert info.gpus == () and info.nvml_status == status and info.nvml_detail
    assert read_vram() is None


def test_pynvml_missing(install):
    install(None)  # a None entry in sys.modules makes "import pynvml" raise ImportError
    info = probe()
    assert info.gpus == () and info.nvml_status == STATUS_NO_LIBRARY
    assert "import" in info.nvml_detail
    assert read_vram() is None


def test_no_nvidia_card(install):
    install(FakeNvml(count=0))
    info = probe()
    assert info.gpus == () and info.nvml_status == STATUS_NO_GPU


def test_query_failure_during_probe(install):
    fake = install(FakeNvml())
    fake.failing = True
    info = probe()
    assert info.gpus == () and info.nvml_status == STATUS_NO_LIBRARY and info.nvml_detail


def test_read_vram_initialises_once_and_reuses_the_handle(install):
    fake = install(FakeNvml())
    readings = [read_vram() for _ in range(50)]
    probe()
    assert readings[0] == VramReading(used_bytes=900 * MIB, total_bytes=8188 * MIB,
                                      process_bytes=700 * MIB)
    assert readings[0].free_bytes == (8188 - 900) * MIB
    assert fake.init_calls == 1 and fake.handle_calls == 1


def test_read_vram_survives_a_mid_session_failure(install):
    fake = install(FakeNvml())
    assert read_vram() is not None
    fake.failing = True
    assert read_vram() is None
    fake.failing, fake.used = False, 2000 * MIB
    assert read_vram().used_bytes == 2000 * MIB  # comes back once the GPU answers again
    assert fake.init_calls == 1


def test_read_vram_bad_index(install):
    install(FakeNvml())
    assert read_vram(3) is None


def test_read_vram_from_many_threads(install):
    fake = install(FakeNvml())
    results, start = [], threading.Barrier(8)

    def poll() -> None:
        start.wait()
        results.extend(read_vram() for _ in range(20))

    threads = [threading.Thread(target=poll) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(results) == 160 and all(r is not None for r in results)
    assert fake.init_calls == 1


def test_real_probe_never_raises():
    hardware._forget_nvml()
    info = probe()
    assert info.ram_total_bytes > 0 and 0 < info.ram_available_bytes <= info.ram_total_bytes
    assert 1 <= info.cpu_physical_cores <= info.cpu_logical_cores
    assert info.nvml_status in (STATUS_FOUND, STATUS_NO_GPU, STATUS_NO_LIBRARY)
    hardware._forget_nvml()


def test_pretend_8gb_laptop():
    info = HardwareInfo.pretend(vram_gb=8, ram_gb=32, cores=8, name="RTX 4060 Laptop")
    assert info.gpus[0].total_bytes == 8188 * MIB == info.gpus[0].free_bytes
    assert info.gpus[0].name == "RTX 4060 Laptop" and info.is_pretend
    assert info.ram_total_bytes == 32 * 1024 ** 3 and info.cpu_physical_cores == 8
    assert info.nvml_status == STATUS_FOUND


def test_pretend_sizes_match_what_nvml_reports():
    sizes = {gb: HardwareInfo.pretend(vram_gb=gb).gpus[0].total_bytes // MIB for gb in (12, 16, 24)}
    assert sizes == {12: 12282, 16: 16376, 24: 24564}


def test_pretend_without_gpu_and_with_busy_gpu():
    assert HardwareInfo.pretend(vram_gb=0).gpus == ()
    assert HardwareInfo.pretend(vram_gb=0).nvml_status == STATUS_NO_GPU
    busy = HardwareInfo.pretend(vram_gb=8, vram_free_gb=7.25)
    assert busy.gpus[0].free_bytes == int(7.25 * 1024 ** 3)


def test_ram_and_cores_come_from_psutil(monkeypatch):
    memory = types.SimpleNamespace(total=32 * 1024 ** 3, available=20 * 1024 ** 3)
    monkeypatch.setattr(hardware.psutil, "virtual_memory", lambda: memory)
    monkeypatch.setattr(hardware.psutil, "cpu_count", lambda logical=True: 6 if not logical else 12)
    info = probe()
    assert (info.ram_total_bytes, info.ram_available_bytes) == (memory.total, memory.available)
    assert info.cpu_physical_cores == min(6, info.cpu_logical_cores)


def test_ram_unknown_when_psutil_refuses(monkeypatch):
    def refuse():
        raise OSError("access denied")
    monkeypatch.setattr(hardware.psutil, "virtual_memory", refuse)
    assert probe().ram_total_bytes == 0


def test_process_ram_is_this_process_resident_memory():
    import psutil
    held = process_ram_bytes()
    assert held > 10 * MIB and abs(held - psutil.Process().memory_info().rss) < 64 * MIB


def test_vram_reading_says_what_this_process_holds(install):
    install(FakeNvml())
    reading = read_vram()
    assert reading.process_bytes == 700 * MIB and reading.used_bytes == 900 * MIB


# ---- every swallowed failure leaves one line for IT -------------------------------------

def _lines(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == "rotary.hardware"]


def test_nvml_failures_are_logged_once_each(install, caplog):
    caplog.set_level("INFO", logger="rotary.hardware")
    hardware._reported.clear()
    fake = install(FakeNvml())
    probe()                                        # PCIe width: NotSupported on laptops
    assert any("nvmlDeviceGetMaxPcieLinkWidth" in line for line in _lines(caplog))
    fake.failing = True
    for _ in range(10):                            # the gauge polls twice a second
        assert read_vram() is None
    lost = [line for line in _lines(caplog) if "reading graphics memory" in line]
    assert len(lost) == 1 and "GpuIsLost" in lost[0]
    fake.failing = False
    assert read_vram() is not None
    assert any("works again" in line for line in _lines(caplog))
    probe_failure = install(FakeNvml())
    probe_failure.failing = True
    probe()
    assert any("listing the NVIDIA GPUs failed" in line for line in _lines(caplog))


def test_nvml_missing_or_refusing_is_logged(install, caplog):
    caplog.set_level("INFO", logger="rotary.hardware")
    hardware._reported.clear()
    install(None)
    probe()
    install(FakeNvml(init_error="NVMLError_DriverNotLoaded"))
    probe()
    lines = _lines(caplog)
    assert any("pynvml cannot be imported" in line for line in lines)
    assert any("nvmlInit failed" in line and "DriverNotLoaded" in line for line in lines)


def test_psutil_refusals_are_logged(monkeypatch, caplog):
    caplog.set_level("INFO", logger="rotary.hardware")
    hardware._reported.clear()

    def refuse(*args, **kwargs):
        raise hardware.psutil.AccessDenied()

    def cores(logical=True):
        if not logical:
            raise OSError("no /proc")
        return 4
    monkeypatch.setattr(hardware.psutil, "virtual_memory", refuse)
    monkeypatch.setattr(hardware.psutil, "cpu_count", cores)
    monkeypatch.setattr(hardware.psutil, "Process", refuse)
    info = probe()
    assert info.ram_total_bytes == 0 and info.cpu_physical_cores == info.cpu_logical_cores == 4
    assert process_ram_bytes() == 0
    lines = " | ".join(_lines(caplog))
    for said in ("how much memory", "how many processor cores", "cores allowed",
                 "memory Rotary holds"):
        assert said in lines, lines


def test_an_unknown_failure_is_not_swallowed(monkeypatch):
    """Narrow excepts: a bug (here a TypeError from psutil) is not taken for a refusal."""
    def broken():
        raise TypeError("a bug, not a locked-down system")
    monkeypatch.setattr(hardware.psutil, "virtual_memory", broken)
    with pytest.raises(TypeError):
        probe()
