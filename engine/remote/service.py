"""The remote engine: the engine thread and its queue (EngineService) with a model on the
office server behind them.

``load(LoadRequest(model_path=MODEL_ID))`` connects and checks the model, and reports
``ServerModelLoaded``: nothing of the model is on this computer, and nothing pretends it is.
``chat`` streams; a stop ends the server's connection at once, even while it says nothing;
``count_tokens`` asks the server's tokenizer (any thread). The other events are the local
engine's.
"""

from __future__ import annotations

import dataclasses
import functools
import threading
import time
from typing import Sequence, cast

from engine.api import (ChatMessage, ChatRequest, ContextReport, DocumentRequest, Listener,
                        LoadProgress, LoadRequest, RequestFinished, ResponseStats, ServerInfo,
                        ServerModelLoaded)
from engine.errors import (EngineStateError, MessageTooLongError, ServerContextFullError,
                           ServerProtocolError)
from engine.messages import msg
from engine.remote.chat_tokens import ChatTokenCounter
from engine.remote.client import ModelEntry, ServerClient, StreamAborted
from engine.remote.config import ServerConfig
from engine.remote.documents import RemoteSummaryModel
from engine.remote.errors import context_size_in
from engine.remote.stream import RemoteRun, conversation_tokens
from engine.runtime.conversation.context_window import fit, room_for
from engine.runtime.requests import CancelToken
from engine.runtime.service import Emit, EngineService


TURN_MARKUP = 8      # tokens of a turn's markup around its text ("<|im_start|>user\n…")


def connect(client: ServerClient, wanted_model: str) -> ServerInfo:
    """Check the server and the model; learn its context length and tokenizer."""
    entry: ModelEntry = client.choose_model(wanted_model)
    context = entry.context_size or client.server_context_size()
    return ServerInfo(client.config.address, entry.id, context, client.find_tokenizer(entry.id))


class ServerModel:
    """A model on the office server: the one HTTP client and what the server said of itself.
    ``chat`` and ``document`` run on the engine thread; the counts are safe from any thread."""

    def __init__(self, client: ServerClient, server: ServerInfo) -> None:
        self.client, self.server = client, server
        self._usage_seen = False     # does this server report token usage itself?
        self._documents: RemoteSummaryModel | None = None      # made once
        self._chat_counter: ChatTokenCounter | None = None
        self._counter_lock = threading.Lock()
        self._message_tokens: dict[str, int] = {}    # a message's tokens (engine thread)

    def loaded_event(self, request_id: int) -> ServerModelLoaded:
        return ServerModelLoaded(request_id, self.server, msg(
            "remote.connected", model=self.server.model, address=self.server.address))

    def close(self) -> None:
        self.client.close()

    def forget_conversation(self, conversation_id: int) -> None:
        """Nothing of a conversation is kept here: the server keeps its own cache."""

    def idle_work(self) -> None:
        return None

    # ---- the engine thread --------------------------------------------------------------

    def chat(self, request: ChatRequest, stop: CancelToken, emit: Emit) -> None:
        # Servers that report no usage: count the prompt first, by their own tokenizer. Not
        # in parallel: llama-cpp-python's server cuts a streaming answer for any new request.
        started = time.perf_counter()
        try:
            counted = 0 if self._usage_seen else self._count_prompt(request, stop)
        except StreamAborted:        # stopped while the server was counting
            emit(_never_answered(request, started))
            return
        left_out = 0
        try:
            run = self._answer(request, counted, started, stop, emit)
        except ServerContextFullError as error:
            # Refused as too long (the server checks before it reads): the oldest turns go
            # and the question is asked again; only a message too long alone fails. Fitted
            # only then, so an ordinary turn costs no extra request; the app sends from the
            # new start afterwards, so the next refusal comes at the next slide.
            self._learn_context(error)
            request, left_out = self._fitted(request)
            if not left_out:
                raise
            run = self._answer(request, 0, started, stop, emit)
        self._usage_seen = run.usage is not None
        emit(RequestFinished(request.request_id, run.text, run.stats, request.conversation_id,
                             thinking=run.thinking,
                             context=ContextReport(left_out=left_out) if left_out else None))

    def _fitted(self, request: ChatRequest) -> tuple[ChatRequest, int]:
        """The request with the oldest turns left out where the server's context is known
        and its tokenizer counts them (engine/runtime/conversation/context_window.py); else as it is."""
        size = self.server.context_size
        if not size:
            return request, 0
        room = room_for(size, request.max_tokens or size, request.think is not False)
        try:
            window = fit(request.messages, self._count_for_window, room)
        except (ServerProtocolError, MessageTooLongError):   # no tokenizer there, or the
            return request, 0                # newest alone does not fit: the server's refusal
        if not window.left_out:
            return request, 0
        return dataclasses.replace(request, messages=window.messages), window.left_out

    def _answer(self, request: ChatRequest, counted: int, started: float, stop: CancelToken,
                emit: Emit) -> RemoteRun:
        run = RemoteRun(self.client, self.server, request, stop, counted, started)
        try:
            for record in run.records():
                emit(record)
        except ServerContextFullError:
            # vLLM refuses a prompt that fits when prompt + max_tokens exceeds its context;
            # asked again without a limit, it writes at most what still fits.
            if run.pieces or request.max_tokens <= 0:
                raise
            return self._answer(dataclasses.replace(request, max_tokens=0), counted, started,
                                stop, emit)
        return run

    def document(self, request: DocumentRequest, stop: CancelToken, emit: Emit) -> None:
        # The document readers (~60 ms) load at the first document, not when connecting.
        from engine.documents.summarize import summarize_on_engine_thread  # noqa: PLC0415 - above

        summarize_on_engine_thread(self.documents_model(), request, emit, stop)

    def documents_model(self) -> RemoteSummaryModel:
        """The server's model as engine/documents sees it (made once per connection): it
        reads documents and answers chat questions that carry them."""
        if self._documents is None:
            self._documents = RemoteSummaryModel(self.client, self.server)
            self.server = self._documents.server      # with the context it may have learnt
        return self._documents

    def _count_prompt(self, request: ChatRequest, stop: CancelToken) -> int:
        try:
            return conversation_tokens(self.client, request, self.server.model, stop)
        except ServerProtocolError:      # no tokenizer there: unknown, never a guess
            return 0

    def _learn_context(self, error: ServerContextFullError) -> None:
        size = context_size_in(error.details)
        if size and not self.server.context_size:
            self.server = dataclasses.replace(self.server, context_size=size)

    def _count_for_window(self, messages: Sequence[ChatMessage]) -> int:
        """The conversation's tokens by the server's template where it can say, else each
        message by its tokenizer plus the markup of a turn (as engine/documents/ask.py)."""
        try:
            return self.count_chat_tokens(messages)
        except ServerProtocolError:
            pass
        if len(self._message_tokens) > 1024:
            self._message_tokens.clear()
        for message in messages:
            if message.content not in self._message_tokens:
                self._message_tokens[message.content] = self.count_tokens(message.content)
        return sum(self._message_tokens[m.content] + TURN_MARKUP for m in messages)

    # ---- any thread ---------------------------------------------------------------------

    def count_tokens(self, text: str) -> int:
        return self.client.count_tokens(text, self.server.model)

    def count_chat_tokens(self, messages: Sequence[ChatMessage]) -> int:
        with self._counter_lock:
            if self._chat_counter is None:
                self._chat_counter = ChatTokenCounter(self.client, self.server.model)
            counter = self._chat_counter
        return counter([{"role": m.role, "content": m.content} for m in messages])


def _never_answered(request: ChatRequest, started: float) -> RequestFinished:
    stats = ResponseStats.never_started(request.request_id, time.perf_counter() - started)
    return RequestFinished(request.request_id, "", stats, request.conversation_id)


def open_server(config: ServerConfig, request: LoadRequest, emit: Emit) -> ServerModel:
    """The engine's opener for an office server: connect, check the model, learn its context."""
    emit(LoadProgress(request.request_id, 0.2, msg("remote.connecting", address=config.root)))
    client = ServerClient(config)
    try:
        return ServerModel(client, connect(client, request.model_path or config.model))
    except BaseException:
        client.close()
        raise


class RemoteEngineService(EngineService):
    """``EngineService`` whose model is on an office server; see ``engine.api.EngineLike``.
    Adds what only a server offers: its address and context, and counts by its tokenizer."""

    _NO_MODEL = _NO_MODEL_FOR_DOCUMENT = "remote.not_connected"

    def __init__(self, listener: Listener, config: ServerConfig, *,
                 name: str = "rotary-remote") -> None:
        super().__init__(listener, functools.partial(open_server, config), name=name)

    @property
    def server(self) -> ServerInfo | None:
        model = cast("ServerModel | None", self.model)     # open_server's model
        return model.server if model is not None else None

    def count_tokens(self, text: str) -> int:
        """Tokens of ``text`` by the server's tokenizer (safe from any thread)."""
        return self._connected().count_tokens(text)

    def count_chat_tokens(self, messages: Sequence[ChatMessage]) -> int:
        """Tokens of a whole chat prompt, the server's chat template included (llama-server,
        vLLM); ServerProtocolError where the server cannot say (llama-cpp-python's)."""
        return self._connected().count_chat_tokens(messages)

    def _connected(self) -> ServerModel:
        model = cast("ServerModel | None", self.model)
        if model is None:
            raise EngineStateError(msg("remote.not_connected"))
        return model


def list_models(config: ServerConfig) -> list[ModelEntry]:
    """For Settings: the models the server offers (blocking; run it on a worker thread)."""
    client = ServerClient(config)
    try:
        return client.models()
    finally:
        client.close()
