"""What the conversation list and the chat say is true: names from what a
conversation holds, a mark on conversations being written or waiting, a question sent
while a document is read waits and is said to wait."""

from __future__ import annotations

from PySide6.QtCore import Qt

from engine.errors import CorruptDocumentError
from tests.app.conftest import wait_idle, wait_ready
from tests.app.fakes import FakeScript
from tests.app.document_helpers import FakeDocuments


TITLE_ROLE = Qt.ItemDataRole.UserRole + 1     # app.chat.conversation_list's roles
STATE_ROLE = Qt.ItemDataRole.UserRole + 2


def _titles(rotary) -> list[str]:
    return [c.title for c in rotary.history.list_conversations()]


def _listed(rotary) -> dict[int, tuple[str, str]]:
    items = rotary.window.conversations.items
    return {items.item(i).data(256): (items.item(i).data(TITLE_ROLE),
                                      items.item(i).data(STATE_ROLE) or "")
            for i in range(items.count())}


def test_a_conversation_named_for_a_failed_document_is_renamed(qtbot, make_app, tmp_path):
    rotary = make_app()
    wait_ready(qtbot, rotary)
    docs = FakeDocuments(rotary.fake["engine"], fail=CorruptDocumentError("damaged"))
    rotary.session.documents.open_file(str(tmp_path / "corrupt.pdf"))
    wait_idle(qtbot, rotary)
    qtbot.waitUntil(lambda: bool(rotary.notices.history)
                    and "damaged" in rotary.notices.history[-1].message, timeout=3000)
    assert _titles(rotary) == []        # "corrupt.pdf" held nothing: gone, no empty "New chat"
    docs.fail = None                                     # the next document is read
    rotary.session.documents.open_file(str(tmp_path / "scanned_memo.pdf"))
    qtbot.waitUntil(lambda: rotary.document_widgets.panel.options.isVisible(),
                    timeout=3000)
    assert _titles(rotary) == ["Jahresbericht.pdf"]      # named for what it holds


def test_a_failed_document_in_a_new_chat_then_a_question_names_it_by_the_question(
        qtbot, make_app, tmp_path):
    rotary = make_app()
    wait_ready(qtbot, rotary)
    FakeDocuments(rotary.fake["engine"], fail=CorruptDocumentError("damaged"))
    rotary.session.documents.open_file(str(tmp_path / "corrupt.pdf"))
    wait_idle(qtbot, rotary)
    assert rotary.session.chat.send("What is the budget for travel?")
    wait_idle(qtbot, rotary)
    assert _titles(rotary) == ["What is the budget for travel?"]


def test_same_named_conversations_are_told_apart(qtbot, make_app, tmp_path):
    rotary = make_app()
    wait_ready(qtbot, rotary)
    FakeDocuments(rotary.fake["engine"])
    for _ in range(3):
        rotary.session.chat.new_chat()
        rotary.session.documents.open_file(str(tmp_path / "Jahresbericht.pdf"))
        qtbot.waitUntil(lambda: rotary.document_widgets.panel.options.isVisible(),
                        timeout=3000)
        rotary.session.document_queue.dismiss()
    assert sorted(_titles(rotary)) == ["Jahresbericht.pdf", "Jahresbericht.pdf (2)",
                                       "Jahresbericht.pdf (3)"]
    rotary.session.chat.new_chat()
    rotary.session.chat.send("Hello")
    wait_idle(qtbot, rotary)
    rotary.session.chat.new_chat()
    rotary.session.chat.send("Hello")
    wait_idle(qtbot, rotary)
    assert {"Hello", "Hello (2)"} <= set(_titles(rotary))


def test_a_message_sent_while_another_conversation_writes_says_it_waits(qtbot, make_app):
    long_answer = tuple(f" w{i}" for i in range(300))
    rotary = make_app(script=FakeScript(answers=[long_answer, ("Two",)], token_delay=0.01))
    wait_ready(qtbot, rotary)
    rotary.session.chat.send("first")
    qtbot.waitUntil(lambda: len(rotary.session.requests.partial) > 10, timeout=3000)
    first = rotary.session.store.conversation_id
    assert _listed(rotary)[first][1] == "writing"
    rotary.session.chat.new_chat()
    pane = rotary.window.chat
    pane.composer.input.setPlainText("second")
    qtbot.keyClick(pane.composer.input, Qt.Key.Key_Return)          # as the user sends it
    second = rotary.session.store.conversation_id
    waiting = "Waiting for the other answer…"
    assert pane.composer.phase.text() == waiting                       # at once, not after 1.5 s
    assert pane.message_widgets[-1].status.text() == waiting  # in the empty answer, too
    listed = _listed(rotary)
    assert listed[first][1] == "writing" and listed[second][1] == "waiting"
    items = rotary.window.conversations.items
    row = next(i for i in range(items.count()) if items.item(i).data(256) == second)
    assert "waiting" in items.item(row).toolTip()
    assert items.item(row).text().endswith("second")
    qtbot.waitUntil(lambda: not rotary.session.requests.jobs, timeout=10_000)
    assert all(state == "" for _title, state in _listed(rotary).values())
    assert pane.message_widgets[-1].status.text() == ""


def test_enter_while_a_document_is_read_queues_the_question(qtbot, make_app, tmp_path):
    rotary = make_app()
    wait_ready(qtbot, rotary)
    FakeDocuments(rotary.fake["engine"], part_delay=0.3)
    composer = rotary.window.chat.composer
    rotary.session.documents.open_file(str(tmp_path / "Jahresbericht.pdf"))
    qtbot.waitUntil(lambda: rotary.document_widgets.panel.options.isVisible(), timeout=3000)
    rotary.session.documents.summarize("short")
    assert rotary.session.requests.busy
    composer.input.setPlainText("What about travel costs?")
    qtbot.keyClick(composer.input, Qt.Key.Key_Return)
    assert composer.input.toPlainText() == ""                       # taken, not ignored
    assert "will be sent when the document has been read" in composer.queued_text.text()
    composer.input.setPlainText("And the rest?")             # a second one is not lost either
    qtbot.keyClick(composer.input, Qt.Key.Key_Return)
    assert composer.input.toPlainText() == "And the rest?"
    assert "already waits" in composer.phase.text()
    composer.input.clear()
    qtbot.waitUntil(lambda: len(rotary.session.store.messages) >= 4
                    and rotary.session.store.messages[-1].role == "assistant"
                    and rotary.session.store.messages[-2].content == "What about travel costs?",
                    timeout=10_000)
    wait_idle(qtbot, rotary)
    roles = [m.role for m in rotary.session.store.messages]
    assert roles == ["user", "assistant", "user", "assistant"]   # the summary, then the answer


def test_each_conversation_keeps_its_unsent_text_and_new_chat_its_own(qtbot, make_app):
    rotary = make_app()
    wait_ready(qtbot, rotary)
    pane, actions, listing = rotary.window.chat, rotary.session.chat, rotary.window.conversations
    box = pane.composer.input

    def send(text: str) -> int:
        box.setPlainText(text)
        qtbot.keyClick(box, Qt.Key.Key_Return)              # as the user sends it
        wait_idle(qtbot, rotary)
        return rotary.session.store.conversation_id

    first = send("first")
    box.setPlainText("half a question")
    listing.new_requested.emit()                            # New chat: its own, empty box
    assert box.toPlainText() == ""
    second = send("second")
    assert box.toPlainText() == ""                          # sent: no draft left
    box.setPlainText("for the second")
    listing.open_requested.emit(first)
    assert box.toPlainText() == "half a question"           # back where it was typed
    listing.new_requested.emit()
    box.setPlainText("for a new chat")
    listing.open_requested.emit(second)
    assert box.toPlainText() == "for the second"
    listing.new_requested.emit()
    assert box.toPlainText() == "for a new chat"
    listing.open_requested.emit(first)
    pane.begin_edit(0)                                      # an edit is not a draft:
    assert pane.composer.editing_index == 0 and box.toPlainText() == "first"
    listing.open_requested.emit(second)                     # leaving cancels it
    assert pane.composer.editing_index is None and box.toPlainText() == "for the second"
    listing.open_requested.emit(first)
    assert box.toPlainText() == ""
    listing.delete_requested.emit(second)                   # deleted: its draft goes too
    assert second not in rotary.session.chat.drafts and box.toPlainText() == ""
    assert actions.drafts == {None: "for a new chat"}
