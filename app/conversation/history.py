"""Conversation history in SQLite (WAL): conversations, their messages and documents.

The file itself (schema, migrations, moving an unreadable file aside) is
app/conversation/history_file.py; ``recovery_note`` tells the caller when a file was
moved aside, so it can tell the user.
Writes are batched, never one per token, so the GUI thread can do them: an answer
being written is saved about once a second with status "writing"; a row still
"writing" when the file is next opened was cut off by a crash and becomes "interrupted".
"""

from __future__ import annotations

import json
import sqlite3
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import cast

from app.conversation.history_file import open_history
from app.conversation.message_stats import MessageStats

# StoredMessage.status values
COMPLETE, WRITING, INTERRUPTED = "", "writing", "interrupted"


@dataclass
class StoredMessage:
    role: str
    content: str
    id: int | None = None
    model_name: str = ""
    stats: MessageStats = field(default_factory=MessageStats)
    status: str = COMPLETE      # WRITING while streamed, INTERRUPTED after a crash
    thinking: str = ""          # the model's thinking before this answer (not the answer)


@dataclass(frozen=True)
class ConversationDocument:
    """A document read into a conversation; ``overview`` is the engine's, kept as data
    (engine.messages.to_data) so that it is said in the interface's language when shown."""
    sha256: str
    name: str
    path: str
    overview: dict


@dataclass(frozen=True)
class ConversationSummary:
    id: int
    title: str
    updated: float


class HistoryStore:
    def __init__(self, path: Path) -> None:
        self.path = path
        # recovery_note: set when a bad file was moved aside
        self.db, self.recovery_note = open_history(path)
        self.interrupted = _mark_interrupted(self.db)

    @property
    def passage_index(self) -> Path:
        """The engine's index of the documents' passages: a file of its own beside this one."""
        return self.path.with_name("passages.db")

    def close(self) -> None:
        self.db.close()

    # ---- conversations ---------------------------------------------------------------

    def create_conversation(self, title: str) -> int:
        now = time.time()
        cursor = self.db.execute(
            "INSERT INTO conversations (title, created, updated) VALUES (?, ?, ?)",
            (title, now, now))
        return _inserted_id(cursor)

    def rename(self, conversation_id: int, title: str) -> None:
        self.db.execute("UPDATE conversations SET title=? WHERE id=?", (title, conversation_id))

    def delete(self, conversation_id: int) -> None:
        self.db.execute("DELETE FROM conversations WHERE id=?", (conversation_id,))

    def exists(self, conversation_id: int) -> bool:
        return self.db.execute("SELECT 1 FROM conversations WHERE id=?",
                               (conversation_id,)).fetchone() is not None

    def title(self, conversation_id: int) -> str:
        row = self.db.execute("SELECT title FROM conversations WHERE id=?",
                              (conversation_id,)).fetchone()
        return row[0] if row else ""

    def think(self, conversation_id: int | None) -> bool | None:
        """The conversation's "Think before answering" (None: the default)."""
        row = self.db.execute("SELECT think FROM conversations WHERE id=?",
                              (conversation_id,)).fetchone()
        return None if row is None or row[0] is None else bool(row[0])

    def set_think(self, conversation_id: int, think: bool | None) -> None:
        self.db.execute("UPDATE conversations SET think=? WHERE id=?",
                        (None if think is None else int(think), conversation_id))

    def window_start(self, conversation_id: int | None) -> int | None:
        """The id of the first message the model still sees (None: all of them)."""
        if conversation_id is None:
            return None
        row = self.db.execute("SELECT window_start FROM conversations WHERE id=?",
                              (conversation_id,)).fetchone()
        return None if row is None or row[0] is None else int(row[0])

    def set_window_start(self, conversation_id: int, message_id: int | None) -> None:
        self.db.execute("UPDATE conversations SET window_start=? WHERE id=?",
                        (message_id, conversation_id))

    def list_conversations(self, search: str = "") -> list[ConversationSummary]:
        """Newest first; ``search`` matches titles and message text, any case."""
        if not search.strip():
            rows = self.db.execute(
                "SELECT id, title, updated FROM conversations ORDER BY updated DESC, id DESC")
        else:
            pattern = "%" + _escape_like(search.strip()) + "%"
            rows = self.db.execute(
                "SELECT id, title, updated FROM conversations c WHERE title LIKE ?1 ESCAPE '\\'"
                " OR EXISTS (SELECT 1 FROM messages m WHERE m.conversation_id = c.id"
                " AND m.content LIKE ?1 ESCAPE '\\') ORDER BY updated DESC, id DESC",
                (pattern,))
        return [ConversationSummary(*row) for row in rows]

    # ---- messages ----------------------------------------------------------------------

    def messages(self, conversation_id: int) -> list[StoredMessage]:
        rows = self.db.execute(
            "SELECT id, role, content, model_name, stats_json, status, thinking FROM messages"
            " WHERE conversation_id=? ORDER BY position", (conversation_id,))
        return [StoredMessage(role, content, row_id, model, MessageStats.from_data(json.loads(stats or "{}")), status,
                              thinking)
                for row_id, role, content, model, stats, status, thinking in rows]

    def append(self, conversation_id: int, message: StoredMessage) -> int:
        now = time.time()
        position = self.db.execute(
            "SELECT COALESCE(MAX(position), -1) + 1 FROM messages WHERE conversation_id=?",
            (conversation_id,)).fetchone()[0]
        cursor = self.db.execute(
            "INSERT INTO messages (conversation_id, position, role, content, created,"
            " model_name, stats_json, status, thinking) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (conversation_id, position, message.role, message.content, now,
             message.model_name, _stats_json(message.stats),
             message.status, message.thinking))
        self._touch(conversation_id, now)
        message.id = _inserted_id(cursor)
        return message.id

    def update_answer(self, message: StoredMessage) -> None:
        """Save a streamed answer's text so far (or its final text, stats and status)."""
        self.db.execute(
            "UPDATE messages SET content=?, stats_json=?, status=?, thinking=? WHERE id=?",
            (message.content, _stats_json(message.stats),
             message.status, message.thinking, message.id))

    def delete_message(self, message_id: int) -> None:
        self.db.execute("DELETE FROM messages WHERE id=?", (message_id,))

    def delete_from(self, conversation_id: int, message_id: int) -> None:
        """Delete this message and every later one (edit-and-resend, regenerate)."""
        self.db.execute(
            "DELETE FROM messages WHERE conversation_id=? AND position >="
            " (SELECT position FROM messages WHERE id=?)", (conversation_id, message_id))

    # ---- documents (app/documents/document_shelf.py) ----------------------------------------------

    def add_document(self, conversation_id: int, document: ConversationDocument) -> bool:
        """Record that the conversation holds this document; False if it already did."""
        cursor = self.db.execute(
            "INSERT OR IGNORE INTO conversation_documents (conversation_id, sha256, name, path,"
            " overview_json, added) VALUES (?, ?, ?, ?, ?, ?)",
            (conversation_id, document.sha256, document.name, document.path,
             json.dumps(document.overview), time.time()))
        return cursor.rowcount > 0

    def documents(self, conversation_id: int | None) -> list[ConversationDocument]:
        rows = self.db.execute(
            "SELECT sha256, name, path, overview_json FROM conversation_documents"
            " WHERE conversation_id=? ORDER BY added, id", (conversation_id,))
        return [ConversationDocument(sha, name, path, json.loads(overview or "{}"))
                for sha, name, path, overview in rows]

    def remove_document(self, conversation_id: int, sha256: str) -> bool:
        """The conversation no longer holds this document (its messages stay); False if it
        did not. Its passages leave the index at the next start unless another holds it."""
        cursor = self.db.execute("DELETE FROM conversation_documents WHERE conversation_id=?"
                                 " AND sha256=?", (conversation_id, sha256))
        return cursor.rowcount > 0

    def document_hashes(self) -> set[str]:
        """Every document some conversation holds (the rest may leave the index)."""
        return {row[0] for row in self.db.execute("SELECT sha256 FROM conversation_documents")}

    def _touch(self, conversation_id: int, when: float) -> None:
        self.db.execute("UPDATE conversations SET updated=? WHERE id=?", (when, conversation_id))


def _mark_interrupted(db: sqlite3.Connection) -> int:
    """Answers still "writing" were cut off when Rotary last ended abnormally."""
    return db.execute("UPDATE messages SET status=? WHERE status=?",
                      (INTERRUPTED, WRITING)).rowcount


def _escape_like(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def _inserted_id(cursor: sqlite3.Cursor) -> int:
    """The row id an INSERT gave (sqlite3 types it optional: None before any insert)."""
    return int(cast(int, cursor.lastrowid))


def _stats_json(stats: MessageStats) -> str:
    """The stats column: "" for none, as an older Rotary wrote it."""
    data = stats.to_data()
    return json.dumps(data) if data else ""
