"""A message refused as too long stays marked on its bubble (after the notice is replaced,
and after a restart), and its text can be attached as a document in one click."""

from __future__ import annotations

from PySide6.QtCore import Qt

from engine.errors import EngineError, MessageTooLongError
from tests.app.conftest import close_app, wait_idle, wait_ready
from tests.app.fakes import FakeScript
from tests.app.document_helpers import app_with_documents

LONG_TEXT = "Budget review for the board\n\n" + "The figures for the year are final. " * 300


def _send(qtbot, rotary, text: str) -> None:
    pane = rotary.window.chat
    pane.composer.input.setPlainText(text)
    qtbot.keyClick(pane.composer.input, Qt.Key.Key_Return)
    wait_idle(qtbot, rotary)


def _refuse_next(rotary) -> None:
    script = rotary.fake["script"]
    script.fail_chat, script.fail_at = MessageTooLongError(
        "This message is too long for the model's memory."), 1


def test_the_refused_bubble_keeps_its_mark_after_the_notice_and_a_restart(qtbot, make_app):
    rotary = make_app(script=FakeScript(answers=[("Fine.",), ("never",), ("x",), ("Four.",)]))
    wait_ready(qtbot, rotary)
    _send(qtbot, rotary, "hello")
    _refuse_next(rotary)
    _send(qtbot, rotary, LONG_TEXT)
    pane = rotary.window.chat
    refused = pane.message_widgets[2]
    assert refused.role == "user" and refused.refused.isVisible()
    assert "Not read" in refused.refused_text.text()
    assert refused.attach_button.isVisible()
    assert not pane.message_widgets[0].refused.isVisible()      # only that one
    # Another notice replaces the refusal's, and a short question is answered: still marked.
    rotary.fake["script"].fail_chat, rotary.fake["script"].fail_at = EngineError(
        "The model stopped unexpectedly."), 1
    _send(qtbot, rotary, "try again")
    assert "too long" not in rotary.window.notice_bar.message.text()
    _send(qtbot, rotary, "what is 2 plus 2?")
    assert pane.message_widgets[2].refused.isVisible()
    conversation = rotary.session.store.conversation_id
    close_app(rotary)
    again = make_app()
    wait_ready(qtbot, again)
    again.session.chat.open_conversation(conversation)
    shown = again.window.chat.message_widgets[2]
    assert shown.text.startswith("Budget review") and shown.refused.isVisible()
    assert shown.attach_button.isVisible()
    assert not again.window.chat.message_widgets[3].refused.isVisible()


def test_attach_as_a_document_makes_the_text_a_document_of_the_conversation(qtbot, make_app):
    rotary, _model = app_with_documents(make_app, qtbot)
    _send(qtbot, rotary, "hello")
    _refuse_next(rotary)
    _send(qtbot, rotary, LONG_TEXT)
    conversation = rotary.session.store.conversation_id
    bar = rotary.window.notice_bar
    assert bar.isVisibleTo(rotary.window) and "too long" in bar.message.text()
    bubble = rotary.window.chat.message_widgets[2]
    order = bubble.focus_order()                    # the keyboard reaches the offer too
    assert order.index(bubble.attach_button) == order.index(bubble.body) + 1
    qtbot.mouseClick(bubble.attach_button, Qt.MouseButton.LeftButton)     # one click
    shelf = rotary.document_widgets.shelf
    qtbot.waitUntil(lambda: len(shelf.labels) == 1, timeout=10_000)
    wait_idle(qtbot, rotary)
    held = rotary.history.documents(conversation)
    assert [d.name for d in held] == ["Budget review for the board.txt"]
    with open(held[0].path, encoding="utf-8") as file:
        assert file.read() == LONG_TEXT.strip()
    assert rotary.session.store.conversation_id == conversation          # the same conversation
    # QA: the red "too long" notice stayed; attached, it no longer applies.
    assert not (bar.isVisibleTo(rotary.window) and "too long" in bar.message.text())
    bubble = rotary.window.chat.message_widgets[2]
    assert bubble.refused.isVisible() and not bubble.attach_button.isVisible()
    assert "attached as a document" in bubble.refused_text.text()
    stored = rotary.history.messages(conversation)[2]
    assert stored.stats.too_long and stored.stats.attached_as_document


def test_the_mark_is_never_cut_when_it_wraps(qtbot, make_app):
    """Found by hand: after "Attach as a document" the longer mark wrapped to two lines in a
    box one line high (letters cut top and bottom). Each line is given the height it needs."""
    rotary = make_app(script=FakeScript(answers=[("Fine.",), ("never",)]))
    rotary.window.resize(640, 600)
    rotary.window.show()
    wait_ready(qtbot, rotary)
    _send(qtbot, rotary, "hello")
    _refuse_next(rotary)
    _send(qtbot, rotary, LONG_TEXT)
    bubble = rotary.window.chat.message_widgets[2]
    bubble.show_refused(True, attached=True)
    label = bubble.refused_text
    line = label.fontMetrics().lineSpacing()
    qtbot.waitUntil(lambda: label.heightForWidth(label.width()) > line)      # it wraps
    qtbot.waitUntil(lambda: label.height() >= label.heightForWidth(label.width()))
    close_app(rotary)
