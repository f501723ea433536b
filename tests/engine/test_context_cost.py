"""Context by its cost (engine/plan/layout.py, CONTEXT_COST): the planner weighs each doubling
of the context against the experts' graphics memory, on the shape fixtures' real attention
layouts; thinking models get 16K where that costs at most a quarter."""

from __future__ import annotations

import pytest

from engine.model.inspect_gguf import inspect_model
from engine.plan.hardware import HardwareInfo
from engine.plan.layout import CONTEXT_COST, THINKING_CONTEXT_COST, plan
from engine.plan.memory import kv_cache_bytes
from engine.plan.presets import pretend_hardware
from tests.support.shapes import SHAPES

REFERENCE = "qwen3.6-35b-a3b-q4_k_m"


@pytest.fixture(scope="module")
def facts_of(tmp_path_factory):
    from tests.support.shapes import write_shape_fixture
    directory = tmp_path_factory.mktemp("shapes")
    return lambda name: inspect_model(str(write_shape_fixture(name, directory)))


def _slots(recipe) -> int:
    return max(recipe.expert_slots) if recipe.expert_slots else 0


def _at(facts, hw: HardwareInfo, n_ctx: int | None):
    overrides = {"slot_layout": True} | ({"n_ctx": n_ctx} if n_ctx else {})
    return plan(facts, hw, overrides=overrides)


def test_the_reference_model_at_8_gb_gets_16k_for_a_few_slots(facts_of):
    facts, hw = facts_of(REFERENCE), pretend_hardware("8gb-laptop")
    chosen, preset = _at(facts, hw, None), _at(facts, hw, 4096)
    assert facts.thinks and chosen.n_ctx >= 16384
    given_up = _slots(preset) - _slots(chosen)
    print(f"\n{REFERENCE} at 8 GB: context {chosen.n_ctx:,} "
          f"({kv_cache_bytes(facts, chosen.n_ctx) >> 20} MiB KV), {_slots(chosen)} slots a "
          f"layer; at 4,096: {_slots(preset)} ({kv_cache_bytes(facts, 4096) >> 20} MiB KV); "
          f"{given_up} given up")
    assert 0 < given_up and chosen.vram.expert_bytes >= (1 - CONTEXT_COST) * preset.vram.expert_bytes
    assert chosen.vram.total_bytes <= hw.gpus[0].free_bytes


@pytest.mark.parametrize("preset", ["8gb-laptop", "12gb-desktop", "16gb-desktop"])
@pytest.mark.parametrize("name", sorted(SHAPES))
def test_the_context_chosen_costs_no_more_than_the_rule_allows(facts_of, name, preset):
    facts, hw = facts_of(name), pretend_hardware(preset)
    base = plan(facts, hw, overrides={"slot_layout": True, "n_ctx": _preset_ctx(preset)})
    chosen = _at(facts, hw, None)
    assert chosen.n_ctx >= base.n_ctx
    if chosen.n_ctx > base.n_ctx and base.vram.expert_bytes:
        cost = 1 - chosen.vram.expert_bytes / base.vram.expert_bytes
        allowed = THINKING_CONTEXT_COST if facts.thinks and chosen.n_ctx <= 16384 \
            else CONTEXT_COST
        assert cost <= allowed
    print(f"\n{preset} {name}: {base.n_ctx:,} -> {chosen.n_ctx:,}, slots "
          f"{_slots(base)} -> {_slots(chosen)}, experts "
          f"{base.vram.expert_bytes >> 20} -> {chosen.vram.expert_bytes >> 20} MiB")


def _preset_ctx(preset: str) -> int:
    from engine.plan.presets import get_preset
    return get_preset(preset).n_ctx


def test_a_thinking_model_on_the_processor_gets_16k_and_a_plain_one_keeps_the_preset(facts_of):
    hw = pretend_hardware("cpu-only")
    assert plan(facts_of(REFERENCE), hw).n_ctx == 16384
    assert plan(facts_of("mixtral-8x7b-q4_k_m"), hw).n_ctx == 4096


def test_a_context_the_user_set_stands(facts_of):
    facts = facts_of(REFERENCE)
    assert plan(facts, pretend_hardware("8gb-laptop"), overrides={"n_ctx": 4096}).n_ctx == 4096


def test_the_context_is_said_in_pages_a_person_knows(facts_of):
    from engine.plan.speed import context_text, describe
    assert str(context_text(16384)).startswith("It keeps about 25 pages of a conversation")
    assert str(context_text(512)).startswith("It keeps less than a page")
    facts, hw = facts_of(REFERENCE), pretend_hardware("8gb-laptop")
    recipe = plan(facts, hw, overrides={"slot_layout": True})
    assert "about 25 pages" in str(describe(recipe, facts, hw).text)
