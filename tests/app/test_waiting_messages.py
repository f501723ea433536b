"""A message sent while the answer is still being written in the same conversation (Enter
was silently ignored): it waits, is said to wait under the conversation, goes when the answer
ends (Stop ends it at once), and "Don't send" takes it back into the box."""

from __future__ import annotations

from PySide6.QtCore import Qt

from tests.app.conftest import wait_idle, wait_ready
from tests.app.fakes import FakeScript

LONG = tuple(f" w{i}" for i in range(300))        # 3 s at 10 ms a token


def _writing(make_app, qtbot, answers):
    rotary = make_app(script=FakeScript(answers=list(answers), token_delay=0.01))
    wait_ready(qtbot, rotary)
    assert rotary.session.chat.send("first")
    qtbot.waitUntil(lambda: len(rotary.session.requests.partial) > 10, timeout=3000)
    return rotary, rotary.window.chat.composer


def _enter(qtbot, composer, text: str) -> None:
    composer.input.setPlainText(text)
    qtbot.keyClick(composer.input, Qt.Key.Key_Return)           # as the user sends it


def _contents(rotary) -> list[tuple[str, str]]:
    return [(m.role, m.content.strip()) for m in rotary.session.store.messages]


def test_enter_while_the_answer_is_written_sends_the_message_after_it(qtbot, make_app):
    rotary, composer = _writing(make_app, qtbot, [LONG, ("Two",)])
    _enter(qtbot, composer, "And the costs?")
    assert composer.input.toPlainText() == ""                       # taken, not ignored
    assert composer.queued_note.isVisible()
    said = composer.queued_text.text()
    assert "will be sent when this answer is finished" in said and "And the costs?" in said
    _enter(qtbot, composer, "A third one")                          # one waits: this one stays
    assert composer.input.toPlainText() == "A third one"
    assert "already waiting" in composer.phase.text()
    composer.input.clear()
    assert rotary.session.requests.busy and len(rotary.session.store.messages) == 1  # the answer goes on
    qtbot.waitUntil(lambda: len(rotary.session.store.messages) == 4, timeout=10_000)
    wait_idle(qtbot, rotary)
    assert [role for role, _ in _contents(rotary)] == ["user", "assistant", "user", "assistant"]
    assert _contents(rotary)[2:] == [("user", "And the costs?"), ("assistant", "Two")]
    assert rotary.session.store.messages[1].stats.stop_reason == "eos"  # the first answer whole
    assert not composer.queued_note.isVisible()


def test_stop_ends_the_answer_and_the_waiting_message_goes_at_once(qtbot, make_app):
    rotary, composer = _writing(make_app, qtbot, [LONG, ("Two",)])
    _enter(qtbot, composer, "Shorter, please")
    composer.stop_button.click()
    qtbot.waitUntil(lambda: len(rotary.session.store.messages) == 4, timeout=5000)
    wait_idle(qtbot, rotary)
    assert rotary.session.store.messages[1].stats.stop_reason == "stopped"
    assert _contents(rotary)[2:] == [("user", "Shorter, please"), ("assistant", "Two")]


def test_dont_send_puts_the_waiting_message_back_in_the_box(qtbot, make_app):
    rotary, composer = _writing(make_app, qtbot, [LONG[:120], ("Two",)])
    _enter(qtbot, composer, "Never mind")
    composer.queued_cancel.click()
    assert composer.input.toPlainText() == "Never mind" and not composer.queued_note.isVisible()
    wait_idle(qtbot, rotary, timeout=10_000)
    qtbot.wait(100)
    assert [role for role, _ in _contents(rotary)] == ["user", "assistant"]   # nothing sent


def test_the_waiting_message_is_said_in_its_own_conversation_only(qtbot, make_app):
    rotary, composer = _writing(make_app, qtbot, [LONG, ("Two",)])
    first = rotary.session.store.conversation_id
    _enter(qtbot, composer, "And the costs?")
    rotary.session.chat.new_chat()
    assert not composer.queued_note.isVisible()
    rotary.session.chat.open_conversation(first)
    assert composer.queued_note.isVisible() and "And the costs?" in composer.queued_text.text()
    qtbot.waitUntil(lambda: len(rotary.session.store.messages) == 4, timeout=10_000)
    wait_idle(qtbot, rotary)
    assert _contents(rotary)[2] == ("user", "And the costs?")
