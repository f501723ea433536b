"""The engine's functions and facts the app uses, without Qt: presets, ranges, checks, and
the plain records the GUI holds (the model list's choices, a model check). The settings
model and the self-test use these directly; the Qt bridge (engine_bridge.py) runs the
blocking ones on worker threads. With engine_bridge.py the only app code that reaches the
engine's functions, through one typed module of plain imports (``engine.facade``).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Awaitable, Callable, Mapping, Protocol, TypeVar, cast

from engine import facade
from engine.api import EngineLike, Listener, ModelLoaded
from engine.errors import EngineError
from engine.model.facts import ModelFacts
from engine.messages import Msg
from engine.recipe import Recipe
# The engine's own frozen hardware types and Advanced ranges, re-exported so GUI modules
# never mirror them.
from engine.facade import (ADVANCED_RANGES, GpuInfo, HardwareInfo, PlannedModel,  # noqa: F401
                           Range, VramReading)
from app.text.i18n import tr
from app.text.messages import say

if TYPE_CHECKING:                      # the office server's types, imported only when used
    from engine.facade import FoundModel, ModelEntry, ServerConfig

T = TypeVar("T")
Speeds = tuple[float, float]           # (low, high) tokens per second the planner expects


class Sampling(Protocol):
    """What the app reads of the engine's SamplingDefaults (engine.runtime, out of the app's
    reach): the answer variety a model asks for, where it comes from, and in words."""

    @property
    def temperature(self) -> float: ...
    @property
    def source(self) -> str: ...         # "model file", "family" or "rotary"
    @property
    def said(self) -> Msg: ...


class ServerConnection(Protocol):
    """What the bridge reads of app.settings.server.ServerConnection (a floor above it)."""

    @property
    def url(self) -> str: ...
    @property
    def model(self) -> str: ...
    @property
    def api_key(self) -> str | None: ...
    @property
    def verify_tls(self) -> bool: ...
    @property
    def ca_bundle(self) -> str | None: ...


# ---- app-side views of engine results (plain data the GUI may hold) ------------------

@dataclass(frozen=True)
class FoundChoice:
    """A model found on this computer and this computer's plan for it (the model list)."""
    path: str
    name: str             # as the user knows it (Ollama's name, else the file's)
    source: str           # "lmstudio", "ollama", "jan", "gpt4all", "huggingface", "downloads", …
    size: int             # bytes
    level: str            # "green", "yellow", "red", or "unusable"
    text: str             # the plan (or the problem) in plain words, in the interface's language
    expected_tps: Speeds
    architecture: str
    n_expert: int
    thinks: bool
    runs_on: str          # "graphics card", "processor" or ""
    also: tuple[str, ...] = ()   # other sources holding the same file (LM Studio and Ollama)


@dataclass(frozen=True)
class ModelCheck:
    """What the wizard and settings show after checking a model file."""
    path: str
    model_name: str
    preset: str
    level: str            # "green", "yellow" or "red"
    text: str             # plain words from planner.describe
    expected_tps: Speeds
    facts: ModelFacts
    recipe: Recipe
    measured: bool = False  # expected_tps was measured on this computer (app.gauge.measured_speed)
    fitted: str = ""        # why the setting named is for another card than the one found
    placed: str = ""        # where the loaded model is, measured, when it is this model
    sampling: Sampling | None = None  # what this model file asks for (None: unknown)


# ---- where the engine functions come from ------------------------------------------

@dataclass
class EngineBackend:
    """The engine functions the bridge calls (engine.facade); tests pass fakes of these
    shapes, usually with the real engine service on a fake opener."""
    make_engine: Callable[[Listener], EngineLike]
    probe: Callable[[], HardwareInfo]
    read_vram: Callable[[int], VramReading | None]
    # (path, hardware, preset, advanced, measured) -> the checked and planned model: the
    # planning entry point (engine/runtime/planning.py), the one the loader uses too.
    plan_model: Callable[..., PlannedModel]
    ensure_demo_model: Callable[[Path], Path]
    process_ram: Callable[[], int]
    # The office server (engine.remote); None where a test backend has none.
    server_config: Callable[..., ServerConfig] | None = None
    make_remote_engine: Callable[[Listener, ServerConfig], EngineLike] | None = None
    list_server_models: Callable[[ServerConfig], list[ModelEntry]] | None = None
    # (IT's folders) -> the models on this computer (engine/model/finder.py); None: the real one.
    find_models: Callable[[list[str]], list[FoundModel]] | None = None
    # The wizard's self-test loads the real engine in a child process (app/setup/selftest.py):
    # beside the window's own engine thread, a second one crashed in the native device set-up.
    engine_check_in_child: bool = False


def check_native_helpers() -> tuple[bool, str]:
    """The self-test's check of the engine's C helpers (engine/native)."""
    return facade.check_native_helpers()


DEVICE_LIST_FLAG = "--rotary-list-devices"   # engine/native/backends.py CHILD_FLAG


def list_devices_child(argv: list[str]) -> int:
    """The frozen app run as engine/native/backends.py's child: print one back-end's devices."""
    return facade.list_devices_child(argv)


BACKEND_PROBE_FLAG = "--rotary-probe-backend"   # engine/runtime/devices/backend_probe.py PROBE_FLAG


def probe_backend_child(argv: list[str]) -> int:
    """The frozen app run as the back-end probe's child: one variant's tokens/s on the card."""
    return facade.probe_backend_child(argv)


CPU_CALIBRATION_FLAG = "--rotary-calibrate-cpu"   # engine/runtime/devices/cpu_calibration.py CALIBRATE_FLAG


def calibrate_cpu_child(argv: list[str]) -> int:
    """The frozen app run as the processor calibration's driver or one of its children."""
    return facade.calibrate_cpu_child(argv)


def check_text_recognition() -> tuple[bool, str]:
    """The self-test's OCR check (engine/documents/ocr.py)."""
    return facade.check_text_recognition()


def real_backend() -> EngineBackend:
    return EngineBackend(
        make_engine=facade.make_engine, probe=facade.probe, read_vram=facade.read_vram,
        plan_model=facade.plan_model, ensure_demo_model=facade.ensure_demo_model,
        process_ram=facade.process_ram_bytes, server_config=facade.server_config,
        make_remote_engine=facade.make_remote_engine,
        list_server_models=facade.list_server_models, engine_check_in_child=True)


def found_choice(choice: facade.ModelChoice) -> FoundChoice:
    facts = choice.planned.facts if choice.planned else None
    if choice.text is not None:
        words = say(choice.text)
    elif choice.problem is not None:
        words = say(choice.problem.msg) if choice.problem.msg else choice.problem.message
    else:
        words = ""
    return FoundChoice(choice.found.path, choice.found.name, choice.found.source,
                       choice.found.size, choice.level, words,
                       choice.expected_tps, facts.architecture if facts else "",
                       facts.n_expert if facts else 0, choice.thinks, choice.runs_on,
                       choice.found.also)


def preset_names() -> tuple[str, ...]:
    """The planner's preset registry plus "auto": one list for settings and the dialog."""
    return facade.preset_names()


def auto_preset() -> str:
    """The preset name that plans for this computer (the default)."""
    return facade.AUTO


def safest_preset() -> str:
    """The preset "Use the safer setting" chooses: the processor only."""
    return facade.SAFEST


def fitted_to_card(hardware: HardwareInfo, preset: str) -> str:
    """Why the setting named is made for a bigger card than the one found ("" when it is
    not): the smallest card setting is used, fitted to the memory this card has."""
    if not hardware.gpus:
        return ""
    try:
        made_for = facade.resolve_preset(preset, hardware).vram_gb
    except EngineError:
        return ""
    card = hardware.gpus[0].total_bytes / 2 ** 30
    if not made_for or made_for <= round(card):
        return ""
    return tr("No setting is made for a graphics card as small as this one ({vram} GB), so "
              "Rotary fits the smallest one to the {vram} GB this card has.").format(vram=f"{card:.1f}")


def preset_title(name: str) -> str:
    """A preset in plain words for Settings' list, in the interface's language."""
    return _preset_words(name, 0)


def preset_in_a_sentence(name: str) -> str:
    """A preset as the wizard names it in "Rotary will use …"."""
    return _preset_words(name, 1)


def _preset_words(name: str, which: int) -> str:
    try:
        return say(facade.preset_words(name)[which])
    except EngineError:          # a name this version does not know: shown as it is
        return name


def words_per_token() -> float:
    """The one ratio used wherever a token count is shown as words."""
    return facade.WORDS_PER_TOKEN


def missing_part(function: Callable[..., T] | None, *args: object) -> T:
    """Run ``function``; a part of the engine that cannot be imported (or that this back-end
    lacks: None) is a plain message."""
    try:
        if function is None:
            raise ImportError("not part of this back-end")
        return function(*args)
    except ImportError as exc:
        raise EngineError(tr("A part of Rotary is missing or damaged. Please reinstall "
                             "Rotary."), f"{getattr(function, '__name__', function)}: {exc!r}") from exc


def summary_presets() -> list[tuple[str, Msg]]:
    """(name, title) of the summary styles, in the engine's order; the title is a catalogue
    message (app.text.messages.say renders it)."""
    return [(p.name, p.title) for p in facade.SUMMARY_PRESETS.values()]


def forget_unused_documents(index_path: str, keep: set[str], moved_from: str | None = None) -> int:
    """Drop from the passage index the documents no conversation holds any more (at start,
    before the engine writes to it: a few milliseconds), after moving in those ``moved_from``
    still holds."""
    return facade.forget_unused_documents(index_path, keep, moved_from)


# ---- the wizard's and Settings' checks ----------------------------------------------------

# (model path, preset) -> the (low, typical, high) writing speed measured here, or None.
MeasuredSpeed = Callable[[str, str], "tuple[float, float, float] | None"]


class ModelChecks:
    """Probe, check and plan a model, list the models here, write the demo model, run the
    self-test: each on the bridge's worker thread (``run``), awaited on the qasync loop.
    Reached as ``EngineBridge.checks``; ``post`` hands a worker's progress to the loop."""

    def __init__(self, backend: EngineBackend, run: Callable[..., Awaitable[object]],
                 post: Callable[..., None], loaded: Callable[[], ModelLoaded | None],
                 measured_speed: MeasuredSpeed | None = None) -> None:
        self._backend, self._run, self._post, self._loaded = backend, run, post, loaded
        # app.gauge.measured_speed; read by the model check on the worker thread.
        self.measured_speed = measured_speed

    async def _in_worker(self, function: Callable[..., T], *args: object) -> T:
        return cast(T, await self._run(function, *args))

    async def probe_hardware(self) -> HardwareInfo:
        return await self._in_worker(self._backend.probe)

    @staticmethod
    def preset_for(hardware: HardwareInfo, wanted: str | None = None) -> str:
        """The planner's own choice ("auto" resolved for this computer); pure and quick."""
        return facade.resolve_preset(wanted, hardware).name

    async def check_model(self, path: str, preset: str | None = None,
                          advanced: Mapping[str, int] | None = None) -> ModelCheck:
        """Inspect + plan + describe through the engine's planning entry point, with the
        user's Advanced values: the recipe shown is the one load_model loads. Raises the
        engine's EngineError for bad files."""
        return await self._in_worker(self._check_blocking, path, preset, advanced)

    def _check_blocking(self, path: str, preset: str | None,
                        advanced: Mapping[str, int] | None = None) -> ModelCheck:
        hardware = self._backend.probe()
        chosen = preset or self.preset_for(hardware)
        # The recipe's preset is the chosen one ("auto" is resolved above).
        measured = self.measured_speed(path, chosen) if self.measured_speed else None
        planned = self._backend.plan_model(path, hardware, chosen, advanced, measured)
        summary = planned.summary
        return ModelCheck(path, planned.facts.name or os.path.basename(path), chosen,
                          summary.level, say(summary.text), summary.expected_tps,
                          planned.facts, planned.recipe, summary.measured,
                          fitted_to_card(hardware, chosen), self._placed(path, chosen),
                          cast("Sampling | None", facade.sampling_for(path)))

    def _placed(self, path: str, preset: str) -> str:
        """The measured placement of the model loaded now, if ``path`` is it with this
        setting: the estimate stands beside what was measured, never alone against it."""
        loaded = self._loaded()
        placement = None if loaded is None else loaded.placement
        if placement is None or loaded is None or loaded.recipe.preset != preset or \
                os.path.realpath(loaded.facts.path) != os.path.realpath(path) or \
                not sum(device.total_bytes for device in placement.devices) or \
                placement.message is None:
            return ""             # not this model, or no buffer sizes were logged: unknown
        return tr("Measured now that it is loaded. {placed}").format(
            placed=say(placement.message))

    async def find_models(self, folders: list[str], preset: str | None = None,
                          advanced: Mapping[str, int] | None = None) -> list[FoundChoice]:
        """The models on this computer and in ``folders`` (the organisation's), each planned
        through the same entry point as the model check; best first."""
        return await self._in_worker(self._find_blocking, list(folders), preset, advanced)

    def _find_blocking(self, folders: list[str], preset: str | None,
                       advanced: Mapping[str, int] | None) -> list[FoundChoice]:
        hardware = self._backend.probe()
        chosen = preset or self.preset_for(hardware)
        found = (self._backend.find_models or facade.find_models_here)(folders)
        choices = facade.plan_found(found, hardware, chosen, advanced, self.measured_speed,
                                    plan=self._backend.plan_model)
        return [found_choice(choice) for choice in choices]

    async def run_self_test(self, checks: Callable[..., T],
                            progress: Callable[..., None] | None = None) -> T:
        """``checks(backend, progress)`` (app.setup.selftest) on the worker: the wizard's
        "check my computer". ``progress`` is called on the loop's thread with what the
        worker reports."""
        if progress is None:
            return await self._in_worker(checks, self._backend)

        def report(*step: object) -> None:       # on the worker: only hand it over
            self._post(progress, *step)

        return await self._in_worker(checks, self._backend, report)

    def read_memory(self) -> tuple[VramReading | None, int | None]:
        """The graphics card's memory and this process's (blocking: the gauge polls it on a
        worker). NVML can fail at any time (driver reset, no NVIDIA GPU): that is 'unknown'."""
        try:
            vram = self._backend.read_vram(0)
        except Exception:          # noqa: BLE001 - any NVML failure means "unknown"
            vram = None
        try:
            ram = int(self._backend.process_ram()) or None
        except Exception:          # noqa: BLE001 - psutil refused: "unknown"
            ram = None
        return vram, ram

    async def demo_model(self, directory: Path) -> Path:
        return Path(await self._in_worker(self._backend.ensure_demo_model, directory))
