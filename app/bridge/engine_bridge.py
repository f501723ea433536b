"""The one place where the GUI and the engine meet (GPT4All's ``Chat``/``ChatLLM`` pair).

Requests go in as method calls; what the engine reports comes out on the GUI thread as
Qt signals: a model's load through its own signals (for the loader and the gauge), and
every event of a chat or document request, as the engine's own event object, through one
signal, ``request_event``, whose one receiver is app.session.Session.on_event. The engine
calls our listener on *its* thread, so the listener only hands the event to the qasync loop
(``loop.call_soon_threadsafe``, which qasync delivers in order on the GUI thread); nothing
here touches a widget from another thread.

Blocking engine calls (check and plan a model, probe hardware, read VRAM, write the demo
model: ``EngineBridge.checks``, a facade.ModelChecks) run on worker threads through
``loop.run_in_executor`` and are awaited on the qasync loop, so the window never freezes.
With facade.py (the same calls without Qt) this is the only app code that reaches the engine's functions, through one
typed module of plain imports (``engine.facade``); other app modules use only the frozen data
types (``engine.api``, ``engine.errors``, ``engine.messages``, the recipe, model facts; the
hardware types are re-exported by facade.py), checked by tests/app/test_app_import_contract.py
and the import-linter contract in pyproject.toml.
"""

from __future__ import annotations

import asyncio
import functools
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Callable, Mapping, Sequence, TypeVar, cast

from PySide6.QtCore import QObject, Signal

from engine.api import (ChatMessage, ChatRequest, DocumentFinished, DocumentInspected,
                        DocumentProgress, DocumentRequest, EngineLike, Event, LoadFallback,
                        LoadProgress, LoadRequest, ModelLoaded, ModelUnloaded, PassagesChosen,
                        PromptProgress, RequestFailed, RequestFinished, RequestStarted,
                        ServerModelLoaded, StepRecord)
from engine.errors import EngineError, EngineStateError
from app.bridge.facade import (EngineBackend, MeasuredSpeed, ModelChecks, ServerConnection,
                               missing_part)
from app.text.i18n import tr
from app.text.messages import say

if TYPE_CHECKING:
    from engine.facade import ServerConfig

VRAM_POLL_SECONDS = 0.5
REQUEST_EVENTS = (RequestStarted, PromptProgress, StepRecord, RequestFinished, DocumentInspected,
                  DocumentProgress, DocumentFinished, PassagesChosen)
T = TypeVar("T")


# ---- the bridge ------------------------------------------------------------------------

class EngineBridge(QObject):
    load_progress = Signal(float, str)     # fraction 0..1, plain message
    load_fallback = Signal(str)            # plain explanation of the step down
    model_loaded = Signal(object)          # engine.api.ModelLoaded, or ServerModelLoaded
    load_failed = Signal(object)           # EngineError
    model_unloaded = Signal()
    # Every event of a chat or document request, as the engine's own object: RequestStarted,
    # PromptProgress, StepRecord, RequestFinished, RequestFailed (not a load's),
    # DocumentInspected/Progress/Finished, PassagesChosen (app.session.Session.on_event).
    request_event = Signal(object)
    vram_read = Signal(object)             # engine VramReading, or None when it cannot be read
    ram_read = Signal(object)              # bytes this process holds (measured), or None

    def __init__(self, backend: EngineBackend, loop: asyncio.AbstractEventLoop,
                 parent: QObject | None = None, *,
                 measured_speed: MeasuredSpeed | None = None) -> None:
        super().__init__(parent)
        self._backend = backend
        self._loop = loop
        self._engine: EngineLike | None = None
        self._server: ServerConfig | None = None      # None: the model runs on this computer
        self._load_id: int | None = None
        self.loaded: ModelLoaded | None = None     # its measured placement, for the checks
        self._tasks = ThreadPoolExecutor(1, thread_name_prefix="rotary-tasks")
        self._vram_pool = ThreadPoolExecutor(1, thread_name_prefix="rotary-vram")
        self._vram_task: asyncio.Task | None = None
        self._closed = False
        # The wizard's and Settings' checks, on the same worker, awaited on the same loop.
        self.checks = ModelChecks(backend, self._in_worker, self._post, lambda: self.loaded,
                                  measured_speed)

    # ---- engine thread → GUI thread ---------------------------------------------------

    def _listener(self, event: Event) -> None:
        """Runs on the engine thread: only hand the event over to the loop's thread."""
        self._post(self._dispatch, event)

    def _post(self, function: Callable[..., None], *args: object) -> None:
        """From any thread, ``function(*args)`` on the loop's thread, in the order posted.
        Once the loop is closed (Rotary quits) there is nothing left to tell."""
        def here() -> None:
            if not self._closed:
                function(*args)

        try:
            self._loop.call_soon_threadsafe(here)
        except RuntimeError:        # the loop is closed
            pass

    def _dispatch(self, event: Event) -> None:
        if self._closed:
            return
        if isinstance(event, REQUEST_EVENTS):      # a chat's or a document's: the session's
            self.request_event.emit(event)
            return
        handler = cast("Callable[[EngineBridge, Event], None] | None",
                       self._HANDLERS.get(type(event)))
        if handler is not None:
            handler(self, event)

    def _on_failed(self, event: RequestFailed) -> None:
        if event.request_id == self._load_id:
            self._load_id = None
            self.load_failed.emit(event.error)
        else:
            self.request_event.emit(event)

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
        RequestFailed: _on_failed,
        ModelUnloaded: lambda self, e: self._on_unloaded(),
    }

    # ---- requests -----------------------------------------------------------------------

    def _ensure_engine(self) -> EngineLike:
        if self._engine is None and self._server is not None:
            self._engine = missing_part(self._backend.make_remote_engine, self._listener,
                                         self._server)
        elif self._engine is None:
            self._engine = missing_part(self._backend.make_engine, self._listener)
        return self._engine

    # ---- the office server (app/setup/server_settings.py) ----------------------------------------

    def _server_config(self, connection: ServerConnection) -> ServerConfig:
        """app.settings.server.ServerConnection → the engine's ServerConfig."""
        if self._backend.server_config is None:
            raise EngineError(tr("This copy of Rotary cannot use an office server."))
        return missing_part(functools.partial(
            self._backend.server_config, connection.url, model=connection.model,
            api_key=connection.api_key, verify_tls=connection.verify_tls,
            ca_bundle=connection.ca_bundle))

    def use_server(self, connection: ServerConnection | None) -> None:
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
        return missing_part(self._backend.server_config, url).address

    async def server_models(self, connection: ServerConnection) -> list[str]:
        config = self._server_config(connection)
        if self._backend.list_server_models is None:
            raise EngineError(tr("This copy of Rotary cannot use an office server."))
        entries = await self._in_worker(self._backend.list_server_models, config)
        return [entry.id for entry in entries]

    def load_model(self, path: str, preset: str, overrides: Mapping[str, int],
                   state_dir: str | None = None) -> None:
        """Start loading; the outcome arrives as model_loaded or load_failed. ``overrides``
        are the user's Advanced values (app.settings.model.Settings.overrides): the engine plans
        them together with what this build can do, as check_model does. ``state_dir``: where
        the engine keeps each conversation's model state between turns and restarts."""
        request = LoadRequest(path, preset=preset, advanced=dict(overrides) or None,
                              state_dir=state_dir)
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
        """Read or summarise a document (app.session.document_session): it waits its turn in the
        engine's queue like an answer. Raises EngineError."""
        if self._engine is None:
            raise EngineStateError(tr("No model is loaded yet."))
        return self._engine.document(request)

    def waits(self, request_id: int) -> bool:
        """Is this request queued behind another one? ``started`` says when its turn comes."""
        return self._engine is not None and self._engine.waiting(request_id)

    def stop(self, request_id: int | None = None) -> None:
        """Stop one answer or summary (None: the one running now). One that waits never
        starts: the engine ends it at once, empty and "stopped"."""
        if self._engine is not None:
            self._engine.stop(request_id)

    def stop_conversation(self, conversation_id: int) -> None:
        """Stop what this conversation runs and has waiting (it is being deleted)."""
        if self._engine is not None:
            self._engine.stop_conversation(conversation_id)

    def forget_conversation(self, conversation_id: int) -> None:
        """The conversation is deleted: the engine drops every state it kept for it."""
        if self._engine is not None:
            self._engine.forget_conversation(conversation_id)

    def unload(self) -> None:
        if self._engine is not None:
            self._engine.unload()

    async def _in_worker(self, function: Callable[..., T], *args: object,
                         pool: ThreadPoolExecutor | None = None) -> T:
        """Run ``function`` on a worker thread; its result (or error) is awaited on the loop.
        Closing cancels what has not begun (``shutdown``): its awaiter is cancelled."""
        if self._closed:        # a check started just before closing: nothing to run it on
            raise EngineStateError(tr("Rotary is closing."))
        return await self._loop.run_in_executor(pool or self._tasks, missing_part, function,
                                                *args)

    # ---- VRAM gauge polling ----------------------------------------------------------

    def start_vram_polling(self, interval: float = VRAM_POLL_SECONDS) -> None:
        if self._vram_task is None:
            self._vram_task = asyncio.ensure_future(self._poll_vram(interval), loop=self._loop)

    async def _poll_vram(self, interval: float) -> None:
        while not self._closed:
            vram, ram = await self._in_worker(self.checks.read_memory, pool=self._vram_pool)
            if not self._closed:
                self.vram_read.emit(vram)
                self.ram_read.emit(ram)
            await asyncio.sleep(interval)

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
