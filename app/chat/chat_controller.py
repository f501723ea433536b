"""The session's Qt face: its typed UI events (app.session.events) as the Qt signals the chat
pane, the conversation list and the gauge connect to (app.wiring); a document's events go on
to the document card's Qt face (app.documents.document_flow).

No logic lives here: ``show`` is the session's one callback (app.session.Session.report).
What the user does goes from the widgets to the session's methods directly.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal

from app.documents.document_flow import DocumentFlow
from app.session.document_events import DocumentEvent
from app.session.events import (ActivityChanged, AnswerDone, AnswerPiece, AnswerStarted,
                                BusyChanged, ContextChanged, ConversationOpened,
                                ConversationsChanged, MessageAdded, MessageUpdated,
                                PhaseChanged, QueuedChanged, RequestEnded, StepShown,
                                ThinkingChanged, Truncated, UiEvent, WindowMoved)


class ChatController(QObject):
    conversation_opened = Signal(object)        # list[StoredMessage]
    draft_restored = Signal(str)                # after it: its unsent text, back in the box
    message_added = Signal(int, object)         # index, StoredMessage
    message_updated = Signal(int, object)       # index, StoredMessage (a late answer)
    answer_started = Signal(int)                # index of the streaming answer
    answer_followed = Signal(object)            # AnswerStarted: its request's steps count
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
    step_shown = Signal(object, bool)           # StepRecord of the open chat's job; a document's
    request_ended = Signal(object)              # engine.api.RequestFinished (measured speed)

    def __init__(self, documents: DocumentFlow, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.documents = documents          # the document card's Qt face

    def show(self, event: UiEvent) -> None:
        """The session's one callback: each event as its signal (the open answer's first, as
        they are the most frequent; a document's to the card's Qt face)."""
        match event:
            case AnswerPiece():
                self.answer_piece.emit(event.text)
            case ThinkingChanged():
                self.thinking_changed.emit(event.text, event.done)
            case ConversationOpened():
                self.conversation_opened.emit(list(event.messages))
                self.draft_restored.emit(event.draft)
            case MessageAdded():
                self.message_added.emit(event.index, event.message)
            case MessageUpdated():
                self.message_updated.emit(event.index, event.message)
            case AnswerStarted():
                self.answer_started.emit(event.index)
                self.answer_followed.emit(event)
            case AnswerDone():
                self.answer_done.emit(event.index, event.message, event.stop_reason)
            case _ if isinstance(event, DocumentEvent):
                self.documents.show(event)
            case _:
                self._show_state(event)

    def _show_state(self, event: UiEvent) -> None:
        """What is not the open answer itself: the window, the status line, the list."""
        match event:
            case Truncated():
                self.truncated.emit(event.index)
            case WindowMoved():
                self.window_moved.emit(event.start)
            case ContextChanged():
                self.context_changed.emit(event.context)
            case BusyChanged():
                self.busy_changed.emit(event.busy)
                self.phase_changed.emit(event.phase)
            case PhaseChanged():
                self.phase_changed.emit(event.text)
            case ConversationsChanged():
                self.conversations_changed.emit()
            case ActivityChanged():
                self.activity_changed.emit(dict(event.activity))
            case QueuedChanged():
                self.queued_changed.emit(event.text)
            case StepShown():
                self.step_shown.emit(event.record, event.reading_document)
            case RequestEnded():
                self.request_ended.emit(event.finished)
