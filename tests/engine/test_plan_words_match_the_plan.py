"""The plan's words agree with what the plan does. With expert slots on the card, the
plan never says that 0 parts of the model are on the graphics card."""

from __future__ import annotations

import pytest

from engine.cli import main as cli
from engine.model.inspect_gguf import inspect_model
from engine.plan.hardware import HardwareInfo
from engine.runtime.planning import BuildAbilities, plan_recipe


@pytest.fixture(scope="module")
def qwen36_path(shape_fixture_dir):
    return str(shape_fixture_dir / "qwen3.6-35b-a3b-q4_k_m.gguf")


def test_a_slotted_plan_says_what_the_card_holds(qwen36_path):
    facts = inspect_model(qwen36_path)
    recipe = plan_recipe(facts, HardwareInfo.pretend(vram_gb=8, ram_gb=32, cores=8), None,
                         None, abilities=BuildAbilities(slot_cache=True))
    assert any(recipe.expert_slots)
    said = str(recipe.note)
    assert "0 of 40 parts" not in said, said
    assert "graphics card" in said and "GB" in said, said


def test_engine_plan_does_not_say_nothing_is_on_the_card(qwen36_path, capsys, monkeypatch):
    monkeypatch.setattr("engine.runtime.planning.this_build",
                        lambda: BuildAbilities(slot_cache=True))
    assert cli.main(["plan", qwen36_path, "--vram", "8", "--ram", "32"]) == 0
    out = capsys.readouterr().out
    assert "0 of 40 parts" not in out, out


def test_the_demo_answer_says_no_experts_and_repeats_no_word():
    from engine.demo.demo_model import DEMO_TEXT
    assert "expert" not in DEMO_TEXT.lower()
    words = DEMO_TEXT.split()
    assert len(words) == len(set(words))          # the demo's chain never branches


def test_a_load_without_buffer_sizes_does_not_say_0_mb():
    from engine.runtime.devices.placement import measure
    said = str(measure([], {}).message)
    assert "0 MB" not in said and "processor" in said, said


def test_the_estimate_says_the_drivers_share_apart_from_the_models(qwen36_path):
    """The estimate counted the graphics driver's own memory as the model's, so it said
    0.7 GB where the side panel measured 0.2 GB of buffers for the same model."""
    from engine.plan.memory import CUDA_RUNTIME_BYTES
    from engine.plan.speed import describe
    facts = inspect_model(qwen36_path)
    hardware = HardwareInfo.pretend(vram_gb=8, ram_gb=32, cores=8)
    recipe = plan_recipe(facts, hardware, None, None, abilities=BuildAbilities(slot_cache=True))
    said = describe(recipe, facts, hardware).text
    assert said.code == "plan.usage_card_driver_and_memory" or \
        "its driver keeps" in str(said), str(said)
    model_share = recipe.vram.total_bytes - recipe.vram.headroom_bytes - CUDA_RUNTIME_BYTES
    assert f"About {model_share / 2**30:.1f} GB on the graphics card" in str(said), str(said)
