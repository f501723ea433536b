"""What a message keeps of how it was written: the engine's numbers, why it stopped, the
marks the app sets, and for document messages what was read. One frozen record, written to
the history as JSON through ``to_data``/``from_data`` with the same keys as ever, so a
history saved by an older Rotary reads the same."""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Mapping

# A document record as the history keeps it (JSON: names, pages, counts).
DocumentData = Mapping[str, object]


@dataclass(frozen=True)
class MessageStats:
    decode_tps: float = 0.0
    generated_tokens: int = 0
    stop_reason: str = ""              # engine.api.StopReason value; "" for a user message
    thinking_tokens: int = 0
    context_tokens: int = 0            # the conversation's window after this answer ...
    context_size: int = 0              # ... of this many tokens (0: an office server's unknown)
    thinking_stopped: bool = False     # the thinking was cut short to leave room to answer
    too_long: bool = False             # a question that could not be read, never sent again
    attached_as_document: bool = False  # ... and its text was then attached as a document
    failed_because: str = ""           # the error's short text, under a failed answer
    document: DocumentData | None = None           # a "Document:" message: what was read
    document_summary: DocumentData | None = None   # a summary: how much of it was read
    document_answer: DocumentData | None = None    # an answer from documents: pages, checks

    def with_(self, **changes: object) -> MessageStats:
        return replace(self, **changes)  # type: ignore[arg-type]

    def to_data(self) -> dict[str, object]:
        """Only what differs from nothing: the stored JSON stays as small as before."""
        return {f.name: getattr(self, f.name) for f in fields(self)
                if getattr(self, f.name) != f.default}

    @classmethod
    def from_data(cls, data: Mapping[str, object] | None) -> MessageStats:
        """Keys this version does not know (a newer Rotary's) are left out."""
        known = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in (data or {}).items() if k in known})  # type: ignore[arg-type]

    def __bool__(self) -> bool:
        return bool(self.to_data())
