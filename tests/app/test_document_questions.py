"""Questions about documents in the app: several files at once, listed with what they hold,
answers from their passages with failed page references marked, the pages read shown.

Reading, indexing (into a real index file), choosing passages and checking references
are the engine's own code; only the model is scripted (tests/scripted_model.py), so that the
answer, and which of its references are wrong, is known.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, QTranslator

from engine.api import ChatRequest
from engine.documents.index import PassageIndex
from tests.support.document_samples import write_pdf, write_scanned_pdf
from tests.app.conftest import wait_idle
from tests.app.document_helpers import app_with_documents, budget_pdf, contracts_pdf, drop
from tests.app.fakes import FakeScript
from tests.scripted_model import ScriptedModel

ANSWER = ("The travel budget for 2026 is 48,250 EUR [budget.pdf, p. 2]. The Kyocera contract "
          "ends on 30 June 2027 [budget.pdf, p. 2].")


def attach_both(rotary, qtbot, tmp_path):
    budget = budget_pdf(tmp_path / "budget.pdf")
    contracts = contracts_pdf(tmp_path / "contracts.pdf")
    drop(rotary.window.chat.composer.input, budget, contracts)          # two files at once
    shelf = rotary.document_widgets.shelf
    qtbot.waitUntil(lambda: len(shelf.labels) == 2, timeout=10000)
    wait_idle(qtbot, rotary)
    return shelf


def test_two_files_dropped_at_once_are_read_in_turn_and_listed(qtbot, make_app, tmp_path):
    rotary, _ = app_with_documents(make_app, qtbot)
    shelf = attach_both(rotary, qtbot, tmp_path)
    assert shelf.isVisible()
    assert [label.full_text for label in shelf.labels] == [
        "budget.pdf — 3 pages, 20 words.", "contracts.pdf — 2 pages, 11 words."]
    conversation = rotary.chat.conversation_id
    held = rotary.history.documents(conversation)
    assert [d.name for d in held] == ["budget.pdf", "contracts.pdf"]
    with PassageIndex(rotary.history.passage_index) as index:   # its own file
        assert [d.name for d in index.documents([d.sha256 for d in held])] == [
            "budget.pdf", "contracts.pdf"]
    rotary.chat.new_chat()
    assert not shelf.isVisible()                               # another conversation: none
    rotary.chat.open_conversation(conversation)
    assert len(shelf.labels) == 2


def test_remove_takes_a_document_off_the_list_and_out_of_the_questions(qtbot, make_app,
                                                                       tmp_path):
    rotary, model = app_with_documents(make_app, qtbot, ["The contract ends in June [p. 2]."])
    shelf = attach_both(rotary, qtbot, tmp_path)
    assert shelf.remove_buttons[0].accessibleName() == "Remove budget.pdf from this conversation"
    qtbot.mouseClick(shelf.remove_buttons[0], Qt.MouseButton.LeftButton)
    assert [label.full_text.split(" — ")[0] for label in shelf.labels] == ["contracts.pdf"]
    held = rotary.history.documents(rotary.chat.conversation_id)
    assert [d.name for d in held] == ["contracts.pdf"]
    assert (tmp_path / "budget.pdf").is_file()                 # the file itself stays
    assert rotary.chat.send("When does the contract end?")
    wait_idle(qtbot, rotary)
    prompt = model.requests[-1].messages[-1].content     # only the one left was searched
    assert prompt.startswith("Passages from contracts.pdf:") and "budget.pdf" not in prompt
    assert held[0].name == "contracts.pdf"
    qtbot.mouseClick(shelf.remove_buttons[0], Qt.MouseButton.LeftButton)
    assert not shelf.isVisible()                               # none left: the list goes


def test_the_list_keeps_a_small_window_small_and_scrolls_beyond_three(qtbot, make_app,
                                                                      tmp_path):
    rotary, _ = app_with_documents(make_app, qtbot)
    window = rotary.window
    window.resize(640, 420)
    qtbot.waitUntil(lambda: window.width() == 640, timeout=2000)
    paths = [budget_pdf(tmp_path / "budget.pdf"), contracts_pdf(tmp_path / "contracts.pdf")]
    paths += [write_pdf(tmp_path / f"annual report {i}, final version.pdf", [[f"Report {i}."]])
              for i in range(3)]
    drop(rotary.window.chat.composer.input, *paths)
    shelf = rotary.document_widgets.shelf
    qtbot.waitUntil(lambda: len(shelf.labels) == 5, timeout=10000)
    wait_idle(qtbot, rotary)
    assert window.width() == 640                                # a row never widens it
    assert shelf.labels[0].toolTip() == "budget.pdf — 3 pages, 20 words."   # all of it there
    rows = shelf.list_area.widget().layout()
    row_height = rows.itemAt(0).widget().sizeHint().height()
    assert 3 * row_height <= shelf.list_area.height() < 4 * row_height    # three shown
    heights = [rows.itemAt(i).widget().sizeHint().height() for i in range(rows.count())]
    assert len(heights) == 5 and sum(heights) > shelf.list_area.height()   # the rest scroll


def test_a_question_searches_every_document_and_marks_a_wrong_page(qtbot, make_app, tmp_path):
    rotary, model = app_with_documents(make_app, qtbot, [ANSWER])
    attach_both(rotary, qtbot, tmp_path)
    phases = []
    rotary.chat.phase_changed.connect(phases.append)
    assert rotary.chat.send("What is the travel budget and when does the Kyocera contract end?")
    wait_idle(qtbot, rotary)
    asked = [r for r in model.requests if "\n\nQuestion: " in r.messages[-1].content]
    assert len(asked) == 1 and asked[0].conversation_id == rotary.chat.conversation_id
    assert not [r for r in rotary.fake["engine"].requests if isinstance(r, ChatRequest)]
    prompt = asked[0].messages[-1].content            # passages of both, from the app's index
    assert "[budget.pdf, p. 2]" in prompt and "[contracts.pdf, p. 2]" in prompt
    assert any(p.startswith("Reading ") and "budget.pdf" in p for p in phases)
    answer = rotary.chat.messages[-1]
    assert answer.content.startswith(
        "The travel budget for 2026 is 48,250 EUR [budget.pdf, p. 2]. The Kyocera contract "
        "ends on 30 June 2027 [budget.pdf, p. 2] *(not found on budget.pdf, p. 2)*.")
    assert answer.content.endswith("*Read for this answer: budget.pdf (all of it); "
                                   "contracts.pdf (all of it).*")
    citations = answer.stats.document_answer["citations"]
    assert citations == {"checked": 2, "passed": 1, "not_found": ["[budget.pdf, p. 2]"]}
    stored = rotary.history.messages(rotary.chat.conversation_id)[-1]
    assert stored.content == answer.content                    # kept as shown
    bubble = rotary.window.chat.message_widgets[-1]
    assert "not found on budget.pdf, p. 2" in bubble.body.toPlainText()


def test_a_conversation_without_documents_still_talks_to_the_model(qtbot, make_app):
    rotary, model = app_with_documents(make_app, qtbot)
    assert rotary.chat.send("hello")
    wait_idle(qtbot, rotary)
    plain = [r for r in rotary.fake["engine"].requests if isinstance(r, ChatRequest)]
    assert len(plain) == 1 and plain[0].documents is None
    assert model.requests == [] and rotary.chat.messages[-1].content


def test_a_scanned_page_is_read_by_ocr_and_the_list_says_so(qtbot, make_app, tmp_path):
    rotary, _ = app_with_documents(make_app, qtbot)
    scan = write_scanned_pdf(tmp_path / "scan.pdf", [["The travel budget is 48,250 EUR."]])
    panel = rotary.document_widgets.panel
    seen = []
    rotary.documents.progress.connect(lambda event: seen.append(
        (event.phase, panel.running.isVisible(), panel.status.text())))
    drop(rotary.window.chat.composer.input, scan)
    shelf = rotary.document_widgets.shelf
    qtbot.waitUntil(lambda: len(shelf.labels) == 1, timeout=20000)
    assert seen and seen[0][:2] == ("recognising", True)       # the card shows it going on
    assert seen[0][2].startswith("Reading page 1 of 1 with text recognition…")
    assert "text recognition read it" in shelf.labels[0].full_text
    assert "Page 1 is a picture" in rotary.document_widgets.panel.found.text()


def test_the_not_found_note_is_in_the_interface_language(qtbot, make_app, tmp_path, qapp):
    from app.documents.document_text import checked_answer_text as answer_text
    from app.text.i18n import I18N_DIR
    from engine.api import CitationCheck, DocumentAnswered
    from engine.messages import msg
    where = msg("documents.page_ref", page=12)
    event = DocumentAnswered(1, 2, "Costs are 4,500 EUR [p. 12].", (), (CitationCheck(
        "[p. 12]", 20, 27, "a.pdf", where, "not_found", ("4500",), ("4500",)),),
        msg("documents.read_for_answer", where=msg("documents.pages_ref", pages="3, 12")),
        "passages")
    translator = QTranslator()
    assert translator.load(str(I18N_DIR / "rotary_ko.qm"))
    qapp.installTranslator(translator)
    try:
        assert answer_text(event) == ("Costs are 4,500 EUR [p. 12] *(12쪽에서 찾을 수 없음)*.\n\n"
                                      "*이 답변을 위해 읽은 곳: 3, 12쪽.*")
    finally:
        qapp.removeTranslator(translator)


def test_a_version_3_history_gains_the_document_list_and_keeps_its_messages(tmp_path):
    import sqlite3

    from app.conversation.history import HistoryStore
    from app.conversation.history_file import MIGRATIONS, SCHEMA_VERSION
    path = tmp_path / "history.sqlite"
    db = sqlite3.connect(path)
    for version in range(3):
        db.executescript(MIGRATIONS[version])
    db.execute("INSERT INTO conversations (id, title, created, updated) VALUES (1, 'Old', 0, 0)")
    db.execute("INSERT INTO messages (conversation_id, position, role, content, created)"
               " VALUES (1, 0, 'user', 'kept', 0)")
    db.execute("PRAGMA user_version=3")
    db.commit()
    db.close()
    store = HistoryStore(path)
    assert store.db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 6
    assert [m.content for m in store.messages(1)] == ["kept"] and store.documents(1) == []
    store.close()


def test_deleting_a_conversation_lets_its_passages_go_at_the_next_start(qtbot, make_app,
                                                                       tmp_path):
    rotary, _ = app_with_documents(make_app, qtbot)
    attach_both(rotary, qtbot, tmp_path)
    shas = [d.sha256 for d in rotary.history.documents(rotary.chat.conversation_id)]
    rotary.chat.delete(rotary.chat.conversation_id)
    assert rotary.history.document_hashes() == set()           # the links went with it
    with PassageIndex(rotary.history.passage_index) as index:
        assert len(index.documents(shas)) == 2                 # still there until...
    again = make_app(script=FakeScript(document_model=ScriptedModel()))
    with PassageIndex(again.history.passage_index) as index:
        assert index.documents(shas) == []                     # ...the next start


def test_passages_an_earlier_version_kept_in_the_history_file_move_out_at_start(qtbot, make_app,
                                                                               tmp_path):
    rotary, _ = app_with_documents(make_app, qtbot)
    attach_both(rotary, qtbot, tmp_path)
    shas = [d.sha256 for d in rotary.history.documents(rotary.chat.conversation_id)]
    moved = rotary.history.passage_index
    with PassageIndex(rotary.history.path) as history:    # as earlier versions kept them
        assert history.take_over(moved) == 2
    moved.unlink()
    again = make_app(script=FakeScript(document_model=ScriptedModel()))
    with PassageIndex(again.history.passage_index) as index:
        assert [d.name for d in index.documents(shas)] == ["budget.pdf", "contracts.pdf"]
    tables = {name for (name,) in again.history.db.execute("SELECT name FROM sqlite_master")}
    assert "conversation_documents" in tables and "doc_index_files" not in tables
