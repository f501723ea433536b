"""Doubles shared by the Qt-free session tests (tests/session, and the conversation models'
tests): an engine that answers chat requests, the notice bar, the event loop's later turns, run when a test
says, and the two messages a document's summary becomes."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from engine.api import ChatRequest, DocumentFinished
from engine.errors import EngineError
from app.conversation.history import StoredMessage
from app.conversation.message_stats import MessageStats
from app.session.document_session import DocumentTask


class Handle:
    def __init__(self) -> None:
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True


class ChatEngine:
    """Request ids from 1; ``waiting``: the ids the engine says wait their turn."""

    def __init__(self) -> None:
        self.asked: list[ChatRequest] = []
        self.stopped: list[int | None] = []
        self.waiting: set[int] = set()
        self.forgotten: list[int] = []

    def chat(self, request: ChatRequest) -> int:
        self.asked.append(request)
        return len(self.asked)

    def stop(self, request_id: int | None = None) -> None:
        self.stopped.append(request_id)

    def waits(self, request_id: int) -> bool:
        return request_id in self.waiting

    def forget_conversation(self, conversation_id: int) -> None:
        self.forgotten.append(conversation_id)


class NoticeBar:
    """The notice bar: what was posted, as (level, message), and what was withdrawn."""

    def __init__(self) -> None:
        self.posted: list[tuple[str, str]] = []
        self.withdrawn: list[tuple[str, str]] = []

    def info(self, message: str) -> tuple[str, str]:
        self.posted.append(("info", message))
        return self.posted[-1]

    def warning(self, message: str, details: str = "") -> tuple[str, str]:
        self.posted.append(("warning", message))
        return self.posted[-1]

    def engine_error(self, error: EngineError) -> tuple[str, str]:
        self.posted.append(("error", error.message))
        return self.posted[-1]

    def withdraw(self, notice: tuple[str, str]) -> None:
        self.withdrawn.append(notice)


@dataclass
class Loop:
    """The event loop's later turns, run when the test says (``turn``)."""
    soon: list[Callable[[], object]] = field(default_factory=list)
    later: list[tuple[float, Callable[[], object], Handle]] = field(default_factory=list)

    def call_soon(self, callback: Callable[[], object]) -> object:
        self.soon.append(callback)
        return None

    def call_later(self, delay: float, callback: Callable[[], object]) -> Handle:
        handle = Handle()
        self.later.append((delay, callback, handle))
        return handle

    def turn(self) -> None:
        soon, self.soon = self.soon, []
        for callback in soon:
            callback()


def exchange(event: DocumentFinished, task: DocumentTask,
             model_name: str) -> tuple[StoredMessage, StoredMessage]:
    """The two messages a summary becomes (app.documents.document_text words them)."""
    document = {"path": task.path, "name": event.overview.name, "preset": task.preset,
                "question": task.question}
    return (StoredMessage("user", f"Document: {event.overview.name} ({task.preset})",
                          stats=MessageStats(document=document)),
            StoredMessage("assistant", event.summary.body, model_name=model_name))
