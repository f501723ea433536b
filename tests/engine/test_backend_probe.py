"""CUDA or Vulkan on one card, measured once and remembered (engine/runtime/devices/backend_probe.py).

Fake listings and a fake runner (its tokens/s injected) for the decisions; the real child
process for a variant that cannot run; the load path's hook; and, in
test_backend_probe_device.py, the real probe on two copies of the Vulkan variant (lavapipe).
"""

from __future__ import annotations

import ctypes
import json
import logging
import sys
from types import SimpleNamespace

import pytest

from engine.api import LoadRequest
from engine.native import backends
from engine.native.backends import Device, Variant, VariantDevices, choose
from engine.runtime.devices import backend_probe
from engine.runtime.devices.backend_probe import ProbeResult, prefer, rivals, same_card

GIB = 2 ** 30
RTX = "NVIDIA GeForce RTX 4060 Laptop GPU"
CPU_BUILD = Variant("cpu", "/lib/cpu", "k1")
VULKAN = Variant("vulkan", "/lib/vulkan", "k2")
CUDA = Variant("cuda", "/lib/cuda", "k3")
CPU_DEV = Device("CPU", "AMD Ryzen 7", "cpu", "CPU", 30 * GIB, 32 * GIB)
# One 8 GB card as the two back-ends count it (CUDA reports a little less than the Vulkan heap).
CUDA0 = Device("CUDA0", RTX, "gpu", "CUDA", 7 * GIB, 8187 * 2**20, "0000:01:00.0")
VULKAN0 = Device("Vulkan0", RTX, "gpu", "Vulkan", 7 * GIB, 8 * GIB, "0000:01:00.0")
IGPU = Device("Vulkan1", "Intel(R) UHD Graphics", "igpu", "Vulkan", 15 * GIB, 16 * GIB)
FACTS = SimpleNamespace(architecture="qwen3moe", n_expert=128, n_embd=2048, file_type="Q4_K_M")
OTHER_FACTS = SimpleNamespace(architecture="gpt-oss", n_expert=32, n_embd=2880, file_type="MXFP4")
LISTING = (VariantDevices(CPU_BUILD, (CPU_DEV,)), VariantDevices(CUDA, (CPU_DEV, CUDA0)),
           VariantDevices(VULKAN, (CPU_DEV, VULKAN0, IGPU)))
REQUEST = LoadRequest("/models/model.gguf")


class FakeRunner:
    """Tokens/s per variant name (a string: that variant's child failed with it)."""

    def __init__(self, speeds: dict[str, float | str]) -> None:
        self.speeds, self.calls = speeds, []

    def __call__(self, variant: Variant, device: Device, request: LoadRequest) -> ProbeResult:
        self.calls.append((variant.name, device.name, request.model_path))
        speed = self.speeds[variant.name]
        if isinstance(speed, str):
            return ProbeResult(variant, device, seconds=1.0, error=speed)
        return ProbeResult(variant, device, speed, 10 * speed, 2.0)


def never(*_args):
    raise AssertionError("no probe should run here")


@pytest.fixture
def start(monkeypatch, tmp_path):
    """A fresh process before llama_cpp loads: the rule's choice, its library path undone."""
    monkeypatch.setattr(backends, "llama_loaded", lambda: False)
    monkeypatch.setenv(backends.LIB_ENV, "recorded, so that teardown removes what the test sets")
    monkeypatch.delenv(backends.LIB_ENV)
    monkeypatch.delenv(backend_probe.SWITCH_ENV, raising=False)
    memory = tmp_path / "backend-probe.json"

    def run(listing=LISTING, runner=never, facts=FACTS):
        backends._forget()
        shown = []
        got = prefer(facts, REQUEST, lambda fraction, message: shown.append(message.code),
                     selection=choose(listing), runner=runner, memory=memory)
        return got, shown

    yield run, memory
    backends._forget()


# ---- the same card --------------------------------------------------------------------------

def test_the_same_card_by_pci_id_else_by_name_and_memory():
    assert same_card(CUDA0, VULKAN0)
    other_slot = Device("Vulkan0", RTX, "gpu", "Vulkan", 7 * GIB, 8 * GIB, "0000:02:00.0")
    assert not same_card(CUDA0, other_slot)            # two equal cards: the bus tells them apart
    no_id = Device("Vulkan0", RTX, "gpu", "Vulkan", 7 * GIB, 8 * GIB)
    assert same_card(CUDA0, no_id) and same_card(no_id, CUDA0)
    twelve = Device("Vulkan0", "NVIDIA GeForce RTX 3060", "gpu", "Vulkan", 11 * GIB, 12 * GIB)
    eight = Device("CUDA0", "NVIDIA GeForce RTX 3060", "gpu", "CUDA", 7 * GIB, 8 * GIB)
    assert not same_card(twelve, eight)                # one name, two memory sizes
    assert not same_card(no_id, Device("CUDA0", "NVIDIA GeForce RTX 4070", "gpu", "CUDA",
                                       7 * GIB, 8 * GIB))


def test_the_rivals_are_one_device_of_every_variant_that_lists_the_card():
    selection = choose(LISTING)
    assert (selection.variant, selection.device) == (CUDA, CUDA0)       # the rule: CUDA first
    assert rivals(selection) == ((CUDA, CUDA0), (VULKAN, VULKAN0))
    broken = LISTING[:2] + (VariantDevices(VULKAN, (VULKAN0,), error="exit status 1"),)
    assert rivals(choose(broken)) == ((CUDA, CUDA0),)
    assert rivals(choose(LISTING[:1])) == ()                            # the processor


# ---- measured, remembered, reused --------------------------------------------------------------

def test_the_probe_runs_once_picks_the_faster_and_is_remembered(start, monkeypatch):
    run, memory = start
    runner = FakeRunner({"cuda": 76.0, "vulkan": 88.0})         # koboldcpp #2014's figures
    got, shown = run(runner=runner)
    assert [c[:2] for c in runner.calls] == [("cuda", "CUDA0"), ("vulkan", "Vulkan0")]
    assert all(c[2] == REQUEST.model_path for c in runner.calls)
    assert shown == ["runtime.finding_faster_backend"]
    assert (got.variant, got.device) == (VULKAN, VULKAN0)
    assert backends.selected() == got
    assert backends.os.environ[backends.LIB_ENV] == VULKAN.folder      # llama_cpp will load it
    entry = next(iter(json.loads(memory.read_text())["entries"].values()))
    assert entry["winner"]["variant"] == "vulkan" and entry["family"].startswith("qwen3moe")
    assert [r["decode_tps"] for r in entry["results"]] == [76.0, 88.0]

    got, shown = run(runner=never)                    # the next start: remembered, no probe
    assert (got.variant, got.device) == (VULKAN, VULKAN0) and shown == []
    assert backends.os.environ[backends.LIB_ENV] == VULKAN.folder


def test_the_rule_stays_where_the_other_is_not_clearly_faster(start):
    run, _memory = start
    got, _ = run(runner=FakeRunner({"cuda": 80.0, "vulkan": 82.0}))     # within NOISE
    assert (got.variant, got.device) == (CUDA, CUDA0) and backends.selected() is None
    got, _ = run(runner=FakeRunner({"cuda": 80.0, "vulkan": 40.0}))
    assert got.variant == CUDA


def test_each_model_family_and_each_rebuilt_variant_is_measured_again(start):
    run, _memory = start
    run(runner=FakeRunner({"cuda": 76.0, "vulkan": 88.0}))
    runner = FakeRunner({"cuda": 40.6, "vulkan": 32.1})           # beellama #79's figures
    got, shown = run(runner=runner, facts=OTHER_FACTS)
    assert len(runner.calls) == 2 and shown and got.variant == CUDA
    rebuilt = Variant("vulkan", VULKAN.folder, "k2-rebuilt")
    listing = LISTING[:2] + (VariantDevices(rebuilt, (CPU_DEV, VULKAN0)),)
    runner = FakeRunner({"cuda": 76.0, "vulkan": 90.0})
    got, _ = run(listing, runner=runner)
    assert len(runner.calls) == 2 and got.variant == rebuilt


def test_no_probe_where_one_variant_serves_the_card(start):
    run, memory = start
    got, shown = run(LISTING[:1] + LISTING[2:], runner=never)       # Vulkan only
    assert (got.variant, got.device) == (VULKAN, VULKAN0) and shown == []
    other_card = Device("CUDA0", "NVIDIA GeForce RTX 3050", "gpu", "CUDA", 3 * GIB, 4 * GIB,
                        "0000:02:00.0")
    got, shown = run((LISTING[0], VariantDevices(CUDA, (other_card,)), LISTING[2]), runner=never)
    assert got.device == VULKAN0 and shown == []                    # two cards, one each
    assert not memory.exists()


def test_a_device_asked_for_by_name_is_not_probed(start, monkeypatch, tmp_path):
    asked = choose(LISTING, "CUDA0")
    assert asked.asked
    got = prefer(FACTS, REQUEST, lambda *_: None, selection=asked, runner=never,
                 memory=tmp_path / "m.json")
    assert got == asked
    monkeypatch.setenv(backend_probe.SWITCH_ENV, "0")               # the probe's own children
    assert prefer(FACTS, REQUEST, lambda *_: None, selection=choose(LISTING), runner=never,
                  memory=tmp_path / "m.json") is None


# ---- failures fall back to the rule, never block the load -------------------------------------

def test_a_failing_child_is_not_chosen_and_all_failing_keeps_the_rule(start, caplog):
    run, memory = start
    got, _ = run(runner=FakeRunner({"cuda": "exit status -11: Segmentation fault",
                                    "vulkan": 30.0}))
    assert got.variant == VULKAN                      # the one that ran, though slower by rule

    memory.unlink()
    caplog.set_level(logging.WARNING, logger="rotary.backends")
    runner = FakeRunner({"cuda": "exit status 1: out of memory", "vulkan": "timed out"})
    got, shown = run(runner=runner)
    assert (got.variant, got.device) == (CUDA, CUDA0) and shown      # the rule
    assert backends.selected() is None                # nothing chosen over the rule
    assert "the rule's choice stands" in caplog.text
    run(runner=runner)                                # tried once more at the next load
    assert len(runner.calls) == 4
    got, shown = run(runner=never)                    # then the rule without asking
    assert got.variant == CUDA and shown == []


def test_a_runner_that_raises_or_a_broken_memory_file_still_loads(start):
    run, memory = start

    def raising(variant, device, request):
        raise OSError("no such executable")

    got, _ = run(runner=raising)
    assert got.variant == CUDA
    memory.write_text("{not json")
    got, _ = run(runner=FakeRunner({"cuda": 10.0, "vulkan": 20.0}))
    assert got.variant == VULKAN


def test_a_process_that_holds_a_variant_keeps_it_and_says_when_the_winner_is_used(
        start, monkeypatch, caplog):
    run, memory = start
    caplog.set_level(logging.INFO, logger="rotary.backends")
    backends._forget()
    monkeypatch.setattr(backends, "llama_loaded", lambda: True)     # a model ran before
    got = prefer(FACTS, REQUEST, lambda *_: None, selection=choose(LISTING),
                 runner=FakeRunner({"cuda": 40.0, "vulkan": 80.0}), memory=memory)
    assert got.variant == CUDA and backends.selected() is None
    assert "used when Rotary next starts with this model" in caplog.text
    monkeypatch.setattr(backends, "llama_loaded", lambda: False)   # the next start
    got, _ = run(runner=never)
    assert got.variant == VULKAN


def test_reselect_refuses_once_llama_cpp_is_loaded(monkeypatch):
    monkeypatch.setattr(backends, "llama_loaded", lambda: True)
    with pytest.raises(RuntimeError):
        backends.reselect(VULKAN, VULKAN0, "test")


def test_a_child_whose_variant_cannot_load_is_a_failed_probe(tmp_path, tiny_moe_path):
    empty = tmp_path / "not-a-variant"
    empty.mkdir()
    got = backend_probe.run_child(Variant("vulkan", str(empty), "k"), VULKAN0,
                                  LoadRequest(str(tiny_moe_path)), timeout=120)
    assert not got.ok and "exit status" in got.error and got.seconds > 0


# ---- where it sits -----------------------------------------------------------------------------

def test_the_loader_asks_the_probe_before_llama_cpp_loads(monkeypatch, tiny_moe_path):
    from engine.runtime import loader

    order = []
    monkeypatch.setattr(loader.backend_probe, "prefer",
                        lambda facts, request, progress: order.append(("probe", facts.architecture,
                                                                       request.model_path)))

    def llama():
        order.append(("llama_cpp",))
        raise KeyboardInterrupt   # stop the load here

    monkeypatch.setattr(loader, "llama_cpp_module", llama)
    with pytest.raises(KeyboardInterrupt):
        loader.load_with_fallback(LoadRequest(str(tiny_moe_path)), lambda *_: None,
                                  lambda *_: None)
    assert order[0][0] == "probe" and order[0][2] == str(tiny_moe_path)
    assert order[1] == ("llama_cpp",)


def test_the_bundle_runs_the_probe_child_with_the_flag_the_app_knows(monkeypatch):
    from pathlib import Path

    source = (Path(__file__).parents[2] / "app" / "bridge" / "facade.py").read_text()
    assert f'BACKEND_PROBE_FLAG = "{backend_probe.PROBE_FLAG}"' in source
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    command = backend_probe.child_command({"model": "m.gguf"})
    assert command[1] == backend_probe.PROBE_FLAG and json.loads(command[2]) == {"model": "m.gguf"}


def test_the_device_list_reads_the_pci_id_from_ggml():
    def get_props(dev, props):
        props._obj.device_id = b"0000:0A:00.0"

    lib = SimpleNamespace(ggml_backend_dev_get_props=get_props)
    assert backends._device_id(lib, 1) == "0000:0a:00.0"
    assert backends._device_id(SimpleNamespace(), 1) == ""         # an older ggml
    assert ctypes.sizeof(backends._DevProps) > 48


def test_engine_devices_says_what_the_probe_measured(start, tmp_path):
    import os
    import subprocess

    run, memory = start
    run(runner=FakeRunner({"cuda": "exit status 1: out of memory", "vulkan": 88.0}))
    kept = tmp_path / "cache" / "Rotary" / backend_probe.MEMORY_FILE
    kept.parent.mkdir(parents=True)
    kept.write_text(memory.read_text())
    done = subprocess.run([sys.executable, "-m", "engine", "devices"], capture_output=True,
                          text=True, timeout=60, check=False,
                          env={**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")})
    assert done.returncode == 0, done.stderr
    assert (f"measured on {RTX} for qwen3moe experts=128 width=2048 type=Q4_K_M: "
            "cuda CUDA0 failed, vulkan Vulkan0 88.0 tokens/s; runs vulkan") in done.stdout


def test_on_windows_the_rules_folder_leaves_the_dll_search_path(monkeypatch):
    added = []

    class Handle:
        def __init__(self, folder):
            self.folder, self.closed = folder, False
            added.append(self)

        def close(self):
            self.closed = True

    monkeypatch.setattr(sys, "platform", "win32")
    monkeypatch.setattr(backends.os, "add_dll_directory", Handle, raising=False)
    monkeypatch.setattr(backends, "llama_loaded", lambda: False)
    monkeypatch.setenv(backends.LIB_ENV, "recorded, so that teardown removes what the test sets")
    monkeypatch.delenv(backends.LIB_ENV)
    try:
        backends._point_llama_cpp_at(CUDA)                 # the rule's choice
        backends.reselect(VULKAN, VULKAN0, "measured")    # the probe's
        assert [(h.folder, h.closed) for h in added] == [(CUDA.folder, True),
                                                         (VULKAN.folder, False)]
    finally:
        backends._drop_dll_directory()
        backends._forget()
