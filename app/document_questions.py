"""Messages in a conversation that holds documents are answered from those documents.

The request tracker asks ``send`` instead of the model directly (RequestTracker.send_prompt):
with documents in the conversation the chat request carries them (ChatRequest.documents: the
engine searches their passages, engine/documents/ask.py), else it is the plain chat. While
the answer is read, the status line says which pages; when it ends, failed page references
are marked in the answer ("not found on p. 12"), never removed, and the answer ends with
what was read for it.
"""

from __future__ import annotations

from typing import Callable

from PySide6.QtCore import QObject

from engine.api import (ChatMessage, ChatRequest, DocumentAnswered, DocumentProgress,
                        DocumentScope, PassagesChosen)
from engine.messages import msg
from app.document_text import progress_text
from app.history import HistoryStore
from app.messages import say


class DocumentQuestions(QObject):
    def __init__(self, chat, bridge, history: HistoryStore, language: Callable[[], str],
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.chat, self.bridge, self.history, self.language = chat, bridge, history, language
        self.to_model = chat.requests.send_prompt     # conversations without documents
        self.asked: set[int] = set()
        chat.requests.send_prompt = self.send     # its engine events are wired in app.wiring

    def send(self, prompt: list[tuple[str, str]], temperature: float,
             conversation_id: int | None, think: bool | None) -> int:
        documents = self.history.documents(conversation_id)
        if not documents or not prompt or prompt[-1][0] != "user":
            return self.to_model(prompt, temperature, conversation_id, think)
        scope = DocumentScope(tuple(d.sha256 for d in documents),
                              str(self.history.passage_index), language=self.language())
        request = ChatRequest(tuple(ChatMessage(role, text) for role, text in prompt),
                              temperature=temperature, conversation_id=conversation_id,
                              think=think, documents=scope)
        request_id = self.bridge.chat(request)
        self.asked.add(request_id)
        return request_id

    def on_event(self, event) -> None:
        request_id = getattr(event, "request_id", None)
        if request_id not in self.asked:
            return
        if isinstance(event, PassagesChosen) and self.chat.shows(request_id):
            where = event.read.param("where")
            self.chat.phase_changed.emit(say(msg("documents.progress.reading_passages",
                                                  n=len(event.passages), where=where)))
        elif isinstance(event, DocumentProgress) and self.chat.shows(request_id):
            self.chat.phase_changed.emit(progress_text(event))
        elif isinstance(event, DocumentAnswered):
            self.asked.discard(request_id)
            self.chat.requests.annotate(request_id, answer_text(event), answer_stats(event))


def answer_text(event: DocumentAnswered) -> str:
    """The answer with failed page references marked, then what was read for it."""
    body = event.marked(say).strip()
    return f"{body}\n\n*{say(event.read)}*" if body else ""


def answer_stats(event: DocumentAnswered) -> dict:
    checked = [c for c in event.checks if c.status != "unchecked"]
    return {"document_answer": {
        "mode": event.mode,
        "read": [[p.document, p.label, p.page] for p in event.passages],
        "citations": {"checked": len(checked),
                      "passed": sum(1 for c in checked if c.status == "found"),
                      "not_found": [c.marker for c in checked if c.failed]}}}
