"""The engine thread: the one owner of the llama objects (GPT4All's worker thread).

Requests reach it through one queue; answers go out as events to one listener;
stop is a flag checked between tokens. Nothing here blocks the caller.
"""

from __future__ import annotations

import logging
import queue
import threading
import traceback
from dataclasses import dataclass
from typing import Any, Callable

from engine.api import (ChatRequest, DocumentRequest, Event, Listener, LoadFallback, LoadProgress, LoadRequest,
                        ModelLoaded, ModelUnloaded, QuestionRequest, RequestFailed, RequestFinished,
                        next_request_id)
from engine.errors import EngineError, EngineStateError, GenerationError
from engine.messages import msg

log = logging.getLogger("rotary.engine")


@dataclass(frozen=True)
class _Command:
    kind: str               # "load", "chat", "document", "question", "unload", "quit"
    request: Any = None


class EngineService:
    """Runs llama.cpp on its own thread; see ``engine.api.EngineLike``."""

    def __init__(self, listener: Listener, *, name: str = "rotary-engine") -> None:
        self._listener = listener
        self._commands: queue.Queue[_Command] = queue.Queue()
        self._stop = threading.Event()
        self._worker = self._make_worker()
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    def _make_worker(self) -> "EngineWorker":
        """What runs the commands; engine.remote's service runs them against a server."""
        return EngineWorker(self._emit, self._stop)

    # ---- called from any thread ------------------------------------------------------

    def load(self, request: LoadRequest) -> int:
        self._commands.put(_Command("load", request))
        return request.request_id

    def chat(self, request: ChatRequest) -> int:
        self._stop.clear()
        self._commands.put(_Command("chat", request))
        return request.request_id

    def document(self, request: DocumentRequest) -> int:
        self._stop.clear()
        self._commands.put(_Command("document", request))
        return request.request_id

    def ask(self, request: QuestionRequest) -> int:
        """A question about a conversation's documents (engine/documents/ask.py)."""
        self._stop.clear()
        self._commands.put(_Command("question", request))
        return request.request_id

    def stop(self) -> None:
        self._stop.set()

    def unload(self) -> None:
        self._commands.put(_Command("unload"))

    def shutdown(self, timeout: float = 10.0) -> None:
        self._stop.set()
        self._commands.put(_Command("quit"))
        self._thread.join(timeout)

    @property
    def worker(self) -> "EngineWorker":
        """For tests and the CLI, which run on the engine thread's behalf."""
        return self._worker

    # ---- engine thread --------------------------------------------------------------

    def _run(self) -> None:
        while True:
            command = self._commands.get()
            if command.kind == "quit":
                self._worker.unload()
                return
            self._worker.handle(command)

    def _emit(self, event: Event) -> None:
        try:
            self._listener(event)
        except Exception:  # a broken listener must not kill the engine thread
            log.exception("engine listener failed on %s", type(event).__name__)


class EngineWorker:
    """What the engine thread does with each command. Owns the loaded model."""

    def __init__(self, emit: Callable[[Event], None], stop: threading.Event) -> None:
        self.emit, self.stop = emit, stop
        self.loaded = None      # engine.runtime.loader.LoadedModel

    def handle(self, command: _Command) -> None:
        request_id = getattr(command.request, "request_id", next_request_id())
        conversation_id = getattr(command.request, "conversation_id", None)
        try:
            getattr(self, f"_do_{command.kind}")(command.request)
        except EngineError as error:
            self.emit(RequestFailed(request_id, error, conversation_id))
        except Exception as error:  # unexpected: still one typed path to the user
            self.emit(RequestFailed(request_id, GenerationError(
                msg("engine.unexpected"), traceback.format_exc()),
                conversation_id))
            log.exception("engine command %s failed: %s", command.kind, error)

    def _do_load(self, request: LoadRequest) -> None:
        from engine.runtime.loader import load_with_fallback  # noqa: PLC0415

        self.unload()
        progress = lambda fraction, message: self.emit(  # noqa: E731
            LoadProgress(request.request_id, fraction, message))
        fallback = lambda recipe: self.emit(  # noqa: E731
            LoadFallback(request.request_id, recipe.note, recipe))
        self.loaded = load_with_fallback(request, progress, fallback)
        self.emit(ModelLoaded(request.request_id, self.loaded.facts, self.loaded.recipe,
                              self.loaded.summary))

    def _do_chat(self, request: ChatRequest) -> None:
        if self.loaded is None:
            raise EngineStateError(msg("engine.no_model"))
        run = self.loaded.start_chat(request, self.stop)
        for record in run.records():
            self.emit(record)
        self.loaded.finish_chat(run)
        self.emit(RequestFinished(request.request_id, run.text, run.stats,
                                  request.conversation_id))

    def _do_document(self, request: DocumentRequest) -> None:
        from engine.documents.summarize import summarize_on_engine_thread  # noqa: PLC0415

        if self.loaded is None:
            raise EngineStateError("No model is loaded yet, so the document cannot be read. "
                                   "Choose a model in Settings.")
        summarize_on_engine_thread(self.loaded, request, self.emit, self.stop)

    def _do_question(self, request: QuestionRequest) -> None:
        from engine.documents.ask import answer_on_engine_thread  # noqa: PLC0415

        if self.loaded is None:
            raise EngineStateError(msg("engine.no_model"))
        answer_on_engine_thread(self.loaded, request, self.emit, self.stop)

    def _do_unload(self, _request=None) -> None:
        self.unload()
        self.emit(ModelUnloaded(next_request_id()))

    def unload(self) -> None:
        if self.loaded is not None:
            self.loaded.close()
            self.loaded = None

