"""Which messages of a conversation the model still sees (no widgets).

The engine leaves the oldest turns out when a prompt would not fit (engine/runtime/
conversation/context_window.py) and says how many of those sent it left out; the conversation keeps where
the model's view now begins (``HistoryStore.window_start``), so the next prompts start there
(the kept prefix stays in the model's cache) and a quiet line shows it, after a restart too.
A message too long to be read even alone is marked and never sent again, so the next short
message is answered.
"""

from __future__ import annotations

from app.conversation.history import StoredMessage



def start_index(messages: list[StoredMessage], start_id: int | None) -> int:
    """Index of the first message the model sees (0: all of them, or the start is gone)."""
    if start_id is None:
        return 0
    return next((i for i, m in enumerate(messages) if m.id == start_id), 0)


def sent_messages(messages: list[StoredMessage], start_id: int | None) -> list[StoredMessage]:
    """The messages a prompt sends: from the window's start, without those too long."""
    return [m for m in messages[start_index(messages, start_id):] if not m.stats.too_long]


def moved_start(sent_ids: tuple[int | None, ...], left_out: int) -> int | None:
    """The first message still seen after the engine left ``left_out`` of those sent out."""
    if left_out <= 0 or left_out >= len(sent_ids):
        return None
    return sent_ids[left_out]


def conversation_context(messages: list[StoredMessage]) -> tuple[int, int] | None:
    """(tokens the conversation takes, context size) after its latest answer, if known."""
    for message in reversed(messages):
        stats = message.stats
        if message.role == "assistant" and stats.context_size:
            return stats.context_tokens, stats.context_size
    return None
