"""The document card's Qt side: the document session's events (app.session.document_session,
app.session.document_events) as the signals the card and the conversation's list of
documents use. What happens to a document, and the files waiting to be read
(app.session.document_queue), is decided there, without Qt; app.wiring connects the card's
buttons, the chat and the bridge to ``session`` and ``queue``."""

from __future__ import annotations

from typing import Callable

from PySide6.QtCore import QObject, Signal

from app.conversation import Conversations
from app.documents.document_text import summary_messages
from app.session import document_events as shown
from app.session.document_queue import DocumentHistory, DocumentQueue
from app.session.document_session import SUPPORTED, DocumentEngine, DocumentSession, Jobs
from app.widgets.notifications import Notice, NotificationService

__all__ = ["SUPPORTED", "DocumentFlow"]


class DocumentFlow(QObject):
    checking = Signal(str)               # file name, while the engine reads and plans it
    overview_ready = Signal(object)      # app.session.document_events.OverviewReady
    started = Signal(str)                # file name: the summary is being written
    progress = Signal(object)            # engine.api.DocumentProgress
    done = Signal(object)                # engine.api.DocumentSummary, or None when it failed
    closed = Signal()                    # nothing to show any more
    here_changed = Signal(bool)          # the card's conversation is (not) the open one
    waiting_for_model = Signal(str, str)  # documents attached during a load, and why they wait
    list_changed = Signal()              # the open conversation's list of documents

    def __init__(self, bridge: DocumentEngine, conversations: Conversations, requests: Jobs,
                 notices: NotificationService, history: DocumentHistory,
                 language: Callable[[], str], index_path: str | None = None,
                 model_loading: Callable[[], bool] = lambda: False,
                 parent: QObject | None = None) -> None:
        """``index_path``: where passages are indexed (their own file); ``model_loading``:
        app.setup.loading's flag (documents attached meanwhile wait for the model)."""
        super().__init__(parent)
        self.session: DocumentSession[Notice] = DocumentSession(
            bridge, conversations, requests, notices, self._show, summary_messages, language,
            index_path)
        self.queue: DocumentQueue[Notice] = DocumentQueue(self.session, history, self._emit,
                                                          model_loading)

    def open_file(self, path: str, preset: str = "short", question: str = "") -> bool:
        return self.session.open_file(path, preset, question)

    def summarize(self, preset: str, question: str = "") -> bool:
        return self.session.summarize(preset, question)

    def dismiss(self) -> None:
        self.queue.dismiss()

    def _show(self, event: object) -> None:
        """The queue hears the session first (a file read sends the next), then the screen."""
        self.queue.see(event)
        self._emit(event)

    def _emit(self, event: object) -> None:
        match event:
            case shown.Checking(name=name):
                self.checking.emit(name)
            case shown.OverviewReady():
                self.overview_ready.emit(event)
            case shown.Started(name=name):
                self.started.emit(name)
            case shown.Progress(progress=progress):
                self.progress.emit(progress)
            case shown.Done(summary=summary):
                self.done.emit(summary)
            case shown.Closed():
                self.closed.emit()
            case shown.HereChanged(here=here):
                self.here_changed.emit(here)
            case shown.WaitingForModel(names=names, why=why):
                self.waiting_for_model.emit(names, why)
            case shown.ListChanged():
                self.list_changed.emit()
