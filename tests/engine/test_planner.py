"""The memory planner: presets, estimates, the 8 GB acceptance case, the fallback ladder."""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import EngineError, InsufficientMemoryError
from engine.plan.hardware import GIB, MIB, HardwareInfo
from engine.model.facts import AttentionShape, LayerBytes, ModelFacts, TensorInfo
from engine.plan import (describe, fallback_ladder, get_preset, kv_cache_bytes,
                            plan, preset_names, pretend_hardware, recipe_from_dict,
                            recipe_to_dict, resolve_preset)
from engine.plan.layout import settings_of
from engine.plan.memory import stock_logits_bytes

LAPTOP = dict(vram_gb=8, ram_gb=32, cores=8, name="RTX 4060 Laptop")
JARGON = re.compile(r"\b(layers?|KV|cache|context|GPU|VRAM|RAM|tensors?|offload\w*|quantiz\w*)\b",
                    re.IGNORECASE)


# ---- model facts built in code (numbers taken from the real GGUF layouts) ------------

def make_facts(*, name: str, arch: str, n_layers: int, n_embd: int, n_vocab: int,
               dense_per_layer: list[int], experts_per_layer: list[int], embd_bytes: int,
               output_bytes: int, attention: AttentionShape, n_expert: int = 0,
               n_expert_used: int = 0, expert_ffn: int = 0,
               n_ctx_train: int = 131072) -> ModelFacts:
    tensors = [TensorInfo("token_embd.weight", "Q4_K", (n_embd, n_vocab), embd_bytes, None, False),
               TensorInfo("output.weight", "Q6_K", (n_embd, n_vocab), output_bytes, None, False)]
    for i, expert_bytes in enumerate(experts_per_layer):
        tensors.append(TensorInfo(f"blk.{i}.attn.weight", "Q4_K", (n_embd,),
                                  dense_per_layer[i], i, False))
        if expert_bytes:  # gate and up share 5/8, down (often Q6_K) the rest
            for part, share in (("gate", 5 / 16), ("up", 5 / 16), ("down", 3 / 8)):
                tensors.append(TensorInfo(f"blk.{i}.ffn_{part}_exps.weight", "Q4_K", (n_embd,),
                                          int(expert_bytes * share), i, True))
    layers = tuple(LayerBytes(i, dense, experts) for i, (dense, experts)
                   in enumerate(zip(dense_per_layer, experts_per_layer)))
    size = embd_bytes + output_bytes + sum(dense_per_layer) + sum(experts_per_layer)
    return ModelFacts(path=f"/models/{name}.gguf", file_size=size, architecture=arch, name=name,
                      file_type="Q4_K_M", n_layers=n_layers, n_embd=n_embd, n_ctx_train=n_ctx_train,
                      n_vocab=n_vocab, n_expert=n_expert, n_expert_used=n_expert_used,
                      n_expert_shared=0, expert_ffn=expert_ffn, attention=attention,
                      chat_template=None, tensors=tuple(tensors), layers=layers,
                      other_dense_bytes=embd_bytes + output_bytes)


def _q4_k_m_more_bits(i: int, n: int) -> bool:
    """llama.cpp's Q4_K_M gives ffn_down Q6_K in the first/last eighth and every third layer."""
    return i < n // 8 or i >= 7 * n // 8 or (i - n // 8) % 3 == 2


def qwen36_facts(expert_scale: float = 1.0) -> ModelFacts:
    """Qwen3.6-35B-A3B Q4_K_M: 256 experts of ~1.78 MiB per layer, ~1.5 GiB dense."""
    n = 40
    experts = [int((498 if _q4_k_m_more_bits(i, n) else 432) * MIB * expert_scale)
               for i in range(n)]
    dense = [18 * MIB if i % 4 == 3 else 26 * MIB for i in range(n)]  # full attention every 4th
    attention = AttentionShape(n_head=16, n_head_kv=2, key_length=256, value_length=256,
                               kv_layers=10, recurrent_layers=30, recurrent_state_bytes=65863680)
    return make_facts(name="qwen3.6-synthetic", arch="qwen35moe", n_layers=n, n_embd=2048,
                      n_vocab=248320, dense_per_layer=dense, experts_per_layer=experts,
                      embd_bytes=272 * MIB, output_bytes=397 * MIB, attention=attention,
                      n_expert=256, n_expert_used=8, expert_ffn=512, n_ctx_train=262144)


def llama8b_facts() -> ModelFacts:
    """A dense Llama-3.1-8B Q4_K_M (4.6 GiB): no routed experts at all."""
    attention = AttentionShape(n_head=32, n_head_kv=8, key_length=128, value_length=128,
                               kv_layers=32)
    return make_facts(name="llama-8b", arch="llama", n_layers=32, n_embd=4096, n_vocab=128256,
                      dense_per_layer=[125 * MIB] * 32, experts_per_layer=[0] * 32,
                      embd_bytes=281 * MIB, output_bytes=411 * MIB, attention=attention)


def huge_moe_facts() -> ModelFacts:
    """A 190 GiB MoE: more than any laptop's graphics card and memory together."""
    attention = AttentionShape(n_head=64, n_head_kv=8, key_length=128, value_length=128,
                               kv_layers=60)
    return make_facts(name="huge", arch="qwen3moe", n_layers=60, n_embd=4096, n_vocab=151936,
                      dense_per_layer=[60 * MIB] * 60, experts_per_layer=[3 * GIB] * 60,
                      embd_bytes=400 * MIB, output_bytes=600 * MIB, attention=attention,
                      n_expert=128, n_expert_used=8, expert_ffn=1536)


def laptop() -> HardwareInfo:
    return HardwareInfo.pretend(**LAPTOP)


def gpu_expert_layers(recipe, facts: ModelFacts) -> int:
    return len(facts.moe_layers) - len(recipe.cpu_expert_layers)


def vram_left(recipe, hw: HardwareInfo) -> int:
    """What the recipe's own estimate leaves free on the card."""
    return hw.gpus[0].total_bytes - (recipe.vram.total_bytes - recipe.vram.headroom_bytes)


# ---- shape fixtures (the other engineer's header-only GGUFs) ---------------------------

_FACTS_CACHE: dict[str, ModelFacts] = {}


@pytest.fixture
def shape_facts(shape_fixture):
    from engine.model.inspect_gguf import inspect_model

    def facts_of(name: str) -> ModelFacts:
        if name not in _FACTS_CACHE:
            _FACTS_CACHE[name] = inspect_model(str(shape_fixture(name)))
        return _FACTS_CACHE[name]
    return facts_of


SHAPE_NAMES = ["qwen3.6-35b-a3b-q4_k_m", "qwen3-30b-a3b-q4_k_m", "mixtral-8x7b-q4_k_m",
               "gpt-oss-20b"]


# ---- the acceptance case -------------------------------------------------------------

def assert_8gb_acceptance(facts: ModelFacts) -> None:
    hw = laptop()
    recipe = plan(facts, hw)
    assert recipe.preset == "8gb-laptop"
    assert recipe.n_ctx >= 4096 and recipe.flash_attn and recipe.kv_type == "f16"
    assert recipe.n_gpu_layers == -1                       # every dense part on the card
    assert gpu_expert_layers(recipe, facts) >= 8
    assert vram_left(recipe, hw) >= 0.7e9 and recipe.vram.headroom_bytes >= 0.7 * GIB
    assert recipe.vram.total_bytes <= hw.gpus[0].free_bytes
    n_ram = len(recipe.cpu_expert_layers)
    assert recipe.cpu_expert_layers == tuple(range(n_ram))  # the FIRST layers stay in RAM
    assert recipe.override_patterns() == (
        rf"^blk\.({'|'.join(map(str, range(n_ram)))})\.ffn_(up|down|gate|gate_up)_exps",)


def test_8gb_laptop_qwen36_synthetic():
    assert_8gb_acceptance(qwen36_facts())


def test_8gb_laptop_qwen36_shape_fixture(shape_facts):
    facts = shape_facts("qwen3.6-35b-a3b-q4_k_m")
    assert (facts.architecture, facts.n_layers, facts.n_expert) == ("qwen35moe", 40, 256)
    assert_8gb_acceptance(facts)


def test_published_config_estimate_matches_measurement(shape_facts):
    # --n-cpu-moe 32 at 4096 context measured about 6.3 GB on the RTX 4060 Laptop, with stock
    # llama.cpp's logits for every token of a batch (the engine reserves one row).
    facts = shape_facts("qwen3.6-35b-a3b-q4_k_m")
    recipe = plan(facts, laptop(), overrides={"n_cpu_moe": 32, "n_ubatch": 512})
    assert recipe.cpu_expert_layers == tuple(range(32))
    used = recipe.vram.total_bytes - recipe.vram.headroom_bytes
    used += stock_logits_bytes(facts, settings_of(recipe))
    assert 5.9 * GIB <= used <= 6.8 * GIB
    low, high = describe(recipe, facts, laptop()).expected_tps
    assert low <= 21.06 <= high  # the measured decode speed


@pytest.mark.parametrize("name", SHAPE_NAMES)
def test_every_shape_fits_an_8gb_laptop(shape_facts, name):
    facts, hw = shape_facts(name), laptop()
    recipe = plan(facts, hw)
    assert recipe.n_gpu_layers == -1 and recipe.vram.total_bytes <= hw.gpus[0].free_bytes
    assert recipe.ram.total_bytes <= hw.ram_total_bytes
    assert describe(recipe, facts, hw).level in ("green", "yellow")


# ---- other machines and models ---------------------------------------------------------

def test_dense_model_fits_whole_on_8gb():
    facts, hw = llama8b_facts(), laptop()
    recipe = plan(facts, hw)
    assert recipe.n_gpu_layers == -1 and recipe.cpu_expert_layers == ()
    assert recipe.vram.expert_bytes == 0 and recipe.ram.expert_bytes == 0
    assert recipe.override_patterns() == ()
    assert "whole model" in str(recipe.note)


def test_dense_model_on_a_small_card_keeps_the_last_layers_on_it():
    facts, hw = llama8b_facts(), HardwareInfo.pretend(vram_gb=4, ram_gb=16)
    recipe = plan(facts, hw)
    assert 0 < recipe.n_gpu_layers < 32
    assert recipe.vram.total_bytes <= hw.gpus[0].free_bytes
    assert recipe.ram.dense_bytes > 0 and recipe.ram.kv_bytes > 0


def test_cpu_only_hardware():
    facts, hw = qwen36_facts(), HardwareInfo.pretend(vram_gb=0, ram_gb=32, cores=6)
    recipe = plan(facts, hw)
    assert recipe.preset == "cpu-only" and recipe.n_gpu_layers == 0
    assert recipe.vram.total_bytes == 0
    assert recipe.ram.expert_bytes == facts.expert_bytes
    assert recipe.ram.dense_bytes == facts.dense_bytes
    assert recipe.n_threads == recipe.n_threads_batch == 5   # one core left to the desktop
    summary = describe(recipe, facts, hw)
    assert "graphics card is not used" in str(summary.text)


def test_cpu_only_preset_ignores_the_gpu():
    recipe = plan(qwen36_facts(), laptop(), preset="cpu-only")
    assert recipe.n_gpu_layers == 0 and recipe.vram.total_bytes == 0


def test_too_big_for_this_computer():
    with pytest.raises(InsufficientMemoryError) as caught:
        plan(huge_moe_facts(), laptop())
    message = caught.value.message
    assert "too big" in message and "GB" in message and not JARGON.search(message)
    assert caught.value.details


def test_bigger_cards_keep_more_experts_and_longer_context():
    facts = qwen36_facts()
    recipes = [plan(facts, pretend_hardware(name)) for name in
               ("8gb-laptop", "12gb-desktop", "16gb-desktop", "24gb-workstation")]
    layers = [gpu_expert_layers(r, facts) for r in recipes]
    assert layers == sorted(layers) and layers[-1] == 40
    assert [r.preset for r in recipes] == ["8gb-laptop", "12gb-desktop", "16gb-desktop",
                                           "24gb-workstation"]
    assert recipes[-1].n_ctx >= 32768      # 65,536 since the context is weighed by its cost


def test_context_never_exceeds_training_length():
    facts = llama8b_facts()
    short = make_facts(name="short", arch="llama", n_layers=32, n_embd=4096, n_vocab=128256,
                       dense_per_layer=[125 * MIB] * 32, experts_per_layer=[0] * 32,
                       embd_bytes=281 * MIB, output_bytes=411 * MIB, attention=facts.attention,
                       n_ctx_train=2048)
    assert plan(short, pretend_hardware("24gb-workstation")).n_ctx == 2048


def _trained_on(n_ctx_train: int) -> ModelFacts:
    facts = llama8b_facts()
    return make_facts(name="short", arch="llama", n_layers=32, n_embd=4096, n_vocab=128256,
                      dense_per_layer=[125 * MIB] * 32, experts_per_layer=[0] * 32,
                      embd_bytes=281 * MIB, output_bytes=411 * MIB, attention=facts.attention,
                      n_ctx_train=n_ctx_train)


def test_a_context_set_above_the_training_length_is_the_trained_one_and_said():
    """Seen by a new user: a conversation memory of 32K for a model trained on 4K was taken
    silently. The engine reads no RoPE scaling and sets none (llama.cpp only warns), so the
    plan uses the trained length and says why, in the plan's words."""
    hw, short = pretend_hardware("24gb-workstation"), _trained_on(4096)
    recipe = plan(short, hw, overrides={"n_ctx": 32768})
    assert recipe.n_ctx == 4096 and recipe.context_note is not None
    said = str(describe(recipe, short, hw).text)
    assert ("This model was trained for a conversation memory of up to 4,096 tokens, so Rotary "
            "uses 4,096 instead of the 32,768 set in Settings.") in said
    assert recipe_from_dict(json.loads(json.dumps(recipe_to_dict(recipe)))) == recipe
    within = plan(short, hw, overrides={"n_ctx": 4096})      # the user's choice, where trained
    assert within.n_ctx == 4096 and within.context_note is None
    assert "trained" not in str(describe(within, short, hw).text)
    unknown = plan(_trained_on(0), hw, overrides={"n_ctx": 32768})    # the file does not say
    assert unknown.n_ctx == 32768 and unknown.context_note is None


# ---- presets ---------------------------------------------------------------------------

def test_preset_registry():
    assert set(preset_names()) >= {"auto", "8gb-laptop", "12gb-desktop", "16gb-desktop",
                                   "24gb-workstation", "cpu-only"}
    laptop_preset = get_preset("8gb-laptop")
    assert laptop_preset.n_ctx == 4096 and laptop_preset.kv_type == "f16"
    assert laptop_preset.flash_attn
    assert laptop_preset.vram_headroom_bytes >= 0.7e9
    assert not get_preset("cpu-only").use_gpu
    with pytest.raises(EngineError):
        get_preset("9gb-toaster")


@pytest.mark.parametrize("vram_gb, expected", [
    (8, "8gb-laptop"), (6, "8gb-laptop"), (10, "8gb-laptop"), (12, "12gb-desktop"),
    (16, "16gb-desktop"), (24, "24gb-workstation"), (48, "24gb-workstation"), (0, "cpu-only")])
def test_auto_picks_by_detected_vram(vram_gb, expected):
    assert resolve_preset("auto", HardwareInfo.pretend(vram_gb=vram_gb)).name == expected
    assert resolve_preset(None, HardwareInfo.pretend(vram_gb=vram_gb)).name == expected


def test_pretend_hardware_from_presets():
    hw = pretend_hardware("8gb-laptop")
    assert hw.gpus[0].total_bytes == 8188 * MIB and hw.ram_total_bytes == 32 * GIB
    assert pretend_hardware("cpu-only").gpus == ()


# ---- KV cache and compute buffers --------------------------------------------------------

def test_kv_cache_counts_only_full_attention_layers():
    facts = qwen36_facts()
    # 10 full-attention layers x 4096 cells x 2 heads x (256 + 256) x 2 bytes, plus the state.
    assert kv_cache_bytes(facts, 4096, "f16") == 10 * 4096 * 2 * 512 * 2 + 65863680
    assert kv_cache_bytes(facts, 4096, "q8_0") < kv_cache_bytes(facts, 4096, "f16")
    assert kv_cache_bytes(facts, 4000, "f16") == kv_cache_bytes(facts, 4096, "f16")  # padded


def test_kv_cache_sliding_window_and_mla():
    swa = AttentionShape(n_head=64, n_head_kv=8, key_length=64, value_length=64, kv_layers=12,
                         swa_layers=12, swa_window=128)
    facts = make_facts(name="swa", arch="gpt-oss", n_layers=24, n_embd=2880, n_vocab=201088,
                       dense_per_layer=[27 * MIB] * 24, experts_per_layer=[404 * MIB] * 24,
                       embd_bytes=586 * MIB, output_bytes=586 * MIB, attention=swa,
                       n_expert=32, n_expert_used=4, expert_ffn=2880)
    per_cell = 8 * 128 * 2
    assert kv_cache_bytes(facts, 8192, "f16", 512) == per_cell * (8192 * 12 + 768 * 12)
    mla = AttentionShape(n_head=128, kv_layers=61, mla_kv_dim=576)
    deepseek = make_facts(name="mla", arch="deepseek2", n_layers=61, n_embd=7168, n_vocab=129280,
                          dense_per_layer=[1] * 61, experts_per_layer=[0] * 61, embd_bytes=1,
                          output_bytes=1, attention=mla)
    assert kv_cache_bytes(deepseek, 4096, "f16") == 4096 * 61 * 576 * 2


def test_compute_buffer_grows_with_ubatch_but_not_its_logits():
    facts, hw = qwen36_facts(), laptop()
    small = plan(facts, hw, overrides={"n_ubatch": 256, "gpu_expert_layers": 8})
    large = plan(facts, hw, overrides={"n_batch": 1024, "n_ubatch": 1024, "gpu_expert_layers": 8})
    grown = large.vram.compute_bytes - small.vram.compute_bytes
    activations = 768 * max(facts.n_embd, 16 * 256) * 4 * 8     # 768 more tokens, 8 copies
    assert activations <= grown < activations + 248320 * 768 * 4 // 4   # one logits row only


def test_prompt_micro_batch_for_experts_in_ram_on_the_8gb_qwen36_shape(shape_facts):
    facts, hw = shape_facts("qwen3.6-35b-a3b-q4_k_m"), laptop()
    stock_batch = plan(facts, hw, overrides={"n_ubatch": 512})
    for overrides in ({}, {"slot_layout": True}):
        recipe = plan(facts, hw, overrides=overrides)
        assert recipe.n_ubatch == 2048 and recipe.n_batch >= recipe.n_ubatch
        assert recipe.vram.total_bytes <= hw.gpus[0].free_bytes          # still within VRAM
        assert "2,048 words at a time" in str(recipe.prompt_note)
        extra = recipe.vram.compute_bytes - stock_batch.vram.compute_bytes
        assert 0 < extra <= 0.1 * hw.gpus[0].total_bytes
    slotted = plan(facts, hw, overrides={"slot_layout": True})
    assert slotted.expert_slots and max(slotted.expert_slots) >= facts.n_expert // 8


def test_the_micro_batch_stays_when_asked_or_when_experts_are_on_the_gpu():
    facts = qwen36_facts()
    assert plan(facts, laptop(), overrides={"n_ubatch": 256}).n_ubatch == 256
    assert plan(facts, laptop(), overrides={"n_ubatch": 256}).prompt_note is None
    roomy = plan(facts, HardwareInfo.pretend(vram_gb=80, ram_gb=64, cores=8))
    assert not roomy.cpu_expert_layers and roomy.n_ubatch == 512 and roomy.prompt_note is None
    cpu = plan(facts, HardwareInfo.pretend(vram_gb=0, ram_gb=64, cores=8))
    assert cpu.n_gpu_layers == 0 and cpu.prompt_note is None


# ---- overrides -----------------------------------------------------------------------------

def test_overrides():
    facts, hw = qwen36_facts(), laptop()
    recipe = plan(facts, hw, overrides={"n_ctx": 8192, "gpu_expert_layers": 4, "n_threads": 3})
    assert recipe.n_ctx == 8192 and gpu_expert_layers(recipe, facts) == 4
    assert recipe.n_threads == recipe.n_threads_batch == 3
    assert plan(facts, hw, overrides={"kv_type": "q8_0"}).flash_attn
    with pytest.raises(EngineError):
        plan(facts, hw, overrides={"kv_type": "q8_0", "flash_attn": False})
    with pytest.raises(EngineError):
        plan(facts, hw, overrides={"colour": "blue"})


def test_forced_layout_that_does_not_fit_is_red():
    facts, hw = qwen36_facts(), laptop()
    recipe = plan(facts, hw, overrides={"gpu_expert_layers": 40})
    summary = describe(recipe, facts, hw)
    assert summary.level == "red" and "will not fit" in str(summary.text)
    assert summary.expected_tps == (0.0, 0.0)


# ---- fallback ladder -----------------------------------------------------------------------

def test_ladder_order_and_words():
    facts, hw = qwen36_facts(), laptop()
    recipe = plan(facts, hw)
    steps = list(fallback_ladder(facts, hw, recipe))
    experts = [gpu_expert_layers(s, facts) for s in steps]
    assert experts[:3] == sorted(experts[:3], reverse=True) and experts[2] == 0
    shorter = [s.n_ctx for s in steps[3:] if s.kv_type == "f16" and s.n_gpu_layers]
    assert recipe.n_ctx > 4096           # weighed by its cost; the ladder steps down by halves
    assert shorter == [c for c in (8192, 4096, 2048, 1024) if c < recipe.n_ctx]
    at = 3 + len(shorter)
    assert [s.kv_type for s in steps[at:at + 2]] == ["q8_0", "q4_0"] and steps[at + 1].flash_attn
    assert steps[-1].n_gpu_layers == 0 and steps[-1].vram.total_bytes == 0
    for step in steps:
        note = str(step.note)
        assert note.endswith(".") and not JARGON.search(note), note
    assert "(3 of 40 parts on the graphics card)" in str(steps[1].note)


def test_ladder_for_a_dense_model_moves_whole_layers():
    facts, hw = llama8b_facts(), laptop()
    steps = list(fallback_ladder(facts, hw, plan(facts, hw)))
    assert steps[0].n_gpu_layers == 21 and steps[1].n_gpu_layers == 10
    assert steps[-1].n_gpu_layers == 0


def test_ladder_for_cpu_only_reduces_memory():
    facts, hw = qwen36_facts(), HardwareInfo.pretend(vram_gb=0, ram_gb=32)
    recipe = plan(facts, hw)
    steps = list(fallback_ladder(facts, hw, recipe))
    totals = [recipe.ram.total_bytes] + [s.ram.total_bytes for s in steps]
    assert steps and totals == sorted(set(totals), reverse=True)


# ---- describe and JSON --------------------------------------------------------------------

def test_describe_the_8gb_case():
    facts, hw = qwen36_facts(), laptop()
    summary = describe(plan(facts, hw), facts, hw)
    assert summary.level == "green"
    assert re.fullmatch(r"About \d\.\d GB on the graphics card \(and 0\.4 GB its driver keeps\) "
                        r"and \d+ GB in memory; expect roughly \d+–\d+ words per second\. It keeps "
                        r"about \d+ pages of a conversation in mind; when a longer one fills them, "
                        r"its older half is set aside at once\.",
                        str(summary.text)), summary.text
    low, high = summary.expected_tps
    assert 10 < low < high < 60


def test_describe_yellow_when_memory_is_busy_or_slow():
    facts = qwen36_facts()
    busy = HardwareInfo.pretend(**LAPTOP)
    busy = HardwareInfo(busy.gpus, busy.ram_total_bytes, 4 * GIB, 8, 16, busy.nvml_status)
    summary = describe(plan(facts, busy), facts, busy)
    assert summary.level == "yellow" and "close some" in str(summary.text)
    mixtral_like = qwen36_facts(expert_scale=6.0)  # far more expert bytes per token on the CPU
    hw = HardwareInfo.pretend(vram_gb=8, ram_gb=128)
    assert describe(plan(mixtral_like, hw), mixtral_like, hw).level == "yellow"


def test_recipe_json_round_trip():
    recipe = plan(qwen36_facts(), laptop())
    data = json.loads(json.dumps(recipe_to_dict(recipe)))
    assert data["vram"]["total_bytes"] == recipe.vram.total_bytes
    assert all(isinstance(v, int) for v in data["vram"].values())
    assert data["override_patterns"] == list(recipe.override_patterns())
    assert recipe_from_dict(data) == recipe


# ---- properties ----------------------------------------------------------------------------

def synthetic_moe(n_layers: int, expert_mib: int, dense_mib: int, vocab: int) -> ModelFacts:
    attention = AttentionShape(n_head=16, n_head_kv=4, key_length=128, value_length=128,
                               kv_layers=n_layers)
    return make_facts(name="random", arch="qwen3moe", n_layers=n_layers, n_embd=2048,
                      n_vocab=vocab, dense_per_layer=[dense_mib * MIB] * n_layers,
                      experts_per_layer=[expert_mib * MIB] * n_layers, embd_bytes=200 * MIB,
                      output_bytes=300 * MIB, attention=attention, n_expert=128,
                      n_expert_used=8, expert_ffn=768)


models = st.builds(synthetic_moe, st.integers(4, 64), st.integers(16, 2048), st.integers(1, 200),
                   st.sampled_from([32000, 151936, 248320]))
card_gb = st.floats(0, 48)
presets = st.sampled_from(["auto", "8gb-laptop", "12gb-desktop", "16gb-desktop", "cpu-only"])


@settings(max_examples=60, deadline=None)
@given(models, card_gb, st.floats(4, 256), presets)
def test_estimates_never_exceed_the_budget(facts, vram_gb, ram_gb, preset):
    hw = HardwareInfo.pretend(vram_gb=vram_gb, ram_gb=ram_gb)
    try:
        recipe = plan(facts, hw, preset=preset)
    except InsufficientMemoryError:
        return
    if recipe.vram.total_bytes:
        assert recipe.vram.total_bytes <= hw.gpus[0].free_bytes
    assert recipe.ram.total_bytes <= hw.ram_total_bytes


@settings(max_examples=60, deadline=None)
@given(models, card_gb, card_gb,
       st.sampled_from(["8gb-laptop", "12gb-desktop", "24gb-workstation"]))
def test_more_vram_never_gives_fewer_gpu_expert_layers(facts, a_gb, b_gb, preset):
    small, large = (HardwareInfo.pretend(vram_gb=v, ram_gb=512) for v in sorted((a_gb, b_gb)))
    fewer, more = (plan(facts, hw, preset=preset) for hw in (small, large))
    assert gpu_expert_layers(more, facts) >= gpu_expert_layers(fewer, facts)


@settings(max_examples=60, deadline=None)
@given(models, st.floats(2, 48))
def test_ladder_steps_strictly_reduce_vram(facts, vram_gb):
    hw = HardwareInfo.pretend(vram_gb=vram_gb, ram_gb=512)
    recipe = plan(facts, hw)
    previous = recipe.vram.total_bytes
    for step in fallback_ladder(facts, hw, recipe):
        if not previous:
            break
        assert step.vram.total_bytes < previous
        previous = step.vram.total_bytes


def test_processor_speed_follows_the_threads_up_to_the_memory_limit(shape_facts):
    """Calibrated on 2-core machines (bench/bench_speed_estimate.py): one thread unpacks
    3.5-22 GB/s of quantized weights (busy to idle on a newer core); many threads stop at the
    memory's 12-30 GB/s."""
    from engine.plan import expected_tokens_per_second, layout_of, model_sizes
    facts, hw = shape_facts("qwen3.6-35b-a3b-q4_k_m"), HardwareInfo.pretend(vram_gb=0, cores=8)
    recipe = plan(facts, hw)
    sizes = model_sizes(facts)
    layout = layout_of(recipe, sizes)
    one = expected_tokens_per_second(sizes, layout, hw, threads=1)
    seven = expected_tokens_per_second(sizes, layout, hw, threads=7)
    assert seven == expected_tokens_per_second(sizes, layout, hw, threads=32)    # capped
    assert 3 < seven[0] / one[0] < 4 and 1.2 < seven[1] / one[1] < 1.6
    from engine.plan.speed import float_share
    assert describe(recipe, facts, hw).expected_tps == expected_tokens_per_second(
        sizes, layout, hw, threads=recipe.n_threads, floats=float_share(facts))
    # Plain f16 weights have nothing to unpack: one thread reads them about twice as fast.
    f16 = expected_tokens_per_second(sizes, layout, hw, threads=1, floats=1.0)
    assert 1.6 < f16[0] / one[0] <= 2.0


def test_a_measured_speed_replaces_the_range_with_one_figure():
    """The estimate spanned 2-5x; once this model has been measured on this
    computer with this setting, the words name that figure and its spread is the range."""
    from engine.plan.speed import WORDS_PER_TOKEN, modelled_speed
    facts, hw = qwen36_facts(), HardwareInfo.pretend(vram_gb=0, ram_gb=32, cores=6)
    recipe = plan(facts, hw)
    low, high = modelled_speed(recipe, facts, hw)
    assert high / low > 2                                   # what the user saw
    plain = describe(recipe, facts, hw)
    assert not plain.measured and plain.expected_tps == pytest.approx((low, high))
    assert f"{round(low * WORDS_PER_TOKEN)}–{round(high * WORDS_PER_TOKEN)} words" in str(
        plain.text)
    summary = describe(recipe, facts, hw, measured=(10.0, 9.0, 12.0))
    assert summary.measured and summary.expected_tps == (9.0, 12.0)
    assert f"roughly {round(10.0 * WORDS_PER_TOKEN)} words per second" in str(summary.text)
    assert "–" not in str(summary.text).split("expect")[-1]               # one figure
    slow = describe(recipe, facts, hw, measured=(2.5, 2.0, 3.0))
    assert slow.level == "yellow" and "slowly" in str(slow.text)          # warnings use it
