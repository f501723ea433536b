"""One conversation's logic, with no widgets: send, stream, stop, regenerate, edit.

The Qt face of two plain models (app/conversation/): the conversation store (the open
conversation's messages, the history, titles) and the request tracker (requests in flight).
The controller sends, turns their changes and the engine's results (the bridge's signals,
wired in ``app.wiring``) into the signals the chat pane draws. Errors go to the notification
service, never into an answer. How answers live and end: app/session/requests.py.
"""

from __future__ import annotations

import logging
from typing import Callable

from PySide6.QtCore import QObject, QTimer, Signal

from engine.api import (DocumentProgress, PassagesChosen, PromptProgress, RequestFinished,
                        StopReason)
from engine.errors import EngineError, MessageTooLongError
from engine.messages import msg
from engine.model.facts import ModelFacts
from app.conversation.chat_text import no_answer_text, queue_full_text, queued_text, waiting_text
from app.conversation.delegate import Kept
from app.conversation.reading import ReadingLine
from app.session.jobs import Job
from app.session.requests import Engine, RequestEvents, RequestTracker
from app.conversation.store import ConversationStore, StoreEvents, is_document
from app.documents.document_text import checked_answer_text, passages_text, progress_text
from app.text.error_text import error_text
from app.conversation.history import HistoryStore, StoredMessage
from app.conversation.message_stats import MessageStats
from app.text.i18n import tr
from app.text.messages import say
from app.widgets.notifications import Notice, NotificationService

log = logging.getLogger("rotary.chat")


class ChatController(QObject):
    conversation_opened = Signal(object)        # list[StoredMessage]
    conversation_deleted = Signal(int)          # before it goes: a summary of it is dropped
    message_added = Signal(int, object)         # index, StoredMessage
    message_updated = Signal(int, object)       # index, StoredMessage (a late answer)
    answer_started = Signal(int)                # index of the streaming answer
    answer_piece = Signal(str)                  # new text of the streaming answer
    thinking_changed = Signal(str, bool)        # its thinking so far, and whether it is done
    answer_done = Signal(int, object, str)      # index, StoredMessage, stop reason
    truncated = Signal(int)                     # messages from this index were removed
    window_moved = Signal(int)                  # the model's view begins at this index (0: all)
    context_changed = Signal(object)            # (tokens used, context size) or None: unknown
    busy_changed = Signal(bool)
    phase_changed = Signal(str)                 # plain words for the status line
    conversations_changed = Signal()
    activity_changed = Signal(object)           # {conversation id: "writing" or "waiting"}
    queued_changed = Signal(str)                # says a message waits to be sent ("": none)
    summary_again_requested = Signal(int)       # index of a "Document:" message
    summary_edit_requested = Signal(int)        # index of a "Document:" message

    # What the app and its tests read and set here is kept by the store or the tracker.
    conversation_id, messages = Kept("store"), Kept("store")
    think_default, think_policy = Kept("store"), Kept("store")     # "Think before answering"
    think_for, set_think = Kept("store"), Kept("store")
    rename, delete = Kept("store"), Kept("store")          # deleting: _on_deleting first
    model_name, model_ready = Kept("requests"), Kept("requests")
    system_prompt, temperature = Kept("requests"), Kept("requests")
    model_sampling, save_interval_s = Kept("requests"), Kept("requests")
    answers, current, partial = Kept("requests"), Kept("requests"), Kept("requests")
    busy, external_id = Kept("requests"), Kept("requests")  # busy: the open chat is written
    shows, stop_everything = Kept("requests"), Kept("requests")

    def __init__(self, history: HistoryStore, bridge: Engine, notices: NotificationService,
                 language: Callable[[], str] = lambda: "English",
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.notices, self.language = notices, language   # language: for document questions
        self.store = ConversationStore(history, StoreEvents(
            listed=self.conversations_changed.emit, added=self.message_added.emit,
            truncated=self._on_truncated, deleting=self._on_deleting),
            untitled=lambda: tr("New chat"))
        self.requests = RequestTracker(bridge, lambda: self.store.conversation_id, RequestEvents(
            activity=self.activity_changed.emit, external_shown=self._show_busy,
            external_ended=self._send_queued))
        self.model_facts: ModelFacts | None = None    # of the loaded model
        self.on_server = False                  # the model runs on the office server
        self.error_notices: dict[int | None, Notice] = {}   # conversation -> its error's notice
        # "Reading your message… 40% — about 25 s left", said again every second
        self.reading = ReadingLine()
        self.reading_timer = QTimer(self, interval=1000)
        self.reading_timer.timeout.connect(self._say_reading)

    def _show_busy(self, busy: bool, phase: str) -> None:
        self._stop_reading()
        self.busy_changed.emit(busy)
        self.phase_changed.emit(phase)

    # ---- conversations ------------------------------------------------------------------

    def new_chat(self) -> None:
        self._leave()
        self.store.clear()
        self._show_opened(None)

    def open_conversation(self, conversation_id: int) -> None:
        if conversation_id == self.store.conversation_id:
            return              # already open (e.g. clicked again): the answer goes on
        self._leave()
        running = self.requests.running_in(conversation_id)
        self.store.open(conversation_id, running.message.id
                        if running is not None and running.message else None)
        self._show_opened(running)

    def _show_opened(self, running: Job | None) -> None:
        """The open conversation as it is now: its messages, its answer being written, a
        document read into it, a message waiting there."""
        self.conversation_opened.emit(list(self.store.messages))
        self.window_moved.emit(self.store.window_index())
        self.context_changed.emit(self.store.context())
        if running is not None:
            self._attach(running)
        external = self.requests.external
        if external is not None and self.requests.external_here():
            self._show_busy(True, external.phase)
        self._show_queued()

    def _attach(self, answer: Job) -> None:
        """Show a left answer again, streaming where it has got to."""
        self.requests.current = answer
        self.answer_started.emit(len(self.store.messages))
        if answer.text:
            self.answer_piece.emit(answer.text)
        self._show_busy(True, tr("Writing the answer…") if answer.text
                        else waiting_text(self.requests.waiting(answer))
                        or tr("Reading your message…"))
        if self.reading.request_id() == answer.request_id and not answer.text:
            self._say_reading()              # how far its message is read, again

    def _on_deleting(self, conversation_id: int) -> None:
        self.requests.drop_conversation(conversation_id)
        self.conversation_deleted.emit(conversation_id)    # app.documents.document_flow drops its own
        self._clear_error(conversation_id)
        if conversation_id == self.store.conversation_id:
            self.new_chat()

    def _on_truncated(self, index: int, window_start: int) -> None:
        self.truncated.emit(index)
        self.window_moved.emit(window_start)

    # ---- sending ----------------------------------------------------------------------------

    def send(self, text: str) -> bool:
        """Returns False (and tells the user why) when the message cannot go now."""
        text = text.strip()
        if text and self.requests.busy and self.requests.model_ready:   # an answer or a
            return self._queue(text)                                      # document here
        if not text or self.requests.busy or not self._model_is_ready():
            return False
        self.store.add_question(text)
        return self._ask()

    def _queue(self, text: str) -> bool:
        """Sent while an answer is written, or a document read, here: it waits, said under the
        conversation, and goes when that ends (at once after Stop); "Don't send" takes it back."""
        if not self.requests.queue(text):     # one waits already: this one stays in the box
            self.phase_changed.emit(queue_full_text(self.requests.external_here()))
            return False
        self._show_queued()
        return True

    def _show_queued(self) -> None:
        """The waiting message is said in its own conversation only."""
        self.queued_changed.emit(queued_text(self.requests.queued_here(),
                                             self.requests.external_here()))

    def cancel_queued(self) -> str:
        """"Don't send": the waiting message is taken back (its text, for the box)."""
        queued = self.requests.take_queued()
        if queued is None:
            return ""
        self._show_queued()
        return queued.text

    def _send_queued(self) -> None:
        """After the answer or the reading ends and its results are in place (the document
        on the conversation's list), in the next turn of the event loop."""
        if self.requests.queued is not None:
            QTimer.singleShot(0, self._send_queued_now)

    def _send_queued_now(self) -> None:
        queued = self.requests.take_queued() if self.requests.may_send_queued() else None
        if queued is None:
            return
        self._show_queued()
        if queued.conversation_id != self.store.conversation_id or not self.send(queued.text):
            # The user went to another conversation meanwhile: said, with the question.
            self.notices.info(tr("Your question was not sent: “{text}”. Send it again "
                                 "where you want the answer.").format(text=queued.text))

    def _model_is_ready(self) -> bool:
        if not self.requests.model_ready:
            self.notices.info(tr("The model is not ready yet. Please wait until loading "
                                 "has finished."))
        return bool(self.requests.model_ready)

    def _ask(self) -> bool:
        conversation_id = self.store.conversation_id
        assert conversation_id is not None
        try:
            answer = self.requests.ask(conversation_id, self.store.sent(),
                                       self.store.think_for(conversation_id),
                                       self.store.document_scope(conversation_id, self.language))
        except EngineError as error:
            self.notices.engine_error(error)
            return False
        self.answer_started.emit(len(self.store.messages))
        # Queued behind another answer (another conversation's, or one still stopping): said
        # at once, until its turn comes.
        self._show_busy(True, waiting_text(self.requests.waiting(answer))
                        or tr("Reading your message…"))
        return True

    def stop(self) -> None:
        """Stop what is being written into the open conversation (the Stop button)."""
        current = self.requests.current
        if self.requests.stop():
            self._stop_reading()
            if current is not None:
                self.reading.stop(current.request_id)
            self.phase_changed.emit(tr("Stopping…"))

    def regenerate(self) -> None:
        """Write the last answer again; also answers a question left without one. After
        a document, its summary is written again (app.documents.document_flow)."""
        messages = self.store.messages
        if not messages or self.requests.external_here() or not self._model_is_ready():
            return
        document = self.store.document_index()
        if document is not None and self.requests.current is None:
            self.summary_again_requested.emit(document)
            return
        if self.requests.current is not None:
            self._drop_current()
        elif messages[-1].role == "assistant":
            self.store.truncate_from(len(messages) - 1)
        if self.store.messages and self.store.messages[-1].role == "user":
            self._ask()

    def edit_and_resend(self, index: int, text: str) -> bool:
        """Replace user message ``index``, forget everything after it, ask again."""
        messages = self.store.messages
        if not text.strip() or not 0 <= index < len(messages):
            return False
        if messages[index].role != "user" or not self._model_is_ready():
            return False
        self._drop_current()
        self.store.truncate_from(index)
        self.store.add(StoredMessage("user", text.strip()))
        return self._ask()

    def edit_document(self, index: int) -> None:
        """Edit on a "Document:" message: its card opens with the style and question."""
        messages = self.store.messages
        if 0 <= index < len(messages) and is_document(messages[index]) \
                and not self.requests.busy and self._model_is_ready():
            self.summary_edit_requested.emit(index)

    def _leave(self) -> None:
        """The open conversation is left: its answer goes on, saved in its conversation."""
        answer = self.requests.leave()
        self._clear_error(self.store.conversation_id)     # its banner does not follow the user
        if answer is not None:
            self._save_progress(answer, force=True)
        if answer is not None or self.requests.external_here():
            self._show_busy(False, "")

    def _drop_current(self) -> None:
        """Write again / Edit: the answer being written is replaced; its bubble goes."""
        answer = self.requests.drop_current()
        if answer is None:
            return
        self.store.forget_answer(answer.message)
        self.truncated.emit(len(self.store.messages))
        self._show_busy(False, "")

    def close(self) -> None:
        """Rotary is quitting: what is being written is kept and labelled so, never shown
        as "interrupted" (that is for crashes)."""
        for answer in self.requests.close():
            self._end(answer.request_id, "", MessageStats(stop_reason=StopReason.CLOSED))

    # ---- engine results (wired in app.wiring) -----------------------------------------------

    def on_started(self, request_id: int) -> None:
        """The engine took this answer's request; it may have waited behind another one."""
        answer = self.requests.started(request_id)
        if answer is not None and answer is self.requests.current and not answer.text:
            self.phase_changed.emit(tr("Reading your message…"))

    def on_prompt_progress(self, event: PromptProgress) -> None:
        """How far the engine has read the open answer's prompt, with the time left; the
        line is said again every second until the first word (``_say_reading``)."""
        answer = self.requests.live(event.request_id)
        if answer is None or answer.text or answer.thinking:
            return
        text = self.reading.report(event)
        if text and answer is self.requests.current:
            self.phase_changed.emit(text)
            self.reading_timer.start()

    def _say_reading(self) -> None:
        answer = self.requests.current
        if answer is None or answer.text or answer.thinking \
                or self.reading.request_id() != answer.request_id:
            self._stop_reading()
            return
        self.phase_changed.emit(self.reading.again())
        if not self.reading_timer.isActive():
            self.reading_timer.start()

    def _stop_reading(self) -> None:
        self.reading_timer.stop()

    def on_token(self, request_id: int, text: str) -> None:
        answer = self.requests.token(request_id)
        if answer is None:
            return
        shown = answer is self.requests.current
        if shown and not answer.text:
            self._stop_reading()
            self.phase_changed.emit(tr("Writing the answer…"))
            if answer.thinking:                     # the thinking is over: say how long
                self.thinking_changed.emit(answer.thinking, True)
        answer.text += text
        if shown:
            self.answer_piece.emit(text)
        self._save_progress(answer)

    def on_thinking(self, request_id: int, text: str) -> None:
        """A piece of the model's thinking: shown collapsed above the answer, stored with
        it, never part of its text (so never copied, searched, summarised or sent back)."""
        answer = self.requests.live(request_id)
        if answer is None:
            return
        shown = answer is self.requests.current
        if shown and not answer.thinking:
            self._stop_reading()
            self.phase_changed.emit(tr("Thinking…"))
        answer.thinking += text
        if shown:
            self.thinking_changed.emit(answer.thinking, False)

    def _save_progress(self, answer: Job, force: bool = False) -> None:
        message = self.requests.progress(answer, force)
        if message is not None:
            self.store.save_answer(answer.conversation, message)

    def on_document_event(self, event: object) -> None:
        """An answer from documents: the pages it reads, in the status line while they are
        read (the document flow's own requests are its own)."""
        request_id = getattr(event, "request_id", None)
        if request_id not in self.requests.answers or not self.requests.shows(request_id):
            return
        if isinstance(event, PassagesChosen):
            self.phase_changed.emit(passages_text(event))
        elif isinstance(event, DocumentProgress):
            self.phase_changed.emit(progress_text(event))

    def on_finished(self, event: RequestFinished) -> None:
        stats = self.requests.finished_stats(event)
        answer = self.requests.live(event.request_id)
        if event.context is not None and answer is not None:
            start = self.store.move_window(answer.conversation, answer.sent,
                                           event.context.left_out)
            if start is not None:
                self.window_moved.emit(start)
        text = checked_answer_text(event.document) if event.document is not None else ""
        shown = answer is not None and answer is self.requests.current
        self._end(event.request_id, text or event.text, stats)
        if shown and answer is not None and event.stats.stop_reason == StopReason.LOOP:
            # The answer keeps the repeated words once; the notice says why it ends there
            # (the engine logged where the loop began). A later answer withdraws it.
            self._clear_error(answer.conversation_id)
            self.error_notices[answer.conversation_id] = self.notices.warning(
                say(msg("runtime.answer_loops")),
                f"request {event.request_id}: stopped after {event.stats.generated_tokens} "
                f"tokens, repeats left out")

    def _clear_error(self, conversation_id: int | None) -> None:
        """Its error no longer applies: answered, left or deleted."""
        notice = self.error_notices.pop(conversation_id, None)
        if notice is not None:
            self.notices.withdraw(notice)

    def on_failed(self, request_id: int, error: EngineError) -> None:
        answer = self.requests.answers.get(request_id)
        if answer is not None and isinstance(error, MessageTooLongError):
            refused = self.store.mark_too_long(answer.sent)
            index = None if refused is None else self.store.shown_at(answer.conversation,
                                                                      refused)
            if index is not None and refused is not None:
                self.message_updated.emit(index, refused)     # its bubble is marked
        if answer is not None and answer is self.requests.current:
            self._clear_error(answer.conversation_id)
            self.error_notices[answer.conversation_id] = self.notices.engine_error(error)
        elif answer is not None:      # the user had left it: no notice, but a log line
            log.warning("an answer the user left failed: %s (%s)", error.message,
                        error.details)
        # What was written so far stays as it is; the error is only in the notification.
        # Its reason stays under the answer once the notice is dismissed.
        self._end(request_id, "", MessageStats(stop_reason=StopReason.FAILED,
                                               failed_because=error_text(error)[0]))

    def _end(self, request_id: int, text: str, stats: MessageStats) -> None:
        shown = self.requests.current is not None and \
            self.requests.current.request_id == request_id
        answer = self.requests.finish(request_id, text, stats)
        if answer is None:
            return
        if answer.stop_reason:          # the app stopped it (a reload, closing): its reason
            stats = stats.with_(stop_reason=answer.stop_reason)
        if shown and answer.thinking:
            self.thinking_changed.emit(answer.thinking, True)
        message = self.store.end_answer(answer, stats)
        if message is None and not answer.dropped and self.requests.gave_nothing(answer, stats):
            self.notices.warning(no_answer_text(self.model_facts, self.on_server),
                                 f"request {answer.request_id}: {stats}")
        if message is not None and stats.stop_reason != StopReason.FAILED:
            self._clear_error(answer.conversation_id)    # answered: an earlier error is stale
            if answer.conversation_id == self.store.conversation_id and stats.context_size:
                self.context_changed.emit((stats.context_tokens, stats.context_size))
        if shown:
            self.answer_done.emit(self.store.answered(message),
                                  message or StoredMessage("assistant", ""), stats.stop_reason)
            self._show_busy(False, "")
        elif message is not None:
            index = self.store.shown_at(answer.conversation, message)
            if index is not None:
                self.message_updated.emit(index, message)
        if self.requests.waits_in(answer.conversation):
            self._send_queued()
