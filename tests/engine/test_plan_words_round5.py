"""Issue 37: the plan's words agree with what the plan does. With expert slots on the card, the
plan never says that 0 parts of the model are on the graphics card."""

from __future__ import annotations

import pytest

from engine import __main__ as cli
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
    from engine.runtime.placement import measure
    said = str(measure([], {}).message)
    assert "0 MB" not in said and "processor" in said, said
