"""One conversation's logic, with no widgets: send, stream, stop, regenerate, edit.

The controller owns the list of messages and the history store; the chat pane only
draws what the signals say. Engine results arrive through the bridge's signals (wired
in ``app.wiring``). Errors go to the notification service, never into an answer.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal

from engine.errors import EngineError
from app.history import HistoryStore, StoredMessage
from app.i18n import tr
from app.notifications import NotificationService
from app.qt_compat import emit

TITLE_LENGTH = 48


class ChatController(QObject):
    conversation_opened = Signal(object)        # list[StoredMessage]
    message_added = Signal(int, object)         # index, StoredMessage
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
        self.request_id: int | None = None
        self.partial = ""
        self.model_name = ""
        self.model_ready = False
        self.system_prompt = ""
        self.temperature = 0.7

    @property
    def busy(self) -> bool:
        return self.request_id is not None

    # ---- conversations ------------------------------------------------------------------

    def new_chat(self) -> None:
        if self.busy:
            self.stop()
        self.conversation_id, self.messages = None, []
        emit(self.conversation_opened, [])

    def open_conversation(self, conversation_id: int) -> None:
        if self.busy:
            self.stop()
        self.conversation_id = conversation_id
        self.messages = self.history.messages(conversation_id)
        emit(self.conversation_opened, list(self.messages))

    def rename(self, conversation_id: int, title: str) -> None:
        if title.strip():
            self.history.rename(conversation_id, title.strip())
            emit(self.conversations_changed)

    def delete(self, conversation_id: int) -> None:
        self.history.delete(conversation_id)
        if conversation_id == self.conversation_id:
            self.new_chat()
        emit(self.conversations_changed)

    # ---- sending ----------------------------------------------------------------------------

    def send(self, text: str) -> bool:
        """Returns False (and tells the user why) when the message cannot go now."""
        text = text.strip()
        if not text or not self._can_send():
            return False
        if self.conversation_id is None:
            self.conversation_id = self.history.create_conversation(_title_from(text))
            emit(self.conversations_changed)
        self._add(StoredMessage("user", text))
        return self._ask()

    def _can_send(self) -> bool:
        if self.busy:
            return False
        if not self.model_ready:
            self.notices.info(tr("The model is not ready yet. Please wait until loading "
                                 "has finished."))
            return False
        return True

    def _add(self, message: StoredMessage) -> None:
        self.history.append(self.conversation_id, message)
        self.messages.append(message)
        emit(self.message_added, len(self.messages) - 1, message)

    def _ask(self) -> bool:
        try:
            self.request_id = self.bridge.chat(self._prompt(), self.temperature)
        except EngineError as error:
            self.notices.engine_error(error)
            return False
        self.partial = ""
        emit(self.answer_started, len(self.messages))
        emit(self.busy_changed, True)
        emit(self.phase_changed, tr("Reading your message…"))
        return True

    def _prompt(self) -> list[tuple[str, str]]:
        prompt = [("system", self.system_prompt)] if self.system_prompt.strip() else []
        return prompt + [(m.role, m.content) for m in self.messages]

    def stop(self) -> None:
        if self.busy:
            self.bridge.stop()
            emit(self.phase_changed, tr("Stopping…"))

    def regenerate(self) -> None:
        """Drop the last answer and ask again with the same conversation."""
        if self.busy or not self.messages or self.messages[-1].role != "assistant":
            return
        if not self._can_send():
            return
        self._truncate(len(self.messages) - 1)
        self._ask()

    def edit_and_resend(self, index: int, text: str) -> bool:
        """Replace user message ``index``, forget everything after it, ask again."""
        if self.busy or not text.strip() or self.messages[index].role != "user":
            return False
        if not self._can_send():
            return False
        self._truncate(index)
        self._add(StoredMessage("user", text.strip()))
        return self._ask()

    def _truncate(self, index: int) -> None:
        self.history.delete_from(self.conversation_id, self.messages[index].id)
        del self.messages[index:]
        emit(self.truncated, index)

    # ---- engine results (wired in app.wiring) -----------------------------------------------

    def on_token(self, request_id: int, text: str) -> None:
        if request_id != self.request_id:
            return      # a late token of an answer we already left
        if not self.partial:
            emit(self.phase_changed, tr("Writing the answer…"))
        self.partial += text
        emit(self.answer_piece, text)

    def on_finished(self, event) -> None:
        if event.request_id != self.request_id:
            return
        stats = {"decode_tps": round(event.stats.decode_tps, 1),
                 "generated_tokens": event.stats.generated_tokens,
                 "stop_reason": event.stats.stop_reason}
        self._finish(event.text or self.partial, stats, event.stats.stop_reason)

    def on_failed(self, request_id: int, error: EngineError) -> None:
        if request_id != self.request_id:
            return
        self.notices.engine_error(error)
        # What was written so far stays as it is; the error is only in the notification.
        self._finish(self.partial, {"stop_reason": "failed"}, "failed")

    def _finish(self, text: str, stats: dict, reason: str) -> None:
        index = len(self.messages)
        self.request_id = None
        message = StoredMessage("assistant", text, model_name=self.model_name, stats=stats)
        if text:
            self.history.append(self.conversation_id, message)
            self.messages.append(message)
        emit(self.answer_done, index, message, reason)
        emit(self.busy_changed, False)
        emit(self.phase_changed, "")


def _title_from(text: str) -> str:
    first_line = text.strip().splitlines()[0]
    return first_line if len(first_line) <= TITLE_LENGTH else first_line[:TITLE_LENGTH - 1] + "…"


def conversation_to_markdown(title: str, messages: list[StoredMessage]) -> str:
    """Export: a heading per speaker so the file reads well in any Markdown viewer."""
    parts = [f"# {title}\n"]
    for message in messages:
        speaker = tr("You") if message.role == "user" else tr("Assistant")
        parts.append(f"## {speaker}\n\n{message.content.strip()}\n")
    return "\n".join(parts)
