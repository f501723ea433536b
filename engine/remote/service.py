"""The remote engine: EngineService's thread, queue and stop flag, with a server behind it.

``load(LoadRequest(model_path=MODEL_ID))`` connects and checks the model; ``chat`` streams;
``count_tokens`` asks the server's tokenizer (any thread). Events are the local engine's.
"""

from __future__ import annotations

import dataclasses
import threading
import time
from typing import Callable, Sequence

from engine.api import (ChatMessage, ChatRequest, DocumentRequest, Event, Listener, LoadProgress,
                        LoadRequest, ModelLoaded, RequestFinished, ServerInfo)
from engine.errors import EngineStateError, ServerContextFullError, ServerProtocolError
from engine.model.facts import AttentionShape, ModelFacts
from engine.recipe import MemoryEstimate, Recipe
from engine.remote.chat_tokens import ChatTokenCounter
from engine.remote.client import ModelEntry, ServerClient
from engine.remote.config import ServerConfig
from engine.remote.errors import context_size_in
from engine.remote.stream import RemoteRun, conversation_tokens
from engine.runtime.service import EngineService, EngineWorker


def connect(client: ServerClient, wanted_model: str) -> ServerInfo:
    """Check the server and the model; learn its context length and tokenizer."""
    entry: ModelEntry = client.choose_model(wanted_model)
    context = entry.context_size or client.server_context_size()
    return ServerInfo(client.config.address, entry.id, context, client.find_tokenizer(entry.id))


def server_facts(server: ServerInfo) -> ModelFacts:
    """What the app may know of a model it never sees: its name and its context."""
    return ModelFacts(path=server.address, file_size=0, architecture="remote", name=server.model,
                      file_type="", n_layers=0, n_embd=0, n_ctx_train=server.context_size,
                      n_vocab=0, n_expert=0, n_expert_used=0, n_expert_shared=0, expert_ffn=0,
                      attention=AttentionShape(), chat_template=None, tensors=(), layers=())


def server_recipe(server: ServerInfo) -> Recipe:
    """Nothing of the model is held on this computer: zero VRAM and RAM, the server's context."""
    return Recipe(preset="office-server", n_gpu_layers=0, cpu_expert_layers=(),
                  n_ctx=server.context_size, flash_attn=False, kv_type="f16", n_batch=0,
                  n_ubatch=0, n_threads=0, n_threads_batch=0, vram=MemoryEstimate(),
                  ram=MemoryEstimate(), use_mmap=False,
                  note=f"The model runs on the office server at {server.address}.")


class RemoteWorker(EngineWorker):
    """Runs each command against the server; owns the one HTTP client."""

    def __init__(self, emit: Callable[[Event], None], stop: threading.Event,
                 config: ServerConfig) -> None:
        super().__init__(emit, stop)
        self.config = config
        self.client: ServerClient | None = None
        self.server: ServerInfo | None = None
        self._usage_seen = False     # does this server report token usage itself?
        self._documents = None       # engine.remote.documents.RemoteSummaryModel, made once

    def _do_load(self, request: LoadRequest) -> None:
        self.unload()
        self.emit(LoadProgress(request.request_id, 0.2,
                               f"Connecting to the office server at {self.config.root}…"))
        client = ServerClient(self.config)
        try:
            server = connect(client, request.model_path or self.config.model)
        except BaseException:
            client.close()
            raise
        self.client, self.server = client, server
        self.emit(ModelLoaded(request.request_id, server_facts(server), server_recipe(server),
                              f"Using {server.model} on the office server at {server.address}.",
                              server))

    def _do_chat(self, request: ChatRequest) -> None:
        if self.client is None or self.server is None:
            raise EngineStateError("Rotary is not connected to the office server yet.")
        # Servers that report no usage: count the prompt first, by their own tokenizer. Not
        # in parallel: llama-cpp-python's server cuts a streaming answer for any new request.
        started = time.perf_counter()
        counted = 0 if self._usage_seen else self._count_prompt(request)
        try:
            run = self._answer(request, counted, started)
        except ServerContextFullError as error:
            self._learn_context(error)
            raise
        self._usage_seen = run.counts.usage is not None
        self.emit(RequestFinished(request.request_id, run.text, run.stats,
                                  request.conversation_id))

    def _answer(self, request: ChatRequest, counted: int, started: float) -> RemoteRun:
        run = RemoteRun(self.client, self.server, request, self.stop, counted, started)
        try:
            for record in run.records():
                self.emit(record)
        except ServerContextFullError:
            # vLLM refuses a prompt that fits when prompt + max_tokens exceeds its context;
            # asked again without a limit, it writes at most what still fits.
            if run.pieces or request.max_tokens <= 0:
                raise
            return self._answer(dataclasses.replace(request, max_tokens=0), counted, started)
        return run

    def _do_document(self, request: DocumentRequest) -> None:
        from engine.documents.summarize import summarize_on_engine_thread  # noqa: PLC0415

        summarize_on_engine_thread(self._document_model(), request, self.emit, self.stop)

    def _do_question(self, request) -> None:
        from engine.documents.ask import answer_on_engine_thread  # noqa: PLC0415

        answer_on_engine_thread(self._document_model(), request, self.emit, self.stop)

    def _document_model(self):
        """The server's model as engine/documents sees it (made once per connection)."""
        from engine.remote.documents import RemoteSummaryModel  # noqa: PLC0415

        if self.client is None or self.server is None:
            raise EngineStateError("Rotary is not connected to the office server yet.")
        if self._documents is None or self._documents.client is not self.client:
            self._documents = RemoteSummaryModel(self.client, self.server)
            self.server = self._documents.server      # with the context it may have learnt
        return self._documents

    def _count_prompt(self, request: ChatRequest) -> int:
        try:
            return conversation_tokens(self.client, request, self.server.model)
        except ServerProtocolError:      # no tokenizer there: unknown, never a guess
            return 0

    def _learn_context(self, error: ServerContextFullError) -> None:
        size = context_size_in(error.details)
        if size and self.server is not None and not self.server.context_size:
            self.server = dataclasses.replace(self.server, context_size=size)

    def unload(self) -> None:
        if self.client is not None:
            self.client.close()
            self.client = self.server = None


class RemoteEngineService(EngineService):
    """``EngineService`` whose commands go to an office server; see ``engine.api.EngineLike``."""

    def __init__(self, listener: Listener, config: ServerConfig, *,
                 name: str = "rotary-remote") -> None:
        self._config = config
        self._chat_counter: ChatTokenCounter | None = None
        self._counter_lock = threading.Lock()
        super().__init__(listener, name=name)

    def _make_worker(self) -> RemoteWorker:
        return RemoteWorker(self._emit, self._stop, self._config)

    def stop(self) -> None:
        """Stop between tokens, or at once while the server has not written yet."""
        super().stop()
        client = self.worker.client
        if client is not None:
            client.abort()

    @property
    def server(self) -> ServerInfo | None:
        return self.worker.server

    def count_tokens(self, text: str) -> int:
        """Tokens of ``text`` by the server's tokenizer (safe from any thread)."""
        client, server = self._connected()
        return client.count_tokens(text, server.model)

    def count_chat_tokens(self, messages: Sequence[ChatMessage]) -> int:
        """Tokens of a whole chat prompt, the server's chat template included (llama-server,
        vLLM); ServerProtocolError where the server cannot say (llama-cpp-python's)."""
        client, server = self._connected()
        with self._counter_lock:
            if self._chat_counter is None or self._chat_counter.client is not client:
                self._chat_counter = ChatTokenCounter(client, server.model)
            counter = self._chat_counter
        return counter([{"role": m.role, "content": m.content} for m in messages])

    def _connected(self) -> tuple[ServerClient, ServerInfo]:
        client, server = self.worker.client, self.worker.server
        if client is None or server is None:
            raise EngineStateError("Rotary is not connected to the office server yet.")
        return client, server


def list_models(config: ServerConfig) -> list[ModelEntry]:
    """For Settings: the models the server offers (blocking; run it on a worker thread)."""
    client = ServerClient(config)
    try:
        return client.models()
    finally:
        client.close()


def remote_engine_factory(config: ServerConfig) -> Callable[[Listener], RemoteEngineService]:
    """``make_engine`` for app.bridge.EngineBackend."""
    return lambda listener: RemoteEngineService(listener, config)
