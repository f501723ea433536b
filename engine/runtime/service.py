"""The engine thread: the one owner of the loaded model (GPT4All's worker thread).

Requests reach it through one queue (``engine.runtime.requests``), each with its own stop;
answers go out as events to one listener. What a load produces says where the model runs:
a ``LocalModel`` (this computer, llama.cpp) or, with ``engine.remote``'s opener, a model on
the office server. Both answer the same commands; the service dispatches each request by
its type from one table. A chat request that carries documents is answered from them here,
on the engine thread (GPT4All's ``ChatLLM::prompt(collections)``): passages chosen, the
model asked, page references checked. Nothing here blocks the caller.
"""

from __future__ import annotations

import logging
import threading
import traceback
from dataclasses import dataclass
from typing import Callable, Protocol

from engine.api import (ChatRequest, DocumentRequest, Event, Listener, LoadFallback, LoadProgress,
                        LoadRequest, ModelLoaded, ModelUnloaded, RequestFailed, RequestFinished,
                        RequestStarted, ResponseStats, next_request_id)
from engine.errors import EngineError, EngineStateError, GenerationError, ReadingStoppedError
from engine.messages import Msg, msg
from engine.documents.model import SummaryModel
from engine.runtime.conversation.conversation_state import forget_kept_state
from engine.runtime.generation.prompt_progress import PromptMeter
from engine.runtime.requests import CancelToken, RequestQueue

log = logging.getLogger("rotary.engine")

Emit = Callable[[Event], None]


class IdleWork(Protocol):
    """Work in small pieces while no request waits; ``step()`` returns False when done."""

    def step(self) -> bool: ...


class Model(Protocol):
    """A loaded model, on this computer or on the office server; used on the engine thread."""

    def loaded_event(self, request_id: int) -> Event: ...
    def chat(self, request: ChatRequest, stop: CancelToken, emit: Emit) -> None: ...
    def document(self, request: DocumentRequest, stop: CancelToken, emit: Emit) -> None: ...
    def documents_model(self) -> SummaryModel: ...
    def forget_conversation(self, conversation_id: int) -> None: ...
    # What to do while no request waits (read the next turn's start ahead), or None.
    def idle_work(self) -> IdleWork | None: ...
    def close(self) -> None: ...


# LoadRequest -> the loaded model; reports progress through emit (on the engine thread).
Opener = Callable[[LoadRequest, Emit], Model]


class LocalModel:
    """A model file loaded here by llama.cpp (engine.runtime.loader.LoadedModel)."""

    def __init__(self, loaded) -> None:
        self.loaded = loaded
        self._answered = None       # the last answer's run, until its reading ahead starts

    def loaded_event(self, request_id: int) -> ModelLoaded:
        from engine.runtime.generation.generate import chat_format  # noqa: PLC0415 - needs llama_cpp
        return ModelLoaded(request_id, self.loaded.facts, self.loaded.recipe, self.loaded.summary,
                           sampling=self.loaded.sampling_defaults,
                           chat_format=chat_format(self.loaded.native),
                           placement=self.loaded.placement)

    def chat(self, request: ChatRequest, stop: CancelToken, emit: Emit) -> None:
        # How far a long prompt is read, a few times a second (engine/runtime/generation/prompt_progress.py)
        run = self.loaded.start_chat(request, stop, PromptMeter(
            request.request_id, request.conversation_id, emit), conversation=True)
        for record in run.records():
            emit(record)
        self.loaded.finish_chat(run)
        self._answered = run
        emit(RequestFinished(request.request_id, run.text, run.stats, request.conversation_id,
                             thinking=getattr(run, "thinking", ""),
                             context=getattr(run, "context_report", None)))

    def document(self, request: DocumentRequest, stop: CancelToken, emit: Emit) -> None:
        # Imported with this module, the document readers (~110 ms) would load on the app's
        # thread when it makes the engine.
        from engine.documents.summarize import summarize_on_engine_thread  # noqa: PLC0415 - above

        summarize_on_engine_thread(self.documents_model(), request, emit, stop)

    def documents_model(self) -> SummaryModel:
        # summary_model's llama runtime (~0.5 s) loads at the first document, not with the app.
        from engine.runtime.generation.summary_model import LocalSummaryModel  # noqa: PLC0415 - above

        return LocalSummaryModel(self.loaded)

    def forget_conversation(self, conversation_id: int) -> None:
        self.loaded.forget_conversation(conversation_id)

    def idle_work(self) -> IdleWork | None:
        from engine.runtime.generation.read_ahead import read_ahead_for  # noqa: PLC0415 - needs llama_cpp

        run, self._answered = self._answered, None
        return read_ahead_for(run)

    def close(self) -> None:
        self.loaded.close()


def open_local(request: LoadRequest, emit: Emit) -> LocalModel:
    # The llama runtime (~0.3-0.9 s of imports) loads here, on the engine thread.
    from engine.runtime.loader import load_with_fallback  # noqa: PLC0415 - above

    def progress(fraction: float, message: Msg) -> None:
        emit(LoadProgress(request.request_id, fraction, message))

    def fallback(recipe) -> None:
        emit(LoadFallback(request.request_id, recipe.note, recipe))

    return LocalModel(load_with_fallback(request, progress, fallback))


@dataclass(frozen=True)
class _Unload:
    pass


@dataclass(frozen=True)
class _Quit:
    pass


@dataclass(frozen=True)
class _Forget:
    conversation_id: int


class EngineService:
    """Runs the loaded model on its own thread; see ``engine.api.EngineLike``.

    ``opener`` loads what a LoadRequest names: a model file here (the default) or, for
    engine.remote, a model on the office server.
    """

    def __init__(self, listener: Listener, opener: Opener = open_local, *,
                 name: str = "rotary-engine") -> None:
        self._listener = listener
        self._opener = opener
        self._requests = RequestQueue()
        self.model: Model | None = None        # owned by the engine thread
        self._state_dir: str | None = None     # the last load's folder of kept states
        self._idle: IdleWork | None = None      # engine thread: read ahead while none waits
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    # ---- called from any thread ------------------------------------------------------

    def load(self, request: LoadRequest) -> int:
        self._requests.put(request)
        return request.request_id

    def chat(self, request: ChatRequest) -> int:
        self._requests.put(request)
        return request.request_id

    def document(self, request: DocumentRequest) -> int:
        self._requests.put(request)
        return request.request_id

    def stop(self, request_id: int | None = None) -> None:
        self._requests.stop(request_id)

    def stop_conversation(self, conversation_id: int) -> None:
        self._requests.stop_conversation(conversation_id)

    def waiting(self, request_id: int) -> bool:
        return self._requests.waiting(request_id)

    def forget_conversation(self, conversation_id: int) -> None:
        """Drop every state kept for this conversation (it is being deleted): in the model's
        context, in RAM, and on disk even with no model loaded."""
        self._requests.put(_Forget(conversation_id))

    def unload(self) -> None:
        self._requests.put(_Unload())

    def wait_quiet(self, timeout: float | None = None) -> bool:
        """Wait until the engine thread has nothing to do, reading ahead included (for tests
        and benchmarks: a user who reads the answer and types)."""
        return self._requests.quiet.wait(timeout)

    def shutdown(self, timeout: float = 10.0) -> None:
        """Stop what runs, drop what waits, close the model and join the thread."""
        self._requests.stop_all()
        self._requests.put(_Quit(), first=True)
        self._thread.join(timeout)

    # ---- engine thread --------------------------------------------------------------

    def _run(self) -> None:
        while True:
            if self._idle is not None and not self._requests.pending():
                self._idle_step()
                continue
            request, stop = self._requests.take()
            self._idle = None             # any request ends the reading ahead at once
            try:
                if isinstance(request, _Quit):
                    self._close_model()
                    return
                self._handle(request, stop)
            finally:
                self._requests.done()

    def _handle(self, request, stop: CancelToken) -> None:
        request_id = getattr(request, "request_id", None) or next_request_id()
        conversation_id = getattr(request, "conversation_id", None)
        try:
            self._COMMANDS[type(request)](self, request, stop)
        except EngineError as error:
            self._emit(RequestFailed(request_id, error, conversation_id))
        except Exception as error:  # unexpected: still one typed path to the user
            self._emit(RequestFailed(request_id, GenerationError(
                msg("engine.unexpected"), traceback.format_exc()), conversation_id))
            log.exception("engine request %s failed: %s", type(request).__name__, error)

    def _load(self, request: LoadRequest, _stop: CancelToken) -> None:
        self._close_model()
        self._state_dir = request.state_dir
        model = self._opener(request, self._emit)
        try:        # a model the engine cannot talk to (no chat layer) is not kept loaded
            loaded = model.loaded_event(request.request_id)
        except EngineError:
            model.close()
            raise
        self.model = model
        self._emit(loaded)

    def _chat(self, request: ChatRequest, stop: CancelToken) -> None:
        if stop.is_set():           # stopped while it waited: it never starts
            self._finish_unstarted(request)
            return
        if request.documents is None:
            model = self._loaded_model(self._NO_MODEL)
            self._emit(RequestStarted(request.request_id, request.conversation_id))
            model.chat(request, stop, self._emit)
            self._idle = model.idle_work()
            return
        # The passage index and citation checks load with the first question, not the app
        from engine.documents.ask import answer_on_engine_thread  # noqa: PLC0415 - above

        model = self._loaded_model(self._NO_MODEL_FOR_DOCUMENT)
        self._emit(RequestStarted(request.request_id, request.conversation_id))
        answer_on_engine_thread(model.documents_model(), request, self._emit, stop)

    def _document(self, request: DocumentRequest, stop: CancelToken) -> None:
        if stop.is_set():
            raise ReadingStoppedError(msg("engine.document_stopped_before_start"))
        model = self._loaded_model(self._NO_MODEL_FOR_DOCUMENT)
        self._emit(RequestStarted(request.request_id, request.conversation_id))
        model.document(request, stop, self._emit)

    def _idle_step(self) -> None:
        try:
            if self._idle is not None and not self._idle.step():
                self._idle = None
        except Exception:  # reading ahead is never worth a failure: the next turn reads it
            log.exception("reading ahead failed")
            self._idle = None

    def _finish_unstarted(self, request: ChatRequest) -> None:
        """An answer stopped before it began: it ends, empty and "stopped", like any other."""
        self._emit(RequestFinished(request.request_id, "", ResponseStats.never_started(
            request.request_id), request.conversation_id))

    def _unload(self, _request: _Unload, _stop: CancelToken) -> None:
        self._close_model()
        self._emit(ModelUnloaded(next_request_id()))

    def _forget(self, request: _Forget, _stop: CancelToken) -> None:
        if self.model is not None:
            self.model.forget_conversation(request.conversation_id)
        elif self._state_dir is not None:
            forget_kept_state(self._state_dir, request.conversation_id)

    _COMMANDS: dict[type, Callable[..., None]] = {      # (service, request, stop)
        LoadRequest: _load, ChatRequest: _chat, DocumentRequest: _document, _Unload: _unload,
        _Forget: _forget,
    }

    # What a request meets before any load (engine.remote says "not connected").
    _NO_MODEL, _NO_MODEL_FOR_DOCUMENT = "engine.no_model", "engine.no_model_for_document"

    def _loaded_model(self, nothing_loaded: str) -> Model:
        if self.model is None:
            raise EngineStateError(msg(nothing_loaded))
        return self.model

    def _close_model(self) -> None:
        if self.model is not None:
            model, self.model = self.model, None
            model.close()

    def _emit(self, event: Event) -> None:
        try:
            self._listener(event)
        except Exception:  # a broken listener must not kill the engine thread
            log.exception("engine listener failed on %s", type(event).__name__)
