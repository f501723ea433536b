"""Back-end variants and devices (engine/native/backends.py), the hardware probe built on them,
and the truth about where a loaded model is (engine/runtime/devices/placement.py): fake device lists
for the three cases (no GPU; a GPU with a CPU-only build; a GPU used), the real child process
on the installed CPU build."""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys

import pytest

from engine.messages import render
from engine.native import backends
from engine.native.backends import Device, Variant, VariantDevices, choose
from engine.plan import hardware
from engine.plan.hardware import GpuInfo, usable_gpus
from engine.runtime.devices.placement import buffer_sizes, measure

GIB = 2 ** 30
RTX = "NVIDIA GeForce RTX 4060 Laptop GPU"
CPU_DEV = Device("CPU", "AMD Ryzen 7", "cpu", "CPU", 30 * GIB, 32 * GIB)
CPU_BUILD = Variant("cpu", "/lib/cpu", "k1")
VULKAN = Variant("vulkan", "/lib/vulkan", "k2")
CUDA = Variant("cuda", "/lib/cuda", "k3")


def vk(name=RTX, kind="gpu", total=8 * GIB, index=0):
    return Device(f"Vulkan{index}", name, kind, "Vulkan", total - GIB, total)


def cu(name=RTX, total=8 * GIB):
    return Device("CUDA0", name, "gpu", "CUDA", total - GIB, total)


def nvml_gpu(name=RTX):
    return GpuInfo(index=0, name=name, total_bytes=8188 * 2**20, free_bytes=7000 * 2**20,
                   driver_version="572.16", pcie_gen=4, memory_bandwidth_bytes_s=256_000_000_000)


# ---- the choice ----------------------------------------------------------------------------

def test_a_discrete_gpu_beats_the_processor():
    listing = (VariantDevices(CPU_BUILD, (CPU_DEV,)), VariantDevices(VULKAN, (vk(),)))
    chosen = choose(listing)
    assert chosen.variant == VULKAN and chosen.device_name == "Vulkan0"


def test_without_a_gpu_the_cpu_build_runs():
    listing = (VariantDevices(CPU_BUILD, (CPU_DEV,)), VariantDevices(VULKAN, ()))
    chosen = choose(listing)
    assert chosen.variant == CPU_BUILD and chosen.device is None and chosen.device_name == "CPU"


def test_an_integrated_gpu_is_never_chosen():
    listing = (VariantDevices(CPU_BUILD, (CPU_DEV,)),
               VariantDevices(VULKAN, (vk("Intel(R) Iris(R) Xe Graphics", "igpu"),)))
    assert choose(listing).variant == CPU_BUILD


def test_cuda_before_vulkan_on_the_same_card_and_the_larger_card_first():
    listing = (VariantDevices(CPU_BUILD, (CPU_DEV,)), VariantDevices(VULKAN, (vk(),)),
               VariantDevices(CUDA, (cu(),)))
    assert choose(listing).device_name == "CUDA0"
    bigger = (VariantDevices(VULKAN, (vk("Radeon RX 7800", total=16 * GIB),)),
              VariantDevices(CUDA, (cu(),)))
    assert choose(bigger).device_name == "Vulkan0"


def test_a_device_asked_for_by_name_and_one_that_does_not_exist():
    listing = (VariantDevices(CPU_BUILD, (CPU_DEV,)), VariantDevices(VULKAN, (vk(),)),
               VariantDevices(CUDA, (cu(),)))
    assert choose(listing, "vulkan0").variant == VULKAN
    assert choose(listing, "CPU").variant == CPU_BUILD
    with pytest.raises(LookupError):
        choose(listing, "Vulkan7")


def test_a_folder_set_from_outside_is_kept():
    listing = (VariantDevices(CPU_BUILD, (CPU_DEV,)), VariantDevices(CUDA, (cu(),)),
               VariantDevices(VULKAN, (vk("llvmpipe (LLVM 15.0.7, 256 bits)"),)))
    chosen = choose(listing, folder="/lib/vulkan")
    assert chosen.variant == VULKAN and chosen.device_name == "Vulkan0"
    assert choose(listing, folder="/elsewhere").variant.folder == "/elsewhere"


# ---- variants on disk, the listing kept per machine ------------------------------------------

def make_variant(root, name):
    folder = root / name
    folder.mkdir(parents=True)
    (folder / backends.library_name("ggml")).write_bytes(b"not really a library")
    (folder / backends.VARIANT_FILE).write_text(json.dumps({"variant": name}))
    return folder


def test_installed_variants_are_the_wheel_and_the_described_folders(tmp_path, monkeypatch):
    make_variant(tmp_path, "vulkan")
    (tmp_path / "stray").mkdir()                                  # no variant.json: ignored
    monkeypatch.setenv(backends.ROOT_ENV, str(tmp_path))
    monkeypatch.setattr(backends, "wheel_lib_folder", lambda: tmp_path / "wheel")
    (tmp_path / "wheel").mkdir()
    variants = backends.installed_variants()
    assert [v.name for v in variants] == ["cpu", "vulkan"]
    assert variants[1].folder == str(tmp_path / "vulkan")


def test_the_listing_is_kept_until_a_variant_or_the_visible_devices_change(tmp_path, monkeypatch):
    folder = make_variant(tmp_path, "vulkan")
    variant = Variant("vulkan", str(folder), backends._folder_key("vulkan", folder))
    asked = []

    def fake_list(v, timeout=0):
        asked.append(v.name)
        return VariantDevices(v, (vk(),), seconds=0.5)

    monkeypatch.setattr(backends, "list_devices", fake_list)
    cache = tmp_path / "devices.json"
    first = backends.device_listing(cache=cache, variants=(variant,))
    again = backends.device_listing(cache=cache, variants=(variant,))
    assert asked == ["vulkan"] and first == again
    monkeypatch.setenv("GGML_VK_VISIBLE_DEVICES", "0")
    backends.device_listing(cache=cache, variants=(variant,))
    (folder / backends.library_name("ggml")).write_bytes(b"rebuilt, longer than before")
    rebuilt = Variant("vulkan", str(folder), backends._folder_key("vulkan", folder))
    backends.device_listing(cache=cache, variants=(rebuilt,))
    assert asked == ["vulkan"] * 3


def test_a_failed_listing_is_not_kept(tmp_path, monkeypatch):
    variant = Variant("vulkan", str(tmp_path), "k")
    monkeypatch.setattr(backends, "list_devices",
                        lambda v, timeout=0: VariantDevices(v, error="exit status -11"))
    backends.device_listing(cache=tmp_path / "devices.json", variants=(variant,))
    assert not (tmp_path / "devices.json").exists()


def test_a_crashing_child_is_an_answer_not_a_crash(tmp_path, monkeypatch):
    monkeypatch.setattr(backends, "_child_command",
                        lambda folder: [sys.executable, "-c", "import os; os.abort()"])
    got = backends.list_devices(Variant("vulkan", str(tmp_path), "k"))
    assert got.devices == () and "exit status" in got.error


def test_the_bundle_runs_the_child_with_the_flag_the_app_knows():
    from pathlib import Path

    source = (Path(__file__).parents[2] / "app" / "bridge" / "facade.py").read_text()
    assert f'DEVICE_LIST_FLAG = "{backends.CHILD_FLAG}"' in source


def test_the_installed_cpu_build_lists_the_processor():
    wheel = backends.wheel_lib_folder()
    if wheel is None or not (wheel / backends.library_name("ggml")).exists():
        pytest.skip("llama-cpp-python is not installed here")
    got = backends.list_devices(Variant("cpu", str(wheel), "k"))
    assert got.error == "" and any(d.kind == "cpu" and d.name == "CPU" for d in got.devices)
    print(f"device list of the CPU build in a child process: {got.seconds:.2f} s")


def test_engine_devices_json(tmp_path):
    env_root = tmp_path / "none"
    env_root.mkdir()
    done = subprocess.run([sys.executable, "-m", "engine", "devices", "--json"],
                          capture_output=True, text=True, timeout=60, check=False,
                          env={**os.environ, backends.ROOT_ENV: str(env_root),
                               "XDG_CACHE_HOME": str(tmp_path / "cache")})
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert set(data) == {"variants", "chosen", "unused_gpus", "measured", "processor",
                         "unused_backends"}
    assert data["processor"]["variant"] == "baseline"     # no cpu-isa folder under this root
    assert data["processor"]["label"].startswith("AVX2")
    if data["variants"]:          # the CPU wheel is installed: it lists the processor
        assert data["variants"][0]["variant"] == "cpu"
        assert data["chosen"]["device"] == "CPU"


# ---- the hardware probe: what gets planned for ---------------------------------------------

def selection(*listing, wanted=""):
    return choose(tuple(listing), wanted)


def test_no_gpu_at_all():
    gpus, unused = usable_gpus((), selection(VariantDevices(CPU_BUILD, (CPU_DEV,))))
    assert gpus == () and unused == ()


def test_a_gpu_that_the_cpu_only_build_cannot_use_is_named_with_what_to_do():
    gpus, unused = usable_gpus((nvml_gpu(),), selection(VariantDevices(CPU_BUILD, (CPU_DEV,))))
    assert gpus == ()
    (card,) = unused
    assert card.name == RTX and card.why_unused.code == "hardware.gpu_no_backend"
    assert RTX in str(card.why_unused) and "Install" in str(card.why_unused)


def test_a_gpu_whose_back_end_failed_to_start_says_update_the_driver():
    listing = (VariantDevices(CPU_BUILD, (CPU_DEV,)),
               VariantDevices(VULKAN, error="exit status -11: vkCreateInstance failed"))
    _, (card,) = usable_gpus((nvml_gpu(),), selection(*listing))
    assert card.why_unused.code == "hardware.gpu_backend_failed" and "driver" in str(card.why_unused)


def test_the_gpu_used_carries_its_backend_device_and_nvml_facts():
    listing = (VariantDevices(CPU_BUILD, (CPU_DEV,)),
               VariantDevices(VULKAN, (vk(), vk("Intel(R) UHD Graphics", "igpu", index=1))))
    gpus, unused = usable_gpus((nvml_gpu(),), selection(*listing))
    (gpu,) = gpus
    assert (gpu.backend, gpu.device, gpu.integrated) == ("Vulkan", "Vulkan0", False)
    assert gpu.pcie_gen == 4 and gpu.free_bytes == 7000 * 2**20     # NVML's live reading
    assert [g.name for g in unused] == ["Intel(R) UHD Graphics"]
    assert unused[0].integrated and unused[0].why_unused.code == "hardware.gpu_integrated"


def test_an_amd_card_without_nvml_uses_ggml_memory():
    radeon = vk("AMD Radeon RX 7600M", total=8 * GIB)
    (gpu,), _ = usable_gpus((), selection(VariantDevices(VULKAN, (radeon,))))
    assert gpu.name == "AMD Radeon RX 7600M" and gpu.total_bytes == 8 * GIB
    assert gpu.free_bytes == 7 * GIB and gpu.device == "Vulkan0"


def test_probe_plans_for_the_chosen_device(monkeypatch):
    listing = (VariantDevices(CPU_BUILD, (CPU_DEV,)), VariantDevices(VULKAN, (vk(),)))
    monkeypatch.setattr(hardware, "_selection", lambda: choose(listing))
    monkeypatch.setattr(hardware, "_probe_gpus", lambda: ((nvml_gpu(),), "found", ""))
    info = hardware.probe()
    assert info.has_gpu and info.gpus[0].device == "Vulkan0" and info.unused_gpus == ()


def test_pretend_hardware_still_plans():
    info = hardware.HardwareInfo.pretend(vram_gb=8)
    assert info.gpus[0].backend == "" and info.unused_gpus == ()


# ---- where the loaded model is ---------------------------------------------------------------

LOAD_LOG_CPU = [
    "load_tensors:   CPU_Mapped model buffer size =   812.50 MiB",
    "load_tensors:   CPU_REPACK model buffer size =    12.25 MiB",
    "llama_kv_cache:        CPU KV buffer size =    64.00 MiB",
    "sched_reserve:        CPU compute buffer size =    30.02 MiB",
]
LOAD_LOG_VULKAN = [
    "load_tensors: offloaded 25/25 layers to GPU",
    "load_tensors:      Vulkan0 model buffer size =   300.00 MiB",
    "load_tensors:  Vulkan_Host model buffer size =   700.00 MiB",
    "load_tensors:          CPU model buffer size =    10.00 MiB",
    "llama_kv_cache:    Vulkan0 KV buffer size =    64.00 MiB",
    "sched_reserve:    Vulkan0 compute buffer size =    40.00 MiB",
    "sched_reserve: Vulkan_Host compute buffer size =     2.00 MiB",
]


def test_buffer_sizes_come_from_llamas_log():
    sizes = buffer_sizes(LOAD_LOG_VULKAN)
    assert sizes[("Vulkan0", "model_bytes")] == 300 * 2**20
    assert sizes[("Vulkan_Host", "compute_bytes")] == 2 * 2**20


def test_placement_with_no_gpu_says_the_processor():
    placed = measure(LOAD_LOG_CPU, {})
    assert placed.gpu is None and placed.backend == "CPU"
    assert placed.ram.model_bytes == round(824.75 * 2**20)
    assert placed.message.code == "runtime.placed_processor"
    assert "processor" in str(placed.message) and "no graphics card" in str(placed.message)


def test_placement_with_a_gpu_the_build_cannot_use_names_it():
    card = GpuInfo(0, RTX, 8 * GIB, 7 * GIB, "", why_unused=hardware.msg(
        "hardware.gpu_no_backend", name=RTX))
    placed = measure(LOAD_LOG_CPU, {}, unused=(card,))
    assert placed.gpu is None and placed.unused_gpus == (RTX,)
    assert RTX in str(placed.message) and "processor" in str(placed.message)
    assert render(placed.message, lambda template: template) == str(placed.message)


def test_placement_on_the_gpu_counts_its_buffers_and_slots():
    placed = measure(LOAD_LOG_VULKAN, {"Vulkan0": "llvmpipe (LLVM 15.0.7, 256 bits)"},
                     slot_bytes=128 * 2**20, slot_device="Vulkan0", backend="Vulkan")
    gpu = placed.gpu
    assert placed.backend == "Vulkan" and gpu.device == "Vulkan0"
    assert (gpu.model_bytes, gpu.cache_bytes, gpu.compute_bytes, gpu.slot_bytes) == (
        300 * 2**20, 64 * 2**20, 40 * 2**20, 128 * 2**20)
    assert placed.ram.model_bytes == 710 * 2**20          # pinned host memory is main memory
    assert placed.message.code == "runtime.placed_gpu_slots"
    assert "llvmpipe" in str(placed.message)


def test_slots_in_main_memory_leave_the_gpu_line_out():
    placed = measure(LOAD_LOG_CPU, {}, slot_bytes=64 * 2**20)
    assert placed.gpu is None and placed.ram.slot_bytes == 64 * 2**20


def test_chat_on_a_device_that_does_not_exist_says_so(tmp_path):
    done = subprocess.run([sys.executable, "-m", "engine", "chat", str(tmp_path / "m.gguf"),
                           "--device", "Vulkan9"], capture_output=True, text=True, timeout=60,
                          check=False, input="",
                          env={**os.environ, "XDG_CACHE_HOME": str(tmp_path)})
    assert done.returncode == 2
    assert "There is no device named Vulkan9" in done.stderr and "engine devices" in done.stderr


def test_engine_plan_says_which_device_it_plans_for():
    from engine.cli.devices import planned_device

    listing = (VariantDevices(CPU_BUILD, (CPU_DEV,)),)
    gpus, unused = usable_gpus((nvml_gpu(),), selection(*listing))
    info = dataclasses.replace(hardware.HardwareInfo.pretend(vram_gb=0), gpus=gpus,
                               unused_gpus=unused)
    said = planned_device(info)
    assert said["device"] == "CPU" and said["unused_gpus"][0]["name"] == RTX
    assert "no graphics support" in said["unused_gpus"][0]["why"]
    (gpu,), _ = usable_gpus((), selection(VariantDevices(VULKAN, (vk(),))))
    said = planned_device(dataclasses.replace(info, gpus=(gpu,), unused_gpus=()))
    assert (said["device"], said["backend"], said["name"]) == ("Vulkan0", "Vulkan", RTX)


def test_the_loaded_model_reports_what_it_placed(tiny_moe_path, cpu_recipe):
    """A real load on the CPU build: bytes from llama.cpp's own buffer log, in the summary."""
    pytest.importorskip("llama_cpp")
    from engine.api import LoadRequest
    from engine.runtime.experts import slot_cache
    from engine.runtime.loader import load_with_fallback

    slots = (2, 2, 2, 2) if slot_cache.available() else ()
    loaded = load_with_fallback(LoadRequest(str(tiny_moe_path), recipe=cpu_recipe(
        expert_slots=slots, residency_policy="lru")), lambda *_: None, lambda *_: None)
    try:
        placement = loaded.placement
        assert placement.gpu is None and placement.backend == "CPU"
        ram = placement.ram
        # the weights llama.cpp mapped are the file's tensors, to the log's 0.01 MiB (+ padding)
        weights = loaded.facts.dense_bytes + loaded.facts.expert_bytes
        assert abs(ram.model_bytes - weights) < 0.02 * 2**20, (ram.model_bytes, weights)
        assert ram.cache_bytes > 0 and ram.compute_bytes > 0
        assert ram.slot_bytes == (loaded.native.slot_cache.bank_bytes if slots else 0)
        assert loaded.summary == placement.message            # the load summary is the placement
    finally:
        loaded.close()


def test_select_keeps_a_library_loaded_before_it(monkeypatch):
    listing = (VariantDevices(CPU_BUILD, (CPU_DEV,)), VariantDevices(VULKAN, (vk(),)))
    monkeypatch.setattr(backends, "device_listing", lambda: listing)
    monkeypatch.setattr(backends, "wheel_lib_folder", lambda: "/lib/cpu")
    monkeypatch.setenv(backends.LIB_ENV, "recorded, so that teardown restores it")
    monkeypatch.delenv(backends.LIB_ENV)
    monkeypatch.setitem(sys.modules, "llama_cpp.llama_cpp", object())
    monkeypatch.setattr(backends, "_selected", None)
    chosen = backends.select("")
    assert chosen.variant == CPU_BUILD and chosen.device is None
    assert backends.LIB_ENV not in os.environ
    monkeypatch.delitem(sys.modules, "llama_cpp.llama_cpp")
    monkeypatch.setattr(backends, "_selected", None)
    chosen = backends.select("")
    assert chosen.variant == VULKAN and os.environ[backends.LIB_ENV] == "/lib/vulkan"


def test_the_previous_test_left_no_library_path_behind():
    assert os.environ.get(backends.LIB_ENV) != "/lib/vulkan"
