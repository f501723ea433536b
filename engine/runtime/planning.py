"""The one planning entry point: every path that shows or loads a recipe plans here.

The wizard's and Settings' model check (app/bridge/engine_bridge.py through engine/facade.py), the loader
(engine/runtime/loader.py), ``engine plan``/``chat``/``trace`` and the self-test (which loads
through the loader) all call ``plan_recipe``. It composes what this build can do (the slot
cache: one availability check) with the user's Advanced values (engine/plan/advanced.py), so
the recipe a screen shows is the recipe that loads. Before this, only the loader asked for
slots, and any Advanced value in Settings planned, and loaded, without them.

What the computer has comes in as a HardwareInfo (engine/plan/hardware.py owns detection);
the plan is for ``hardware.gpus[0]``, or the processor.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from engine.model.facts import ModelFacts
from engine.native import backends
from engine.plan import PlanSummary, describe, plan
from engine.plan.advanced import check_advanced
from engine.plan.hardware import HardwareInfo
from engine.recipe import Recipe


@dataclass(frozen=True)
class BuildAbilities:
    """What the installed engine build can do, as far as planning cares."""

    slot_cache: bool           # libllama carries the expert slot cache (engine/native patches)


def this_build() -> BuildAbilities:
    """The abilities of the installed build; never raises (False where something is missing)."""
    # Imported here: it loads libllama's bindings, which the start of the app does not need.
    from engine.runtime.experts import slot_cache  # noqa: PLC0415

    return BuildAbilities(slot_cache=slot_cache.available())


@dataclass(frozen=True)
class SlotChoice:
    """The command line's slot options (``engine chat``/``trace``); the default plans them."""

    slots: int | None = None        # per layer; 0 = the stock whole-layer layout
    slot_gib: float | None = None   # in total
    policy: str | None = None       # residency policy name (engine/residency registry)
    off: bool = False               # the stock layout (--no-slots)

    def overrides(self, abilities: BuildAbilities) -> dict[str, Any]:
        if self.off or self.slots == 0:
            return {"slots": 0}
        chosen: dict[str, Any] = {"slot_layout": True} if abilities.slot_cache else {}
        chosen.update({name: value for name, value in (
            ("slots", self.slots), ("slot_gib", self.slot_gib), ("policy", self.policy)) if value})
        return chosen


PLANNED_SLOTS = SlotChoice()
NO_SLOTS = SlotChoice(off=True)


def plan_recipe(facts: ModelFacts, hardware: HardwareInfo, preset: str | None = None,
                advanced: Mapping[str, int] | None = None, *, slots: SlotChoice = PLANNED_SLOTS,
                abilities: BuildAbilities | None = None) -> Recipe:
    """The recipe that will be loaded: the preset, the user's Advanced values (the planner's
    names, checked against engine/plan/advanced.py's ranges) and, where this build has it,
    the slot layout. A forced ``gpu_expert_layers`` is the user's own layout: it stands, and
    no slot layout replaces it."""
    overrides: dict[str, Any] = check_advanced(advanced or {})
    if abilities is None and not backends.llama_loaded():
        # this_build() loads llama.cpp, which fixes the processor build for this process:
        # the one measured fastest for this model's weights (engine/native/cpu_isa.py).
        backends.expect_processor_weights(facts.main_weight_type)
    overrides.update(slots.overrides(abilities or this_build()))
    return plan(facts, hardware, preset=preset, overrides=overrides)


@dataclass(frozen=True)
class PlannedModel:
    """A model file checked and planned: what the wizard and Settings show."""

    facts: ModelFacts
    hardware: HardwareInfo
    recipe: Recipe
    summary: PlanSummary


def plan_model(path: str, hardware: HardwareInfo, preset: str | None = None,
               advanced: Mapping[str, int] | None = None,
               measured: tuple[float, float, float] | None = None) -> PlannedModel:
    """Inspect ``path``, plan it through ``plan_recipe`` and describe it in plain words;
    raises the engine's EngineError for a file that is not a model."""
    # Imported here: gguf and numpy, which the start of the app does not need.
    from engine.model.inspect_gguf import inspect_model  # noqa: PLC0415

    facts = inspect_model(path)
    recipe = plan_recipe(facts, hardware, preset, advanced)
    return PlannedModel(facts, hardware, recipe, describe(recipe, facts, hardware, measured))
