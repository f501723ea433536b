"""Per-request stop, guarded by app tests on the real engine service.

The app's tests run the engine's own ``EngineService`` with a scripted opener (tests/app/
fakes.py), so these hold without the wheel. Before, a copy of the service stood in for it,
and the mutation "stop(any id) stops the running request" passed every app test.
"""

from __future__ import annotations

from engine.api import DocumentRequest
from engine.errors import ReadingStoppedError
from tests.app.conftest import wait_idle, wait_ready
from tests.app.fakes import FakeScript

LONG = tuple(f" w{i}" for i in range(200))          # 200 tokens × 5 ms ≈ 1 s


def finished_by_id(rotary) -> dict:
    done: dict = {}
    rotary.bridge.finished.connect(lambda event: done.setdefault(event.request_id, event))
    return done


def test_stopping_a_waiting_answer_leaves_the_running_one_alone(qtbot, make_app):
    rotary = make_app(script=FakeScript(answers=[LONG, ("never",)]))
    wait_ready(qtbot, rotary)
    done = finished_by_id(rotary)
    running = rotary.bridge.chat([("user", "first")], 0.7, conversation_id=1)
    qtbot.waitUntil(lambda: bool(rotary.fake["engine"].requests[1:]), timeout=3000)
    waiting = rotary.bridge.chat([("user", "second")], 0.7, conversation_id=2)
    assert rotary.bridge.waits(waiting)
    rotary.bridge.stop(waiting)
    qtbot.waitUntil(lambda: running in done and waiting in done, timeout=10_000)
    assert (done[waiting].text, done[waiting].stats.stop_reason) == ("", "stopped")
    assert done[running].stats.stop_reason == "eos"
    assert done[running].text == "".join(LONG)


def test_stopping_a_finished_answer_leaves_the_running_one_alone(qtbot, make_app):
    rotary = make_app(script=FakeScript(answers=[("Short.",), LONG]))
    wait_ready(qtbot, rotary)
    done = finished_by_id(rotary)
    old = rotary.bridge.chat([("user", "first")], 0.7, conversation_id=1)
    qtbot.waitUntil(lambda: old in done, timeout=5000)
    running = rotary.bridge.chat([("user", "second")], 0.7, conversation_id=1)
    qtbot.waitUntil(lambda: len(rotary.fake["engine"].requests) == 3, timeout=3000)
    rotary.bridge.stop(old)                   # a stop that crossed the end of its answer
    qtbot.waitUntil(lambda: running in done, timeout=10_000)
    assert done[running].stats.stop_reason == "eos"


def test_a_document_stopped_before_its_turn_says_reading_stopped(qtbot, make_app, tmp_path):
    """The copy of the service sent DocumentError here; the engine sends ReadingStoppedError,
    which the app says quietly (app/session/document_problems.py)."""
    rotary = make_app(script=FakeScript(answers=[LONG]))
    wait_ready(qtbot, rotary)
    failures = []
    rotary.bridge.failed.connect(lambda request_id, error: failures.append((request_id, error)))
    running = rotary.bridge.chat([("user", "first")], 0.7, conversation_id=1)
    document = DocumentRequest(str(tmp_path / "a.txt"), conversation_id=1)
    rotary.bridge.document(document)
    rotary.bridge.stop(document.request_id)
    qtbot.waitUntil(lambda: bool(failures), timeout=10_000)
    assert failures[0][0] == document.request_id
    assert type(failures[0][1]) is ReadingStoppedError
    rotary.bridge.stop(running)
    wait_idle(qtbot, rotary)
