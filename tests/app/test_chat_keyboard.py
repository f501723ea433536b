"""Keyboard: Tab reaches every message's buttons in reading order; focus is visible."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from tests.app.conftest import wait_idle, wait_ready
from tests.app.fakes import FakeScript


def _tab_through(qtbot, start, count: int) -> list:
    start.setFocus()
    seen = []
    for _ in range(count):
        widget = QApplication.focusWidget()
        seen.append(widget)
        qtbot.keyClick(widget, Qt.Key.Key_Tab)
    return seen


def test_tab_reads_each_message_then_its_buttons_then_the_message_box(qtbot, make_app):
    rotary = make_app(script=FakeScript(answers=[("One",), ("Two",)]))
    wait_ready(qtbot, rotary)
    rotary.window.activateWindow()
    for text in ("first", "second"):
        rotary.chat.send(text)
        wait_idle(qtbot, rotary)
    pane = rotary.window.chat
    wanted = []
    for widget in pane.message_widgets:
        wanted += [widget.body, widget.copy_button]
        wanted += [widget.edit_button] if widget.role == "user" else []
    wanted += [pane.message_widgets[-1].regenerate_button, pane.input]
    seen = _tab_through(qtbot, pane.scroll, len(wanted) + 1)
    assert seen == [pane.scroll] + wanted        # reading order, then the message box


def test_focus_on_a_message_button_is_visible(qtbot, make_app):
    rotary = make_app()
    wait_ready(qtbot, rotary)
    rotary.window.activateWindow()
    rotary.chat.send("Hi")
    wait_idle(qtbot, rotary)
    button = rotary.window.chat.message_widgets[-1].copy_button
    rotary.window.chat.input.setFocus()
    unfocused = button.grab().toImage()
    button.setFocus(Qt.FocusReason.TabFocusReason)
    qtbot.waitUntil(button.hasFocus)
    focused = button.grab().toImage()
    differing = sum(unfocused.pixel(x, y) != focused.pixel(x, y)
                    for x in range(focused.width()) for y in range(focused.height()))
    assert differing > 2 * (focused.width() + focused.height())   # at least a ring around it
