"""The document card's Qt face: the document session's events (app.session.document_session,
app.session.document_events) as the signals the card and the conversation's list of
documents use. What happens to a document, and the files waiting to be read, is decided in
the session (app.session.session owns both, without Qt); the chat's Qt face
(app.chat.chat_controller) hands each document event on to ``show``, and app.wiring connects
the card's buttons to the session's methods."""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal

from app.session import document_events as shown


class DocumentFlow(QObject):
    checking = Signal(str)               # file name, while the engine reads and plans it
    overview_ready = Signal(object)      # app.session.document_events.OverviewReady
    read = Signal(object)                # engine.api.DocumentOverview: read into its chat
    started = Signal(str)                # file name: the summary is being written
    progress = Signal(object)            # engine.api.DocumentProgress
    done = Signal(object)                # engine.api.DocumentSummary, or None when it failed
    closed = Signal()                    # nothing to show any more
    here_changed = Signal(bool)          # the card's conversation is (not) the open one
    waiting_for_model = Signal(str, str)  # documents attached during a load, and why they wait
    list_changed = Signal()              # the open conversation's list of documents

    def show(self, event: shown.DocumentEvent) -> None:
        """A document event of the session as its signal."""
        match event:
            case shown.Checking(name=name):
                self.checking.emit(name)
            case shown.OverviewReady():
                self.overview_ready.emit(event)
            case shown.Read(overview=overview):
                self.read.emit(overview)
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
