"""Child process of test_crash.py: the session with the real HistoryStore and the real
bridge over the fake engine, chatting until it is killed.

After each write to the history has returned (autocommit: it is committed), one JSON
line goes to stdout, so the parent knows what must survive a SIGKILL.
Usage: python tests/app/crash_child.py DB_PATH SAVE_INTERVAL_S
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import qasync  # noqa: E402
from PySide6.QtCore import QCoreApplication, QTimer  # noqa: E402

from engine.api import LoadRequest  # noqa: E402
from app.bridge.engine_bridge import EngineBridge  # noqa: E402
from app.conversation.history import HistoryStore, StoredMessage  # noqa: E402
from app.widgets.notifications import NotificationService  # noqa: E402
from app.session.events import AnswerDone  # noqa: E402
from app.documents.document_text import summary_messages  # noqa: E402
from app.session.session import Session  # noqa: E402
from tests.app.fakes import FakeScript, fake_backend  # noqa: E402

ANSWER = tuple(f" t{i}" for i in range(200))      # 200 tokens × 5 ms ≈ 1 s an answer
FULL_ANSWER = "".join(ANSWER)


def _say(**record) -> None:
    sys.stdout.write(json.dumps(record) + "\n")
    sys.stdout.flush()


class ReportingStore(HistoryStore):
    """The real store; reports each write after SQLite has committed it."""

    def create_conversation(self, title: str) -> int:
        conversation_id = super().create_conversation(title)
        _say(op="conversation", id=conversation_id)
        return conversation_id

    def append(self, conversation_id: int, message: StoredMessage) -> int:
        message_id = super().append(conversation_id, message)
        _say(op="append", id=message_id, conversation=conversation_id, role=message.role,
             content=message.content, status=getattr(message, "status", ""))
        return message_id

    def update_answer(self, message: StoredMessage) -> None:
        super().update_answer(message)
        _say(op="update", id=message.id, length=len(message.content), status=message.status)


def main() -> None:
    db_path, save_interval = Path(sys.argv[1]), float(sys.argv[2])
    qapp = QCoreApplication([])
    store = ReportingStore(db_path)
    backend, _state = fake_backend(FakeScript(answer=ANSWER, token_delay=0.005))
    # The engine's events reach the GUI thread through the qasync loop that qapp.exec() runs.
    loop = qasync.QEventLoop(qapp, already_running=True)
    bridge = EngineBridge(backend, loop)
    # The real engine service with the scripted opener: a load first (no file is read).
    bridge._ensure_engine().load(LoadRequest("fake.gguf"))
    asked = [0]

    def on_ui_event(event) -> None:
        if isinstance(event, AnswerDone):
            QTimer.singleShot(0, ask_next)

    session = Session(store, bridge, NotificationService(), loop, on_ui_event,
                      summary_messages=summary_messages)
    session.requests.model_ready, session.requests.save_interval_s = True, save_interval
    bridge.request_event.connect(session.on_event)
    chat = session.chat

    def ask_next(*_args) -> None:
        asked[0] += 1
        if asked[0] % 3 == 0:
            chat.new_chat()
        chat.send(f"question {asked[0]}")

    _say(op="ready", interrupted=getattr(store, "interrupted", None))
    QTimer.singleShot(0, ask_next)
    qapp.exec()


if __name__ == "__main__":
    main()
