"""The one place where the GUI and the engine meet (GPT4All's ``Chat``/``ChatLLM`` pair).

Requests go in as method calls; everything the engine reports comes out as Qt
signals on the GUI thread. The engine calls our listener on *its* thread, so the
listener only hands the event over to the GUI thread through a queued signal
(``MainThreadHandoff``); nothing here touches a widget from another thread.

Blocking engine calls (check and plan a model, probe hardware, read VRAM, write the demo
model) run on worker threads and are awaited from the qasync loop, so the window never
freezes; results come back through the same queued hand-off. This is the only app module
that reaches the engine's functions, and it does so through one typed module of plain
imports (``engine.facade``); other app modules use only the frozen data types
(``engine.api``, ``engine.errors``, ``engine.messages``, the recipe, model facts; the
hardware types are re-exported from here), checked by tests/app/test_app_import_contract.py
and the import-linter contract in pyproject.toml.
"""

from __future__ import annotations

import asyncio
import functools
import os
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence, cast

from PySide6.QtCore import QObject, Signal

from engine import facade
from engine.api import (ChatMessage, ChatRequest, DocumentFinished, DocumentInspected,
                        DocumentProgress, DocumentRequest, EngineLike, Listener, LoadFallback,
                        LoadProgress, LoadRequest, ModelLoaded, ModelUnloaded, PassagesChosen,
                        RequestFailed, RequestFinished, RequestStarted, ServerModelLoaded,
                        StepRecord)
from engine.errors import EngineError, EngineStateError
# The engine's own frozen hardware types and Advanced ranges, re-exported so GUI modules
# never mirror them.
from engine.facade import (ADVANCED_RANGES, GpuInfo, HardwareInfo, PlannedModel,  # noqa: F401
                           Range, VramReading)
from app.i18n import tr
from app.messages import say
from app.qt_compat import MainThreadHandoff

VRAM_POLL_SECONDS = 0.5


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
    expected_tps: Any      # (low, high) tokens per second
    architecture: str
    n_expert: int
    thinks: bool
    runs_on: str          # "graphics card", "processor" or ""


@dataclass(frozen=True)
class ModelCheck:
    """What the wizard and settings show after checking a model file."""
    path: str
    model_name: str
    preset: str
    level: str            # "green", "yellow" or "red"
    text: str             # plain words from planner.describe
    expected_tps: Any      # planner: (low, high) tokens per second
    facts: Any
    recipe: Any
    measured: bool = False  # expected_tps was measured on this computer (app.measured_speed)
    fitted: str = ""        # why the setting named is for another card than the one found
    placed: str = ""        # where the loaded model is, measured, when it is this model
    sampling: Any = None    # engine SamplingDefaults this model file asks for (None: unknown)


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
    server_config: Callable[..., Any] | None = None
    make_remote_engine: Callable[..., EngineLike] | None = None
    list_server_models: Callable[[Any], Any] | None = None
    # (IT's folders) -> the models on this computer (engine/model/finder.py); None: the real one.
    find_models: Callable[[list[str]], list[Any]] | None = None
    # The wizard's self-test loads the real engine in a child process (app/selftest.py):
    # beside the window's own engine thread, a second one crashed in the native device set-up.
    engine_check_in_child: bool = False


def check_native_helpers() -> tuple[bool, str]:
    """The self-test's check of the engine's C helpers (engine/native)."""
    return facade.check_native_helpers()


DEVICE_LIST_FLAG = "--rotary-list-devices"   # engine/native/backends.py CHILD_FLAG


def list_devices_child(argv: list[str]) -> int:
    """The frozen app run as engine/native/backends.py's child: print one back-end's devices."""
    return facade.list_devices_child(argv)


BACKEND_PROBE_FLAG = "--rotary-probe-backend"   # engine/runtime/backend_probe.py PROBE_FLAG


def probe_backend_child(argv: list[str]) -> int:
    """The frozen app run as the back-end probe's child: one variant's tokens/s on the card."""
    return facade.probe_backend_child(argv)


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


def _found_choice(choice: facade.ModelChoice) -> FoundChoice:
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
                       facts.n_expert if facts else 0, choice.thinks, choice.runs_on)


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


def _missing_part(function: Callable[..., Any] | None, *args: Any) -> Any:
    """Run ``function``; a part of the engine that cannot be imported (or that this back-end
    lacks: None) is a plain message."""
    try:
        if function is None:
            raise ImportError("not part of this back-end")
        return function(*args)
    except ImportError as exc:
        raise EngineError(tr("A part of Rotary is missing or damaged. Please reinstall "
                             "Rotary."), f"{getattr(function, '__name__', function)}: {exc!r}") from exc


# ---- hand-offs -------------------------------------------------------------------------

def _settle(future: asyncio.Future, work: Future) -> None:
    if future.cancelled():
        return
    if work.cancelled():        # Rotary is closing (shutdown cancels work not yet begun)
        future.cancel()
        return
    error = work.exception()
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(work.result())


# ---- the bridge ------------------------------------------------------------------------

class EngineBridge(QObject):
    load_progress = Signal(float, str)     # fraction 0..1, plain message
    load_fallback = Signal(str)            # plain explanation of the step down
    model_loaded = Signal(object)          # engine.api.ModelLoaded, or ServerModelLoaded
    load_failed = Signal(object)           # EngineError
    model_unloaded = Signal()
    started = Signal(int)                  # request id: its turn came (it may have waited)
    token = Signal(int, str)               # request id, new text
    thinking = Signal(int, str)            # request id, new thinking (never answer text)
    stats = Signal(object)                 # engine.api.StepRecord (speeds, context, hits)
    finished = Signal(object)              # engine.api.RequestFinished
    failed = Signal(int, object)           # request id, EngineError
    vram_read = Signal(object)             # engine VramReading, or None when it cannot be read
    ram_read = Signal(object)              # bytes this process holds (measured), or None
    document_event = Signal(object)        # DocumentInspected/Progress/Finished, PassagesChosen

    def __init__(self, backend: EngineBackend, loop: asyncio.AbstractEventLoop,
                 parent: QObject | None = None, *,
                 measured_speed: Callable[[str, str], Any] | None = None) -> None:
        super().__init__(parent)
        self._backend = backend
        self._loop = loop
        self._engine: EngineLike | None = None
        self._server: Any = None          # engine.remote.config.ServerConfig, or None: local
        self._load_id: int | None = None
        self.loaded: ModelLoaded | None = None     # its measured placement, for the checks
        self._tasks = ThreadPoolExecutor(1, thread_name_prefix="rotary-tasks")
        self._vram_pool = ThreadPoolExecutor(1, thread_name_prefix="rotary-vram")
        self._vram_task: asyncio.Task | None = None
        self._closed = False
        self._handoff = MainThreadHandoff(self)
        # (model path, preset) -> the (low, high) writing speed measured on this computer, or
        # None (app.measured_speed); read by the model check on a worker thread.
        self.measured_speed = measured_speed

    # ---- engine thread → GUI thread ---------------------------------------------------

    def _listener(self, event: Any) -> None:
        """Runs on the engine thread: only hand the event over."""
        self._handoff.post(functools.partial(self._dispatch, event))

    def _dispatch(self, event: Any) -> None:
        if self._closed:
            return
        handler = cast("Callable[[EngineBridge, Any], None] | None",
                       self._HANDLERS.get(type(event)))
        if handler is not None:
            handler(self, event)

    def _on_step(self, event: StepRecord) -> None:
        if event.thinking:
            self.thinking.emit(event.request_id, event.thinking)
        if event.text:
            self.token.emit(event.request_id, event.text)
        self.stats.emit(event)

    def _on_failed(self, event: RequestFailed) -> None:
        if event.request_id == self._load_id:
            self._load_id = None
            self.load_failed.emit(event.error)
        else:
            self.failed.emit(event.request_id, event.error)

    def _on_loaded(self, event: ModelLoaded | ServerModelLoaded) -> None:
        self._load_id = None
        self.loaded = event if isinstance(event, ModelLoaded) else None
        self.model_loaded.emit(event)

    def _on_unloaded(self) -> None:
        self.loaded = None
        self.model_unloaded.emit()

    # Engine sentences (engine.messages.Msg) are said here, in the interface's language.
    _HANDLERS = {
        LoadProgress: lambda self, e: self.load_progress.emit(e.fraction, say(e.message)),
        LoadFallback: lambda self, e: self.load_fallback.emit(say(e.message)),
        ModelLoaded: _on_loaded,
        ServerModelLoaded: _on_loaded,
        RequestStarted: lambda self, e: self.started.emit(e.request_id),
        StepRecord: _on_step,
        RequestFinished: lambda self, e: self.finished.emit(e),
        RequestFailed: _on_failed,
        ModelUnloaded: lambda self, e: self._on_unloaded(),
        DocumentInspected: lambda self, e: self.document_event.emit(e),
        DocumentProgress: lambda self, e: self.document_event.emit(e),
        DocumentFinished: lambda self, e: self.document_event.emit(e),
        PassagesChosen: lambda self, e: self.document_event.emit(e),
    }

    # ---- requests -----------------------------------------------------------------------

    def _ensure_engine(self) -> EngineLike:
        if self._engine is None and self._server is not None:
            self._engine = _missing_part(self._backend.make_remote_engine, self._listener,
                                         self._server)
        elif self._engine is None:
            self._engine = _missing_part(self._backend.make_engine, self._listener)
        return self._engine

    # ---- the office server (app/server_settings.py) ----------------------------------------

    def _server_config(self, connection: Any) -> Any:
        """app.server_settings_model.ServerConnection → the engine's ServerConfig."""
        if self._backend.server_config is None:
            raise EngineError(tr("This copy of Rotary cannot use an office server."))
        return _missing_part(functools.partial(
            self._backend.server_config, connection.url, model=connection.model,
            api_key=connection.api_key, verify_tls=connection.verify_tls,
            ca_bundle=connection.ca_bundle))

    def use_server(self, connection: Any | None) -> None:
        """Run the next load on an office server (or, with None, on this computer)."""
        config = None if connection is None else self._server_config(connection)
        if config != self._server and self._engine is not None:
            self._engine.shutdown()
            self._engine = None
        self._server = config

    def server_address(self, url: str) -> str:
        """The exact address that will receive the conversation; EngineError if not one."""
        if self._backend.server_config is None:
            raise EngineError(tr("This copy of Rotary cannot use an office server."))
        return _missing_part(self._backend.server_config, url).address

    async def server_models(self, connection: Any) -> list[str]:
        config = self._server_config(connection)
        if self._backend.list_server_models is None:
            raise EngineError(tr("This copy of Rotary cannot use an office server."))
        entries = await self._in_worker(self._backend.list_server_models, config)
        return [entry.id for entry in entries]

    def load_model(self, path: str, preset: str, overrides: Mapping[str, int]) -> None:
        """Start loading; the outcome arrives as model_loaded or load_failed. ``overrides``
        are the user's Advanced values (app.settings.Settings.overrides): the engine plans
        them together with what this build can do, as check_model does."""
        request = LoadRequest(path, preset=preset, advanced=dict(overrides) or None)
        try:
            self._load_id = request.request_id
            self._ensure_engine().load(request)
        except EngineError as error:
            self._load_id = None
            self.load_failed.emit(error)

    def chat(self, request: ChatRequest | Sequence[tuple[str, str]], temperature: float = 0.7,
             max_tokens: int = 1024, conversation_id: int | None = None,
             think: bool | None = None, model_sampling: bool = False) -> int:
        """Send a chat request; returns the request id every event of its answer carries.
        A ChatRequest goes as it is (with ``documents`` the engine answers from them and its
        RequestFinished carries the citations checked); (role, text) pairs become a plain
        one with the other arguments. Raises EngineError (e.g. no engine yet) for the caller
        to show. ``conversation_id`` lets the engine keep each conversation's experts on the
        graphics card apart (the slot cache)."""
        if self._engine is None:
            raise EngineStateError(tr("No model is loaded yet."))
        if not isinstance(request, ChatRequest):
            request = ChatRequest(tuple(ChatMessage(role, text) for role, text in request),
                                  max_tokens=max_tokens, temperature=temperature,
                                  conversation_id=conversation_id, think=think,
                                  model_sampling=model_sampling)
        return self._engine.chat(request)

    def document(self, request: DocumentRequest) -> int:
        """Read or summarise a document (app.document_flow): it waits its turn in the
        engine's queue like an answer. Raises EngineError."""
        if self._engine is None:
            raise EngineStateError(tr("No model is loaded yet."))
        return self._engine.document(request)

    def waits(self, request_id: int) -> bool:
        """Is this request queued behind another one? ``started`` says when its turn comes."""
        return self._engine is not None and self._engine.waiting(request_id)

    @staticmethod
    def summary_presets() -> list[tuple[str, Any]]:
        """(name, title) of the summary styles, in the engine's order; the title is a
        catalogue message (app.messages.say renders it)."""
        return [(p.name, p.title) for p in facade.SUMMARY_PRESETS.values()]

    @staticmethod
    def forget_unused_documents(index_path: str, keep: set[str],
                                moved_from: str | None = None) -> int:
        """Drop from the passage index the documents no conversation holds any more (at
        start, before the engine writes to it: a few milliseconds), after moving in those
        ``moved_from`` still holds."""
        return facade.forget_unused_documents(index_path, keep, moved_from)

    def stop(self, request_id: int | None = None) -> None:
        """Stop one answer or summary (None: the one running now). One that waits never
        starts: the engine ends it at once, empty and "stopped"."""
        if self._engine is not None:
            self._engine.stop(request_id)

    def stop_conversation(self, conversation_id: int) -> None:
        """Stop what this conversation runs and has waiting (it is being deleted)."""
        if self._engine is not None:
            self._engine.stop_conversation(conversation_id)

    def unload(self) -> None:
        if self._engine is not None:
            self._engine.unload()

    # ---- checks for the wizard and settings (awaitable, run on a worker) -----------------

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
                          facade.sampling_for(path))

    def _placed(self, path: str, preset: str) -> str:
        """The measured placement of the model loaded now, if ``path`` is it with this
        setting: the estimate stands beside what was measured, never alone against it."""
        loaded = self.loaded
        placement = None if loaded is None else loaded.placement
        if placement is None or loaded is None or loaded.recipe.preset != preset or \
                os.path.realpath(loaded.facts.path) != os.path.realpath(path) or \
                not sum(device.total_bytes for device in placement.devices) or \
                placement.message is None:
            return ""             # not this model, or no buffer sizes were logged: unknown
        return tr("Measured now that it is loaded: {placed}").format(
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
        return [_found_choice(choice) for choice in choices]

    async def run_self_test(self, checks: Callable[[EngineBackend], Any]) -> Any:
        """``checks(backend)`` (app.selftest) on a worker: the wizard's "check my computer"."""
        return await self._in_worker(checks, self._backend)

    async def demo_model(self, directory: Path) -> Path:
        return Path(await self._in_worker(self._backend.ensure_demo_model, directory))

    async def _in_worker(self, function: Callable[..., Any], *args: Any,
                         pool: ThreadPoolExecutor | None = None) -> Any:
        """Run ``function`` on a worker thread; the result is handed back on our thread."""
        if self._closed:        # a check started just before closing: nothing to run it on
            raise EngineStateError(tr("Rotary is closing."))
        future = self._loop.create_future()

        def done(work: Future) -> None:          # runs on the worker thread
            self._handoff.post(functools.partial(_settle, future, work))

        (pool or self._tasks).submit(_missing_part, function, *args).add_done_callback(done)
        return await future

    # ---- VRAM gauge polling ----------------------------------------------------------

    def start_vram_polling(self, interval: float = VRAM_POLL_SECONDS) -> None:
        if self._vram_task is None:
            self._vram_task = asyncio.ensure_future(self._poll_vram(interval), loop=self._loop)

    async def _poll_vram(self, interval: float) -> None:
        while not self._closed:
            vram, ram = await self._in_worker(self._read_memory_safely, pool=self._vram_pool)
            if not self._closed:
                self.vram_read.emit(vram)
                self.ram_read.emit(ram)
            await asyncio.sleep(interval)

    def _read_memory_safely(self) -> tuple[VramReading | None, int | None]:
        """NVML can fail at any time (driver reset, no NVIDIA GPU): that is 'unknown'."""
        try:
            vram = self._backend.read_vram(0)
        except Exception:          # noqa: BLE001 - any NVML failure means "unknown"
            vram = None
        try:
            ram = int(self._backend.process_ram()) or None
        except Exception:          # noqa: BLE001 - psutil refused: "unknown"
            ram = None
        return vram, ram

    # ---- shutdown ------------------------------------------------------------------------

    def shutdown(self, timeout: float = 10.0) -> None:
        self._closed = True
        if self._vram_task is not None:
            self._vram_task.cancel()
        if self._engine is not None:
            self._engine.shutdown(timeout)
            self._engine = None
        self._tasks.shutdown(wait=False, cancel_futures=True)
        self._vram_pool.shutdown(wait=False, cancel_futures=True)
