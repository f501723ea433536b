"""Chat with the fake engine: send, stream, stop, regenerate, edit-and-resend, errors."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication

from engine.errors import ContextFullError
from tests.app.conftest import wait_idle, wait_ready
from tests.app.fakes import FakeScript


def _send(qtbot, rotary, text: str) -> None:
    pane = rotary.window.chat
    pane.composer.input.setPlainText(text)
    qtbot.keyClick(pane.composer.input, Qt.Key.Key_Return)


def test_send_streams_the_answer_and_saves_it(qtbot, make_app):
    rotary = make_app()
    wait_ready(qtbot, rotary)
    _send(qtbot, rotary, "Hello?")
    assert rotary.window.chat.composer.input.toPlainText() == ""
    wait_idle(qtbot, rotary)
    answer = rotary.window.chat.message_widgets[-1]
    assert answer.text == "Hello there! Here is **bold** text."
    assert "font-weight:700" in answer.body.toHtml()            # **bold** was rendered
    assert answer.body.toPlainText() == "Hello there! Here is bold text."
    stored = rotary.history.messages(rotary.chat.conversation_id)
    assert [m.role for m in stored] == ["user", "assistant"]
    assert rotary.window.chat.announcer.sent[-1].endswith("Answer finished.")


def test_stop_then_regenerate(qtbot, make_app):
    script = FakeScript(answer=tuple(f" word{i}" for i in range(400)), token_delay=0.005)
    rotary = make_app(script=script)
    wait_ready(qtbot, rotary)
    _send(qtbot, rotary, "Write a lot")
    qtbot.waitUntil(lambda: len(rotary.chat.partial) > 20, timeout=3000)
    assert rotary.window.chat.composer.stop_button.isVisible()
    qtbot.keyClick(rotary.window.chat.composer.input, Qt.Key.Key_Escape)
    wait_idle(qtbot, rotary)
    first = rotary.chat.messages[-1]
    assert first.stats.stop_reason == "stopped"
    assert "You stopped" in rotary.window.chat.message_widgets[-1].status.text()
    script.answers.append(("A", " fresh", " answer."))
    rotary.window.chat.message_widgets[-1].regenerate_button.click()
    wait_idle(qtbot, rotary)
    assert [m.content for m in rotary.chat.messages] == ["Write a lot", "A fresh answer."]
    assert len(rotary.history.messages(rotary.chat.conversation_id)) == 2
    assert len(rotary.window.chat.message_widgets) == 2


def test_edit_and_resend_forgets_later_messages(qtbot, make_app):
    script = FakeScript(answers=[("First",), ("Second",), ("Edited",)])
    rotary = make_app(script=script)
    wait_ready(qtbot, rotary)
    for text in ("one", "two"):
        _send(qtbot, rotary, text)
        wait_idle(qtbot, rotary)
    rotary.window.chat.message_widgets[0].edit_button.click()
    assert rotary.window.chat.composer.input.toPlainText() == "one"
    _send(qtbot, rotary, "one, edited")
    wait_idle(qtbot, rotary)
    assert [m.content for m in rotary.chat.messages] == ["one, edited", "Edited"]
    stored = rotary.history.messages(rotary.chat.conversation_id)
    assert [m.content for m in stored] == ["one, edited", "Edited"]
    engine_request = rotary.fake["engine"].requests[-1]
    assert [m.content for m in engine_request.messages] == ["one, edited"]


def test_engine_error_goes_to_the_notice_not_the_answer(qtbot, make_app):
    script = FakeScript(fail_chat=ContextFullError("The conversation is too long for this "
                                                   "model. Start a new chat.", "n_ctx=4096"))
    rotary = make_app(script=script)
    wait_ready(qtbot, rotary)
    _send(qtbot, rotary, "Hi")
    wait_idle(qtbot, rotary)
    bar = rotary.window.notice_bar
    assert bar.isVisible() and "too long" in bar.message.text()
    assert bar.copy_button.isVisible()
    bar.copy_details()
    assert "n_ctx=4096" in QGuiApplication.clipboard().text()
    answer = rotary.window.chat.message_widgets[-1]
    assert answer.text == "Hello there"          # only what the model wrote
    assert "too long" not in answer.body.toPlainText()
    assert "not finished" in answer.status.text()


def test_system_prompt_and_temperature_reach_the_engine(qtbot, make_app):
    from app.settings.model import Settings
    rotary = make_app(settings=Settings(first_run_done=True, system_prompt="Be brief.",
                                        temperature=0.2))
    wait_ready(qtbot, rotary)
    _send(qtbot, rotary, "Hi")
    wait_idle(qtbot, rotary)
    request = rotary.fake["engine"].requests[-1]
    assert request.messages[0].role == "system" and request.temperature == 0.2


def test_copy_new_chat_and_export(qtbot, make_app, tmp_path):
    rotary = make_app()
    wait_ready(qtbot, rotary)
    _send(qtbot, rotary, "Export me")
    wait_idle(qtbot, rotary)
    rotary.window.menu_actions["copy_last"].trigger()
    assert QGuiApplication.clipboard().text() == "Hello there! Here is **bold** text."
    target = tmp_path / "out.md"
    rotary.conversation_actions.export_to(target)
    text = target.read_text(encoding="utf-8")
    assert text.startswith("# Export me") and "## You\n\nExport me" in text
    rotary.window.menu_actions["new_chat"].trigger()
    assert rotary.chat.conversation_id is None and not rotary.window.chat.message_widgets


def test_sending_before_the_model_is_ready_is_explained(qtbot, make_app):
    rotary = make_app(autoload=False)
    assert not rotary.window.chat.composer.send_button.isEnabled()
    assert rotary.chat.send("hi") is False
    assert "not ready" in rotary.window.notice_bar.message.text()


def test_streamed_markdown_matches_a_full_render(qtbot, qapp):
    """Appending finished blocks and replacing the tail gives the same text as one render."""
    from app.chat.message_widget import MessageWidget
    text = ("Intro **bold**\n\n```python\nx = 1 < 2\n\ny = 3\n```\n\n- one\n- two\n\n"
            "1. first\n2. second\n3. third\n\nEnd.")
    streamed = MessageWidget(1, "assistant")
    for char in text:
        streamed.append(char)
        streamed.refresh()
    whole = MessageWidget(1, "assistant", text)

    def lines(widget):
        return [line for line in widget.body.toPlainText().splitlines() if line.strip()]

    def list_sizes(widget):
        sizes, block = {}, widget.body.document().begin()
        while block.isValid():
            if block.textList() is not None:
                first = block.textList().item(0).position()
                sizes[first] = block.textList().count()
            block = block.next()
        return sorted(sizes.values())

    assert lines(streamed) == lines(whole)
    assert lines(whole) == ["Intro bold", "x = 1 < 2", "y = 3", "one", "two", "first",
                            "second", "third", "End."]
    assert list_sizes(streamed) == list_sizes(whole) == [2, 3]


def test_conversation_list_search_rename_and_delete(qtbot, make_app, monkeypatch):
    from PySide6.QtWidgets import QInputDialog, QMessageBox
    script = FakeScript(answers=[("About budgets",), ("About trips",)])
    rotary = make_app(script=script)
    wait_ready(qtbot, rotary)
    for text in ("Budget question", "Holiday question"):
        rotary.chat.new_chat()
        _send(qtbot, rotary, text)
        wait_idle(qtbot, rotary)
    listing = rotary.window.conversations
    assert listing.items.count() == 2
    qtbot.keyClicks(listing.search, "budget")
    assert [listing.items.item(i).text() for i in range(listing.items.count())] == [
        "Budget question"]
    listing.items.setCurrentRow(0)
    monkeypatch.setattr(QInputDialog, "getText", lambda *a, **k: ("Money", True))
    listing.rename_button.click()
    listing.search.clear()
    assert "Money" in [listing.items.item(i).text() for i in range(listing.items.count())]
    asked = []

    def answer_with(label):
        def press(box):
            asked.append([button.text() for button in box.buttons()])
            assert box.defaultButton().text() == "Cancel"
            next(b for b in box.buttons() if b.text() == label).click()
        return press

    monkeypatch.setattr(QMessageBox, "exec", answer_with("Cancel"))
    listing.items.setCurrentRow(0)
    listing.delete_button.click()
    assert listing.items.count() == 2               # "Cancel" keeps it
    monkeypatch.setattr(QMessageBox, "exec", answer_with("Delete"))
    listing.items.setCurrentRow(0)
    listing.delete_button.click()
    assert sorted(asked[0]) == ["Cancel", "Delete"]
    assert listing.items.count() == 1 and len(rotary.history.list_conversations()) == 1


def test_a_base_model_is_named_and_explained_before_the_first_message(qtbot, make_app):
    rotary = make_app(script=FakeScript(chat_template=None))
    wait_ready(qtbot, rotary)
    warning = rotary.window.chat.model_warning
    assert warning.isVisible() and not rotary.window.chat.message_widgets
    assert "Fake MoE 35B" in warning.text() and "base model" in warning.text()
    assert "continue your text" in warning.text()
    rotary.bridge.unload()
    qtbot.waitUntil(lambda: not warning.isVisible(), timeout=2000)


def test_a_chat_model_gets_no_base_model_warning(qtbot, make_app):
    rotary = make_app()
    wait_ready(qtbot, rotary)
    assert not rotary.window.chat.model_warning.isVisible()


def test_each_question_names_its_conversation_for_the_engine(qtbot, make_app):
    # The slot cache keeps a resident set per conversation; it needs to know which one asks.
    from engine.api import ChatRequest
    rotary = make_app()
    wait_ready(qtbot, rotary)
    _send(qtbot, rotary, "First chat")
    wait_idle(qtbot, rotary)
    first = rotary.chat.conversation_id
    rotary.chat.new_chat()
    _send(qtbot, rotary, "Second chat")
    wait_idle(qtbot, rotary)
    asked = [r.conversation_id for r in rotary.fake["engine"].requests if isinstance(r, ChatRequest)]
    assert asked == [first, rotary.chat.conversation_id] and first != asked[-1]


@pytest.mark.parametrize("text, title", [
    ("```python\ntotal = a + b\n```", "total = a + b"),
    ("~~~\n\n    x = 1\n~~~\nWhat does this do?", "x = 1"),
    ("# Quarterly report\nSummarise it", "Quarterly report"),
    ("- first point\n- second", "first point"),
    ("Plain question?", "Plain question?"),
    ("```\n```", "```"),
])
def test_a_conversation_is_named_after_its_first_words_not_its_markdown(text, title):
    from app.conversation.store import title_from as _title_from
    assert _title_from(text) == title
