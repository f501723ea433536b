"""One engine request of a conversation, whatever it asks for."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from enum import Enum

from app.conversation.history import COMPLETE, StoredMessage
from app.conversation.message_stats import MessageStats


class JobKind(Enum):
    ANSWER = "answer"          # a chat answer
    QUESTION = "question"      # an answer from the conversation's documents
    LOOK = "look"              # a document read and counted, before its style is chosen
    SUMMARY = "summary"        # a document summarised


@dataclass
class Job:
    """One engine request, keyed by the request id its events carry, bound to the
    conversation that asked for it (so it is written there, never into the one now open)."""
    request_id: int
    conversation_id: int | None             # None: a new chat not saved yet (a document)
    model_name: str = ""
    kind: JobKind = JobKind.ANSWER
    phase: str = ""                         # what the user is told it does ("Reading…")
    text: str = ""
    thinking: str = ""                      # the model's thinking: shown apart, never sent back
    stats: MessageStats = field(default_factory=MessageStats)   # once it has ended
    message: StoredMessage | None = None    # its row, once first saved
    saved_at: float = -math.inf             # monotonic: never saved (it starts near 0 at boot)
    dropped: bool = False                   # replaced or its conversation deleted
    stop_reason: str = ""                   # RELOADED or CLOSED when the app stopped it
    started: bool = False                   # the engine has begun it (not waiting its turn)
    sent: tuple[StoredMessage, ...] = ()    # the messages its prompt sent (window.py)

    @property
    def conversation(self) -> int:
        """An answer's conversation: one is always saved before its question is sent."""
        assert self.conversation_id is not None, "an answer outside a saved conversation"
        return self.conversation_id

    def saved(self, stats: MessageStats) -> StoredMessage | None:
        """Its final message (saved by the caller), or None: nothing of it is kept."""
        if self.dropped or not self.text.strip():     # nothing (or only spaces) is no answer
            return None
        self.stats = stats
        message = self.message or StoredMessage("assistant", "", model_name=self.model_name)
        message.content, message.stats, message.status = self.text, stats, COMPLETE
        message.thinking = self.thinking
        return message
