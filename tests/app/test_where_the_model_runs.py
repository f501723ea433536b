"""Every screen says where the loaded model runs, from what it placed, never from the plan:
no GPU; a GPU that this build cannot use (named, with what to do); a GPU used."""

from __future__ import annotations

import dataclasses

from engine.api import Placement
from engine.messages import msg, size
from app.bridge.facade import GpuInfo
from app.setup.selftest import where_it_ran
from app.setup.wizard import describe_hardware
from tests.app.fakes import fake_hardware
from tests.app.fakes import GIB, RAM_ONLY, RTX, on_gpu


def processor(unused: bool) -> Placement:
    if not unused:
        return Placement(RAM_ONLY, "CPU", msg("runtime.placed_processor", ram=size(2.4e9)))
    why = msg("hardware.gpu_no_backend", name=RTX)
    return Placement(RAM_ONLY, "CPU", msg("runtime.placed_with_unused", placed=msg(
        "runtime.placed_processor", ram=size(2.4e9)), unused=why), (RTX,))


def test_the_self_test_names_the_device_the_model_ran_on():
    recipe_free = type("Loaded", (), {})
    for placement, expected in ((processor(False), "ran on the processor"),
                                (processor(True), f"ran on the processor (device not used: "
                                                  f"{RTX})"),
                                (on_gpu(), "ran on Vulkan0 (NVIDIA GeForce RTX 4060 Laptop "
                                           "GPU, Vulkan): 5120 MiB there, 2048 MiB of them "
                                           "expert slots")):
        event = recipe_free()
        event.placement = placement
        assert where_it_ran(event) == expected


def test_the_side_panel_says_the_processor_and_why_from_the_placement(qtbot, make_app):
    rotary = make_app(autoload=False)
    gauge = rotary.window.gauge
    gauge.set_has_gpu(True)               # the planner saw a card
    event = type("Loaded", (), {"context_size": 4096, "placement": processor(True)})()
    gauge.on_model_loaded(event)
    gauge.refresh()
    caption = gauge.sections["vram"].caption.text()
    assert gauge.model.has_gpu is False
    assert "processor" in caption and RTX in caption and "graphics support" in caption
    event.placement = on_gpu()
    gauge.on_model_loaded(event)
    assert gauge.model.has_gpu is True and gauge.model.processor_note == ""
    event.placement = processor(False)
    gauge.on_model_loaded(event)
    gauge.refresh()
    assert "no graphics card is used" in gauge.sections["vram"].caption.text()


def test_the_side_panel_says_where_on_the_card_without_a_live_reading(qtbot, make_app):
    """AMD, Intel (and NVIDIA without its management library) give no live graphics-memory
    reading: the side panel says what the loaded model placed there, not "unknown"."""
    rotary = make_app(autoload=False)
    gauge = rotary.window.gauge
    gauge.model.vram = None
    event = type("Loaded", (), {"context_size": 4096, "placement": on_gpu()})()
    gauge.on_model_loaded(event)
    gauge.refresh()
    caption = gauge.sections["vram"].caption.text()
    assert RTX in caption and "unknown" not in caption


def test_the_wizard_names_a_card_this_installation_cannot_use():
    plain = fake_hardware(gpu=False)
    assert "No graphics card was found" in describe_hardware(plain)
    card = GpuInfo(0, RTX, 8 * GIB, 7 * GIB, "572.16",
                   why_unused=msg("hardware.gpu_no_backend", name=RTX))
    unusable = dataclasses.replace(plain, unused_gpus=(card,))
    text = describe_hardware(unusable)
    assert RTX in text and "no graphics support" in text and "32 GB" in text
    used = fake_hardware(gpu=True)
    assert RTX in describe_hardware(used) and "Found the graphics card" in describe_hardware(used)
