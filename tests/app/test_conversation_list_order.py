"""The conversation list puts a conversation first as soon as it gets a new message, not only
after a restart."""

from __future__ import annotations

from PySide6.QtCore import Qt

from tests.app.conftest import wait_idle, wait_ready
from tests.app.fakes import FakeScript


def _ids(rotary) -> list[int]:
    items = rotary.window.conversations.items
    return [items.item(row).data(Qt.ItemDataRole.UserRole) for row in range(items.count())]


def test_an_older_conversation_moves_to_the_top_when_it_gets_a_message(qtbot, make_app):
    rotary = make_app(script=FakeScript(answer=("Fine.",)))
    wait_ready(qtbot, rotary)
    assert rotary.session.chat.send("first conversation")
    wait_idle(qtbot, rotary)
    older = rotary.session.store.conversation_id
    rotary.session.chat.new_chat()
    assert rotary.session.chat.send("second conversation")
    wait_idle(qtbot, rotary)
    newer = rotary.session.store.conversation_id
    assert _ids(rotary) == [newer, older]
    rotary.session.chat.open_conversation(older)
    assert rotary.session.chat.send("one more question")
    assert _ids(rotary) == [older, newer]          # at once, with the question
    wait_idle(qtbot, rotary)
    assert _ids(rotary) == [older, newer]
    assert rotary.window.conversations.selected_id() == older   # still the open one
