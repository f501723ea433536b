"""A software Vulkan device (Mesa's lavapipe, llvmpipe) was taken for "the largest
discrete GPU", the wizard promised 78–121 words a second, and it wrote about 1 where the
processor gave 35–41. A device that imitates a graphics card on the processor is never
chosen over the processor nor called a graphics card; graphics built into the processor is
not used (it shares main memory); the speed promised is what each kind of device does."""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from engine.messages import render
from engine.native import backends, device_kinds
from engine.native.backends import Device, Variant, VariantDevices, choose
from engine.plan.hardware import GpuInfo, HardwareInfo, usable_gpus
from engine.plan.speed import describe, expected_tokens_per_second, speed_words
from engine.runtime.devices.placement import measure

GIB = 2 ** 30
ROOT = Path(__file__).resolve().parents[2]
LLVMPIPE = "llvmpipe (LLVM 15.0.6, 256 bits)"
CPU_DEV = Device("CPU", "AMD EPYC", "cpu", "CPU", 30 * GIB, 32 * GIB)
CPU_BUILD = Variant("cpu", "/lib/cpu", "k1")
VULKAN = Variant("vulkan", "/lib/vulkan", "k2")
LAVAPIPE = Device("Vulkan0", LLVMPIPE, "software", "Vulkan", 2 * GIB, 2 * GIB)
IRIS = Device("Vulkan0", "Intel(R) Iris(R) Xe Graphics", "igpu", "Vulkan", 15 * GIB, 16 * GIB)
RTX = Device("Vulkan1", "NVIDIA GeForce RTX 4060", "gpu", "Vulkan", 7 * GIB, 8 * GIB)


# ---- which kind: Vulkan's own word, then the names software devices give themselves -------

def test_vulkans_device_type_makes_a_gpu_software_or_integrated(monkeypatch):
    types = {LLVMPIPE: device_kinds.VK_CPU, "Mystery GPU": device_kinds.VK_INTEGRATED,
             "Radeon RX 7600": device_kinds.VK_DISCRETE}
    monkeypatch.setattr(device_kinds, "vulkan_device_types", lambda: types)
    listed = [{"description": name, "kind": "gpu", "backend": "Vulkan"} for name in types]
    listed += [{"description": "AMD EPYC", "kind": "cpu", "backend": "CPU"},
               {"description": "SwiftShader Device (Subzero)", "kind": "gpu", "backend": "Vulkan"}]
    kinds = [d["kind"] for d in device_kinds.refine(listed)]
    assert kinds == ["software", "igpu", "gpu", "cpu", "software"]


# ---- the choice ------------------------------------------------------------------------------

def test_a_software_device_is_never_chosen_over_the_processor(monkeypatch):
    monkeypatch.delenv(backends.SOFTWARE_ENV, raising=False)
    chosen = choose((VariantDevices(CPU_BUILD, (CPU_DEV,)), VariantDevices(VULKAN, (LAVAPIPE,))))
    assert chosen.device is None and chosen.variant == CPU_BUILD
    assert "software" in chosen.reason and "discrete" not in chosen.reason
    with_card = choose((VariantDevices(CPU_BUILD, (CPU_DEV,)),
                        VariantDevices(VULKAN, (LAVAPIPE, RTX))))
    assert with_card.device == RTX


def test_a_software_device_runs_only_where_it_is_named_or_let_stand_in(monkeypatch):
    listing = (VariantDevices(CPU_BUILD, (CPU_DEV,)), VariantDevices(VULKAN, (LAVAPIPE,)))
    assert choose(listing, "Vulkan0").device == LAVAPIPE               # IT or a test named it
    assert choose(listing, folder="/lib/vulkan").device == LAVAPIPE    # LLAMA_CPP_LIB_PATH
    monkeypatch.setenv(backends.SOFTWARE_ENV, "1")
    assert "software device" in choose(listing).reason


def test_unused_devices_say_why_and_a_chosen_software_device_is_marked():
    listing = (VariantDevices(CPU_BUILD, (CPU_DEV,)), VariantDevices(VULKAN, (LAVAPIPE,)))
    gpus, unused = usable_gpus((), choose(listing))
    assert gpus == () and "not a graphics card" in render(unused[0].why_unused)
    gpus, unused = usable_gpus((), choose((VariantDevices(VULKAN, (IRIS,)),)))
    assert gpus == () and "built into the processor" in render(unused[0].why_unused)
    gpus, unused = usable_gpus((), choose(listing, "Vulkan0"))
    assert gpus[0].software and not unused


# ---- the speed promised and the words ---------------------------------------------------------

@pytest.fixture(scope="module")
def tiny_facts_and_recipes(shape_fixture_dir):
    """Qwen3.6-35B-A3B's shape: a plan for an 8 GB card and one for the processor alone."""
    from engine.model.inspect_gguf import inspect_model
    from engine.runtime.planning import BuildAbilities, plan_recipe
    facts = inspect_model(str(shape_fixture_dir / "qwen3.6-35b-a3b-q4_k_m.gguf"))
    hardware = HardwareInfo.pretend(vram_gb=8, ram_gb=32, cores=8)
    abilities = BuildAbilities(slot_cache=False)
    return (facts, plan_recipe(facts, hardware, None, None, abilities=abilities),
            plan_recipe(facts, hardware, "cpu-only", None, abilities=abilities))


def _hardware(gpu: GpuInfo | None) -> HardwareInfo:
    return HardwareInfo(gpus=(gpu,) if gpu else (), ram_total_bytes=32 * GIB,
                        ram_available_bytes=24 * GIB, cpu_physical_cores=8,
                        cpu_logical_cores=16, nvml_status="")


def test_each_kind_of_device_is_promised_what_it_does(tiny_facts_and_recipes):
    """Discrete: the card's bandwidth. Software: 1/40–1/4 of the processor's own rate
    (1 word a second against 35–41 for the processor). Integrated: not used, the
    processor's estimate. The estimate is the bandwidth model of engine/plan/speed.py."""
    facts, on_card, on_processor = tiny_facts_and_recipes
    card = GpuInfo(0, "NVIDIA GeForce RTX 4060", 8 * GIB, 7 * GIB, "", backend="Vulkan",
                   device="Vulkan0", memory_bandwidth_bytes_s=272_000_000_000)
    software = dataclasses.replace(card, name=LLVMPIPE, software=True, total_bytes=16 * GIB,
                                   free_bytes=16 * GIB, memory_bandwidth_bytes_s=0)
    from engine.plan.layout import layout_of
    from engine.plan.memory import model_sizes
    sizes = model_sizes(facts)

    def speed(recipe, gpu):
        return expected_tokens_per_second(sizes, layout_of(recipe, sizes), _hardware(gpu), 8)
    processor = speed(on_processor, None)
    discrete = speed(on_card, card)
    lavapipe = speed(on_card, software)
    assert discrete[0] > processor[0]
    assert lavapipe[1] < processor[1] / 2 and lavapipe[0] < processor[0] / 20
    said = str(describe(on_card, facts, _hardware(software)).text)
    assert "graphics card" not in said.split(",")[0] and LLVMPIPE in said, said
    assert "imitates a graphics card on the processor" in said


def test_one_word_a_second_and_less_are_said_in_the_singular():
    assert str(speed_words((1.2, 1.4))) == "roughly 1 word per second"
    assert str(speed_words((0.2, 0.5))) == "less than 1 word per second"
    assert str(speed_words((0.5, 4.0))) == "roughly 1–3 words per second"
    assert str(speed_words((40.0, 40.0))) == "roughly 30 words per second"


def test_a_load_on_a_software_device_is_not_said_to_be_on_a_graphics_card():
    log = ["load_tensors:      Vulkan0 model buffer size =   120.00 MiB",
           "load_tensors:   CPU_Mapped model buffer size =    30.00 MiB"]
    said = str(measure(log, {"Vulkan0": LLVMPIPE}, backend="Vulkan",
                       software=frozenset({"Vulkan0"})).message)
    assert "graphics card " + LLVMPIPE not in said and "imitates a graphics card" in said


# ---- on this machine: Mesa's lavapipe, named with GGML_VK_VISIBLE_DEVICES=0 ---------------------

def _vulkan_variant():
    variant = next((v for v in backends.installed_variants() if v.name == "vulkan"), None)
    if variant is None:
        reason = "no Vulkan back-end variant is installed (bootstrap.py test builds it)"
        if os.environ.get("ROTARY_EXPECT_VULKAN") == "1":
            pytest.fail(f"bootstrap.py test built the Vulkan back-end, but {reason}")
        pytest.skip(reason)
    return variant


CHOOSE = ("import json; from engine.native import backends; s = backends.select(); "
          "print(json.dumps([s.device_name, s.variant.name, s.reason]))")


def test_lavapipe_is_listed_as_software_and_the_processor_runs(tmp_path):
    variant = _vulkan_variant()
    listed = backends.list_devices(variant, extra_env={"GGML_VK_VISIBLE_DEVICES": "0"})
    lavapipe = [d for d in listed.devices if d.backend == "Vulkan"]
    if not lavapipe:
        if os.environ.get("ROTARY_EXPECT_VULKAN") == "1":
            pytest.fail(f"the Vulkan variant lists no device ({listed.error or 'none'})")
        pytest.skip("no Vulkan device here; install mesa-vulkan-drivers for lavapipe")
    assert [d.kind for d in lavapipe] == ["software"], lavapipe
    env = {k: v for k, v in os.environ.items()
           if k not in (backends.LIB_ENV, backends.CHOICE_ENV, backends.SOFTWARE_ENV)}
    env.update(GGML_VK_VISIBLE_DEVICES="0", XDG_CACHE_HOME=str(tmp_path),
               PYTHONPATH=os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH", "")) if p))
    done = subprocess.run([sys.executable, "-c", CHOOSE], cwd=ROOT, env=env, text=True,
                          capture_output=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    device, variant_name, reason = json.loads(done.stdout.strip().splitlines()[-1])
    assert device == "CPU" and variant_name == "cpu", reason
    assert "software" in reason and "discrete" not in reason
