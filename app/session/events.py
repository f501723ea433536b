"""What the session tells the screen, as typed events through one callback (``Report``): the
chat's, here, and the document card's (app.session.document_events).

app.chat.chat_controller turns each into the Qt signal the chat pane, the conversation list
and the gauge connect to (a document's through app.documents.document_flow); the Qt-free
tests collect them in a list.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Mapping, Union

from engine.api import RequestFinished, StepRecord
from app.conversation.history import StoredMessage
from app.session.document_events import DocumentEvent


@dataclass(frozen=True)
class ConversationOpened:
    """The open conversation as it is now (None: a new chat, not saved yet); ``draft``: the
    text the user left unsent in its message box."""
    conversation_id: int | None
    messages: tuple[StoredMessage, ...]
    draft: str = ""


@dataclass(frozen=True)
class MessageAdded:
    index: int
    message: StoredMessage


@dataclass(frozen=True)
class MessageUpdated:
    """A message shown in the open conversation changed (a late answer, a refused mark)."""
    index: int
    message: StoredMessage


@dataclass(frozen=True)
class AnswerStarted:
    """The answer streams into the open conversation at this index."""
    index: int
    request_id: int


@dataclass(frozen=True)
class AnswerPiece:
    text: str


@dataclass(frozen=True)
class ThinkingChanged:
    text: str                  # the thinking so far
    done: bool


@dataclass(frozen=True)
class AnswerDone:
    index: int
    message: StoredMessage     # an empty one when nothing of the answer is kept
    stop_reason: str


@dataclass(frozen=True)
class Truncated:
    """Messages from this index were removed."""
    index: int


@dataclass(frozen=True)
class WindowMoved:
    """The model's view of the open conversation begins at this index (0: all)."""
    start: int


@dataclass(frozen=True)
class ContextChanged:
    """(tokens used, context size) of the open conversation, or None: unknown."""
    context: tuple[int, int] | None


@dataclass(frozen=True)
class BusyChanged:
    """The open conversation is (not) being written into; ``phase``: the status line."""
    busy: bool
    phase: str


@dataclass(frozen=True)
class PhaseChanged:
    """Plain words for the status line."""
    text: str


@dataclass(frozen=True)
class ConversationsChanged:
    """The list of conversations changed (a title, a new one, the order)."""


@dataclass(frozen=True)
class ActivityChanged:
    """{conversation id: "writing" or "waiting"}."""
    activity: Mapping[int, str] = field(default_factory=dict)


@dataclass(frozen=True)
class QueuedChanged:
    """Says a message waits to be sent ("": none)."""
    text: str


@dataclass(frozen=True)
class StepShown:
    """A step of the job shown in the open conversation, for the gauge."""
    record: StepRecord
    reading_document: bool     # the step is a document's look or summary


@dataclass(frozen=True)
class RequestEnded:
    """An answer's engine numbers (the measured speed of this computer)."""
    finished: RequestFinished


ChatEvent = Union[ConversationOpened, MessageAdded, MessageUpdated, AnswerStarted, AnswerPiece,
                  ThinkingChanged, AnswerDone, Truncated, WindowMoved, ContextChanged,
                  BusyChanged, PhaseChanged, ConversationsChanged, ActivityChanged,
                  QueuedChanged, StepShown, RequestEnded]
UiEvent = Union[ChatEvent, DocumentEvent]
Report = Callable[[UiEvent], None]
