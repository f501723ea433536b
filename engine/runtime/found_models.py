"""The models found on this computer (engine/model/finder.py), each planned, best first.

Every model is planned through the one planning entry point (``plan_model``), so the fit and
speed the list shows are the ones the model check and the load give. Best first: a model
that fits well, then one that fits only just, then one too big, then a file that cannot be
used; within each, the one expected to write fastest here first.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, Mapping

from engine.errors import EngineError, InsufficientMemoryError
from engine.messages import Msg
from engine.model.finder import DEFAULT_LIMITS, FoundModel, Limits, find_models_here
from engine.plan.hardware import HardwareInfo
from engine.plan.speed import WORDS_PER_TOKEN
from engine.runtime.chat.chat_format import detect_format
from engine.runtime.planning import PlannedModel, plan_model

LEVEL_ORDER = {"green": 0, "yellow": 1, "red": 2}
Measured = Callable[[str, str], tuple[float, float, float] | None]


@dataclass(frozen=True)
class ModelChoice:
    """One found model and this computer's plan for it (or why it cannot be used)."""

    found: FoundModel
    planned: PlannedModel | None
    problem: EngineError | None = None

    @property
    def level(self) -> str:
        """The plan's fit; "red" also where the planner found no layout that fits at all,
        "unusable" where the file cannot be used."""
        if self.planned is not None:
            return self.planned.summary.level
        return "red" if isinstance(self.problem, InsufficientMemoryError) else "unusable"

    @property
    def text(self) -> Msg | None:
        return self.planned.summary.text if self.planned else None

    @property
    def expected_tps(self) -> tuple[float, float]:
        return self.planned.summary.expected_tps if self.planned else (0.0, 0.0)

    @property
    def thinks(self) -> bool:
        """The model's chat template has a thinking section (Qwen3.x, gpt-oss, …)."""
        return bool(self.planned and detect_format(self.planned.facts.chat_template).can_think)

    @property
    def runs_on(self) -> str:
        """"graphics card" (all or part of it there), "processor", or "" (cannot run)."""
        if self.planned is None or self.level == "red":
            return ""
        return "graphics card" if self.planned.recipe.vram.total_bytes else "processor"

    def sort_key(self) -> tuple[int, float, str]:
        return (LEVEL_ORDER.get(self.level, 3), -self.expected_tps[1], self.found.name.lower())


def plan_found(models: Iterable[FoundModel], hardware: HardwareInfo, preset: str | None = None,
               advanced: Mapping[str, int] | None = None, measured: Measured | None = None,
               plan: Callable[..., PlannedModel] = plan_model) -> list[ModelChoice]:
    """Plan each model for ``hardware`` (``plan``: the planning entry point, or the app's
    backend's, which is the same outside tests); best first. Never raises for one bad file:
    its problem is kept beside it. Projectors a file name did not give away are dropped."""
    choices = []
    for found in models:
        try:
            speed = measured(found.path, preset) if measured and preset else None
            planned = plan(found.path, hardware, preset, advanced, speed)
        except EngineError as error:
            if "'clip'" in (error.details or ""):        # a projector: not a chat model
                continue
            choices.append(ModelChoice(found, None, error))
            continue
        choices.append(ModelChoice(found, planned))
    return sorted(choices, key=ModelChoice.sort_key)


def models_here(hardware: HardwareInfo, organisation: Iterable[str | os.PathLike] = (),
                preset: str | None = None, advanced: Mapping[str, int] | None = None,
                home: Path | None = None, measured: Measured | None = None,
                limits: Limits = DEFAULT_LIMITS) -> list[ModelChoice]:
    """Find the models on this computer and in IT's folders, and plan each: best first."""
    return plan_found(find_models_here(organisation, home, limits), hardware, preset, advanced,
                      measured)


def choice_to_dict(choice: ModelChoice, said: Callable[[Msg], str] = str) -> dict:
    """JSON-ready (``python -m engine models --json``)."""
    facts = choice.planned.facts if choice.planned else None
    low, high = choice.expected_tps
    return {
        "name": choice.found.name, "path": choice.found.path, "source": choice.found.source,
        "also": list(choice.found.also),
        "size_bytes": choice.found.size, "parts": choice.found.parts,
        "architecture": facts.architecture if facts else None,
        "experts": facts.n_expert if facts else None,
        "experts_used": facts.n_expert_used if facts else None,
        "thinks": choice.thinks, "fit": choice.level, "runs_on": choice.runs_on or None,
        "words_per_second": [round(low * WORDS_PER_TOKEN, 1), round(high * WORDS_PER_TOKEN, 1)],
        "plan": said(choice.text) if choice.text else None,
        "problem": _problem(choice.problem, said),
    }


def _problem(error: EngineError | None, said: Callable[[Msg], str]) -> str | None:
    if error is None:
        return None
    return said(error.msg) if error.msg is not None else error.message
