"""An Advanced value in Settings never switches the slot cache off, and what the
model check shows is what loads.

The app's own path: the real bridge and backend (engine.facade), the real engine service and
loader, planning for a pretend 8 GB laptop. Without llama-cpp-python the native load is a
stub that keeps the recipe; with a wheel that has the slot cache, the demo model really loads
(host slot banks on a CPU build) and its slot cache is on.
"""

from __future__ import annotations

import asyncio
import importlib.util
import sys
from types import SimpleNamespace

import pytest

from app.bridge.engine_bridge import EngineBridge
from app.bridge.facade import real_backend
from app.settings.model import Settings
from engine.plan.hardware import HardwareInfo
from engine.runtime import loader
from engine.runtime.experts import slot_cache
from tests.support.shapes import write_shape_fixture

QWEN36 = "qwen3.6-35b-a3b-q4_k_m"
# Each Advanced value of Settings (gpu_expert_layers is a forced layout of the user's own:
# it stands without a slot layout, engine/runtime/planning.py).
ADVANCED = [Settings(threads=4), Settings(context_size=8192), Settings(threads=2, context_size=4096)]


def laptop() -> HardwareInfo:
    return HardwareInfo.pretend(vram_gb=8, ram_gb=32, cores=8)


@pytest.fixture(scope="module")
def qwen36(tmp_path_factory) -> str:
    directory = tmp_path_factory.mktemp("shapes")
    write_shape_fixture(QWEN36, directory)
    return str(directory / f"{QWEN36}.gguf")


@pytest.fixture
def laptop_with_slots(monkeypatch):
    monkeypatch.setattr("engine.plan.hardware.probe", laptop)
    facade = sys.modules.get("engine.facade")      # the app's typed face of the engine
    if facade is not None:
        monkeypatch.setattr(facade, "probe", laptop)
    monkeypatch.setattr(slot_cache, "available", lambda: True)


@pytest.fixture
def stub_native(monkeypatch):
    def load_native(facts, recipe, recorder, progress):
        return SimpleNamespace(slot_cache=None, slot_cache_note=None, close=lambda: None,
                               load_log=[], slot_banks_on_gpu=False, metadata=dict,
                               owned=lambda name, make: make(), recipe=recipe,
                               recurrent=False, tokens=[],
                               # no template: llama.cpp's chat layer gives it ChatML
                               model=SimpleNamespace(token_bos=lambda: -1, token_eos=lambda: -1))

    monkeypatch.setattr(loader, "_load_native", load_native)


def load(qtbot, bridge: EngineBridge, path: str, overrides: dict):
    loaded, failed = [], []
    bridge.model_loaded.connect(loaded.append)
    bridge.load_failed.connect(failed.append)
    bridge.load_model(path, "auto", overrides)
    qtbot.waitUntil(lambda: bool(loaded or failed), timeout=60_000)
    assert not failed, f"{failed[0]}: {getattr(failed[0], 'details', '')}"
    return loaded[0]


def wait(qtbot, awaitable):
    task = asyncio.ensure_future(awaitable)
    qtbot.waitUntil(task.done, timeout=60_000)
    return task.result()


@pytest.mark.parametrize("settings", ADVANCED, ids=["threads", "context", "both"])
def test_advanced_values_load_with_the_slots_the_check_showed(qtbot, qloop, qwen36,
                                                              laptop_with_slots, stub_native,
                                                              settings):
    bridge = EngineBridge(real_backend(), qloop)
    try:
        overrides = settings.overrides()
        event = load(qtbot, bridge, qwen36, overrides)
        assert sum(1 for n in event.recipe.expert_slots if n) == 40     # never 0
        assert event.recipe == wait(qtbot, bridge.checks.check_model(qwen36, "auto", overrides)).recipe
        if settings.threads:
            assert event.recipe.n_threads == settings.threads
    finally:
        bridge.shutdown()


needs_slot_wheel = pytest.mark.skipif(
    importlib.util.find_spec("llama_cpp") is None or not slot_cache.available(),
    reason="needs llama-cpp-python built with the slot cache patches")


@needs_slot_wheel
@pytest.mark.parametrize("settings", ADVANCED[:2], ids=["threads", "context"])
def test_the_demo_model_loads_with_its_slot_cache_on_whatever_advanced_value(
        qtbot, qloop, rotary_home, laptop_with_slots, settings):
    bridge = EngineBridge(real_backend(), qloop)
    try:
        demo = wait(qtbot, bridge.checks.demo_model(rotary_home / "demo"))
        event = load(qtbot, bridge, str(demo), settings.overrides())
        assert event.recipe.slot_layers
        assert bridge._engine.model.loaded.native.slot_cache is not None
    finally:
        bridge.shutdown()
