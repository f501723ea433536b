"""One planning entry point (engine/runtime/planning.py) for every path.

Before it, only the loader asked for the slot layout; any Advanced value (threads, say) made
the app plan, and load, without slots. These run without llama-cpp-python: the build's
slot cache is stated, and the loader's native load is replaced by a stub.
"""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest

from engine.cli import main as cli
from engine.api import LoadRequest
from engine.model.inspect_gguf import inspect_model
from engine.plan.hardware import HardwareInfo
from engine.runtime import bindings, loader
from engine.runtime.experts import slot_cache
from engine.runtime.planning import BuildAbilities, plan_model, plan_recipe

QWEN36 = "qwen3.6-35b-a3b-q4_k_m"
# Each Advanced value of Settings, in the planner's names, and what it must change.
ADVANCED = [({"n_threads": 4}, lambda r: r.n_threads == 4 and r.n_threads_batch == 4),
            ({"n_ctx": 8192}, lambda r: r.n_ctx == 8192),
            ({"vram_headroom_mib": 1536}, lambda r: r.vram.headroom_bytes == 1536 * 2**20)]
SLOT_BUILD = BuildAbilities(slot_cache=True)


def laptop() -> HardwareInfo:
    return HardwareInfo.pretend(vram_gb=8, ram_gb=32, cores=8)


@pytest.fixture(scope="module")
def qwen36_path(shape_fixture_dir):
    return str(shape_fixture_dir / f"{QWEN36}.gguf")


def slotted_layers(recipe) -> int:
    return sum(1 for n in recipe.expert_slots if n > 0)


@pytest.mark.parametrize("advanced, applied", ADVANCED, ids=["threads", "context", "headroom"])
def test_each_advanced_value_keeps_the_slot_layout(qwen36_path, advanced, applied):
    facts = inspect_model(qwen36_path)
    recipe = plan_recipe(facts, laptop(), None, advanced, abilities=SLOT_BUILD)
    assert applied(recipe)
    assert slotted_layers(recipe) == len(facts.moe_layers) == 40
    assert set(recipe.slot_layers) == set(recipe.cpu_expert_layers)


def test_a_build_without_the_slot_cache_plans_the_stock_layout(qwen36_path):
    facts = inspect_model(qwen36_path)
    recipe = plan_recipe(facts, laptop(), None, {"n_threads": 4},
                         abilities=BuildAbilities(slot_cache=False))
    assert recipe.expert_slots == () and recipe.n_threads == 4


def test_an_advanced_value_out_of_range_is_refused_in_plain_words(qwen36_path):
    facts = inspect_model(qwen36_path)
    with pytest.raises(Exception, match="advanced settings") as caught:
        plan_recipe(facts, laptop(), None, {"n_threads": 0}, abilities=SLOT_BUILD)
    assert "n_threads=0" in caught.value.details


def test_slot_cache_available_is_false_not_an_error_without_the_wheel(monkeypatch):
    def no_wheel():
        raise ModuleNotFoundError("No module named 'llama_cpp'")

    monkeypatch.setattr(slot_cache, "llama_cpp_module", no_wheel)
    slot_cache.native_api.cache_clear()
    try:
        assert slot_cache.available() is False
    finally:
        slot_cache.native_api.cache_clear()
    assert bindings.llama_cpp_module is not no_wheel      # only the slot cache's view changed


@pytest.fixture
def stub_native_load(monkeypatch):
    """The loader plans for real and "loads" into a stub that keeps the recipe it was given."""
    loaded = []

    def load_native(facts, recipe, recorder, progress):
        loaded.append(recipe)
        return SimpleNamespace(slot_cache=None, slot_cache_note=None, close=lambda: None,
                               load_log=[], slot_banks_on_gpu=False, metadata=dict,
                               recipe=recipe, recurrent=False)

    monkeypatch.setattr(loader, "_load_native", load_native)
    monkeypatch.setattr("engine.plan.hardware.probe", laptop)
    monkeypatch.setattr(slot_cache, "available", lambda: True)
    return loaded


@pytest.mark.parametrize("advanced, applied", ADVANCED, ids=["threads", "context", "headroom"])
def test_the_loader_loads_the_recipe_the_model_check_shows(qwen36_path, stub_native_load,
                                                           advanced, applied):
    shown = plan_model(qwen36_path, laptop(), "auto", advanced).recipe
    request = LoadRequest(qwen36_path, preset="auto", advanced=advanced)
    loaded = loader.load_with_fallback(request, lambda *a: None, lambda r: None)
    assert loaded.recipe == shown == stub_native_load[0]
    assert applied(loaded.recipe) and slotted_layers(loaded.recipe) == 40


def test_engine_plan_json_reports_the_slots_the_loader_uses(qwen36_path, stub_native_load,
                                                            capsys):
    assert cli.main(["plan", qwen36_path, "--vram", "8", "--ram", "32", "--json"]) == 0
    planned = json.loads(capsys.readouterr().out)["recipe"]
    loaded = loader.load_with_fallback(LoadRequest(qwen36_path), lambda *a: None,
                                       lambda r: None).recipe
    assert planned["expert_slots"] == list(loaded.expert_slots)
    assert sum(1 for n in planned["expert_slots"] if n) == 40


def test_engine_plan_takes_the_advanced_values_of_settings(qwen36_path, stub_native_load,
                                                           capsys):
    assert cli.main(["plan", qwen36_path, "--vram", "8", "--ram", "32", "--threads", "3",
                     "--context", "8192", "--headroom", "1.5", "--json"]) == 0
    recipe = json.loads(capsys.readouterr().out)["recipe"]
    assert (recipe["n_threads"], recipe["n_ctx"]) == (3, 8192)
    assert recipe["vram"]["headroom_bytes"] == 1536 * 2**20
    assert sum(1 for n in recipe["expert_slots"] if n) == 40
