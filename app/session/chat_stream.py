"""A chat answer's engine events, with no Qt: each is written into its own conversation
(app.conversation.store) and, when that conversation is open, reported to the screen.

The events come from app.session.session (it routes by request id); what the user sees goes
out through the session's one callback (``Report``, app.session.events). Errors go to the
notices, never into an answer.
"""

from __future__ import annotations

import logging
from typing import Callable, Protocol

from engine.api import (DocumentProgress, PassagesChosen, PromptProgress, RequestFinished,
                        StopReason)
from engine.errors import EngineError, MessageTooLongError
from engine.messages import msg
from engine.model.facts import ModelFacts
from app.conversation.chat_text import checked_answer_text, no_answer_text, passages_text, \
    progress_text
from app.conversation.history import StoredMessage
from app.conversation.message_stats import MessageStats
from app.conversation.reading import ReadingLine
from app.conversation.store import ConversationStore
from app.session.events import (AnswerDone, AnswerPiece, BusyChanged, ContextChanged,
                                MessageUpdated, PhaseChanged, Report, ThinkingChanged,
                                WindowMoved)
from app.session.jobs import Job
from app.session.notices import Notices
from app.session.requests import RequestTracker
from app.text.error_text import error_text
from app.text.i18n import tr
from app.text.messages import say

log = logging.getLogger("rotary.chat")
READING_EVERY_S = 1.0      # "Reading your message… 40% — about 25 s left", said again


class Handle(Protocol):
    def cancel(self) -> None: ...


class Scheduler(Protocol):
    """Later turns of the event loop (``asyncio.AbstractEventLoop`` is one: the app passes
    its qasync loop)."""

    def call_soon(self, callback: Callable[[], object]) -> object: ...

    def call_later(self, delay: float, callback: Callable[[], object]) -> Handle: ...


class ChatStream:
    """The engine's events for chat answers (``on_*``), and how an answer ends (``end``);
    ``ended(conversation_id)``: an answer there ended (a waiting message may go)."""

    def __init__(self, store: ConversationStore, requests: RequestTracker,
                 notices: Notices[object],
                 report: Report, scheduler: Scheduler,
                 ended: Callable[[int], None] = lambda _conversation: None) -> None:
        self.store, self.requests, self.notices = store, requests, notices
        self.report, self.scheduler, self.ended = report, scheduler, ended
        self.model_facts: ModelFacts | None = None    # of the loaded model
        self.on_server = False                  # the model runs on the office server
        self.error_notices: dict[int | None, object] = {}   # conversation -> its error's notice
        self.refusals: set[int | None] = set()    # ... where that error refused a message
        self.reading = ReadingLine()
        self._reading_again: Handle | None = None

    def show_busy(self, busy: bool, phase: str) -> None:
        self.stop_reading()
        self.report(BusyChanged(busy, phase))

    # ---- reading the message: said again every second until the first word ----------------

    def on_prompt_progress(self, event: PromptProgress) -> None:
        """How far the engine has read the open answer's prompt, with the time left."""
        answer = self.requests.live(event.request_id)
        if answer is None or answer.text or answer.thinking:
            return
        text = self.reading.report(event)
        if text and answer is self.requests.current:
            self.report(PhaseChanged(text))
            self._read_again_later()

    def say_reading(self) -> None:
        answer = self.requests.current
        self._reading_again = None
        if answer is None or answer.text or answer.thinking \
                or self.reading.request_id() != answer.request_id:
            self.stop_reading()
            return
        self.report(PhaseChanged(self.reading.again()))
        self._read_again_later()

    def _read_again_later(self) -> None:
        if self._reading_again is None:
            self._reading_again = self.scheduler.call_later(READING_EVERY_S, self.say_reading)

    def stop_reading(self) -> None:
        if self._reading_again is not None:
            self._reading_again.cancel()
            self._reading_again = None

    # ---- streaming ---------------------------------------------------------------------------

    def on_started(self, request_id: int) -> None:
        """The engine took this answer's request; it may have waited behind another one."""
        answer = self.requests.started(request_id)
        if answer is not None and answer is self.requests.current and not answer.text:
            self.report(PhaseChanged(tr("Reading your message…")))

    def on_token(self, request_id: int, text: str) -> None:
        answer = self.requests.live(request_id)
        if answer is None:
            return
        if not answer.started:                   # it has begun, whatever it waited for
            self.requests.started(request_id)
        shown = answer is self.requests.current
        if shown and not answer.text:
            self.stop_reading()
            self.report(PhaseChanged(tr("Writing the answer…")))
            if answer.thinking:                     # the thinking is over: say how long
                self.report(ThinkingChanged(answer.thinking, True))
        answer.text += text
        if shown:
            self.report(AnswerPiece(text))
        self.save_progress(answer)

    def on_thinking(self, request_id: int, text: str) -> None:
        """A piece of the model's thinking: shown collapsed above the answer, stored with
        it, never part of its text (so never copied, searched, summarised or sent back)."""
        answer = self.requests.live(request_id)
        if answer is None:
            return
        shown = answer is self.requests.current
        if shown and not answer.thinking:
            self.stop_reading()
            self.report(PhaseChanged(tr("Thinking…")))
        answer.thinking += text
        if shown:
            self.report(ThinkingChanged(answer.thinking, False))

    def save_progress(self, answer: Job, force: bool = False) -> None:
        message = self.requests.progress(answer, force)
        if message is not None:
            self.store.save_answer(answer.conversation, message)

    def on_document_event(self, event: PassagesChosen | DocumentProgress) -> None:
        """An answer from documents: the pages it reads, in the status line while read."""
        if self.requests.shows(event.request_id):
            self.report(PhaseChanged(passages_text(event) if isinstance(event, PassagesChosen)
                                     else progress_text(event)))

    # ---- ending ------------------------------------------------------------------------------

    def on_finished(self, event: RequestFinished) -> None:
        stats = self.requests.finished_stats(event)
        answer = self.requests.live(event.request_id)
        if event.context is not None and answer is not None:
            start = self.store.move_window(answer.conversation, answer.sent,
                                           event.context.left_out)
            if start is not None:
                self.report(WindowMoved(start))
        text = checked_answer_text(event.document) if event.document is not None else ""
        shown = answer is not None and answer is self.requests.current
        self.end(event.request_id, text or event.text, stats)
        if shown and answer is not None and event.stats.stop_reason == StopReason.LOOP:
            # The answer keeps the repeated words once; the notice says why it ends there
            # (the engine logged where the loop began). A later answer withdraws it.
            self.clear_error(answer.conversation_id)
            self.error_notices[answer.conversation_id] = self.notices.warning(
                say(msg("runtime.answer_loops")),
                f"request {event.request_id}: stopped after {event.stats.generated_tokens} "
                f"tokens, repeats left out")

    def clear_error(self, conversation_id: int | None) -> None:
        """Its error no longer applies: answered, left or deleted."""
        notice = self.error_notices.pop(conversation_id, None)
        self.refusals.discard(conversation_id)
        if notice is not None:
            self.notices.withdraw(notice)

    def refused_text_attached(self, conversation_id: int | None) -> None:
        """The refused message's text is now a document of its conversation: the "too long"
        notice no longer applies (an error after it is left as it is)."""
        if conversation_id in self.refusals:
            self.clear_error(conversation_id)

    def on_failed(self, request_id: int, error: EngineError) -> None:
        answer = self.requests.jobs.get(request_id)
        if answer is None:
            return
        if isinstance(error, MessageTooLongError):
            refused = self.store.mark_too_long(answer.sent)
            index = None if refused is None else self.store.shown_at(answer.conversation,
                                                                      refused)
            if index is not None and refused is not None:
                self.report(MessageUpdated(index, refused))     # its bubble is marked
        if answer is self.requests.current:
            self.clear_error(answer.conversation_id)
            self.error_notices[answer.conversation_id] = self.notices.engine_error(error)
            if isinstance(error, MessageTooLongError):
                self.refusals.add(answer.conversation_id)
        else:      # the user had left it: no notice, but a log line
            log.warning("an answer the user left failed: %s (%s)", error.message,
                        error.details)
        # What was written so far stays as it is; the error is only in the notification.
        # Its reason stays under the answer once the notice is dismissed.
        self.end(request_id, "", MessageStats(stop_reason=StopReason.FAILED,
                                              failed_because=error_text(error)[0]))

    def end(self, request_id: int, text: str, stats: MessageStats) -> None:
        shown = self.requests.current is not None and \
            self.requests.current.request_id == request_id
        answer = self.requests.finish(request_id, text)
        if answer is None:
            return
        if answer.stop_reason:          # the app stopped it (a reload, closing): its reason
            stats = stats.with_(stop_reason=answer.stop_reason)
        if shown and answer.thinking:
            self.report(ThinkingChanged(answer.thinking, True))
        message = self.store.end_answer(answer, stats)
        if message is None and not answer.dropped and self.requests.gave_nothing(answer, stats):
            self.notices.warning(no_answer_text(self.model_facts, self.on_server),
                                 f"request {answer.request_id}: {stats}")
        if message is not None and stats.stop_reason != StopReason.FAILED:
            self.clear_error(answer.conversation_id)    # answered: an earlier error is stale
            if answer.conversation_id == self.store.conversation_id and stats.context_size:
                self.report(ContextChanged((stats.context_tokens, stats.context_size)))
        if shown:
            self.report(AnswerDone(self.store.answered(message),
                                   message or StoredMessage("assistant", ""), stats.stop_reason))
            self.show_busy(False, "")
        elif message is not None:
            index = self.store.shown_at(answer.conversation, message)
            if index is not None:
                self.report(MessageUpdated(index, message))
        self.ended(answer.conversation)
