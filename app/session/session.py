"""The app's conversations and their engine jobs, with no Qt: the one receiver of the
engine's request events.

``Session`` owns the conversation store (app.conversation), the jobs in flight
(``RequestTracker``) and the chat (``ChatSession``). ``on_event`` takes every request event
the bridge hands over and routes it by request id to the job's owner: a chat answer's to
the chat, a document's look or summary to ``documents`` (app.application sets it to the
document flow's ``on_event``). The screen hears of it through one callback (``Report``).
"""

from __future__ import annotations

from typing import Callable

from engine.api import (DocumentProgress, Event, PassagesChosen, PromptProgress, RequestFailed,
                        RequestFinished, RequestStarted, StepRecord)
from app.conversation.history import HistoryStore
from app.conversation.store import ConversationStore, StoreEvents
from app.session.chat_session import ChatSession
from app.session.chat_stream import Notices, Scheduler
from app.session.events import (ActivityChanged, BusyChanged, ConversationsChanged,
                                MessageAdded, Report, RequestEnded, StepShown, Truncated,
                                WindowMoved)
from app.session.requests import DOCUMENT_JOBS, Engine, RequestEvents, RequestTracker


def _nowhere(_event: Event) -> None:
    return None


class Session:
    """One user's conversations: the open one, every job in flight, and what the screen
    is told (``report``: app.chat.chat_controller's ``show`` in the app)."""

    def __init__(self, history: HistoryStore, engine: Engine, notices: Notices,
                 scheduler: Scheduler, report: Report,
                 language: Callable[[], str] = lambda: "English",
                 untitled: Callable[[], str] = lambda: "New chat") -> None:
        self.report = report
        self.documents: Callable[[Event], None] = _nowhere   # a document job's events
        self.store = ConversationStore(history, StoreEvents(
            listed=lambda: self.report(ConversationsChanged()),
            added=lambda index, message: self.report(MessageAdded(index, message)),
            truncated=self._truncated, deleting=lambda cid: self.chat.deleting(cid)),
            untitled=untitled)
        self.requests = RequestTracker(engine, lambda: self.store.conversation_id, RequestEvents(
            activity=lambda doing: self.report(ActivityChanged(doing)),
            document_shown=self._document_shown,
            document_ended=lambda: self.chat.job_ended(None)))
        self.chat = ChatSession(self.store, self.requests, notices, report, scheduler, language)

    def _truncated(self, index: int, window_start: int) -> None:
        self.report(Truncated(index))
        self.report(WindowMoved(window_start))

    def _document_shown(self, busy: bool, phase: str) -> None:
        self.chat.stream.stop_reading()
        self.report(BusyChanged(busy, phase))

    def on_event(self, event: Event) -> None:
        """An engine event of a request (not a load's): to the owner of its job."""
        request_id = getattr(event, "request_id", None)
        job = self.requests.jobs.get(request_id) if isinstance(request_id, int) else None
        stream = self.chat.stream
        if job is None or job.kind in DOCUMENT_JOBS:
            self.documents(event)          # the flow knows its own request ids
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
