"""A CUDA back-end installed on a computer without the NVIDIA driver: it lists no device, another
variant runs, and the log and `engine devices` say why in plain words. Unit tests with fake
children, then the real built folder (skipped, saying why, where none is built: CI)."""

from __future__ import annotations

import importlib.util
import json
import os
import pathlib
import subprocess
import sys

import pytest

from engine.native import backends
from engine.native.backends import Device, Variant, VariantDevices, choose
from engine.plan.hardware import GpuInfo, usable_gpus

ROOT = pathlib.Path(__file__).resolve().parents[2]
GIB = 2 ** 30
CPU_BUILD = Variant("cpu", "/lib/cpu", "k1")
CUDA = Variant("cuda", "/lib/cuda", "k3")
VULKAN = Variant("vulkan", "/lib/vulkan", "k2")
CPU_DEV = Device("CPU", "AMD Ryzen 7", "cpu", "CPU", 30 * GIB, 32 * GIB)
NO_DRIVER = ("ggml_cuda_init: failed to initialize CUDA: CUDA driver version is insufficient "
             "for CUDA runtime version")


def test_the_childs_own_words_on_why_it_found_no_device():
    stderr = f"load_backend: something\n{NO_DRIVER}\nmore\n"
    assert backends.start_failure(stderr) == ("failed to initialize CUDA: CUDA driver version "
                                              "is insufficient for CUDA runtime version")
    assert backends.start_failure("ggml_vulkan: Found 1 Vulkan devices\n") == ""


def test_a_child_that_lists_no_device_keeps_its_reason_in_the_cache(tmp_path, monkeypatch):
    code = f"import sys; print({NO_DRIVER!r}, file=sys.stderr); print('[]')"
    monkeypatch.setattr(backends, "_child_command", lambda folder: [sys.executable, "-c", code])
    got = backends.list_devices(CUDA)
    assert got.error == "" and got.devices == () and "insufficient" in got.note
    monkeypatch.setattr(backends, "list_devices", lambda v, timeout=0: got)
    cache = tmp_path / "devices.json"
    backends.device_listing(cache=cache, variants=(CUDA,))
    monkeypatch.setattr(backends, "list_devices", lambda v, timeout=0: pytest.fail("asked again"))
    (kept,) = backends.device_listing(cache=cache, variants=(CUDA,))
    assert kept.note == got.note                # kept: no child at every start on such a machine


def test_without_a_driver_the_processor_runs_and_the_reason_is_plain():
    listing = (VariantDevices(CPU_BUILD, (CPU_DEV,)),
               VariantDevices(CUDA, (CPU_DEV,), note="failed to initialize CUDA: x"))
    chosen = choose(listing)
    assert chosen.variant == CPU_BUILD and chosen.device is None
    (line,) = backends.not_used(chosen)
    assert line.startswith("The cuda back-end is installed but finds no graphics card")
    assert "driver, version 580 or newer" in line and "runs on the processor" in line
    assert line.endswith("it said: failed to initialize CUDA: x.")


def test_with_vulkan_on_the_card_the_line_names_where_it_runs():
    radeon = Device("Vulkan0", "AMD Radeon RX 7600M", "gpu", "Vulkan", 7 * GIB, 8 * GIB)
    listing = (VariantDevices(CPU_BUILD, (CPU_DEV,)), VariantDevices(VULKAN, (radeon,)),
               VariantDevices(CUDA, (CPU_DEV,)))
    chosen = choose(listing)
    assert chosen.variant == VULKAN
    assert backends.not_used(chosen) == [
        "The cuda back-end is installed but finds no graphics card it can use (it needs an "
        "NVIDIA graphics card with its driver, version 580 or newer), so Rotary runs on AMD "
        "Radeon RX 7600M through vulkan."]


def test_a_cuda_back_end_that_runs_the_card_needs_no_line():
    card = Device("CUDA0", "NVIDIA GeForce RTX 3060", "gpu", "CUDA", 5 * GIB, 6 * GIB)
    chosen = choose((VariantDevices(CPU_BUILD, (CPU_DEV,)), VariantDevices(CUDA, (card,))))
    assert chosen.variant == CUDA and backends.not_used(chosen) == []


def test_an_nvidia_card_that_cuda_could_not_open_says_update_the_driver():
    """NVML sees the card (an old driver), the CUDA back-end says "insufficient driver"."""
    nvml = GpuInfo(index=0, name="NVIDIA GeForce RTX 3060", total_bytes=6 * GIB,
                   free_bytes=5 * GIB, driver_version="535.54", pcie_gen=4,
                   memory_bandwidth_bytes_s=360_000_000_000)
    listing = (VariantDevices(CPU_BUILD, (CPU_DEV,)),
               VariantDevices(CUDA, (CPU_DEV,), note="failed to initialize CUDA: insufficient"))
    _, (card,) = usable_gpus((nvml,), choose(listing))
    assert card.why_unused.code == "hardware.gpu_backend_failed"


# ---- the real CUDA folder, on this computer without the NVIDIA driver -------------------------

def _build_facts():
    spec = importlib.util.spec_from_file_location("llama_build", ROOT / "llama_build.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def built_cuda_folder() -> pathlib.Path | None:
    """$ROTARY_CUDA_BACKEND, the one set-up installed, or the newest in the build cache."""
    if os.environ.get("ROTARY_CUDA_BACKEND"):
        return pathlib.Path(os.environ["ROTARY_CUDA_BACKEND"])
    installed = pathlib.Path(sys.prefix) / "rotary-backends" / "cuda"
    if (installed / "variant.json").exists():
        return installed
    built = sorted((_build_facts().cache_root() / "backends" / "cuda").glob("*/variant.json"),
                   key=lambda p: p.stat().st_mtime)
    return built[-1].parent if built else None


@pytest.fixture(scope="module")
def cuda_folder():
    folder = built_cuda_folder()
    if folder is None:
        reason = "no CUDA back-end is built here (llama_build.ensure_backend(python, 'cuda'))"
        print(f"SKIPPED: {reason}")
        pytest.skip(reason)
    if pathlib.Path("/dev/nvidiactl").exists():
        pytest.skip("this computer has the NVIDIA driver: the no-driver case cannot be shown")
    return folder


def test_the_real_folder_carries_its_runtime_and_licences_and_never_the_driver(cuda_folder):
    lb = _build_facts()
    described = json.loads((cuda_folder / "variant.json").read_text())
    names = {p.name for p in cuda_folder.iterdir()}
    assert described["variant"] == "cuda" and set(lb.CUDA_RUNTIME_LIBS) <= names
    assert not any(name.startswith(("libcuda.so", "libnvidia")) for name in names)
    assert all((cuda_folder / licence).is_file() for licence in described["licenses"])
    assert lb.unresolved_needs(cuda_folder) == []          # every NEEDED inside, or the system's
    print("CUDA folder:", ", ".join(f"{p.name} {p.stat().st_size / 2**20:.1f} MiB"
                                    for p in sorted(cuda_folder.iterdir())
                                    if p.is_file() and not p.is_symlink()))


def test_the_real_folder_lists_no_device_and_the_processor_runs(cuda_folder, tmp_path):
    root = tmp_path / "backends"
    root.mkdir()
    (root / "cuda").symlink_to(cuda_folder)
    env = {**os.environ, backends.ROOT_ENV: str(root), "XDG_CACHE_HOME": str(tmp_path / "cache")}
    env.pop(backends.LIB_ENV, None)
    done = subprocess.run([sys.executable, "-m", "engine", "devices", "--json"], cwd=ROOT,
                          capture_output=True, text=True, timeout=120, env=env, check=False)
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    cuda = next(v for v in data["variants"] if v["variant"] == "cuda")
    assert cuda["error"] == "" and not [d for d in cuda["devices"] if d["kind"] in ("gpu", "igpu")]
    assert "failed to initialize CUDA" in cuda["note"], cuda
    assert data["chosen"]["device"] == "CPU" and data["chosen"]["variant"] == "cpu"
    assert any(line.startswith("The cuda back-end is installed but finds no graphics card")
               for line in data["unused_backends"])
    print("cuda child:", cuda["note"], f"({cuda['seconds']:.2f} s)")


def test_the_app_process_chooses_the_processor_and_loads_llama_cpp(cuda_folder, tmp_path):
    root = tmp_path / "backends"
    root.mkdir()
    (root / "cuda").symlink_to(cuda_folder)
    env = {**os.environ, backends.ROOT_ENV: str(root), "XDG_CACHE_HOME": str(tmp_path / "cache")}
    env.pop(backends.LIB_ENV, None)
    code = ("import logging, os, sys; logging.basicConfig(level=logging.INFO, stream=sys.stdout)\n"
            "from engine.native import backends\n"
            "chosen = backends.select()\n"
            "import llama_cpp\n"
            "print('CHOSEN', chosen.variant.name, os.environ.get('LLAMA_CPP_LIB_PATH', '-'))\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                          timeout=120, env=env, check=False)
    assert done.returncode == 0, done.stderr
    assert "CHOSEN cpu -" in done.stdout
    assert "The cuda back-end is installed but finds no graphics card" in done.stdout
