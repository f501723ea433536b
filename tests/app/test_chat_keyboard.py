"""Keyboard: Tab reaches every message's buttons in reading order; focus is visible."""

from __future__ import annotations

import pytest
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
        rotary.session.chat.send(text)
        wait_idle(qtbot, rotary)
    pane = rotary.window.chat
    wanted = []
    for widget in pane.message_widgets:
        wanted += [widget.body, widget.copy_button]
        wanted += [widget.edit_button] if widget.role == "user" else []
    wanted += [pane.message_widgets[-1].regenerate_button, pane.composer.input]
    seen = _tab_through(qtbot, pane.scroll_area, len(wanted) + 1)
    assert seen == [pane.scroll_area] + wanted        # reading order, then the message box


def test_focus_on_a_message_button_is_visible(qtbot, make_app):
    rotary = make_app()
    wait_ready(qtbot, rotary)
    rotary.window.activateWindow()
    rotary.session.chat.send("Hi")
    wait_idle(qtbot, rotary)
    button = rotary.window.chat.message_widgets[-1].copy_button
    rotary.window.chat.composer.input.setFocus()
    unfocused = button.grab().toImage()
    button.setFocus(Qt.FocusReason.TabFocusReason)
    qtbot.waitUntil(button.hasFocus)
    focused = button.grab().toImage()
    differing = sum(unfocused.pixel(x, y) != focused.pixel(x, y)
                    for x in range(focused.width()) for y in range(focused.height()))
    assert differing > 2 * (focused.width() + focused.height())   # at least a ring around it


def test_escape_while_editing_during_an_answer_cancels_the_edit_not_the_answer(qtbot, make_app):
    long_answer = tuple(f" w{i}" for i in range(400))
    rotary = make_app(script=FakeScript(answers=[("One",), long_answer]))
    wait_ready(qtbot, rotary)
    rotary.window.activateWindow()
    rotary.session.chat.send("first")
    wait_idle(qtbot, rotary)
    rotary.session.chat.send("second")
    qtbot.waitUntil(lambda: len(rotary.session.requests.partial) > 20, timeout=3000)
    pane = rotary.window.chat
    pane.message_widgets[0].edit_button.click()
    assert pane.composer.editing_index == 0
    qtbot.keyClick(pane.composer.input, Qt.Key.Key_Escape)
    assert pane.composer.editing_index is None and pane.composer.input.toPlainText() == ""
    assert rotary.session.requests.busy                          # the answer goes on
    qtbot.keyClick(pane.composer.input, Qt.Key.Key_Escape)     # a second Escape stops it
    wait_idle(qtbot, rotary)
    answer = rotary.history.messages(rotary.session.store.conversation_id)[-1]
    assert answer.stats.stop_reason == "stopped" and answer.content != "".join(long_answer)


def _mnemonic(text: str) -> str:
    """The letter after a single "&" ("" when there is none; "&&" is a literal "&")."""
    plain = text.replace("&&", "")
    at = plain.find("&")
    return plain[at + 1].lower() if 0 <= at < len(plain) - 1 else ""


@pytest.mark.parametrize("language", ["en", "ko", "zh_CN"])
def test_no_menu_repeats_a_mnemonic_in_any_language(qapp, language):
    from app.widgets.translation import install_translator, uninstall_translators
    from app.main_window import MainWindow
    translators = install_translator(qapp, language)
    try:
        window = MainWindow()
        menus = [window.menuBar()] + [a.menu() for a in window.menuBar().actions() if a.menu()]
        for menu in menus:
            letters = [_mnemonic(a.text()) for a in menu.actions() if not a.isSeparator()]
            assert all(letters), [a.text() for a in menu.actions()]   # every item has one
            repeated = {m for m in letters if letters.count(m) > 1}
            assert not repeated, (language, [a.text() for a in menu.actions()
                                             if _mnemonic(a.text()) in repeated])
        window.deleteLater()
    finally:
        uninstall_translators(qapp, translators)


def test_tab_follows_the_screen_attach_send_notice_then_the_list(qtbot, make_app, tmp_path):
    """It went Message → Send → four gauge sections → Attach → the notice's buttons; then
    Send before Attach and on into the side panel's text. Now Attach, Send, the
    notice, the conversation list; the gauge is reached with Ctrl+Shift+G and the arrows."""
    from app.widgets.notifications import NoticeAction
    from tests.app.document_helpers import FakeDocuments
    rotary = make_app(script=FakeScript(answers=[("One",)]))
    wait_ready(qtbot, rotary)
    rotary.window.activateWindow()
    rotary.session.chat.send("first")
    wait_idle(qtbot, rotary)
    rotary.notices.warning("Something to read", "details", NoticeAction("Try again", lambda: None))
    pane, bar, gauge = rotary.window.chat, rotary.window.notice_bar, rotary.window.gauge
    listing = rotary.window.conversations
    sections = [s for s in gauge.sections.values() if s.isVisible()]
    composer = pane.composer
    wanted = [composer.input, rotary.document_widgets.attach, composer.send_button,
              bar.action_buttons[0], bar.copy_button, bar.close_button, listing.new_button,
              listing.search, listing.items]
    assert _tab_through(qtbot, composer.input, len(wanted)) == wanted
    rotary.window.menu_actions["focus_gauge"].trigger()
    qtbot.waitUntil(sections[0].hasFocus)
    for section in sections[1:]:
        qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Down)
        assert section.hasFocus()
    # The document card sits above the message box: its controls come just before it.
    FakeDocuments(rotary.fake["engine"])
    path = tmp_path / "memo.pdf"
    path.write_bytes(b"%PDF-1.4")
    rotary.session.documents.open_file(str(path))
    panel = rotary.document_widgets.panel
    qtbot.waitUntil(panel.options.isVisible, timeout=3000)
    last_button = pane.message_widgets[-1].regenerate_button
    wanted = [last_button, panel.question, panel.preset, panel.summarize_button,
              panel.cancel_button, pane.composer.input]
    assert _tab_through(qtbot, last_button, len(wanted)) == wanted


def test_escape_closes_the_document_card(qtbot, make_app, tmp_path):
    from tests.app.document_helpers import FakeDocuments
    rotary = make_app()
    wait_ready(qtbot, rotary)
    rotary.window.show()
    rotary.window.activateWindow()
    FakeDocuments(rotary.fake["engine"])
    path = tmp_path / "memo.pdf"
    path.write_bytes(b"%PDF-1.4")
    rotary.session.documents.open_file(str(path))
    panel = rotary.document_widgets.panel
    qtbot.waitUntil(panel.options.isVisible, timeout=3000)
    qtbot.keyClick(QApplication.focusWidget() or panel.question, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: not panel.isVisible(), timeout=2000)
    assert not rotary.session.requests.busy
