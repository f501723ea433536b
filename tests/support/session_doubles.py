"""Doubles shared by the Qt-free session tests (tests/session): the event loop's later turns,
run when a test says, and the two messages a document's summary becomes."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from engine.api import DocumentFinished
from app.conversation.history import StoredMessage
from app.conversation.message_stats import MessageStats
from app.session.document_session import DocumentTask


class Handle:
    def __init__(self) -> None:
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True


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
