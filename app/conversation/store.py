"""The open conversation and the saved ones: its messages, their titles, the model's view.

Plain Python over ``HistoryStore``; it tells its owner what changed through the callbacks
of ``StoreEvents`` (app.chat.chat_controller turns them into Qt signals). ``Conversations`` is
what another flow (app.session.document_session) may use of it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Protocol, Sequence

from engine.api import DocumentScope

from app.conversation.window import conversation_context, moved_start, sent_messages, start_index
from app.conversation.history import HistoryStore, StoredMessage
from app.conversation.message_stats import MessageStats

TITLE_LENGTH = 48


class EndedJob(Protocol):
    """What the store reads of an ended app.session.Job (a floor above it)."""

    @property
    def conversation(self) -> int: ...
    @property
    def dropped(self) -> bool: ...
    @property
    def message(self) -> StoredMessage | None: ...
    def saved(self, stats: MessageStats) -> StoredMessage | None: ...


class Conversations(Protocol):
    """The open conversation, as a flow that adds to it sees it (app.session.document_session)."""

    @property
    def conversation_id(self) -> int | None: ...

    @property
    def messages(self) -> Sequence[StoredMessage]: ...

    def ensure(self, title: str, provisional: bool = False) -> int: ...

    def truncate_from(self, index: int) -> None: ...

    def keep(self, conversation_id: int | None, messages: Sequence[StoredMessage]) -> None: ...

    def name_from_document(self, conversation_id: int | None, name: str) -> None: ...

    def document_failed(self, conversation_id: int | None) -> None: ...


def _nothing(*_args: object) -> None:
    return None


@dataclass
class StoreEvents:
    """What the store reports; each defaults to nothing (the Qt-free tests listen to some)."""
    listed: Callable[[], None] = _nothing                       # the list of conversations
    added: Callable[[int, StoredMessage], None] = _nothing      # index, message (open chat)
    truncated: Callable[[int, int], None] = _nothing            # from index; window's start
    deleting: Callable[[int], None] = _nothing                  # before a conversation goes


class ConversationStore:
    """The open conversation's messages and every conversation's title, window and
    "Think before answering" choice, kept in the history database."""

    def __init__(self, history: HistoryStore, events: StoreEvents | None = None,
                 untitled: Callable[[], str] = lambda: "New chat") -> None:
        self.history, self.events, self.untitled = history, events or StoreEvents(), untitled
        self.conversation_id: int | None = None
        self.messages: list[StoredMessage] = []
        self.provisional: set[int] = set()      # named for a document not read yet
        self.pending_think: bool | None = None   # chosen in a new chat before it is saved
        # "Think before answering" for conversations that never chose (None: the model's
        # own default, which is on for Qwen3.x, gpt-oss and the other thinking templates).
        self.think_default: bool | None = None
        self.think_policy: bool | None = None    # the organisation's choice wins (app/settings/policy.py)

    # ---- which conversation is open ----------------------------------------------------

    def clear(self) -> None:
        """New chat: nothing is open until its first message creates it."""
        self.conversation_id, self.messages, self.pending_think = None, [], None

    def open(self, conversation_id: int, without: int | None = None) -> None:
        """Open a saved conversation; ``without``: the row of an answer still being written
        (it is shown streaming, not as a message)."""
        self.conversation_id = conversation_id
        self.messages = [m for m in self.history.messages(conversation_id) if m.id != without]

    def window_index(self) -> int:
        """Index of the first message the model still sees (0: all)."""
        return start_index(self.messages, self.history.window_start(self.conversation_id))

    def context(self) -> tuple[int, int] | None:
        return conversation_context(self.messages)

    def sent(self) -> tuple[StoredMessage, ...]:
        """The messages the next prompt sends (older turns may have slid out; a message too
        long to read is never sent again)."""
        return tuple(sent_messages(self.messages, self.history.window_start(self.conversation_id)))

    def document_scope(self, conversation_id: int,
                       language: Callable[[], str]) -> DocumentScope | None:
        """The documents a question in this conversation is answered from (None: it holds
        none), in the interface's ``language`` for the words the model reads."""
        documents = self.history.documents(conversation_id)
        if not documents:
            return None
        return DocumentScope(tuple(d.sha256 for d in documents), str(self.history.passage_index),
                             language=language())

    def document_index(self) -> int | None:
        """Index of the "Document:" message when the last exchange is a document and its
        summary (or a document left without one), else None."""
        for index in (len(self.messages) - 1, len(self.messages) - 2):
            if index >= 0 and self.messages[index].role == "user":
                return index if is_document(self.messages[index]) else None
        return None

    # ---- titles --------------------------------------------------------------------------

    def ensure(self, title: str, provisional: bool = False) -> int:
        """The open conversation, or a new one named ``title``; ``provisional``: named for
        a document not read yet (renamed by ``name_from_document`` or ``document_failed``)."""
        if self.conversation_id is None:
            return self.create(title, provisional)
        return self.conversation_id

    def create(self, title: str, provisional: bool = False) -> int:
        """Create the conversation the open chat becomes (the list then highlights it)."""
        self.conversation_id = self.history.create_conversation(self.unique_title(title))
        if self.pending_think is not None:    # "Think before answering" chosen before it existed
            self.history.set_think(self.conversation_id, self.pending_think)
        if provisional:
            self.provisional.add(self.conversation_id)
        self.events.listed()
        return self.conversation_id

    def unique_title(self, title: str, conversation_id: int | None = None) -> str:
        """Same-named conversations are told apart: "handbook.pdf (2)"."""
        taken = {c.title for c in self.history.list_conversations() if c.id != conversation_id}
        title = title_from(title)
        number, unique = 2, title
        while unique in taken:
            unique, number = f"{title} ({number})", number + 1
        return unique

    def rename(self, conversation_id: int, title: str) -> None:
        if title.strip():
            self.provisional.discard(conversation_id)     # the user's own name stays
            self.history.rename(conversation_id, title.strip())
            self.events.listed()

    def add_question(self, text: str) -> None:
        """The user's message: the conversation it creates is named by it."""
        if self.conversation_id is None:
            self.create(text)
        else:
            self.name_from_question(text)
        self.add(StoredMessage("user", text))

    def name_from_question(self, text: str) -> None:
        """A conversation named for a document that never joined it is named by its first
        question ("New chat" otherwise)."""
        if self.conversation_id in self.provisional and \
                not self.history.documents(self.conversation_id):
            self.provisional.discard(self.conversation_id)
            self._retitle(self.conversation_id, text)

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
                      or self.untitled())

    def _retitle(self, conversation_id: int, title: str) -> None:
        self.history.rename(conversation_id, self.unique_title(title, conversation_id))
        self.events.listed()

    def delete(self, conversation_id: int) -> None:
        """Its owner hears ``deleting`` first (its answers stop, New chat if it is open)."""
        self.events.deleting(conversation_id)
        self.history.delete(conversation_id)
        if conversation_id == self.conversation_id:
            self.clear()
        self.events.listed()

    # ---- messages ------------------------------------------------------------------------

    def add(self, message: StoredMessage) -> None:
        """A message of the open conversation (saved, and shown)."""
        assert self.conversation_id is not None
        moved = not self._first(self.conversation_id)
        self.history.append(self.conversation_id, message)
        self.messages.append(message)
        self.events.added(len(self.messages) - 1, message)
        if moved:
            self.events.listed()

    def _first(self, conversation_id: int) -> bool:
        """Is it first in the list (newest first)? A new message puts its conversation
        there, and the list is redrawn when it was not (it moved only after a restart)."""
        newest = self.history.list_conversations()[:1]
        return bool(newest) and newest[0].id == conversation_id

    def _append(self, conversation_id: int, message: StoredMessage) -> None:
        moved = not self._first(conversation_id)
        self.history.append(conversation_id, message)
        if moved:
            self.events.listed()
    def keep(self, conversation_id: int | None, messages: Sequence[StoredMessage]) -> None:
        """Keep an exchange (a document and its summary) in the conversation it began in,
        open or not; one deleted meanwhile keeps nothing."""
        for message in messages:
            if conversation_id is not None and conversation_id == self.conversation_id:
                self.add(message)
            elif conversation_id is not None and self.history.exists(conversation_id):
                self._append(conversation_id, message)

    def truncate_from(self, index: int) -> None:
        """Forget message ``index`` and everything after it."""
        first = self.messages[index].id if 0 <= index < len(self.messages) else None
        if first is not None and self.conversation_id is not None:
            self.history.delete_from(self.conversation_id, first)
            del self.messages[index:]
            self.events.truncated(index, self.window_index())

    def save_answer(self, conversation_id: int, message: StoredMessage) -> None:
        """Save an answer (new, grown or ended) into its own conversation, open or not."""
        if message.id is None:
            self._append(conversation_id, message)
        else:
            self.history.update_answer(message)

    def end_answer(self, answer: EndedJob, stats: MessageStats) -> StoredMessage | None:
        """Its final message, saved; None: nothing of it is kept (replaced, deleted, or no
        text: its saved part goes)."""
        message = answer.saved(stats)
        if message is not None:
            self.save_answer(answer.conversation, message)
        elif not answer.dropped:
            self.forget_answer(answer.message)
        return message

    def forget_answer(self, message: StoredMessage | None) -> None:
        if message is not None and message.id is not None:
            self.history.delete_message(message.id)

    def answered(self, message: StoredMessage | None) -> int:
        """The streamed answer ended in the open chat: its index (shown there, if kept)."""
        if message is not None:
            self.messages.append(message)
            return len(self.messages) - 1
        return len(self.messages)

    def shown_at(self, conversation_id: int, message: StoredMessage) -> int | None:
        """A late answer's end replaces it where the open conversation shows it."""
        if conversation_id != self.conversation_id:
            return None
        for index, shown in enumerate(self.messages):
            if shown.id == message.id:
                self.messages[index] = message
                return index
        return None

    def move_window(self, conversation_id: int, sent: Sequence[StoredMessage],
                    left_out: int) -> int | None:
        """The engine left the oldest ``left_out`` of the messages sent out: the model's view
        of the conversation now begins later. Returns where it begins in the open chat, if
        it is this one."""
        start = moved_start(tuple(m.id for m in sent), left_out)
        if start is None or not self.history.exists(conversation_id):
            return None
        self.history.set_window_start(conversation_id, start)
        return start_index(self.messages, start) if conversation_id == self.conversation_id \
            else None

    def mark_too_long(self, sent: Sequence[StoredMessage]) -> StoredMessage | None:
        """The message that could not be read even alone stays shown, marked (with the mark
        saved), and is not sent again: the next short message is answered. Returns it."""
        question = next((m for m in reversed(sent) if m.role == "user"), None)
        if question is not None and question.id is not None:
            question.stats = question.stats.with_(too_long=True)
            self.history.update_answer(question)
            return question
        return None

    def mark_attached(self, message: StoredMessage) -> None:
        """A refused message's text was attached as a document: said on it from now on."""
        message.stats = message.stats.with_(attached_as_document=True)
        if message.id is not None:
            self.history.update_answer(message)

    # ---- "Think before answering" ---------------------------------------------------------

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


def is_document(message: StoredMessage) -> bool:
    """A "Document:" message (app.session.document_session keeps what it read in its stats)."""
    return message.role == "user" and bool(message.stats.document)


_FENCE = re.compile(r"^\s*(```|~~~)")
_LINE_MARKUP = re.compile(r"^\s*(#+|>|[-*+]|\d+[.)])\s+")


def title_from(text: str) -> str:
    """The first line with words in it, without its Markdown marks: a message that starts
    with a code fence or a heading is not listed as "```" or "# ..."."""
    lines = text.strip().splitlines() or [""]
    words = (_LINE_MARKUP.sub("", line).strip() for line in lines if not _FENCE.match(line))
    first_line = next((line for line in words if any(c.isalnum() for c in line)), lines[0].strip())
    return first_line if len(first_line) <= TITLE_LENGTH else first_line[:TITLE_LENGTH - 1] + "…"
