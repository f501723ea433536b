"""One chat, with no Qt: send, queue, stop, regenerate, edit, open, delete, close.

What the user does arrives as method calls (from the widgets, through app.wiring); the
engine's events for chat answers are app.session.chat_stream's; what the screen shows goes
out through the session's one callback (``Report``, typed events of app.session.events).
How answers live and end: app/session/requests.py. What the chat asks of a conversation's
document (Write again and Edit on a summary, a conversation opened or deleted) goes to the
document session directly (``DocumentCalls``, wired by app.session.session).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from engine.errors import EngineError
from engine.api import StopReason
from app.conversation.chat_text import queue_full_text, queued_text, waiting_text
from app.conversation.history import StoredMessage
from app.conversation.message_stats import MessageStats
from app.conversation.window import conversation_context
from app.conversation.store import ConversationStore, document_index, document_scope, \
    is_document
from app.session.chat_stream import ChatStream, Scheduler
from app.session.events import (AnswerStarted, AnswerPiece, ContextChanged, ConversationOpened,
                                PhaseChanged, QueuedChanged, Report, Truncated, WindowMoved)
from app.session.jobs import Job
from app.session.notices import Notices, OneNotice, not_ready_text
from app.session.requests import RequestTracker
from app.text.i18n import tr


@dataclass(frozen=True)
class DocumentCalls:
    """What the chat asks of the documents (app.session.document_session and its queue)."""
    write_again: Callable[[int], bool]     # Write again after a "Document:" message (its index)
    edit: Callable[[int], bool]            # Edit on a "Document:" message: its card opens
    deleting: Callable[[int], None]        # before a conversation goes: its summary stops
    opened: Callable[[], None]             # another conversation is open: the card follows
    ended: Callable[[], None]              # a job ended: "please wait" may no longer apply
    left: Callable[[], None]               # the user went elsewhere: a document's problem goes


class ChatSession:
    """The open conversation's chat: the user's actions, and the engine's answer events
    through ``stream``. ``language``: the interface's, for questions about documents."""

    def __init__(self, store: ConversationStore, requests: RequestTracker,
                 notices: Notices[object],
                 report: Report, scheduler: Scheduler, documents: DocumentCalls,
                 language: Callable[[], str] = lambda: "English",
                 not_ready: OneNotice[object] | None = None) -> None:
        self.store, self.requests, self.notices = store, requests, notices
        self.not_ready = not_ready or OneNotice(notices)   # shared with the documents
        self.report, self.scheduler, self.language = report, scheduler, language
        self.documents = documents
        # The unsent text of each conversation left (None: New chat's); ``draft`` reads the
        # message box (app.wiring; "" while an earlier message is edited: that is no draft).
        self.drafts: dict[int | None, str] = {}
        self.draft: Callable[[], str] = lambda: ""
        self.stream = ChatStream(store, requests, notices, report, scheduler,
                                 ended=self.job_ended)

    # ---- conversations ------------------------------------------------------------------

    def new_chat(self) -> None:
        """The user's New chat: the notices of the conversation left stay behind."""
        self.documents.left()
        self._new_chat()

    def _new_chat(self) -> None:
        self._leave()
        self.store.clear()
        self._show_opened(None)

    def open_conversation(self, conversation_id: int) -> None:
        if conversation_id == self.store.conversation_id:
            return              # already open (e.g. clicked again): the answer goes on
        self.documents.left()
        self._leave()
        running = self.requests.running_in(conversation_id)
        self.store.open(conversation_id, running.message.id
                        if running is not None and running.message else None)
        self._show_opened(running)

    def _show_opened(self, running: Job | None) -> None:
        """The open conversation as it is now: its messages, its answer being written, a
        document read into it, a message waiting there."""
        self.report(ConversationOpened(self.store.conversation_id, tuple(self.store.messages),
                                       self.drafts.pop(self.store.conversation_id, "")))
        self.documents.opened()
        self.report(WindowMoved(self.store.window_index()))
        self.report(ContextChanged(conversation_context(self.store.messages)))
        if running is not None:
            self._attach(running)
        document = self.requests.document_here()
        if document is not None:
            self.stream.show_busy(True, document.phase)
        self._show_queued()

    def _attach(self, answer: Job) -> None:
        """Show a left answer again, streaming where it has got to."""
        self.requests.current = answer
        self.report(AnswerStarted(len(self.store.messages), answer.request_id))
        if answer.text:
            self.report(AnswerPiece(answer.text))
        self.stream.show_busy(True, tr("Writing the answer…") if answer.text
                              else waiting_text(self.requests.waiting(answer))
                              or tr("Reading your message…"))
        if self.stream.reading.request_id() == answer.request_id and not answer.text:
            self.stream.say_reading()              # how far its message is read, again

    def delete(self, conversation_id: int) -> None:
        """The user deletes a conversation (from the list): left, if it is open, so a
        document's problem there goes (the app's own deletes go to the store directly)."""
        if conversation_id == self.store.conversation_id:
            self.documents.left()
        self.store.delete(conversation_id)

    def deleting(self, conversation_id: int) -> None:
        """Before the store deletes it: its answers and its summary stop, New chat if it
        is open."""
        self.requests.drop_conversation(conversation_id)
        self.documents.deleting(conversation_id)
        self.stream.clear_error(conversation_id)
        if conversation_id == self.store.conversation_id:
            # Not the user's New chat: a failed document's own empty conversation goes
            # right after its problem was said, and that notice stays.
            self._new_chat()
        self.drafts.pop(conversation_id, None)        # its unsent text goes with it

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
        if not self.requests.waiting_message.put(text):   # one waits already: it stays in the box
            self.report(PhaseChanged(queue_full_text(self.requests.document_here() is not None)))
            return False
        self._show_queued()
        return True

    def _show_queued(self) -> None:
        """The waiting message is said in its own conversation only."""
        self.report(QueuedChanged(queued_text(self.requests.waiting_message.here(),
                                              self.requests.document_here() is not None)))

    def cancel_queued(self) -> str:
        """"Don't send": the waiting message is taken back (its text, for the box)."""
        queued = self.requests.waiting_message.take()
        if queued is None:
            return ""
        self._show_queued()
        return queued.text

    def job_ended(self, conversation_id: int | None) -> None:
        """After an answer, or a document's reading (``Session``), ends and its results are
        in place, a message waiting there goes, in the next turn of the event loop."""
        self.documents.ended()
        waiting = self.requests.waiting_message
        if waiting.queued is not None and (conversation_id is None
                                           or waiting.waits_in(conversation_id)):
            self.scheduler.call_soon(self._send_queued)

    def _send_queued(self) -> None:
        queued = self.requests.waiting_message.take() if self.requests.may_send_queued() \
            else None
        if queued is None:
            return
        self._show_queued()
        if queued.conversation_id != self.store.conversation_id or not self.send(queued.text):
            # The user went to another conversation meanwhile: said, with the question, which
            # waits in its own conversation's box (before any text left there).
            if queued.conversation_id != self.store.conversation_id:
                left = self.drafts.get(queued.conversation_id, "")
                self.drafts[queued.conversation_id] = "\n\n".join(filter(None, (queued.text,
                                                                                left)))
            self.notices.info(tr("Your question was not sent: “{text}”. Send it again "
                                 "where you want the answer.").format(text=queued.text))

    def _model_is_ready(self) -> bool:
        if not self.requests.model_ready:
            self.not_ready.say(not_ready_text())
        return bool(self.requests.model_ready)

    def _ask(self) -> bool:
        conversation_id = self.store.conversation_id
        assert conversation_id is not None
        try:
            answer = self.requests.ask(conversation_id, self.store.sent(),
                                       self.store.think.for_conversation(conversation_id),
                                       document_scope(self.store.history, conversation_id,
                                                      self.language))
        except EngineError as error:
            self.notices.engine_error(error)
            return False
        self.report(AnswerStarted(len(self.store.messages), answer.request_id))
        # Queued behind another answer (another conversation's, or one still stopping): said
        # at once, until its turn comes.
        self.stream.show_busy(True, waiting_text(self.requests.waiting(answer))
                              or tr("Reading your message…"))
        return True

    # ---- stop, again, edit ----------------------------------------------------------------

    def stop(self) -> None:
        """Stop what is being written into the open conversation (the Stop button)."""
        current = self.requests.current
        if self.requests.stop():
            self.stream.stop_reading()
            if current is not None:
                self.stream.reading.stop(current.request_id)
            self.report(PhaseChanged(tr("Stopping…")))

    def regenerate(self) -> None:
        """Write the last answer again; also answers a question left without one. After
        a document, its summary is written again (app.session.document_session)."""
        messages = self.store.messages
        if not messages or self.requests.document_here() is not None \
                or not self._model_is_ready():
            return
        document = document_index(messages)
        if document is not None and self.requests.current is None:
            self.documents.write_again(document)
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
            self.documents.edit(index)

    def _leave(self) -> None:
        """The open conversation is left: its answer goes on, saved in its conversation, and
        its unsent text is kept for the user's return."""
        draft = self.draft()
        if draft.strip():
            self.drafts[self.store.conversation_id] = draft
        answer = self.requests.leave()
        self.stream.clear_error(self.store.conversation_id)   # its banner stays behind
        if answer is not None:
            self.stream.save_progress(answer, force=True)
        if answer is not None or self.requests.document_here() is not None:
            self.stream.show_busy(False, "")

    def _drop_current(self) -> None:
        """Write again / Edit: the answer being written is replaced; its bubble goes."""
        answer = self.requests.drop_current()
        if answer is None:
            return
        self.store.forget_answer(answer.message)
        self.report(Truncated(len(self.store.messages)))
        self.stream.show_busy(False, "")

    def close(self) -> None:
        """Rotary is quitting: what is being written is kept and labelled so, never shown
        as "interrupted" (that is for crashes)."""
        for answer in self.requests.close():
            self.stream.end(answer.request_id, "", MessageStats(stop_reason=StopReason.CLOSED))
