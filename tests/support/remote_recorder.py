"""The office-server tests' listener and helpers: a ``Recorder`` collects a remote engine's
events, ``connected`` starts a RemoteEngineService against a server and waits for its model,
``ask`` is a one-message request, ``document_events`` waits for a document's last event."""

from __future__ import annotations

import queue

from engine.api import (ChatMessage, ChatRequest, DocumentFinished, LoadRequest, RequestFailed,
                        RequestFinished, ServerModelLoaded, StepRecord)
from engine.remote.config import ServerConfig
from engine.remote.service import RemoteEngineService

TIMEOUT = 60.0


class Recorder:
    """Collects events on the engine thread; ``until`` waits for one request's last event."""

    def __init__(self, on_event=None) -> None:
        self.events: "queue.Queue" = queue.Queue()
        self.seen: list = []
        self.on_event = on_event

    def __call__(self, event) -> None:
        if self.on_event is not None:
            self.on_event(event)
        self.events.put(event)

    def until(self, request_id: int):
        while True:
            event = self.events.get(timeout=TIMEOUT)
            self.seen.append(event)
            if getattr(event, "request_id", None) == request_id and isinstance(
                    event, (ServerModelLoaded, RequestFinished, RequestFailed)):
                return event

    def texts(self, request_id: int) -> str:
        return "".join(e.text for e in self.seen
                       if isinstance(e, StepRecord) and e.request_id == request_id)


def connected(url: str, recorder: Recorder, **config) -> RemoteEngineService:
    engine = RemoteEngineService(recorder, ServerConfig(url, **config))
    loaded = recorder.until(engine.load(LoadRequest("")))
    assert isinstance(loaded, ServerModelLoaded), loaded
    return engine


def ask(text: str, conversation_id: int | None = None, max_tokens: int = 200) -> ChatRequest:
    return ChatRequest((ChatMessage("user", text),), max_tokens=max_tokens, temperature=0.0,
                       conversation_id=conversation_id)


def document_events(recorder: Recorder, request_id: int):
    """Events until the document's DocumentFinished or RequestFailed."""
    while True:
        event = recorder.events.get(timeout=120)
        recorder.seen.append(event)
        if getattr(event, "request_id", None) == request_id and isinstance(
                event, (DocumentFinished, RequestFailed)):
            return event
