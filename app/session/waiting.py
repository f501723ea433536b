"""The one message that waits: sent while an answer is written, or a document read, in its
conversation; it goes when that ends (at once after Stop), and "Don't send" takes it back."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable


@dataclass(frozen=True)
class Queued:
    """A message sent while its conversation was busy, and where it was sent."""
    conversation_id: int | None
    text: str


class WaitingMessage:
    """At most one message waits; ``open_conversation`` says which conversation is open
    (the message is said in its own conversation only)."""

    def __init__(self, open_conversation: Callable[[], int | None]) -> None:
        self.open_conversation = open_conversation
        self.queued: Queued | None = None

    def put(self, text: str) -> bool:
        """False: one waits already (this one stays in the box)."""
        if self.queued is not None:
            return False
        self.queued = Queued(self.open_conversation(), text)
        return True

    def here(self) -> str:
        """The text waiting in the open conversation ("": none)."""
        if self.queued is None or self.queued.conversation_id != self.open_conversation():
            return ""
        return self.queued.text

    def waits_in(self, conversation_id: int | None) -> bool:
        return self.queued is not None and self.queued.conversation_id == conversation_id

    def take(self) -> Queued | None:
        queued, self.queued = self.queued, None
        return queued

    def drop(self, conversation_id: int | None = None) -> None:
        """Its conversation is deleted (None: Rotary is quitting): nowhere to send it."""
        if conversation_id is None or self.waits_in(conversation_id):
            self.queued = None
