"""Older turns slide out in the app: the quiet line where the model's view begins (stored,
there after a restart), the next prompt from there, a message too long alone that is not
sent again, error banners that clear, the conversation's real memory left, and thinking
stopped at its budget (app/conversation/window.py, app/chat/chat_controller.py)."""

from __future__ import annotations

from PySide6.QtCore import Qt

from engine.api import ContextReport
from engine.errors import EngineError, MessageTooLongError
from app.gauge import gauge_text
from tests.app.conftest import close_app, wait_idle, wait_ready
from tests.app.fakes import FakeScript


def _send(qtbot, rotary, text: str) -> None:
    pane = rotary.window.chat
    pane.composer.input.setPlainText(text)
    qtbot.keyClick(pane.composer.input, Qt.Key.Key_Return)
    wait_idle(qtbot, rotary)


def _sent(rotary) -> list[str]:
    return [m.content for m in rotary.fake["engine"].requests[-1].messages if m.role != "system"]


def test_the_window_moves_is_shown_stored_and_the_next_prompt_starts_there(qtbot, make_app):
    script = FakeScript(contexts=[ContextReport(0, 300, 4096), ContextReport(0, 600, 4096),
                                  ContextReport(2, 500, 4096), ContextReport(0, 700, 4096)])
    rotary = make_app(script=script)
    wait_ready(qtbot, rotary)
    for text in ("one", "two", "three"):
        _send(qtbot, rotary, text)
    pane, marker = rotary.window.chat, rotary.window.chat.window_marker
    # The third prompt sent one..three; the engine left "one" and its answer out.
    assert marker.isVisible() and "no longer sent" in marker.text()
    layout = pane.column_layout
    assert layout.indexOf(marker) == layout.indexOf(pane.message_widgets[2]) - 1
    _send(qtbot, rotary, "four")
    assert _sent(rotary) == ["two", "Hello there! Here is **bold** text.", "three",
                             "Hello there! Here is **bold** text.", "four"]
    conversation = rotary.chat.conversation_id
    rotary.chat.new_chat()
    assert not marker.isVisible()
    rotary.chat.open_conversation(conversation)
    assert marker.isVisible()
    assert layout.indexOf(marker) == layout.indexOf(pane.message_widgets[2]) - 1


def test_the_window_start_survives_a_restart(qtbot, make_app):
    script = FakeScript(contexts=[ContextReport(0, 300, 4096), ContextReport(2, 200, 4096)])
    rotary = make_app(script=script)
    wait_ready(qtbot, rotary)
    _send(qtbot, rotary, "one")
    _send(qtbot, rotary, "two")
    conversation = rotary.chat.conversation_id
    close_app(rotary)
    again = make_app()
    wait_ready(qtbot, again)
    again.chat.open_conversation(conversation)
    assert again.window.chat.window_marker.isVisible()
    _send(qtbot, again, "three")
    assert _sent(again) == ["two", "Hello there! Here is **bold** text.", "three"]


def test_a_message_too_long_is_said_not_sent_again_and_the_next_short_one_is_answered(
        qtbot, make_app):
    script = FakeScript(answers=[("Fine.",), ("never",), ("Hello", " there", " four")],
                        fail_at=1)     # the engine refuses it before writing anything
    rotary = make_app(script=script)
    wait_ready(qtbot, rotary)
    _send(qtbot, rotary, "hello")
    script.fail_chat = MessageTooLongError("This message is too long for the model's memory.")
    _send(qtbot, rotary, "word " * 50)
    bar = rotary.window.notice_bar
    assert bar.isVisible() and "too long" in bar.message.text()
    _send(qtbot, rotary, "what is 2 plus 2?")
    assert _sent(rotary) == ["hello", "Fine.", "what is 2 plus 2?"]
    assert rotary.chat.messages[-1].content == "Hello there four"
    assert not bar.isVisible()                      # answered: the banner went
    stored = rotary.history.messages(rotary.chat.conversation_id)
    assert stored[2].stats.too_long is True  # still shown, never sent again


def test_an_error_banner_goes_when_its_conversation_is_left_or_deleted(qtbot, make_app):
    rotary = make_app(script=FakeScript(answers=[("Fine.",), ("x",), ("y",)], fail_at=1))
    wait_ready(qtbot, rotary)
    _send(qtbot, rotary, "first")
    first = rotary.chat.conversation_id
    bar = rotary.window.notice_bar
    rotary.fake["script"].fail_chat = EngineError("The model stopped unexpectedly.")
    _send(qtbot, rotary, "second")
    assert bar.isVisible()
    rotary.chat.new_chat()
    assert not bar.isVisible()                      # switched away
    rotary.chat.open_conversation(first)
    rotary.fake["script"].fail_chat = EngineError("The model stopped unexpectedly.")
    _send(qtbot, rotary, "third")
    assert bar.isVisible()
    rotary.chat.delete(first)
    assert not bar.isVisible()                      # deleted


def test_memory_left_is_the_conversations_own_after_an_answer_and_on_switching(qtbot,
                                                                               make_app):
    script = FakeScript(contexts=[ContextReport(0, 1096, 4096), ContextReport(0, 96, 4096)])
    rotary = make_app(script=script)
    wait_ready(qtbot, rotary)
    gauge = rotary.window.gauge
    _send(qtbot, rotary, "long one")
    long_one = rotary.chat.conversation_id
    assert gauge.model.context_used == 1096
    assert gauge_text.context_text(gauge.model) == "Conversation memory: about 2,200 words left"
    rotary.chat.new_chat()
    _send(qtbot, rotary, "short one")
    assert gauge.model.context_used == 96
    rotary.chat.open_conversation(long_one)
    assert gauge.model.context_used == 1096         # the selected conversation's, not the last


def test_thinking_stopped_at_its_budget_says_so(qtbot, make_app):
    script = FakeScript(contexts=[ContextReport(0, 300, 4096, thinking_stopped=True)])
    rotary = make_app(script=script)
    wait_ready(qtbot, rotary)
    _send(qtbot, rotary, "think hard")
    message = rotary.chat.messages[-1]
    assert message.stats.thinking_stopped is True
    message.thinking = "one two three"
    widget = rotary.window.chat.add_message(2, message)
    assert widget.thinking_section.header.text() == "Thought for 3 words, stopped to answer"


def test_a_version_5_history_gains_the_window_start_and_keeps_its_messages(tmp_path):
    import sqlite3

    from app.conversation.history import HistoryStore
    from app.conversation.history_file import MIGRATIONS, SCHEMA_VERSION
    path = tmp_path / "history.sqlite"
    db = sqlite3.connect(path)
    for version in range(5):
        db.executescript(MIGRATIONS[version])
    db.execute("INSERT INTO conversations (id, title, created, updated) VALUES (1, 'Old', 0, 0)")
    db.execute("INSERT INTO messages (conversation_id, position, role, content, created)"
               " VALUES (1, 0, 'user', 'kept', 0)")
    db.execute("PRAGMA user_version=5")
    db.commit()
    db.close()
    store = HistoryStore(path)
    assert store.db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 6
    assert [m.content for m in store.messages(1)] == ["kept"] and store.window_start(1) is None
    message_id = store.messages(1)[0].id
    store.set_window_start(1, message_id)
    assert store.window_start(1) == message_id
    store.close()
