"""Planning expert slots: sized from free VRAM, the preset's headroom left, only where they help."""

from __future__ import annotations

import dataclasses

import pytest

from engine.model.inspect_gguf import inspect_model
from engine.plan import plan
from engine.plan.hardware import GIB, MIB, HardwareInfo
from engine.plan.presets import MIN_VRAM_HEADROOM_BYTES, PRESETS, check_registry
from engine.plan.slots import expert_bytes_per_layer, slot_bank_bytes

QWEN36 = "qwen3.6-35b-a3b-q4_k_m"


@pytest.fixture(scope="module")
def qwen36(shape_fixture_dir):
    return inspect_model(str(shape_fixture_dir / f"{QWEN36}.gguf"))


def laptop(vram_gb: float = 8) -> HardwareInfo:
    return HardwareInfo.pretend(vram_gb=vram_gb, ram_gb=32, cores=8)


def free_after(recipe, hw: HardwareInfo) -> int:
    budget = min(hw.gpus[0].free_bytes, hw.gpus[0].total_bytes)
    return budget - (recipe.vram.total_bytes - recipe.vram.headroom_bytes)


def test_the_slot_layout_spreads_free_vram_over_every_layer_on_8_gb(qwen36):
    hw = laptop()
    stock = plan(qwen36, hw)
    recipe = plan(qwen36, hw, overrides={"slot_layout": True})
    assert stock.expert_slots == () and len(stock.cpu_expert_layers) < len(qwen36.moe_layers)
    assert recipe.cpu_expert_layers == qwen36.moe_layers          # every expert layer in RAM
    assert recipe.slot_layers == recipe.cpu_expert_layers
    slots = {recipe.expert_slots[i] for i in recipe.slot_layers}
    assert len(slots) == 1 and qwen36.n_expert_used <= slots.pop() < qwen36.n_expert
    assert free_after(recipe, hw) >= recipe.vram.headroom_bytes == stock.vram.headroom_bytes
    # one more slot per layer would cut into the headroom
    per = expert_bytes_per_layer(qwen36)
    one_more = sum(per[i] for i in recipe.slot_layers)
    assert free_after(recipe, hw) - one_more < recipe.vram.headroom_bytes
    assert recipe.residency_policy == "rotary" and "graphics card" in str(recipe.note)


def test_the_slots_leave_the_presets_headroom_free_and_no_more(qwen36, monkeypatch):
    """One headroom rule (the old 0.7 GB floor never applied): the preset's, which
    the layout search keeps too. More headroom, fewer slots; every time it binds exactly."""
    hw, counts = laptop(), []
    per = expert_bytes_per_layer(qwen36)
    for headroom in (768 * MIB, 1024 * MIB, 1536 * MIB):
        monkeypatch.setitem(PRESETS, "8gb-laptop", dataclasses.replace(
            PRESETS["8gb-laptop"], vram_headroom_bytes=headroom))
        recipe = plan(qwen36, hw, preset="8gb-laptop", overrides={"slot_layout": True})
        one_more = sum(per[i] for i in recipe.slot_layers)
        assert recipe.vram.headroom_bytes == headroom
        assert headroom <= free_after(recipe, hw) < headroom + one_more
        counts.append(recipe.expert_slots[recipe.slot_layers[0]])
    assert counts[0] > counts[1] > counts[2] >= qwen36.n_expert_used


def test_no_gpu_preset_keeps_less_than_0_7_gb_free():
    assert all(p.vram_headroom_bytes >= MIN_VRAM_HEADROOM_BYTES for p in PRESETS.values()
               if p.use_gpu)
    careless = dataclasses.replace(PRESETS["8gb-laptop"], name="careless",
                                   vram_headroom_bytes=0)
    with pytest.raises(ValueError, match="0.7 GB"):
        check_registry({**PRESETS, "careless": careless})


def test_slot_gib_and_slot_count_fix_the_size(qwen36):
    hw = laptop()
    fixed = plan(qwen36, hw, overrides={"slot_layout": True, "slots": 12, "policy": "lru"})
    assert {fixed.expert_slots[i] for i in fixed.slot_layers} == {12}
    assert fixed.residency_policy == "lru"
    sized = plan(qwen36, hw, overrides={"n_cpu_moe": 32, "slot_gib": 1.0})   # the published
    assert sized.cpu_expert_layers == tuple(range(32))                       # layout + 1 GiB
    per = expert_bytes_per_layer(qwen36)
    bank = sum(slot_bank_bytes(sized.expert_slots[i], per[i]) for i in sized.slot_layers)
    step = sum(per[i] for i in sized.slot_layers)          # one more slot in every layer
    assert 1.0 * GIB - step <= bank <= 1.0 * GIB


def test_no_slots_without_a_gpu_or_with_a_forced_layer_layout(qwen36):
    no_gpu = HardwareInfo.pretend(vram_gb=0, ram_gb=32, cores=8)
    assert plan(qwen36, no_gpu, overrides={"slot_layout": True}).expert_slots == ()
    forced = plan(qwen36, laptop(), overrides={"n_cpu_moe": 32, "slot_layout": True})
    assert forced.expert_slots == () and forced.cpu_expert_layers == tuple(range(32))


def test_a_count_below_the_experts_of_one_token_plans_no_slots(qwen36):
    assert plan(qwen36, laptop(), overrides={"slot_layout": True, "slots": 4}).expert_slots == ()
