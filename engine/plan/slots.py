"""Expert slots: fill the graphics memory that whole-layer placement leaves unused.

After the layout search, the routed experts of some layers stay in RAM. The slot cache
(engine/runtime/experts/slot_cache.py) keeps the experts the conversation actually uses in GPU
slots, for every one of those layers. This sizes the slots from free VRAM, keeping free the
same headroom the layout search keeps: the preset's ``vram_headroom_bytes`` (at least
0.7 GB on every GPU preset, checked in engine/plan/presets.py; the first long prompt runs
out of memory otherwise).
"""

from __future__ import annotations

import dataclasses

from engine.model.facts import ModelFacts
from engine.plan.hardware import GIB, HardwareInfo
from engine.messages import Msg, msg, sentences, size
from engine.recipe import DEFAULT_POLICY, Recipe


def expert_bytes_per_layer(facts: ModelFacts) -> dict[int, int]:
    """Bytes of one routed expert (gate+up+down) in each MoE layer."""
    per = {}
    for layer in facts.layers:
        if layer.expert_bytes and facts.n_expert:
            per[layer.index] = layer.expert_bytes // facts.n_expert
    return per


def slot_bank_bytes(slots: int, expert_bytes: int) -> int:
    # one more slot per layer: the zero slot uncached experts point at on the GPU
    return (slots + 1) * expert_bytes if slots else 0


def with_expert_slots(recipe: Recipe, facts: ModelFacts, hw: HardwareInfo, *,
                      slots: int | None = None, slot_bytes: int | None = None,
                      policy: str = DEFAULT_POLICY) -> Recipe:
    """``recipe`` plus slots for its RAM-resident expert layers (unchanged when none fit).

    ``slots`` (per layer) or ``slot_bytes`` (in total) fix the size; otherwise it comes
    from free VRAM minus the layout's own estimate, leaving the recipe's headroom free.
    """
    layers = [i for i in recipe.cpu_expert_layers if i in expert_bytes_per_layer(facts)]
    if not layers or recipe.n_gpu_layers == 0 or not facts.n_expert:
        return recipe
    per = expert_bytes_per_layer(facts)
    if slots is None:   # the same count in every layer; banks hold one zero slot more
        room = slot_bytes if slot_bytes is not None else _free_vram(recipe, hw)
        slots = max(0, room // sum(per[i] for i in layers) - 1)
    slots = min(int(slots), facts.n_expert)
    if slots < facts.n_expert_used:
        return recipe
    counts = [0] * max(facts.n_layers, max(layers) + 1)
    for i in layers:
        counts[i] = slots
    bank = sum(slot_bank_bytes(slots, per[i]) for i in layers)
    vram = dataclasses.replace(recipe.vram, expert_bytes=recipe.vram.expert_bytes + bank)
    note = _note_with_slots(recipe.note, len(layers), bank)
    return dataclasses.replace(recipe, expert_slots=tuple(counts), residency_policy=policy,
                               vram=vram, note=note)


def _free_vram(recipe: Recipe, hw: HardwareInfo) -> int:
    if not hw.gpus:
        return 0
    budget = min(hw.gpus[0].free_bytes, hw.gpus[0].total_bytes)
    used = recipe.vram.total_bytes - recipe.vram.headroom_bytes
    return max(0, budget - used - recipe.vram.headroom_bytes)


def _note_with_slots(note: Msg | None, layers: int, bank: int) -> Msg:
    """The plan's note once slots are added: what the card holds, in one sentence ("0 of 40
    parts are on the graphics card" while gigabytes of experts went there was untrue)."""
    if note is not None and note.code == "plan.note_parts_on_card":
        amount = size(bank, GIB, whole_from=10)
        card = note.param("card")
        if not note.param("on_gpu"):
            return msg("plan.note_card_holds_slots", card=card, slots=amount)
        return msg("plan.note_parts_and_slots", on_gpu=note.param("on_gpu"),
                   total=note.param("total"), card=card, slots=amount)
    slot_note = msg("plan.note_slots", layers=layers)
    return sentences(note, slot_note) if note is not None else slot_note
