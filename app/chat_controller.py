"""One conversation's logic, with no widgets: send, stream, stop, regenerate, edit.

The controller owns the list of messages and the history store; the chat pane only
draws what the signals say. Engine results arrive through the bridge's signals (wired
in ``app.wiring``). Errors go to the notification service, never into an answer.

Every answer is an ``Answer`` keyed by the request id its engine events carry, and
bound to the conversation that asked for it, so a late or stopped answer is written
to its own conversation (or dropped, see KEEP/DROP), never to the one now open.
"""

from __future__ import annotations

import logging
import re
import time
from dataclasses import dataclass

from PySide6.QtCore import QObject, Signal

from engine.errors import EngineError
from app.history import COMPLETE, WRITING, HistoryStore, StoredMessage
from app.i18n import tr
from app.notifications import NotificationService
from app.qt_compat import emit

TITLE_LENGTH = 48
SAVE_INTERVAL_S = 1.0      # at most about this much streamed text is lost in a crash
log = logging.getLogger("rotary.chat")

# What becomes of an answer whose conversation the user leaves while it is written:
KEEP, DROP = "keep", "drop"
# KEEP: it is stopped and stays in its own conversation, marked "stopped" (switching,
#       New chat, a model reload). Only an answer with text is kept: one left before its
#       first words is dropped, so a late answer never lands after newer messages.
# DROP: nothing more of it is written, and its saved part is deleted (its conversation
#       was deleted, or Regenerate / Edit replaces it).


@dataclass
class Answer:
    """One requested answer, tied to the conversation that asked for it."""
    request_id: int
    conversation_id: int
    model_name: str
    text: str = ""
    message: StoredMessage | None = None    # its row, once first saved
    saved_at: float = 0.0
    left: str = ""                          # "", KEEP or DROP once the user left it


class ChatController(QObject):
    conversation_opened = Signal(object)        # list[StoredMessage]
    message_added = Signal(int, object)         # index, StoredMessage
    message_updated = Signal(int, object)       # index, StoredMessage (a late answer)
    answer_started = Signal(int)                # index of the streaming answer
    answer_piece = Signal(str)                  # new text of the streaming answer
    answer_done = Signal(int, object, str)      # index, StoredMessage, stop reason
    truncated = Signal(int)                     # messages from this index were removed
    busy_changed = Signal(bool)
    phase_changed = Signal(str)                 # plain words for the status line
    conversations_changed = Signal()

    def __init__(self, history: HistoryStore, bridge, notices: NotificationService,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.history, self.bridge, self.notices = history, bridge, notices
        self.conversation_id: int | None = None
        self.messages: list[StoredMessage] = []
        self.answers: dict[int, Answer] = {}     # request id -> answer, until it ends
        self.current: Answer | None = None       # the one streaming into the open chat
        self.external_id: int | None = None      # a document summary using the engine
        self.model_name = ""
        self.model_ready = False
        self.system_prompt = ""
        self.temperature = 0.7
        self.save_interval_s = SAVE_INTERVAL_S

    @property
    def busy(self) -> bool:
        return self.current is not None or self.external_id is not None

    def shows(self, request_id: int) -> bool:
        """Is this the answer streaming into the open conversation (or a document summary)?"""
        if self.external_id is not None and request_id == self.external_id:
            return True
        return self.current is not None and self.current.request_id == request_id

    @property
    def partial(self) -> str:
        return self.current.text if self.current is not None else ""

    # ---- conversations ------------------------------------------------------------------

    def new_chat(self) -> None:
        self._leave(KEEP)
        self.conversation_id, self.messages = None, []
        emit(self.conversation_opened, [])

    def open_conversation(self, conversation_id: int) -> None:
        if conversation_id == self.conversation_id:
            return              # already open (e.g. clicked again): the answer goes on
        self._leave(KEEP)
        self.conversation_id = conversation_id
        self.messages = self.history.messages(conversation_id)
        emit(self.conversation_opened, list(self.messages))

    def rename(self, conversation_id: int, title: str) -> None:
        if title.strip():
            self.history.rename(conversation_id, title.strip())
            emit(self.conversations_changed)

    def delete(self, conversation_id: int) -> None:
        for answer in self.answers.values():
            if answer.conversation_id == conversation_id:
                answer.left = DROP
                self.bridge.stop(answer.request_id)
        self.history.delete(conversation_id)
        if conversation_id == self.conversation_id:
            self.new_chat()
        emit(self.conversations_changed)

    # ---- sending ----------------------------------------------------------------------------

    def send(self, text: str) -> bool:
        """Returns False (and tells the user why) when the message cannot go now."""
        text = text.strip()
        if not text or self.busy or not self._model_is_ready():
            return False
        if self.conversation_id is None:
            self.conversation_id = self.history.create_conversation(_title_from(text))
            emit(self.conversations_changed)
        self._add(StoredMessage("user", text))
        return self._ask()

    def _model_is_ready(self) -> bool:
        if not self.model_ready:
            self.notices.info(tr("The model is not ready yet. Please wait until loading "
                                 "has finished."))
        return self.model_ready

    def _add(self, message: StoredMessage) -> None:
        self.history.append(self.conversation_id, message)
        self.messages.append(message)
        emit(self.message_added, len(self.messages) - 1, message)

    def _ask(self) -> bool:
        try:
            request_id = self.bridge.chat(self._prompt(), self.temperature,
                                          conversation_id=self.conversation_id)
        except EngineError as error:
            self.notices.engine_error(error)
            return False
        self.current = Answer(request_id, self.conversation_id, self.model_name)
        self.answers[request_id] = self.current
        emit(self.answer_started, len(self.messages))
        emit(self.busy_changed, True)
        # Queued behind an answer still stopping (a server that hangs): say so until it starts.
        emit(self.phase_changed, tr("Waiting for the previous answer to end…")
             if self.bridge.waits(request_id) else tr("Reading your message…"))
        return True

    def _prompt(self) -> list[tuple[str, str]]:
        prompt = [("system", self.system_prompt)] if self.system_prompt.strip() else []
        return prompt + [(m.role, m.content) for m in self.messages]

    def stop(self) -> None:
        if self.busy:
            self.bridge.stop(self.current.request_id if self.current else self.external_id)
            emit(self.phase_changed, tr("Stopping…"))

    def regenerate(self) -> None:
        """Write the last answer again; also answers a question left without one."""
        if not self.messages or self.external_id is not None or not self._model_is_ready():
            return
        if self.busy:
            self._leave(DROP)
        elif self.messages[-1].role == "assistant":
            self._truncate(len(self.messages) - 1)
        if self.messages and self.messages[-1].role == "user":
            self._ask()

    def edit_and_resend(self, index: int, text: str) -> bool:
        """Replace user message ``index``, forget everything after it, ask again."""
        if not text.strip() or not 0 <= index < len(self.messages):
            return False
        if self.messages[index].role != "user" or not self._model_is_ready():
            return False
        self._leave(DROP)
        self._truncate(index)
        self._add(StoredMessage("user", text.strip()))
        return self._ask()

    def _truncate(self, index: int) -> None:
        self.history.delete_from(self.conversation_id, self.messages[index].id)
        del self.messages[index:]
        emit(self.truncated, index)

    def _leave(self, rule: str) -> None:
        """The streaming answer leaves the view; ``rule`` (KEEP/DROP) says what becomes of it."""
        answer, self.current = self.current, None
        if answer is None:
            return
        if answer.left != DROP:          # a deleted conversation's answer stays dropped
            answer.left = rule if answer.text else DROP
        if answer.left == KEEP:
            self._save_progress(answer, force=True)
        elif answer.message is not None:
            self.history.delete_message(answer.message.id)
        self.bridge.stop(answer.request_id)
        if rule == DROP:
            emit(self.truncated, len(self.messages))    # its bubble goes
        emit(self.busy_changed, False)
        emit(self.phase_changed, "")

    def close(self) -> None:
        """Rotary is quitting: what is being written is kept and marked "stopped", so a
        normal exit never shows an answer as "interrupted" (that is for crashes)."""
        self._leave(KEEP)
        for request_id in list(self.answers):
            self.bridge.stop(request_id)
            self._end(request_id, "", {"stop_reason": "stopped"})

    # ---- another flow using the engine (app.document_flow) -------------------------------

    def ensure_conversation(self, title: str) -> int:
        if self.conversation_id is None:
            self.conversation_id = self.history.create_conversation(_title_from(title))
            emit(self.conversations_changed)
        return self.conversation_id

    def begin_external(self, request_id: int, phase: str) -> None:
        """Sending waits and Stop stops that request until ``end_external``."""
        self.external_id = request_id
        emit(self.busy_changed, True)
        emit(self.phase_changed, phase)

    def end_external(self, conversation_id: int | None = None,
                     exchange: tuple[StoredMessage, ...] = ()) -> None:
        """Keep the exchange (a document and its summary) in the conversation it began in."""
        self.external_id = None
        for message in exchange:
            if conversation_id == self.conversation_id:
                self._add(message)
            else:               # the user opened another chat meanwhile
                self.history.append(conversation_id, message)
        emit(self.busy_changed, self.busy)
        emit(self.phase_changed, "")

    # ---- engine results (wired in app.wiring) -----------------------------------------------

    def on_started(self, request_id: int) -> None:
        """The engine took this answer's request; it may have waited behind another one."""
        if self.current is not None and self.current.request_id == request_id \
                and not self.current.text:
            emit(self.phase_changed, tr("Reading your message…"))

    def on_token(self, request_id: int, text: str) -> None:
        answer = self.answers.get(request_id)
        if answer is None or answer.left == DROP:
            return
        if answer is self.current and not answer.text:
            emit(self.phase_changed, tr("Writing the answer…"))
        answer.text += text
        if answer is self.current:
            emit(self.answer_piece, text)
        self._save_progress(answer)

    def _save_progress(self, answer: Answer, force: bool = False) -> None:
        """Batched: one write per ``save_interval_s``, never one per token."""
        now = time.monotonic()
        if not answer.text or (not force and now - answer.saved_at < self.save_interval_s):
            return
        answer.saved_at = now
        if answer.message is None:
            answer.message = StoredMessage("assistant", answer.text,
                                           model_name=answer.model_name, status=WRITING)
            self.history.append(answer.conversation_id, answer.message)
        else:
            answer.message.content = answer.text
            self.history.update_answer(answer.message)

    def on_finished(self, event) -> None:
        stats = {"decode_tps": round(event.stats.decode_tps, 1),
                 "generated_tokens": event.stats.generated_tokens,
                 "stop_reason": event.stats.stop_reason}
        self._end(event.request_id, event.text, stats)

    def on_failed(self, request_id: int, error: EngineError) -> None:
        answer = self.answers.get(request_id)
        if answer is self.current and answer is not None:
            self.notices.engine_error(error)
        elif answer is not None:      # the user had left it: no notice, but a log line
            log.warning("an answer the user left failed: %s (%s)", error.message,
                        error.details)
        # What was written so far stays as it is; the error is only in the notification.
        self._end(request_id, "", {"stop_reason": "failed"})

    def _end(self, request_id: int, text: str, stats: dict) -> None:
        answer = self.answers.pop(request_id, None)
        if answer is None:
            return
        answer.text = text or answer.text
        if answer.left:
            stats["stop_reason"] = "stopped"
        message = self._store_final(answer, stats)
        if answer is self.current:
            self.current = None
            index = len(self.messages)
            if message is not None:
                self.messages.append(message)
            emit(self.answer_done, index, message or StoredMessage("assistant", ""),
                 stats["stop_reason"])
            emit(self.busy_changed, False)
            emit(self.phase_changed, "")
        elif message is not None:
            self._show_late(answer.conversation_id, message)

    def _store_final(self, answer: Answer, stats: dict) -> StoredMessage | None:
        if answer.left == DROP or not answer.text:
            return None
        message = answer.message or StoredMessage("assistant", "", model_name=answer.model_name)
        message.content, message.stats, message.status = answer.text, stats, COMPLETE
        if message.id is None:
            self.history.append(answer.conversation_id, message)
        else:
            self.history.update_answer(message)
        return message

    def _show_late(self, conversation_id: int, message: StoredMessage) -> None:
        """A left answer ended; if its conversation was opened again, show its end."""
        if conversation_id != self.conversation_id:
            return
        for index, shown in enumerate(self.messages):
            if shown.id == message.id:
                self.messages[index] = message
                emit(self.message_updated, index, message)


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
    return tr("“{name}” looks like a base model: it was not trained to chat, so it may "
              "continue your text instead of answering it. For a helpful assistant, choose "
              "a model whose name contains “Instruct” or “Chat” in Settings.").format(
                  name=facts.name or tr("This model"))


def conversation_to_markdown(title: str, messages: list[StoredMessage]) -> str:
    """Export: a heading per speaker so the file reads well in any Markdown viewer."""
    parts = [f"# {title}\n"]
    for message in messages:
        speaker = tr("You") if message.role == "user" else tr("Assistant")
        parts.append(f"## {speaker}\n\n{message.content.strip()}\n")
    return "\n".join(parts)
