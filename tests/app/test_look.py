"""The look's essentials: message actions drawn only on hover, keyboard focus or the last
message (yet always in the Tab order, with their names); bubbles as wide as their text in
every language and never wider than the column; the dark palette when the OS says dark;
Send drawn as the primary action; Rotary's icon on the window; the slot above a message's
text where a section (thinking) goes."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QColor, QEnterEvent, QPalette
from PySide6.QtWidgets import QApplication, QLabel

from app.widgets import theme
from app.conversation.history import StoredMessage
from tests.app.conftest import wait_idle, wait_ready
from tests.app.fakes import FakeScript


def _drawn_colours(widget, part) -> set[int]:
    """The colours drawn where ``part`` (a child of ``widget``) is, in widget.grab()."""
    image = widget.grab().toImage()
    corner = part.mapTo(widget, part.rect().topLeft())
    return {image.pixel(x, y) for x in range(corner.x(), corner.x() + part.width())
            for y in range(corner.y(), corner.y() + part.height())}


@pytest.fixture
def chatted(qtbot, make_app):
    rotary = make_app(script=FakeScript(answers=[("One answer",), ("Two answers",)]))
    wait_ready(qtbot, rotary)
    rotary.window.activateWindow()
    for text in ("first", "second"):
        rotary.session.chat.send(text)
        wait_idle(qtbot, rotary)
    return rotary


def test_actions_show_on_hover_and_focus_only_and_stay_in_the_tab_order(qtbot, chatted):
    pane = chatted.window.chat
    first, last = pane.message_widgets[0], pane.message_widgets[-1]
    pane.composer.input.setFocus()
    qtbot.waitUntil(pane.composer.input.hasFocus)
    assert not first.actions_shown() and last.actions_shown()      # the last one stays
    assert len(_drawn_colours(first, first.buttons)) == 1          # nothing but background
    assert len(_drawn_colours(last, last.buttons)) > 1
    # The mouse over the message shows them; leaving hides them again.
    QApplication.sendEvent(first, QEnterEvent(QPointF(5, 5), QPointF(5, 5), QPointF(5, 5)))
    assert first.actions_shown() and len(_drawn_colours(first, first.buttons)) > 1
    QApplication.sendEvent(first, _leave())
    assert not first.actions_shown()
    # Tab from the message's text reaches Copy, named, and shows the row while inside it.
    first.body.setFocus(Qt.FocusReason.TabFocusReason)
    qtbot.keyClick(first.body, Qt.Key.Key_Tab)
    assert QApplication.focusWidget() is first.copy_button and first.actions_shown()
    assert first.copy_button.accessibleName() == "Copy this message"
    qtbot.keyClick(first.copy_button, Qt.Key.Key_Tab)
    assert QApplication.focusWidget() is first.edit_button and first.actions_shown()
    assert first.edit_button.accessibleName() == "Edit this message and send it again"
    pane.composer.input.setFocus()
    qtbot.waitUntil(lambda: not first.actions_shown())


def _leave():
    from PySide6.QtCore import QEvent
    return QEvent(QEvent.Type.Leave)


@pytest.mark.parametrize("text", ["How should I prepare the quarterly report?",
                                  "분기 보고서는 어떻게 준비해야 하나요?", "季度报告应该怎么准备？"])
def test_a_short_bubble_fits_its_text_on_one_line(qtbot, make_app, text):
    rotary = make_app()
    wait_ready(qtbot, rotary)
    rotary.window.resize(1180, 760)
    pane = rotary.window.chat
    widget = pane.add_message(0, StoredMessage("user", text))
    qtbot.waitUntil(lambda: widget.body.width() > 0 and widget.width() > 0)
    qtbot.wait(20)
    body = widget.body
    assert body.document().documentLayout().blockBoundingRect(
        body.document().firstBlock()).height() <= body.height()
    assert body.document().firstBlock().layout().lineCount() == 1, body.width()
    assert body.width() < 0.8 * widget.width()             # a bubble, not a full-width box
    assert body.geometry().right() >= widget.width() - 2   # on the right


def test_a_long_bubble_wraps_inside_the_column_and_never_widens_the_window(qtbot, make_app):
    rotary = make_app()
    wait_ready(qtbot, rotary)
    window, pane = rotary.window, rotary.window.chat
    window.resize(800, 600)
    qtbot.wait(50)
    width = window.width()
    widget = pane.add_message(0, StoredMessage("user", "보고서 " * 200 + "x" * 300))
    qtbot.wait(50)
    assert window.width() == width
    assert widget.body.width() <= 0.8 * widget.width() + 1
    assert widget.body.height() >= widget.body.document().size().height()


def test_the_dark_palette_follows_the_os(qtbot, make_app, monkeypatch, qapp):
    rotary = make_app()
    wait_ready(qtbot, rotary)
    assert qapp.palette().color(QPalette.ColorRole.Window) == QColor(theme.LIGHT.window)
    monkeypatch.setattr(theme, "system_scheme", lambda: Qt.ColorScheme.Dark)
    try:
        qapp.styleHints().colorSchemeChanged.emit(Qt.ColorScheme.Dark)
        assert qapp.palette().color(QPalette.ColorRole.Window) == QColor(theme.DARK.window)
        assert qapp.palette().color(QPalette.ColorRole.Text) == QColor(theme.DARK.text)
        assert theme.DARK.bubble in qapp.styleSheet()
        assert theme.gauge_colour("model") == QColor(theme.DARK.gauge_model)
        pane = rotary.window.chat
        widget = pane.add_message(0, StoredMessage("user", "Hello"))
        qtbot.wait(20)
        centre = widget.body.rect().center()
        assert widget.body.grab().toImage().pixelColor(centre.x(), 3) == \
            QColor(theme.DARK.bubble)
    finally:
        monkeypatch.undo()
        theme.apply_theme(qapp)
    assert qapp.palette().color(QPalette.ColorRole.Window) == QColor(theme.LIGHT.window)


def test_send_is_the_primary_action_and_the_window_has_rotarys_icon(qtbot, make_app):
    rotary = make_app()
    wait_ready(qtbot, rotary)
    send = rotary.window.chat.composer.send_button
    image = send.grab().toImage()
    assert image.pixelColor(6, send.height() // 2) == QColor(theme.LIGHT.accent)
    assert not rotary.window.windowIcon().isNull()
    assert rotary.window.windowIcon().cacheKey() != QApplication.style().standardIcon(
        QApplication.style().StandardPixmap.SP_TitleBarMenuButton).cacheKey()


def test_a_section_goes_above_the_text_in_the_message_layout(qtbot, make_app):
    """Contract B: set_thinking inserts its section at content_layout.indexOf(body)."""
    rotary = make_app()
    wait_ready(qtbot, rotary)
    widget = rotary.window.chat.add_message(0, StoredMessage("assistant", "The answer"))
    layout = widget.content_layout
    assert layout is widget.layout()
    section = QLabel("Thinking…")
    layout.insertWidget(layout.indexOf(widget.body), section)
    qtbot.wait(20)
    assert widget.speaker.geometry().bottom() < section.geometry().top()
    assert section.geometry().bottom() < widget.body.geometry().top()
