"""One conversation's logic, with no widgets: send, stream, stop, regenerate, edit.

The controller owns the list of messages and the history store; the chat pane only
draws what the signals say. Engine results arrive through the bridge's signals (wired
in ``app.wiring``). Errors go to the notification service, never into an answer.

Every answer is an ``Answer`` keyed by the request id its engine events carry, and
bound to the conversation that asked for it, so it is written to its own conversation,
never to the one now open. A document summary (``app.document_flow``) is an "external"
request bound the same way, and follows the same rules:

- Leaving its conversation (New chat, opening another): it goes on and is written into
  its own conversation; opening that conversation again shows it still being written.
  A message sent meanwhile elsewhere waits its turn (the engine writes one at a time).
- Stop (or Escape): it ends now; what was written is kept, labelled "You stopped".
- Write again / Edit: it is replaced; nothing more of it is written and its saved part
  is deleted. On a summary, Write again reads the document again with the same style
  and question; Edit on its "Document:" message opens the card to change either.
- Deleting its conversation: it is stopped and nothing of it is kept.
- Changing the model, or quitting: it is stopped and kept, labelled with why.
- An answer that ends without any text is not kept: its question stays (with Write
  again), and a notice says the model gave no answer and the likely reason.
"""

from __future__ import annotations

import logging
import re
import time
from dataclasses import dataclass

from PySide6.QtCore import QObject, QTimer, Signal

from engine.api import StopReason
from engine.errors import EngineError, MessageTooLongError
from app.conversation_window import (TOO_LONG, conversation_context, moved_start, sent_messages,
                                     start_index)
from app.history import COMPLETE, WRITING, HistoryStore, StoredMessage
from app.error_text import error_text
from app.i18n import tr
from app.korean import particles
from app.notifications import NotificationService

TITLE_LENGTH = 48
SAVE_INTERVAL_S = 1.0      # at most about this much streamed text is lost in a crash
log = logging.getLogger("rotary.chat")

# Why an answer ended, when it did not end by itself (ResponseStats.stop_reason and the
# label under the answer): the user pressed Stop, the model was changed, Rotary closed.
STOPPED, RELOADED, CLOSED = StopReason.STOPPED, StopReason.RELOADED, StopReason.CLOSED
# What a conversation in the list is doing (ChatController.activity).
WRITING_NOW, WAITING = "writing", "waiting"


@dataclass
class Answer:
    """One requested answer, tied to the conversation that asked for it."""
    request_id: int
    conversation_id: int
    model_name: str
    text: str = ""
    message: StoredMessage | None = None    # its row, once first saved
    saved_at: float = 0.0
    dropped: bool = False                   # replaced or its conversation deleted
    stop_reason: str = ""                   # RELOADED or CLOSED when the app stopped it
    final_text: str = ""                    # replaces the streamed text at the end (checked
    extra_stats: dict | None = None         # citations, app.document_questions), and its stats
    thinking: str = ""                      # the model's thinking: shown apart, never sent back
    started: bool = False                   # the engine has begun it (not waiting its turn)
    sent: tuple = ()                        # the messages its prompt sent (app.conversation_window)


@dataclass
class External:
    """A document summary (or the look at a document before it) using the engine."""
    request_id: int
    conversation_id: int | None             # None: a new chat not saved yet
    phase: str


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
    activity_changed = Signal(object)           # {conversation id: WRITING_NOW or WAITING}
    queued_changed = Signal(str)                # says a message waits to be sent ("": none)
    summary_again_requested = Signal(int)       # index of a "Document:" message
    summary_edit_requested = Signal(int)        # index of a "Document:" message

    def __init__(self, history: HistoryStore, bridge, notices: NotificationService,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.history, self.bridge, self.notices = history, bridge, notices
        self.conversation_id: int | None = None
        self.messages: list[StoredMessage] = []
        self.answers: dict[int, Answer] = {}     # request id -> answer, until it ends
        self.current: Answer | None = None       # the one streaming into the open chat
        self.external: External | None = None    # a document summary using the engine
        self.model_name = ""
        self.model_facts = None                  # engine ModelFacts of the loaded model
        self.on_server = False                   # the model runs on the office server
        self.model_ready = False
        self.system_prompt = ""
        self.temperature = 0.7
        self.model_sampling = True               # the model's own defaults (Settings)
        # "Think before answering" for conversations that never chose (None: the model's
        # own default, which is on for Qwen3.x, gpt-oss and the other thinking templates).
        self.think_default: bool | None = None
        self.pending_think: bool | None = None   # chosen in a new chat before it is saved
        self.think_policy: bool | None = None    # the organisation's choice wins (app/policy.py)
        self.save_interval_s = SAVE_INTERVAL_S
        self.provisional: set[int] = set()      # named for a document not read yet
        # A message sent while an answer is written or a document read in its conversation:
        # (conversation, text); it waits and goes when that ends, so nothing typed is lost.
        self.queued: tuple[int | None, str] | None = None
        # Who answers a prompt: the model directly, or (app.document_questions) the documents
        # of the conversation first. (prompt, temperature, conversation id) -> request id.
        self.send_prompt = self._send_to_model
        self._sent: tuple[StoredMessage, ...] = ()   # what the last prompt sent
        self.error_notices: dict[int | None, object] = {}   # conversation -> its error's notice

    @property
    def busy(self) -> bool:
        """Something is being written into the open conversation."""
        return self.current is not None or self._external_here()

    @property
    def external_id(self) -> int | None:
        return self.external.request_id if self.external is not None else None

    def _external_here(self) -> bool:
        return self.external is not None and self.external.conversation_id == self.conversation_id

    def shows(self, request_id: int) -> bool:
        """Is this the answer (or document summary) being written into the open chat?"""
        if self._external_here() and request_id == self.external.request_id:
            return True
        return self.current is not None and self.current.request_id == request_id

    @property
    def partial(self) -> str:
        return self.current.text if self.current is not None else ""

    # ---- conversations ------------------------------------------------------------------

    def new_chat(self) -> None:
        self._leave()
        self.conversation_id, self.messages, self.pending_think = None, [], None
        self.conversation_opened.emit([])
        self.window_moved.emit(0)
        self.context_changed.emit(None)
        self._show_external_state()
        self._show_queued()

    def open_conversation(self, conversation_id: int) -> None:
        if conversation_id == self.conversation_id:
            return              # already open (e.g. clicked again): the answer goes on
        self._leave()
        self.conversation_id = conversation_id
        running = self._running_in(conversation_id)
        saved = running.message.id if running is not None and running.message else None
        self.messages = [m for m in self.history.messages(conversation_id) if m.id != saved]
        self.conversation_opened.emit(list(self.messages))
        self.window_moved.emit(start_index(self.messages,
                                           self.history.window_start(conversation_id)))
        self.context_changed.emit(conversation_context(self.messages))
        if running is not None:
            self._attach(running)
        self._show_external_state()
        self._show_queued()

    def _running_in(self, conversation_id: int) -> Answer | None:
        """The answer still being written into this conversation (it was left), if any."""
        return next((a for a in self.answers.values() if a.conversation_id == conversation_id
                     and not a.dropped and not a.stop_reason), None)

    def _attach(self, answer: Answer) -> None:
        """Show a left answer again, streaming where it has got to."""
        self.current = answer
        self.answer_started.emit(len(self.messages))
        if answer.text:
            self.answer_piece.emit(answer.text)
        self.busy_changed.emit(True)
        self.phase_changed.emit(tr("Writing the answer…") if answer.text
             else self._waiting_words(answer) or tr("Reading your message…"))

    def _show_external_state(self) -> None:
        if self._external_here():
            self.busy_changed.emit(True)
            self.phase_changed.emit(self.external.phase)

    def rename(self, conversation_id: int, title: str) -> None:
        if title.strip():
            self.provisional.discard(conversation_id)     # the user's own name stays
            self.history.rename(conversation_id, title.strip())
            self.conversations_changed.emit()

    def _new_conversation(self, title: str, provisional: bool = False) -> int:
        """Create the conversation the open chat becomes (the list then highlights it)."""
        self.conversation_id = self.history.create_conversation(self.unique_title(title))
        if self.pending_think is not None:    # "Think before answering" chosen before it existed
            self.history.set_think(self.conversation_id, self.pending_think)
        if provisional:
            self.provisional.add(self.conversation_id)
        self.conversations_changed.emit()
        return self.conversation_id

    def unique_title(self, title: str, conversation_id: int | None = None) -> str:
        """Same-named conversations are told apart: "handbook.pdf (2)"."""
        taken = {c.title for c in self.history.list_conversations() if c.id != conversation_id}
        title = _title_from(title)
        number, unique = 2, title
        while unique in taken:
            unique, number = f"{title} ({number})", number + 1
        return unique

    def name_from_document(self, conversation_id: int | None, name: str) -> None:
        """A document was read into a conversation named for a file not read yet: it is
        now named for what it holds."""
        if conversation_id in self.provisional and self.history.exists(conversation_id):
            self.provisional.discard(conversation_id)
            self._retitle(conversation_id, name)

    def document_failed(self, conversation_id: int | None) -> None:
        """The document a new conversation was named for could not be read: it is named
        for what it does hold (its documents, its first message); holding nothing, it goes."""
        if conversation_id not in self.provisional or not self.history.exists(conversation_id):
            return
        documents = self.history.documents(conversation_id)
        if not documents and not self.history.messages(conversation_id):
            self.delete(conversation_id)       # it holds nothing: no empty "New chat" stays
            return
        first = next((m.content for m in self.history.messages(conversation_id)
                      if m.role == "user" and not is_document(m)), "")
        if documents or first:
            self.provisional.discard(conversation_id)
        self._retitle(conversation_id, documents[0].name if documents else first
                      or tr("New chat"))

    def _retitle(self, conversation_id: int, title: str) -> None:
        self.history.rename(conversation_id, self.unique_title(title, conversation_id))
        self.conversations_changed.emit()

    def delete(self, conversation_id: int) -> None:
        for answer in self.answers.values():
            if answer.conversation_id == conversation_id:
                answer.dropped = True
                self.bridge.stop(answer.request_id)
        self.conversation_deleted.emit(conversation_id)    # app.document_flow drops its own
        self._clear_error(conversation_id)
        if self.queued is not None and self.queued[0] == conversation_id:
            self.queued = None                             # nowhere to send it any more
        self.history.delete(conversation_id)
        if conversation_id == self.conversation_id:
            self.new_chat()
        self.conversations_changed.emit()

    # ---- sending ----------------------------------------------------------------------------

    def send(self, text: str) -> bool:
        """Returns False (and tells the user why) when the message cannot go now."""
        text = text.strip()
        if text and self.busy and self.model_ready:   # an answer or a document here
            return self._queue(text)
        if not text or self.busy or not self._model_is_ready():
            return False
        if self.conversation_id is None:
            self._new_conversation(text)
        elif self.conversation_id in self.provisional and \
                not self.history.documents(self.conversation_id):
            self.provisional.discard(self.conversation_id)  # "New chat": named by its question
            self._retitle(self.conversation_id, text)
        self._add(StoredMessage("user", text))
        return self._ask()

    def _queue(self, text: str) -> bool:
        """Enter (or Send) while an answer is written, or a document read, in this
        conversation (it was silently ignored): the message waits, is said to wait under
        the conversation until it goes, and goes when that ends, as chat apps that queue a
        follow-up do. Stop ends the answer now, so it goes at once; "Don't send" takes it
        back into the box (``cancel_queued``)."""
        if self.queued is not None:     # one waits already: this one stays in the box
            self.phase_changed.emit(
                tr("One question already waits for the document; send this one when its "
                   "answer has begun.") if self._external_here()
                else tr("A message is already waiting to be sent; send this one when its "
                        "answer has begun."))
            return False
        self.queued = (self.conversation_id, text)
        self._show_queued()
        return True

    def _show_queued(self) -> None:
        """The waiting message is said in its own conversation only."""
        if self.queued is None or self.queued[0] != self.conversation_id:
            self.queued_changed.emit("")
            return
        text = _title_from(self.queued[1])
        self.queued_changed.emit(
            tr("Your question will be sent when the document has been read: “{text}”")
            .format(text=text) if self._external_here()
            else tr("Your message will be sent when this answer is finished: “{text}”")
            .format(text=text))

    def cancel_queued(self) -> str:
        """"Don't send": the waiting message is taken back (its text, for the box)."""
        if self.queued is None:
            return ""
        (_conversation_id, text), self.queued = self.queued, None
        self._show_queued()
        return text

    def _send_queued(self) -> None:
        """After the answer or the reading ends and its results are in place (the document
        on the conversation's list), in the next turn of the event loop."""
        if self.queued is not None:
            QTimer.singleShot(0, self._send_queued_now)

    def _send_queued_now(self) -> None:
        if self.queued is None or self._external_here() or (
                self.queued[0] == self.conversation_id and self.current is not None):
            return      # the next document of the same drop is read first, or Write again
                        # began a new answer there: it goes when that one ends
        (conversation_id, text), self.queued = self.queued, None
        self._show_queued()
        if conversation_id != self.conversation_id or not self.send(text):
            # The user went to another conversation meanwhile: said, with the question.
            self.notices.info(tr("Your question was not sent: “{text}”. Send it again "
                                 "where you want the answer.").format(text=text))

    def _model_is_ready(self) -> bool:
        if not self.model_ready:
            self.notices.info(tr("The model is not ready yet. Please wait until loading "
                                 "has finished."))
        return self.model_ready

    def _add(self, message: StoredMessage) -> None:
        self.history.append(self.conversation_id, message)
        self.messages.append(message)
        self.message_added.emit(len(self.messages) - 1, message)

    def _ask(self) -> bool:
        try:
            request_id = self.send_prompt(self._prompt(), self.temperature,
                                          self.conversation_id)
        except EngineError as error:
            self.notices.engine_error(error)
            return False
        self.current = Answer(request_id, self.conversation_id, self.model_name,
                              sent=self._sent)
        self.answers[request_id] = self.current
        self.answer_started.emit(len(self.messages))
        self.busy_changed.emit(True)
        # Queued behind another answer (another conversation's, or one still stopping): say
        # so at once, until its turn comes (it showed an empty box with no word for 1.5 s).
        self.phase_changed.emit(self._waiting_words(self.current)
                                or tr("Reading your message…"))
        self._report_activity()
        return True

    def _waiting_words(self, answer: Answer) -> str:
        """"Waiting for the other answer…" while ``answer`` waits its turn, else ""."""
        if answer.started:
            return ""
        others = any(a is not answer and not a.dropped for a in self.answers.values()) \
            or self.external is not None
        if others:
            return tr("Waiting for the other answer…")
        return tr("Waiting for the previous answer to end…") \
            if self.bridge.waits(answer.request_id) else ""

    def activity(self) -> dict[int, str]:
        """Which conversations are being written into, and which wait their turn."""
        doing: dict[int, str] = {}
        if self.external is not None and self.external.conversation_id is not None:
            doing[self.external.conversation_id] = WRITING_NOW
        for answer in self.answers.values():
            if not answer.dropped and answer.conversation_id is not None:
                state = WAITING if self._waiting_words(answer) else WRITING_NOW
                if doing.get(answer.conversation_id) != WRITING_NOW:
                    doing[answer.conversation_id] = state
        return doing

    def _report_activity(self) -> None:
        self.activity_changed.emit(self.activity())

    def _send_to_model(self, prompt: list[tuple[str, str]], temperature: float,
                       conversation_id: int | None) -> int:
        return self.bridge.chat(prompt, temperature, conversation_id=conversation_id,
                                think=self.think_for(conversation_id),
                                model_sampling=self.model_sampling)

    def think_for(self, conversation_id: int | None) -> bool | None:
        """This conversation's "Think before answering", else the default."""
        chosen = self.history.think(conversation_id) if conversation_id is not None \
            else self.pending_think
        if self.think_policy is not None:
            return self.think_policy
        return self.think_default if chosen is None else chosen

    def set_think(self, think: bool | None) -> None:
        """The open conversation's choice (kept with it); a new chat takes it when created."""
        self.pending_think = think
        if self.conversation_id is not None:
            self.history.set_think(self.conversation_id, think)

    def annotate(self, request_id: int, text: str, stats: dict) -> None:
        """The answer's final text and extra stats, known just before it finishes (an answer
        from documents gets its citations marked and says what was read)."""
        answer = self.answers.get(request_id)
        if answer is not None:
            answer.final_text, answer.extra_stats = text, stats

    def _prompt(self) -> list[tuple[str, str]]:
        """The system prompt and the messages the model still sees (older turns may have
        slid out; a message too long to read is never sent again)."""
        prompt = [("system", self.system_prompt)] if self.system_prompt.strip() else []
        self._sent = tuple(sent_messages(self.messages,
                                         self.history.window_start(self.conversation_id)))
        return prompt + [(m.role, m.content) for m in self._sent]

    def stop(self) -> None:
        """Stop what is being written into the open conversation (the Stop button)."""
        if self.current is not None:
            self.bridge.stop(self.current.request_id)
        elif self._external_here():
            self.bridge.stop(self.external.request_id)
        else:
            return
        self.phase_changed.emit(tr("Stopping…"))

    def stop_everything(self, reason: str = RELOADED) -> None:
        """The model is being changed: every answer, left ones included, stops and is
        kept, labelled with ``reason``; a summary keeps what it has (app.document_flow)."""
        for answer in list(self.answers.values()):
            answer.stop_reason = answer.stop_reason or reason
            self.bridge.stop(answer.request_id)
        if self.external is not None:
            self.bridge.stop(self.external.request_id)

    def regenerate(self) -> None:
        """Write the last answer again; also answers a question left without one. After
        a document, its summary is written again (app.document_flow)."""
        if not self.messages or self._external_here() or not self._model_is_ready():
            return
        document = self.document_index()
        if document is not None and self.current is None:
            self.summary_again_requested.emit(document)
            return
        if self.current is not None:
            self._drop_current()
        elif self.messages[-1].role == "assistant":
            self._truncate(len(self.messages) - 1)
        if self.messages and self.messages[-1].role == "user":
            self._ask()

    def document_index(self) -> int | None:
        """Index of the "Document:" message when the last exchange is a document and its
        summary (or a document left without one), else None."""
        for index in (len(self.messages) - 1, len(self.messages) - 2):
            if index >= 0 and self.messages[index].role == "user":
                return index if is_document(self.messages[index]) else None
        return None

    def edit_and_resend(self, index: int, text: str) -> bool:
        """Replace user message ``index``, forget everything after it, ask again."""
        if not text.strip() or not 0 <= index < len(self.messages):
            return False
        if self.messages[index].role != "user" or not self._model_is_ready():
            return False
        self._drop_current()
        self._truncate(index)
        self._add(StoredMessage("user", text.strip()))
        return self._ask()

    def edit_document(self, index: int) -> None:
        """Edit on a "Document:" message: its card opens with the style and question."""
        if 0 <= index < len(self.messages) and is_document(self.messages[index]) \
                and not self.busy and self._model_is_ready():
            self.summary_edit_requested.emit(index)

    def truncate_from(self, index: int) -> None:
        """Forget message ``index`` and everything after it (a summary written again)."""
        if 0 <= index < len(self.messages):
            self._truncate(index)

    def _truncate(self, index: int) -> None:
        self.history.delete_from(self.conversation_id, self.messages[index].id)
        del self.messages[index:]
        self.truncated.emit(index)
        self.window_moved.emit(start_index(self.messages,
                                           self.history.window_start(self.conversation_id)))

    def _leave(self) -> None:
        """The open conversation is left: its answer goes on, saved in its conversation."""
        answer, self.current = self.current, None
        self._clear_error(self.conversation_id)     # its banner does not follow the user
        if answer is not None:
            self._save_progress(answer, force=True)
        if answer is not None or self._external_here():
            self.busy_changed.emit(False)
            self.phase_changed.emit("")

    def _drop_current(self) -> None:
        """Write again / Edit: the answer being written is replaced; its bubble goes."""
        answer, self.current = self.current, None
        if answer is None:
            return
        answer.dropped = True
        if answer.message is not None:
            self.history.delete_message(answer.message.id)
        self.bridge.stop(answer.request_id)
        self.truncated.emit(len(self.messages))
        self.busy_changed.emit(False)
        self.phase_changed.emit("")

    def close(self) -> None:
        """Rotary is quitting: what is being written is kept and labelled so, never shown
        as "interrupted" (that is for crashes)."""
        self.queued = None
        for request_id, answer in list(self.answers.items()):
            answer.stop_reason = answer.stop_reason or CLOSED
            self.bridge.stop(request_id)
            self._end(request_id, "", {"stop_reason": CLOSED})

    # ---- another flow using the engine (app.document_flow) -------------------------------

    def ensure_conversation(self, title: str, provisional: bool = False) -> int:
        """The open conversation, or a new one named ``title``; ``provisional``: named for
        a document not read yet (app.document_flow renames it if it cannot be read)."""
        if self.conversation_id is None:
            self._new_conversation(title, provisional)
        return self.conversation_id

    def begin_external(self, request_id: int, phase: str,
                       conversation_id: int | None = None) -> None:
        """Sending in that conversation waits, and Stop there stops this request, until
        ``end_external``."""
        self.external = External(request_id, conversation_id, phase)
        self._show_external_state()
        self._report_activity()

    def end_external(self, conversation_id: int | None = None,
                     exchange: tuple[StoredMessage, ...] = ()) -> None:
        """Keep the exchange (a document and its summary) in the conversation it began in."""
        was_here, self.external = self._external_here(), None
        for message in exchange:
            if conversation_id == self.conversation_id:
                self._add(message)
            elif conversation_id is not None and self.history.exists(conversation_id):
                self.history.append(conversation_id, message)
        self._report_activity()
        if was_here:
            self.busy_changed.emit(self.busy)
            self.phase_changed.emit("")
        self._send_queued()

    # ---- engine results (wired in app.wiring) -----------------------------------------------

    def on_started(self, request_id: int) -> None:
        """The engine took this answer's request; it may have waited behind another one."""
        answer = self.answers.get(request_id)
        if answer is not None:
            answer.started = True
            self._report_activity()
        if self.current is not None and self.current.request_id == request_id \
                and not self.current.text:
            self.phase_changed.emit(tr("Reading your message…"))

    def on_token(self, request_id: int, text: str) -> None:
        answer = self.answers.get(request_id)
        if answer is None or answer.dropped:
            return
        if not answer.started:
            answer.started = True
            self._report_activity()
        if answer is self.current and not answer.text:
            self.phase_changed.emit(tr("Writing the answer…"))
            if answer.thinking:                     # the thinking is over: say how long
                self.thinking_changed.emit(answer.thinking, True)
        answer.text += text
        if answer is self.current:
            self.answer_piece.emit(text)
        self._save_progress(answer)

    def on_thinking(self, request_id: int, text: str) -> None:
        """A piece of the model's thinking: shown collapsed above the answer, stored with
        it, never part of its text (so never copied, searched, summarised or sent back)."""
        answer = self.answers.get(request_id)
        if answer is None or answer.dropped:
            return
        if answer is self.current and not answer.thinking:
            self.phase_changed.emit(tr("Thinking…"))
        answer.thinking += text
        if answer is self.current:
            self.thinking_changed.emit(answer.thinking, False)

    def _save_progress(self, answer: Answer, force: bool = False) -> None:
        """Batched: one write per ``save_interval_s``, never one per token."""
        now = time.monotonic()
        if answer.dropped or not answer.text or (
                not force and now - answer.saved_at < self.save_interval_s):
            return
        answer.saved_at = now
        if answer.message is None:
            answer.message = StoredMessage("assistant", answer.text,
                                           model_name=answer.model_name, status=WRITING,
                                           thinking=answer.thinking)
            self.history.append(answer.conversation_id, answer.message)
        else:
            answer.message.content, answer.message.thinking = answer.text, answer.thinking
            self.history.update_answer(answer.message)

    def on_finished(self, event) -> None:
        stats = {"decode_tps": round(event.stats.decode_tps, 1),
                 "generated_tokens": event.stats.generated_tokens,
                 "stop_reason": event.stats.stop_reason}
        if event.stats.thinking_tokens:
            stats["thinking_tokens"] = event.stats.thinking_tokens
        answer = self.answers.get(event.request_id)
        if answer is not None and getattr(event, "thinking", ""):
            answer.thinking = event.thinking        # the engine's, cleaned of markers
        context = getattr(event, "context", None)
        if context is not None and answer is not None and not answer.dropped:
            if context.context_size:        # an office server may not say its size
                stats.update(context_tokens=context.kept_tokens,
                             context_size=context.context_size)
            if context.thinking_stopped:
                stats["thinking_stopped"] = True
            self._move_window(answer, context.left_out)
        self._end(event.request_id, event.text, stats)

    def _move_window(self, answer: Answer, left_out: int) -> None:
        """The engine left the oldest ``left_out`` of the messages sent out: the model's view
        of the conversation now begins later (stored, and shown by a quiet line)."""
        start = moved_start(tuple(m.id for m in answer.sent), left_out)
        if start is None or not self.history.exists(answer.conversation_id):
            return
        self.history.set_window_start(answer.conversation_id, start)
        if answer.conversation_id == self.conversation_id:
            self.window_moved.emit(start_index(self.messages, start))

    def _clear_error(self, conversation_id: int | None) -> None:
        """Its error no longer applies: answered, left or deleted."""
        notice = self.error_notices.pop(conversation_id, None)
        if notice is not None:
            self.notices.withdraw(notice)

    def on_failed(self, request_id: int, error: EngineError) -> None:
        answer = self.answers.get(request_id)
        if answer is not None and isinstance(error, MessageTooLongError):
            self._mark_too_long(answer)
        if answer is self.current and answer is not None:
            self._clear_error(answer.conversation_id)
            self.error_notices[answer.conversation_id] = self.notices.engine_error(error)
        elif answer is not None:      # the user had left it: no notice, but a log line
            log.warning("an answer the user left failed: %s (%s)", error.message,
                        error.details)
        # What was written so far stays as it is; the error is only in the notification.
        # Its reason stays under the answer once the notice is dismissed.
        self._end(request_id, "", {"stop_reason": StopReason.FAILED,
                                   "failed_because": error_text(error)[0]})

    def _mark_too_long(self, answer: Answer) -> None:
        """The message that could not be read even alone stays shown, and is not sent again:
        the next short message is answered."""
        question = next((m for m in reversed(answer.sent) if m.role == "user"), None)
        if question is not None and question.id is not None:
            question.stats = {**question.stats, TOO_LONG: True}
            self.history.update_answer(question)

    def _end(self, request_id: int, text: str, stats: dict) -> None:
        answer = self.answers.pop(request_id, None)
        if answer is None:
            return
        self._report_activity()
        answer.text = answer.final_text or text or answer.text
        stats.update(answer.extra_stats or {})
        if answer.stop_reason:
            stats["stop_reason"] = answer.stop_reason
        if answer is self.current and answer.thinking:
            self.thinking_changed.emit(answer.thinking, True)
        message = self._store_final(answer, stats)
        if message is None and not answer.dropped:
            self._no_answer(answer, stats)
        if message is not None and stats["stop_reason"] != "failed":   # answered: an earlier
            # error in its conversation no longer applies
            self._clear_error(answer.conversation_id)
            if answer.conversation_id == self.conversation_id and "context_size" in stats:
                self.context_changed.emit((stats["context_tokens"], stats["context_size"]))
        if answer is self.current:
            self.current = None
            index = len(self.messages)
            if message is not None:
                self.messages.append(message)
            self.answer_done.emit(index, message or StoredMessage("assistant", ""),
                 stats["stop_reason"])
            self.busy_changed.emit(False)
            self.phase_changed.emit("")
        elif message is not None:
            self._show_late(answer.conversation_id, message)
        if self.queued is not None and self.queued[0] == answer.conversation_id:
            self._send_queued()

    def _store_final(self, answer: Answer, stats: dict) -> StoredMessage | None:
        if answer.dropped:
            return None
        if not answer.text.strip():         # nothing (or only spaces) is no answer
            if answer.message is not None:
                self.history.delete_message(answer.message.id)
            return None
        message = answer.message or StoredMessage("assistant", "", model_name=answer.model_name)
        message.content, message.stats, message.status = answer.text, stats, COMPLETE
        message.thinking = answer.thinking
        if message.id is None:
            self.history.append(answer.conversation_id, message)
        else:
            self.history.update_answer(message)
        return message

    def _no_answer(self, answer: Answer, stats: dict) -> None:
        """The model ended at once (not stopped, not failed): say so, with the likely why."""
        if stats["stop_reason"] in (STOPPED, RELOADED, CLOSED, StopReason.FAILED):
            return
        log.warning("the model gave no answer: request %d, %s tokens, stop reason %s, "
                    "text %r", answer.request_id, stats.get("generated_tokens"),
                    stats["stop_reason"], answer.text[:80])
        self.notices.warning(no_answer_text(self.model_facts, self.on_server),
                             f"request {answer.request_id}: {stats}")

    def _show_late(self, conversation_id: int, message: StoredMessage) -> None:
        """A stopped answer ended after its conversation was opened again: show its end."""
        if conversation_id != self.conversation_id:
            return
        for index, shown in enumerate(self.messages):
            if shown.id == message.id:
                self.messages[index] = message
                self.message_updated.emit(index, message)


def is_document(message: StoredMessage) -> bool:
    """A "Document:" message (app.document_flow keeps what it read in its stats)."""
    return message.role == "user" and bool(message.stats.get("document"))


def no_answer_text(facts, on_server: bool) -> str:
    """"The model gave no answer", with the likely reason for this model."""
    if on_server:
        why = tr("The model on the office server ended its answer at once. Its chat "
                 "template may not suit this model: ask your IT contact.")
    elif facts is not None and getattr(facts, "looks_like_base_model", False):
        why = tr("“{name}” looks like a base model: it has no chat template, so it may not "
                 "know how to answer. Choose a model whose name contains “Instruct” or "
                 "“Chat” in Settings.").format(name=facts.name or tr("This model"))
    else:
        why = tr("It ended its answer at once; its chat template may not suit it. Try "
                 "Write again, or another model in Settings.")
    return tr("The model gave no answer.") + " " + particles(why)


_FENCE = re.compile(r"^\s*(```|~~~)")
_LINE_MARKUP = re.compile(r"^\s*(#+|>|[-*+]|\d+[.)])\s+")


def _title_from(text: str) -> str:
    """The first line with words in it, without its Markdown marks: a message that starts
    with a code fence or a heading is not listed as "```" or "# ..."."""
    lines = text.strip().splitlines() or [""]
    words = (_LINE_MARKUP.sub("", line).strip() for line in lines if not _FENCE.match(line))
    first_line = next((line for line in words if any(c.isalnum() for c in line)), lines[0].strip())
    return first_line if len(first_line) <= TITLE_LENGTH else first_line[:TITLE_LENGTH - 1] + "…"


def base_model_warning(facts) -> str:
    """Plain words for a model that continues text rather than answering ("" otherwise)."""
    if facts is None or not getattr(facts, "looks_like_base_model", False):
        return ""
    return particles(tr(
        "“{name}” looks like a base model: it was not trained to chat, so it may continue "
        "your text instead of answering it. For a helpful assistant, choose a model whose "
        "name contains “Instruct” or “Chat” in Settings.").format(
            name=facts.name or tr("This model")))


def conversation_to_markdown(title: str, messages: list[StoredMessage]) -> str:
    """Export: a heading per speaker so the file reads well in any Markdown viewer."""
    parts = [f"# {title}\n"]
    for message in messages:
        speaker = tr("You") if message.role == "user" else tr("Assistant")
        parts.append(f"## {speaker}\n\n{message.content.strip()}\n")
    return "\n".join(parts)
