"""Nothing written is lost: SIGKILL the chat (real store, real bridge, fake engine) in a
subprocess at random moments of an answer being written, reopen the database each time and
check it.

Every kill is aimed: the parent waits until the child reports the Nth answer's first save,
then kills it a random 0–0.6 s later, while that answer (at least 1 s of tokens) is still
being written. The moments come from a fixed seed (ROTARY_CRASH_SEED overrides it), printed
first, so a failure can be replayed exactly. CI makes 8 kills (about 40 s); a longer run:
``ROTARY_CRASH_KILLS=40 python -m pytest tests/app/test_crash.py``.

Checked after every kill: PRAGMA integrity_check is "ok"; every message whose write the
child reported (it reports after SQLite returned) is there; the answer in progress is
there at least up to its last reported save and is a prefix of the real answer; once
reopened, an answer cut off while "writing" is marked "interrupted".
"""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from app.conversation.history import COMPLETE, INTERRUPTED, WRITING, HistoryStore
from tests.app.crash_child import FULL_ANSWER

KILLS = int(os.environ.get("ROTARY_CRASH_KILLS", "8"))
SEED = int(os.environ.get("ROTARY_CRASH_SEED", "2021"))
SAVE_INTERVAL_S = 0.25
CHILD = Path(__file__).with_name("crash_child.py")

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")


def _run_and_kill(db: Path, answer: int, after_s: float) -> list[dict]:
    """Start the child, SIGKILL it ``after_s`` seconds after it reported the first save of its
    ``answer``-th answer; its records."""
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    child = subprocess.Popen([sys.executable, str(CHILD), str(db), str(SAVE_INTERVAL_S)],
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                             env=env)
    records: list[dict] = []
    writing = threading.Event()

    def read() -> None:
        for line in child.stdout:
            records.append(json.loads(line))
            started = [r for r in records if r["op"] == "append" and r["role"] == "assistant"]
            if len(started) == answer:
                writing.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        assert writing.wait(120), f"the child never began answer {answer}"
        time.sleep(after_s)
        child.send_signal(signal.SIGKILL)
        child.wait(10)
    finally:
        if child.poll() is None:
            child.kill()
    reader.join(10)
    assert child.returncode == -signal.SIGKILL
    return records


def _expected_rows(records: list[dict]) -> dict[int, dict]:
    """What each reported row must at least hold: content (user), a minimum length and
    the last reported status (answers)."""
    rows: dict[int, dict] = {}
    for record in records:
        if record["op"] == "append":
            rows[record["id"]] = {"role": record["role"], "content": record["content"],
                                  "length": len(record["content"]), "status": record["status"]}
        elif record["op"] == "update":
            rows[record["id"]].update(length=record["length"], status=record["status"])
    return rows


def _check_database(db: Path, expected: dict[int, dict], this_run: set[int]) -> str:
    """Returns "mid-answer" when this kill cut an answer being written, else "between"."""
    raw = sqlite3.connect(db)
    assert raw.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    raw.close()
    store = HistoryStore(db)          # reopening marks cut-off answers "interrupted"
    rows = {row[0]: row[1:] for row in store.db.execute(
        "SELECT id, role, content, status FROM messages")}
    store.close()
    cut = "between"
    for message_id, want in expected.items():
        assert message_id in rows, f"a committed message is missing: {want}"
        role, content, status = rows[message_id]
        assert role == want["role"]
        if role == "user":
            assert content == want["content"]
            continue
        assert FULL_ANSWER.startswith(content) and len(content) >= want["length"]
        if want["status"] == COMPLETE:
            assert status == COMPLETE and content == FULL_ANSWER
        else:
            assert status in (INTERRUPTED, COMPLETE)    # complete: committed, not yet told
            if status == INTERRUPTED and message_id in this_run:
                cut = "mid-answer"
    assert all(status != WRITING for _role, _content, status in rows.values())
    return cut


def test_sigkill_at_random_moments_loses_nothing_committed(tmp_path):
    print(f"\nROTARY_CRASH_SEED={SEED}")
    db = tmp_path / "history.sqlite3"
    rng = random.Random(SEED)
    expected: dict[int, dict] = {}
    saves = 0
    for kill in range(KILLS):
        answer, after_s = rng.randint(1, 3), rng.uniform(0.0, 0.6)
        records = _run_and_kill(db, answer, after_s)
        saves += sum(r["op"] == "update" and r["status"] == WRITING for r in records)
        reported = _expected_rows(records)
        for message_id, want in reported.items():
            expected.setdefault(message_id, {}).update(want)
        outcome = _check_database(db, expected, set(reported))
        assert outcome == "mid-answer", (
            f"kill {kill + 1} (seed {SEED}: answer {answer}, +{after_s:.2f} s) did not cut "
            "an answer being written")
        for want in expected.values():      # what the reopen marked is now the state
            if want["status"] == WRITING:
                want["status"] = INTERRUPTED
    print(f"{KILLS} kills, each cutting an answer being written; {len(expected)} messages "
          f"checked; {saves} in-progress saves reported; integrity_check ok every time")
