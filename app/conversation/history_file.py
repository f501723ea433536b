"""The history's SQLite file: its schema, its migrations, and opening it safely.

The schema version lives in ``PRAGMA user_version``; ``MIGRATIONS[n]`` upgrades
version n to n+1. A file SQLite cannot read is moved aside (never deleted) and a
fresh database is started, with a note the caller shows the user
(app/conversation/history.py keeps the conversations in it).
"""

from __future__ import annotations

import os
import sqlite3
import time
from pathlib import Path

SCHEMA_VERSION = 6

_V1 = """
CREATE TABLE conversations (
    id INTEGER PRIMARY KEY, title TEXT NOT NULL,
    created REAL NOT NULL, updated REAL NOT NULL);
CREATE TABLE messages (
    id INTEGER PRIMARY KEY,
    conversation_id INTEGER NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
    position INTEGER NOT NULL, role TEXT NOT NULL, content TEXT NOT NULL,
    created REAL NOT NULL);
CREATE INDEX messages_by_conversation ON messages(conversation_id, position);
"""

# v2: remember which model wrote an answer and its speed numbers (for export).
_V1_TO_V2 = """
ALTER TABLE messages ADD COLUMN model_name TEXT NOT NULL DEFAULT '';
ALTER TABLE messages ADD COLUMN stats_json TEXT NOT NULL DEFAULT '';
"""

# v3: an answer is saved while it streams; status says whether it is complete.
_V2_TO_V3 = """
ALTER TABLE messages ADD COLUMN status TEXT NOT NULL DEFAULT '';
"""

# v4: the documents a conversation holds (questions search them). Their passages live in the
# engine's full-text index (engine/documents/index.py) in its own file (passage_index below),
# keyed by the file's SHA-256; documents no conversation holds are dropped from it at start.
_V3_TO_V4 = """
CREATE TABLE conversation_documents (
    id INTEGER PRIMARY KEY,
    conversation_id INTEGER NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
    sha256 TEXT NOT NULL, name TEXT NOT NULL, path TEXT NOT NULL,
    overview_json TEXT NOT NULL DEFAULT '', added REAL NOT NULL,
    UNIQUE (conversation_id, sha256));
"""

# v5: what the model thought before an answer (shown collapsed, never sent back to it, never
# searched), and each conversation's "Think before answering" (NULL: the default).
_V4_TO_V5 = """
ALTER TABLE messages ADD COLUMN thinking TEXT NOT NULL DEFAULT '';
ALTER TABLE conversations ADD COLUMN think INTEGER;
"""

# v6: where the model's view of a conversation begins (the first message still sent; NULL:
# the whole conversation): older turns slide out of a full context (engine/runtime/
# conversation/context_window.py) and a quiet line in the conversation shows where.
_V5_TO_V6 = """
ALTER TABLE conversations ADD COLUMN window_start INTEGER;
"""

MIGRATIONS = {0: _V1, 1: _V1_TO_V2, 2: _V2_TO_V3, 3: _V3_TO_V4, 4: _V4_TO_V5, 5: _V5_TO_V6}


def open_history(path: Path) -> tuple[sqlite3.Connection, str | None]:
    """The database at ``path``, migrated to SCHEMA_VERSION, and None; or, when SQLite
    could not read it, a fresh one and a note saying what failed and where the old file is."""
    try:
        return _open(path), None
    except sqlite3.DatabaseError as exc:
        backup = _move_aside(path)
        return _open(path), f"{exc} (kept as {backup.name})"


def _open(path: Path) -> sqlite3.Connection:
    path.parent.mkdir(parents=True, exist_ok=True)
    db = sqlite3.connect(path, isolation_level=None)
    try:
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA foreign_keys=ON")
        db.execute("PRAGMA synchronous=NORMAL")
        if db.execute("PRAGMA quick_check").fetchone()[0] != "ok":
            raise sqlite3.DatabaseError("the history file failed its integrity check")
        _migrate(db)
    except sqlite3.DatabaseError:
        db.close()
        raise
    return db


def _move_aside(path: Path) -> Path:
    """Keep the unreadable file (and its WAL files) beside the new one, never delete it."""
    backup = path.with_name(f"{path.name}.corrupt-{int(time.time())}")
    os.replace(path, backup)
    for suffix in ("-wal", "-shm"):
        side = path.with_name(path.name + suffix)
        if side.exists():
            os.replace(side, backup.with_name(backup.name + suffix))
    return backup


def _migrate(db: sqlite3.Connection) -> None:
    version = db.execute("PRAGMA user_version").fetchone()[0]
    if version > SCHEMA_VERSION:
        raise sqlite3.DatabaseError("the history file comes from a newer Rotary")
    while version < SCHEMA_VERSION:
        db.executescript("BEGIN;" + MIGRATIONS[version]
                         + f"PRAGMA user_version={version + 1}; COMMIT;")
        version += 1
