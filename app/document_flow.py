"""A dropped document, from "what was found" to its summary in the conversation. No widgets.

Steps: ``open_file`` asks the engine to read the file and plan the parts (nothing is
generated) → ``overview_ready`` → the user picks a style and presses Summarise →
``summarize`` → ``progress`` events → the document and its summary become two messages of
the conversation (so follow-up questions there can refer to them) → ``done``. Errors go to
the notification service; Stop keeps the partial summary, labelled partial.
"""

from __future__ import annotations

from dataclasses import asdict
from pathlib import Path
from typing import Callable

from PySide6.QtCore import QObject, Signal

from engine.api import (DocumentFinished, DocumentInspected, DocumentOverview, DocumentProgress,
                        DocumentRequest)
from engine.errors import EngineError
from app.document_text import answer_text, found_text, preset_titles, words_text
from app.history import StoredMessage
from app.i18n import tr
from app.qt_compat import emit

SUPPORTED = (".pdf", ".docx", ".txt", ".text", ".md", ".markdown")


class DocumentFlow(QObject):
    checking = Signal(str)               # file name, while the engine reads and plans it
    overview_ready = Signal(object)      # engine.api.DocumentOverview
    progress = Signal(object)            # engine.api.DocumentProgress
    done = Signal(object)                # engine.api.DocumentSummary, or None when it failed
    closed = Signal()                    # nothing to show any more

    def __init__(self, bridge, chat, notices, language: Callable[[], str],
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.bridge, self.chat, self.notices, self.language = bridge, chat, notices, language
        self.path: str | None = None
        self.overview: DocumentOverview | None = None
        self.last_folder = ""            # where the file chooser opens next time
        self.request_id: int | None = None
        self.running = False
        self.conversation_id: int | None = None
        self.question = ""

    # ---- the user's actions ------------------------------------------------------------

    def open_file(self, path: str) -> bool:
        if not self._can_start():
            return False
        if Path(path).suffix.lower() not in SUPPORTED and Path(path).suffix.lower() != ".doc":
            self.notices.info(tr("Rotary reads PDF, Word (.docx), text and Markdown files."))
            return False
        self.path, self.overview, self.running = path, None, False
        self.last_folder = str(Path(path).parent)
        if not self._send(DocumentRequest(path, inspect_only=True)):
            return False
        self.chat.begin_external(self.request_id, tr("Looking at the document…"))
        emit(self.checking, Path(path).name)
        return True

    def summarize(self, preset: str, question: str = "") -> bool:
        if self.path is None or self.overview is None or self.request_id is not None:
            return False
        self.conversation_id = self.chat.ensure_conversation(self.overview.name)
        self.question = question.strip()
        request = DocumentRequest(self.path, preset=preset, language=self.language(),
                                  question=self.question, conversation_id=self.conversation_id)
        if not self._send(request):
            return False
        self.running = True
        self.chat.begin_external(self.request_id, tr("Reading the document…"))
        return True

    def stop(self) -> None:
        if self.request_id is not None:
            self.bridge.stop(self.request_id)   # the engine answers with the partial summary

    def dismiss(self) -> None:
        if self.request_id is None:
            self.path = self.overview = None
            emit(self.closed)

    def _can_start(self) -> bool:
        if self.chat.busy or self.request_id is not None:
            self.notices.info(tr("Please wait until the current answer is finished."))
            return False
        if not self.chat.model_ready:
            self.notices.info(tr("The model is not ready yet. Please wait until loading "
                                 "has finished."))
            return False
        return True

    def _send(self, request: DocumentRequest) -> bool:
        try:
            self.request_id = self.bridge.document(request)
        except EngineError as error:
            self.notices.engine_error(error)
            return False
        return True

    # ---- engine results (connected in install_documents) ------------------------------

    def on_event(self, event) -> None:
        if getattr(event, "request_id", None) != self.request_id:
            return
        if isinstance(event, DocumentInspected):
            self._on_inspected(event)
        elif isinstance(event, DocumentProgress):
            emit(self.progress, event)
        elif isinstance(event, DocumentFinished):
            self._on_finished(event)

    def _on_inspected(self, event: DocumentInspected) -> None:
        self.overview = event.overview
        if not self.running:            # the plan before the run: wait for the user
            self.request_id = None
            self.chat.end_external()
            emit(self.overview_ready, event.overview)

    def _on_finished(self, event: DocumentFinished) -> None:
        self.request_id, self.running = None, False
        summary = event.summary
        self.chat.end_external(self.conversation_id, self._exchange(event))
        self.path = None
        emit(self.done, summary)

    def on_failed(self, request_id: int, error: EngineError) -> None:
        if request_id != self.request_id:
            return
        self.request_id, self.running, self.path = None, False, None
        self.notices.engine_error(error)
        self.chat.end_external()
        emit(self.done, None)

    def _exchange(self, event: DocumentFinished) -> tuple[StoredMessage, StoredMessage]:
        """The document as the user's message, the summary as the answer (kept in history)."""
        overview, summary = event.overview, event.summary
        titles = dict(self.bridge.summary_presets()) | preset_titles()
        asked = f"\n\n{tr('I asked:')} {self.question}" if self.question else ""
        user = StoredMessage("user", tr("Document: {name} — {found}\n{style}").format(
            name=overview.name, found=f"{found_text(overview)}, {words_text(overview.words)}",
            style=titles.get(summary.preset, summary.preset)) + asked,
            stats={"document": {"path": self.path, "name": overview.name, "kind": overview.kind,
                                "pages": overview.pages, "words": overview.words}})
        answer = StoredMessage("assistant", answer_text(overview, summary),
                               model_name=self.chat.model_name,
                               stats={"document_summary": {
                                   "partial": summary.partial, "parts": summary.parts,
                                   "parts_read": summary.parts_read,
                                   "model_calls": summary.model_calls,
                                   "citations": [asdict(c) for c in summary.citations]}})
        return user, answer
