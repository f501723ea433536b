"""Help → Open the log folder, where no file manager is registered: the path is shown and
can be copied (it did nothing visible)."""

from __future__ import annotations

import logging

from PySide6.QtGui import QDesktopServices, QGuiApplication
from PySide6.QtWidgets import QMessageBox

from app.widgets.help import log_folder
from tests.app.conftest import wait_ready


def test_the_log_path_is_shown_and_copied_when_nothing_opens_it(qtbot, make_app, monkeypatch,
                                                               caplog):
    rotary = make_app()
    wait_ready(qtbot, rotary)
    monkeypatch.setattr(QDesktopServices, "openUrl", lambda url: False)
    with caplog.at_level(logging.WARNING, logger="rotary.help"):
        rotary.window.menu_actions["help_log"].trigger()
    box = rotary.window.help_box
    assert isinstance(box, QMessageBox) and box.isVisible()
    folder = str(log_folder(rotary.paths.log_file))     # the log handler's, else this
    assert folder in box.text()
    assert any(folder in r.getMessage() for r in caplog.records)    # the log has it too
    copy = next(b for b in box.buttons() if b.text() == "Copy the path")
    QGuiApplication.clipboard().clear()
    copy.click()
    assert QGuiApplication.clipboard().text() == folder
    assert box.isVisible()                      # copied, and still there to read
    box.close()


def test_nothing_is_shown_when_the_file_manager_opens_it(qtbot, make_app, monkeypatch):
    rotary = make_app()
    opened = []
    monkeypatch.setattr(QDesktopServices, "openUrl", lambda url: opened.append(url) or True)
    rotary.window.menu_actions["help_log"].trigger()
    assert len(opened) == 1 and rotary.window.help_box is None
