"""The app's conversations and their engine jobs, with no Qt: the one receiver of the
engine's request events.

``Session`` owns the conversation store (app.conversation), the jobs in flight
(``RequestTracker``), the chat (``ChatSession``) and the documents: the document card
(``DocumentSession``) and the files waiting to be read (``DocumentQueue``). ``on_event`` takes
every request event the bridge hands over and routes it by request id to the job's owner: a
chat answer's to the chat, a document's look or summary to the document session. The chat
calls the document session directly (Write again and Edit on a summary, a conversation opened
or deleted), and ``set_model_ready`` reads the documents attached while the model loaded. The
screen hears of all of it through one callback (``report``).
"""

from __future__ import annotations

from typing import Callable, Protocol

from engine.api import (DocumentProgress, Event, PassagesChosen, PromptProgress, RequestFailed,
                        RequestFinished, RequestStarted, StepRecord)
from app.conversation.history import HistoryStore
from app.conversation.store import ConversationStore, StoreEvents
from app.session.chat_session import ChatSession, DocumentCalls
from app.session.chat_stream import Scheduler
from app.session.document_queue import DocumentQueue
from app.session.document_session import DocumentEngine, DocumentSession, Exchange
from app.session.events import (ActivityChanged, BusyChanged, ConversationsChanged,
                                MessageAdded, Report, RequestEnded, StepShown, Truncated,
                                WindowMoved)
from app.session.document_events import DocumentEvent
from app.session.notices import Notices, OneNotice
from app.session.requests import DOCUMENT_JOBS, Engine, RequestEvents, RequestTracker


class SessionEngine(Engine, DocumentEngine, Protocol):
    """What the session asks of the engine (app.bridge.engine_bridge.EngineBridge): chat
    answers and documents."""


class Session:
    """One user's conversations: the open one, every job in flight, the document in hand,
    and what the screen is told (``report``: app.chat.chat_controller's ``show`` in the app).

    ``summary_messages``: how a summary becomes the conversation's two messages
    (app.documents.document_text, which this package may not import); ``index_path``: where
    passages are indexed; ``model_loading``: app.setup.loading's flag (documents attached
    meanwhile wait for the model)."""

    def __init__(self, history: HistoryStore, engine: SessionEngine,
                 notices: Notices[object],
                 scheduler: Scheduler, report: Report,
                 language: Callable[[], str] = lambda: "English",
                 untitled: Callable[[], str] = lambda: "New chat", *,
                 summary_messages: Exchange, index_path: str | None = None,
                 model_loading: Callable[[], bool] = lambda: False) -> None:
        self.report = report               # the one way to the screen
        self.store = ConversationStore(history, StoreEvents(
            listed=lambda: self.report(ConversationsChanged()),
            added=lambda index, message: self.report(MessageAdded(index, message)),
            truncated=self._truncated, deleting=lambda cid: self.chat.deleting(cid)),
            untitled=untitled)
        self.requests = RequestTracker(engine, lambda: self.store.conversation_id, RequestEvents(
            activity=lambda doing: self.report(ActivityChanged(doing)),
            document_shown=self._document_shown,
            document_ended=lambda: self.chat.job_ended(None)))
        self.not_ready: OneNotice[object] = OneNotice(notices)   # one "not ready yet" notice
        self.documents: DocumentSession[object] = DocumentSession(
            engine, self.store, self.requests, notices, self._document_report, summary_messages,
            language, index_path, self.not_ready)
        self.document_queue: DocumentQueue[object] = DocumentQueue(
            self.documents, history, self.report, model_loading)
        self.chat = ChatSession(self.store, self.requests, notices, self.report, scheduler,
                                DocumentCalls(self.documents.write_again, self.documents.edit,
                                              self.documents.on_conversation_deleted,
                                              self.document_queue.follow_conversation,
                                              self.documents.work_ended,
                                              self.documents.problems.withdraw),
                                language, self.not_ready)

    def _document_report(self, event: DocumentEvent) -> None:
        """The document session's events: the queue hears them before the screen (a file
        read sends the next one)."""
        self.document_queue.see(event)
        self.report(event)

    def _truncated(self, index: int, window_start: int) -> None:
        self.report(Truncated(index))
        self.report(WindowMoved(window_start))

    def _document_shown(self, busy: bool, phase: str) -> None:
        self.chat.stream.stop_reading()
        self.report(BusyChanged(busy, phase))

    def set_model_ready(self, ready: bool, failed: bool = False) -> None:
        """The model is ready: the documents attached while it loaded are read now. Not
        ready (``failed``: its load failed): they wait on, and say so. Ready, the "not
        ready yet" notice no longer applies."""
        self.requests.model_ready = ready
        if ready:
            self.not_ready.withdraw()
            self.document_queue.read_held()
        elif failed:
            self.document_queue.load_failed()

    def on_event(self, event: Event) -> None:
        """An engine event of a request (not a load's): to the owner of its job."""
        request_id = getattr(event, "request_id", None)
        job = self.requests.jobs.get(request_id) if isinstance(request_id, int) else None
        stream = self.chat.stream
        if job is None or job.kind in DOCUMENT_JOBS:
            self.documents.on_event(event)     # it knows its own request ids
        elif isinstance(event, StepRecord):
            if event.thinking:
                stream.on_thinking(event.request_id, event.thinking)
            if event.text:
                stream.on_token(event.request_id, event.text)
        elif isinstance(event, RequestStarted):
            stream.on_started(event.request_id)
        elif isinstance(event, PromptProgress):
            stream.on_prompt_progress(event)     # "… 40% — about 25 s left"
        elif isinstance(event, (PassagesChosen, DocumentProgress)):
            stream.on_document_event(event)      # an answer from documents: what it reads
        elif isinstance(event, RequestFinished):
            stream.on_finished(event)
        elif isinstance(event, RequestFailed):
            stream.on_failed(event.request_id, event.error)
        if isinstance(event, StepRecord) and self.requests.shows(event.request_id):
            # the gauge: the numbers of the job in the open conversation only
            self.report(StepShown(event, job is not None and job.kind in DOCUMENT_JOBS))
        if isinstance(event, RequestFinished):
            self.report(RequestEnded(event))
