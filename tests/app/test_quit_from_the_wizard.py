"""Ctrl+Q quits while the first-run wizard is open (it did nothing)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from app.settings.model import Settings


def test_ctrl_q_in_the_wizard_closes_rotary(qtbot, make_app):
    rotary = make_app(settings=Settings(), wizard=True)
    wizard = rotary.dialogs.wizard
    qtbot.waitUntil(wizard.isVisible, timeout=3000)
    wizard.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is wizard, timeout=3000)
    closed = []
    rotary.window.closed.connect(lambda: closed.append(True))
    qtbot.keyClick(QApplication.focusWidget() or wizard, Qt.Key.Key_Q,
                   Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: bool(closed), timeout=2000)
    assert not rotary.window.isVisible()
