"""Each conversation's "Think before answering" choice, kept in the history database."""

from __future__ import annotations

from app.conversation.history import HistoryStore


class ThinkChoice:
    """A conversation's own choice, else ``default`` (None: the model's own default, which
    is on for Qwen3.x, gpt-oss and the other thinking templates); the organisation's choice
    (``policy``, app/settings/policy.py) wins over both."""

    def __init__(self, history: HistoryStore) -> None:
        self.history = history
        self.default: bool | None = None
        self.policy: bool | None = None
        self.pending: bool | None = None     # chosen in a new chat before it is saved

    def for_conversation(self, conversation_id: int | None) -> bool | None:
        """This conversation's choice (None: a new chat, not saved yet), else the default."""
        chosen = self.history.think(conversation_id) if conversation_id is not None \
            else self.pending
        if self.policy is not None:
            return self.policy
        return self.default if chosen is None else chosen

    def choose(self, conversation_id: int | None, think: bool | None) -> None:
        """The open conversation's choice (kept with it); a new chat takes it when created."""
        self.pending = think
        if conversation_id is not None:
            self.history.set_think(conversation_id, think)

    def created(self, conversation_id: int) -> None:
        """A new chat was saved: the choice made before it existed is kept with it."""
        if self.pending is not None:
            self.history.set_think(conversation_id, self.pending)
