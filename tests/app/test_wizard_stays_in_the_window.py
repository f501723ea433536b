"""At 1280×800 the wizard grew past the bottom of the main window once a model was chosen:
it now grows wider first and stays within the main window where it fits there, else within
the screen."""

from __future__ import annotations

from PySide6.QtCore import QRect

from app.settings.model import Settings
from app.setup.wizard import FirstRunWizard


class _Screen:
    def __init__(self, room: QRect) -> None:
        self.room = room

    def availableGeometry(self) -> QRect:
        return self.room


def _chosen(make_app, qtbot, monkeypatch, screen: QRect, window: QRect):
    monkeypatch.setattr(FirstRunWizard, "screen", lambda self: _Screen(screen))
    rotary = make_app(settings=Settings(), wizard=False)
    rotary.window.setGeometry(window)
    wizard = rotary.dialogs.open_wizard()
    wizard.next()
    qtbot.waitUntil(lambda: wizard.model_list.items.count() == 3, timeout=5000)
    with qtbot.waitSignal(wizard.chooser.check_finished, timeout=3000):
        wizard.model_list.items.itemClicked.emit(wizard.model_list.items.item(0))
    qtbot.wait(100)                 # fit_page runs in the next turn of the event loop
    return rotary, wizard


def _inside(inner: QRect, outer: QRect) -> bool:
    return outer.contains(inner.topLeft()) and outer.contains(inner.bottomRight())


def test_at_1280x800_the_wizard_stays_within_the_main_window(qtbot, make_app, monkeypatch,
                                                             user_home):
    rotary, wizard = _chosen(make_app, qtbot, monkeypatch, QRect(0, 0, 1280, 800),
                             QRect(0, 0, 1180, 740))
    main = rotary.window.frameGeometry()
    assert _inside(wizard.frameGeometry(), main), (wizard.frameGeometry(), main)
    page = wizard.model_page
    assert page.layout().totalHeightForWidth(page.width()) <= page.height() + 1   # nothing cut


def test_with_a_small_main_window_it_uses_the_screen(qtbot, make_app, monkeypatch,
                                                    user_home):
    rotary, wizard = _chosen(make_app, qtbot, monkeypatch, QRect(0, 0, 1280, 800),
                             QRect(100, 100, 640, 360))
    assert _inside(wizard.frameGeometry(), QRect(0, 0, 1280, 800)), wizard.frameGeometry()
    page = wizard.model_page
    assert page.layout().totalHeightForWidth(page.width()) <= page.height() + 1
