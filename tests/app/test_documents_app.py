"""The document flow in the app: drop or attach, what was found, progress, stop, history.

The engine is the tests' fake with a scripted document run (the engine's own map-reduce
is tested in tests/engine/test_documents_summarize.py); one test uses the real engine.
"""

from __future__ import annotations

import dataclasses

import pytest

from PySide6.QtCore import Qt, QTranslator

from engine.api import (DocumentFinished, DocumentProgress, DocumentSummary)
from engine.errors import PasswordProtectedError, ReadingStoppedError
from engine.messages import msg
from tests.app.conftest import wait_idle, wait_ready
from tests.app.document_helpers import OVERVIEW, PAGES, FakeDocuments, drop, read_note
from tests.support.event_collector import on_request_events


def _app(make_app, qtbot, **kwargs):
    rotary = make_app()
    wait_ready(qtbot, rotary)
    return rotary, FakeDocuments(rotary.fake["engine"], **kwargs)


def test_drop_shows_what_was_found_before_anything_runs(qtbot, make_app, tmp_path):
    rotary, docs = _app(make_app, qtbot)
    pane, path = rotary.window.chat, tmp_path / "Jahresbericht.pdf"
    path.write_bytes(b"%PDF-1.4")
    assert drop(pane.composer.input, path) == (True, True)
    panel = rotary.document_widgets.panel
    qtbot.waitUntil(lambda: panel.options.isVisible(), timeout=3000)
    assert panel.found.text() == ("42 pages, about 31,000 words, read in 3 parts, about 4 "
                                  "minutes on this computer.\nAsk a question about it below, "
                                  "or choose a summary:")
    assert [r.inspect_only for r in docs.requests] == [True]
    assert not rotary.session.requests.busy and rotary.session.store.messages == []   # nothing stored yet
    assert panel.preset.count() == 4 and panel.preset.currentData() == "short"


def test_summary_runs_with_progress_and_stays_in_the_conversation(qtbot, make_app, tmp_path):
    rotary, docs = _app(make_app, qtbot, part_delay=0.15)
    pane, panel = rotary.window.chat, rotary.document_widgets.panel
    assert rotary.session.documents.open_file(str(tmp_path / "Jahresbericht.pdf"))
    qtbot.waitUntil(lambda: panel.options.isVisible(), timeout=3000)
    panel.preset.setCurrentIndex(panel.preset.findData("actions"))
    panel.question.setText("Who pays for travel?")
    qtbot.mouseClick(panel.summarize_button, Qt.MouseButton.LeftButton)
    assert rotary.session.requests.busy and not pane.composer.send_button.isVisible()     # Stop shows instead
    qtbot.waitUntil(lambda: "Reading part 2 of 3" in panel.status.text(), timeout=3000)
    assert "minute" in panel.status.text() and panel.bar.maximum() == 3
    wait_idle(qtbot, rotary)
    run = docs.requests[-1]
    assert (run.preset, run.question, run.inspect_only) == ("actions", "Who pays for travel?", False)
    assert run.conversation_id == rotary.session.store.conversation_id is not None
    assert run.language == "English"
    user, answer = rotary.session.store.messages
    assert "Jahresbericht.pdf" in user.content and "Who pays for travel?" in user.content
    assert user.stats.document["pages"] == 42
    assert answer.content.startswith("Travel costs rose [pages 1–14].")
    assert answer.stats.document_summary["parts_read"] == 3
    stored = rotary.history.messages(rotary.session.store.conversation_id)
    assert [m.content for m in stored] == [user.content, answer.content]
    assert len(pane.message_widgets) == 2 and not panel.isVisible()
    # A follow-up question in this chat carries the document and its summary.
    rotary.session.chat.send("And the printers?")
    wait_idle(qtbot, rotary)
    chat_request = rotary.fake["engine"].requests[-1]
    assert [m.content for m in chat_request.messages][-3:-1] == [user.content, answer.content]


def test_stop_keeps_the_partial_summary(qtbot, make_app, tmp_path):
    rotary, docs = _app(make_app, qtbot, part_delay=0.3)
    panel = rotary.document_widgets.panel
    rotary.session.documents.open_file(str(tmp_path / "Jahresbericht.pdf"))
    qtbot.waitUntil(lambda: panel.options.isVisible(), timeout=3000)
    rotary.session.documents.summarize("short")
    qtbot.waitUntil(lambda: "Reading part 1" in panel.status.text(), timeout=3000)
    qtbot.mouseClick(panel.stop_button, Qt.MouseButton.LeftButton)
    wait_idle(qtbot, rotary)
    answer = rotary.session.store.messages[-1]
    assert answer.content.startswith("Partial summary: stopped before the end.")
    assert answer.stats.document_summary["partial"] is True


def test_an_engine_error_is_a_notice_not_an_answer(qtbot, make_app, tmp_path):
    error = PasswordProtectedError("This PDF is protected by a password.")
    rotary, docs = _app(make_app, qtbot, fail=error)
    rotary.session.documents.open_file(str(tmp_path / "secret.pdf"))
    wait_idle(qtbot, rotary)
    qtbot.waitUntil(lambda: not rotary.document_widgets.panel.isVisible(), timeout=3000)
    assert rotary.notices.history[-1].message == error.message
    assert rotary.session.store.messages == [] and rotary.window.chat.composer.send_button.isVisible()


def test_stopping_text_recognition_is_said_quietly_not_as_an_error(qtbot, make_app, tmp_path,
                                                                  caplog):
    stopped = ReadingStoppedError(msg("documents.ocr_stopped"))
    rotary, docs = _app(make_app, qtbot, fail=stopped)
    rotary.session.documents.open_file(str(tmp_path / "scan.pdf"))
    wait_idle(qtbot, rotary)
    qtbot.waitUntil(lambda: not rotary.document_widgets.panel.isVisible(), timeout=3000)
    notice = rotary.notices.history[-1]
    assert (notice.level, notice.message) == ("info", stopped.message)
    assert not [r for r in caplog.records if r.levelname == "ERROR"]
    assert rotary.session.store.messages == [] and rotary.window.chat.composer.send_button.isVisible()


def test_unsupported_files_and_a_busy_chat_are_explained(qtbot, make_app, tmp_path):
    rotary, docs = _app(make_app, qtbot)
    assert not rotary.session.documents.open_file(str(tmp_path / "table.xlsx"))
    assert "PDF, Word" in rotary.notices.history[-1].message
    rotary.session.chat.send("hello")
    assert not rotary.session.documents.open_file(str(tmp_path / "a.pdf"))
    assert "wait until the current answer" in rotary.notices.history[-1].message
    wait_idle(qtbot, rotary)
    assert docs.requests == []


def test_attach_button_sits_in_the_message_row(qtbot, make_app):
    rotary, _ = _app(make_app, qtbot)
    widgets = rotary.document_widgets
    assert widgets.attach.isVisible() and widgets.attach.accessibleName()
    assert widgets.panel.accessibleName() == "Document"


def test_the_card_says_the_engines_messages(qapp):
    from dataclasses import replace
    from app.conversation.chat_text import progress_text
    from app.documents.document_text import overview_text
    scanned = replace(OVERVIEW, notes=(msg("documents.skipped_pages", pages="4, 7"),
                                       msg("documents.ocr_page", pages="9", seconds=3.0)))
    assert overview_text(scanned).endswith(
        "Pages 4, 7 have no text (probably pictures) and will be skipped. Page 9 is a picture "
        "(probably scanned): text recognition read it in 3 s.")
    event = DocumentProgress(1, 2, "reading", 3, 9, 2, 130.0,
                             msg("documents.progress.part", part=3, parts=9),
                             msg("documents.left.minutes", n=2))
    assert progress_text(event) == "Reading part 3 of 9… About 2 minutes left."


def test_the_chat_stop_button_stops_the_document_and_a_chat_waits_its_turn(qtbot, make_app,
                                                                            tmp_path):
    rotary, docs = _app(make_app, qtbot, part_delay=0.3)
    panel = rotary.document_widgets.panel
    rotary.session.documents.open_file(str(tmp_path / "Jahresbericht.pdf"))
    qtbot.waitUntil(lambda: panel.options.isVisible(), timeout=3000)
    rotary.session.documents.summarize("short")
    assert rotary.session.requests.busy            # a question meanwhile waits (test_conversation_states)
    request_id = rotary.bridge.chat([("user", "queued")], 0.7)    # the engine's queue holds it
    engine = rotary.fake["engine"]
    assert all(getattr(r, "request_id", None) != request_id for r in engine.requests)
    qtbot.waitUntil(lambda: "Reading part 1" in panel.status.text(), timeout=3000)
    rotary.window.chat.composer.stop_button.click()                        # the chat pane's Stop
    wait_idle(qtbot, rotary)
    assert rotary.session.store.messages[-1].stats.document_summary["partial"] is True
    qtbot.waitUntil(lambda: any(getattr(r, "request_id", None) == request_id
                                for r in engine.requests), timeout=3000)   # then it ran


def _summary(parts: int, parts_read: int, partial: bool, body: str = "Costs rose.",
             amount=PAGES):
    return DocumentSummary(text="(the engine's English)", partial=partial, parts=parts,
                           parts_read=parts_read, tokens=1, tokens_read=1, model_calls=1,
                           read_note=read_note(parts, parts_read, partial, amount), citations=(),
                           preset="short", body=body)


def test_what_was_read_is_said_in_the_singular_and_after_a_stop(qapp):
    from app.documents.document_text import answer_text
    memo = dataclasses.replace(OVERVIEW, kind="docx", name="memo.docx", sections=1)
    assert answer_text(memo, _summary(2, 2, False, amount=msg("documents.sections_one"))) == \
        "Costs rose.\n\nRead all of it (1 section) in 2 parts."       # was "all 1 sections"
    assert answer_text(OVERVIEW, _summary(3, 1, True)) == (
        "Partial summary: stopped before the end.\n\nCosts rose.\n\n"
        "Partial: read 1 of 3 parts of it (42 pages); the rest was not read.")
    assert answer_text(OVERVIEW, _summary(3, 0, True, body="")) == \
        "Stopped before any of it (42 pages) was read."
    fenced = answer_text(OVERVIEW, _summary(3, 3, False, body="```\ncode left open"))
    assert fenced.endswith("```\n\nRead all of it (42 pages) in 3 parts.")


def test_the_summary_and_its_note_are_kept_in_the_interface_language(qapp):
    # The engine writes its note in English; in a Korean interface none of it may show.
    from app.documents.document_text import answer_text, found_text, title_text
    from app.text.i18n import I18N_DIR
    translator = QTranslator()
    assert translator.load(str(I18N_DIR / "rotary_ko.qm"))
    qapp.installTranslator(translator)
    try:
        assert title_text(msg("documents.preset.short")) == "짧은 요약"
        text = answer_text(OVERVIEW, _summary(3, 3, True))
        assert found_text(OVERVIEW) == "42쪽, 약 31,000단어"
        assert text == ("일부 요약: 끝나기 전에 멈췄습니다.\n\nCosts rose.\n\n"
                        "전체(42쪽)를 3개 부분으로 나눠 읽었지만, 요약이 끝나기 전에 멈췄습니다.")
    finally:
        qapp.removeTranslator(translator)


def test_the_file_chooser_opens_in_documents_then_where_the_last_one_was(qtbot, make_app,
                                                                          tmp_path, monkeypatch):
    # It opened in the folder the app was started from: Rotary's own install folder.
    import platformdirs

    import app.documents.document_view as document_view
    rotary, _ = _app(make_app, qtbot)
    documents = tmp_path / "Documents"
    documents.mkdir()
    monkeypatch.setattr(platformdirs, "user_documents_dir", lambda: str(documents))
    opened_in = []

    def chooser(parent, title, folder, patterns):
        opened_in.append(folder)
        return "", ""                     # the user cancels
    monkeypatch.setattr(document_view.QFileDialog, "getOpenFileNames", chooser)
    attach = rotary.document_widgets.attach
    qtbot.mouseClick(attach, Qt.MouseButton.LeftButton)
    report = tmp_path / "reports" / "Jahresbericht.pdf"
    report.parent.mkdir()
    report.write_bytes(b"%PDF-1.4")
    assert rotary.session.documents.open_file(str(report))
    qtbot.waitUntil(lambda: rotary.document_widgets.panel.options.isVisible(), timeout=3000)
    qtbot.mouseClick(attach, Qt.MouseButton.LeftButton)
    assert opened_in == [str(documents), str(report.parent)]


def test_every_summary_style_has_one_title_the_interface_translates():
    # The titles were written twice (engine/documents/presets.py and the app); now once.
    from engine.documents.presets import SUMMARY_PRESETS
    from engine.messages import Msg
    from tests.support.translations import engine_translations
    translated = engine_translations("ko")
    for preset in SUMMARY_PRESETS.values():
        assert isinstance(preset.title, Msg) and translated.get(str(preset.title))


def test_the_closing_note_is_never_drawn_inside_a_code_block_left_open(qapp):
    from app.documents.document_text import answer_text
    from app.widgets.markdown_render import render
    note = "Read all of it (42 pages) in 3 parts."
    for body in ("Steps:\n\n```bash\nrm -rf build\n", "Steps:\n\n~~~~\ncode\n```\nstill code",
                 "Done:\n\n```\nclosed\n```"):
        html = render(answer_text(OVERVIEW, _summary(3, 3, False, body=body)))
        code_end = html.rindex("</pre>")
        assert html.index(note) > code_end, html              # after the block, not in it
    assert answer_text(OVERVIEW, _summary(3, 3, False, body="Done:\n\n```\nclosed\n```")) == \
        f"Done:\n\n```\nclosed\n```\n\n{note}"                 # a closed block is left as is


# ---- the summary inside the chat's lifecycle (app.session's rules) ----------------

def _summarizing(qtbot, rotary, path, preset="short", question=""):
    panel = rotary.document_widgets.panel
    path.write_bytes(b"%PDF-1.4")
    assert rotary.session.documents.open_file(str(path))
    qtbot.waitUntil(lambda: panel.options.isVisible(), timeout=3000)
    panel.preset.setCurrentIndex(panel.preset.findData(preset))
    panel.question.setText(question)
    qtbot.mouseClick(panel.summarize_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: "Reading part 1" in panel.status.text(), timeout=3000)
    return panel


def test_deleting_a_conversation_while_its_summary_runs_drops_it(qtbot, make_app, tmp_path):
    rotary, docs = _app(make_app, qtbot, part_delay=0.3)
    pane = rotary.window.chat
    panel = _summarizing(qtbot, rotary, tmp_path / "Jahresbericht.pdf")
    doomed, request = rotary.session.store.conversation_id, rotary.session.documents.request_id
    ended = []
    on_request_events(rotary.bridge, DocumentFinished, ended.append)
    rotary.session.store.delete(doomed)
    assert not panel.isVisible() and pane.composer.send_button.isVisible() and not rotary.session.requests.busy
    qtbot.waitUntil(lambda: [e.request_id for e in ended] == [request], timeout=3000)
    assert ended[0].summary.partial                          # the engine stopped it
    qtbot.wait(100)
    assert not rotary.history.exists(doomed) and rotary.history.list_conversations() == []
    assert rotary.history.db.execute("SELECT COUNT(*) FROM messages").fetchone()[0] == 0
    assert [n for n in rotary.notices.history if n.level == "error"] == []
    assert not panel.isVisible() and rotary.session.documents.request_id is None
    rotary.session.chat.send("Still works?")                # Send and the engine are usable again
    wait_idle(qtbot, rotary)
    assert [m.role for m in rotary.session.store.messages] == ["user", "assistant"]


def test_the_summary_goes_on_in_its_conversation_and_the_card_follows_it(qtbot, make_app,
                                                                         tmp_path):
    rotary, docs = _app(make_app, qtbot, part_delay=0.25)
    pane = rotary.window.chat
    panel = _summarizing(qtbot, rotary, tmp_path / "Jahresbericht.pdf")
    owner = rotary.session.store.conversation_id
    rotary.session.chat.new_chat()
    assert not panel.isVisible() and pane.composer.send_button.isVisible() and not rotary.session.requests.busy
    assert pane.composer.phase.text() == ""
    rotary.session.chat.open_conversation(owner)
    assert panel.isVisible() and panel.running.isVisible() and pane.composer.stop_button.isVisible()
    assert pane.composer.phase.text() == "Reading the document…"
    rotary.session.chat.new_chat()
    qtbot.waitUntil(lambda: rotary.session.documents.request_id is None, timeout=5000)
    assert not panel.isVisible() and rotary.session.store.messages == []
    stored = rotary.history.messages(owner)
    assert [m.role for m in stored] == ["user", "assistant"]
    assert stored[1].stats.document_summary["parts_read"] == 3     # it was not stopped
    rotary.session.chat.open_conversation(owner)
    assert not panel.isVisible() and len(pane.message_widgets) == 2


def test_write_again_on_a_summary_reads_the_document_again(qtbot, make_app, tmp_path):
    rotary, docs = _app(make_app, qtbot)
    _summarizing(qtbot, rotary, tmp_path / "Jahresbericht.pdf", "actions", "Who pays?")
    wait_idle(qtbot, rotary)
    conversation = rotary.session.store.conversation_id
    first_document = rotary.session.store.messages[0]
    pane = rotary.window.chat
    summary_widget = pane.message_widgets[1]
    assert summary_widget.regenerate_button.isVisibleTo(summary_widget)
    summary_widget.regenerate_button.click()
    qtbot.waitUntil(lambda: len(docs.requests) == 3, timeout=3000)
    wait_idle(qtbot, rotary)
    again = docs.requests[-1]
    assert (again.path, again.preset, again.question, again.inspect_only) == (
        str(tmp_path / "Jahresbericht.pdf"), "actions", "Who pays?", False)
    assert again.conversation_id == conversation
    stored = rotary.history.messages(conversation)
    assert [m.role for m in stored] == ["user", "assistant"]          # replaced, not added
    assert "Travel costs rose" in stored[1].content and stored[0].id == first_document.id
    assert [w.text for w in pane.message_widgets] == [m.content for m in stored]
    chats = [r for r in rotary.fake["engine"].requests if hasattr(r, "messages")]
    assert chats == []                                  # nothing answered "Document: …"


def test_edit_on_a_document_message_opens_its_card_to_change_the_options(qtbot, make_app,
                                                                         tmp_path):
    rotary, docs = _app(make_app, qtbot)
    _summarizing(qtbot, rotary, tmp_path / "Jahresbericht.pdf", "actions", "Who pays?")
    wait_idle(qtbot, rotary)
    rotary.session.chat.send("And the printers?")
    wait_idle(qtbot, rotary)
    pane, panel = rotary.window.chat, rotary.document_widgets.panel
    before = [m.content for m in rotary.session.store.messages]
    pane.message_widgets[0].edit_button.click()
    qtbot.waitUntil(lambda: panel.options.isVisible(), timeout=3000)
    composer = pane.composer
    assert composer.editing_index is None and composer.input.toPlainText() == ""   # not its text
    assert panel.preset.currentData() == "actions" and panel.question.text() == "Who pays?"
    assert panel.replacing.isVisible() and "replaces" in panel.replacing.text()
    qtbot.mouseClick(panel.cancel_button, Qt.MouseButton.LeftButton)       # changes nothing
    assert not panel.isVisible() and [m.content for m in rotary.session.store.messages] == before
    pane.message_widgets[0].edit_button.click()
    qtbot.waitUntil(lambda: panel.options.isVisible(), timeout=3000)
    panel.preset.setCurrentIndex(panel.preset.findData("bullets"))
    panel.question.setText("")
    qtbot.mouseClick(panel.summarize_button, Qt.MouseButton.LeftButton)
    wait_idle(qtbot, rotary)
    assert (docs.requests[-1].preset, docs.requests[-1].question) == ("bullets", "")
    stored = rotary.history.messages(rotary.session.store.conversation_id)
    assert [m.role for m in stored] == ["user", "assistant"]       # the follow-up went too
    assert stored[0].content.endswith("Bullet points") and stored[0].stats.document[
        "preset"] == "bullets"
    assert [w.text for w in pane.message_widgets] == [m.content for m in stored]


def test_write_again_on_a_summary_of_a_moved_document_keeps_it(qtbot, make_app, tmp_path):
    rotary, docs = _app(make_app, qtbot)
    path = tmp_path / "Jahresbericht.pdf"
    _summarizing(qtbot, rotary, path)
    wait_idle(qtbot, rotary)
    path.unlink()
    before = [m.content for m in rotary.history.messages(rotary.session.store.conversation_id)]
    rotary.window.menu_actions["regenerate"].trigger()
    assert "no longer at" in rotary.notices.history[-1].message
    assert [m.content for m in rotary.history.messages(rotary.session.store.conversation_id)] == before
    assert len(docs.requests) == 2 and not rotary.session.requests.busy


def test_an_old_document_error_goes_when_the_next_document_is_summarised(qtbot, make_app,
                                                                          tmp_path):
    rotary, docs = _app(make_app, qtbot, fail=PasswordProtectedError("protected"))
    bar = rotary.window.notice_bar
    rotary.session.documents.open_file(str(tmp_path / "bad.docx"))
    qtbot.waitUntil(bar.isVisible, timeout=3000)
    docs.fail = None
    panel = _summarizing(qtbot, rotary, tmp_path / "Jahresbericht.pdf")
    assert not bar.isVisible()                      # gone while the good one is read
    wait_idle(qtbot, rotary)
    assert not bar.isVisible() and not panel.isVisible()


def test_deleting_the_conversation_from_the_list_takes_its_documents_error_away(
        qtbot, make_app, tmp_path):
    rotary, docs = _app(make_app, qtbot, fail=PasswordProtectedError("protected"))
    bar = rotary.window.notice_bar
    rotary.session.chat.send("Hello")
    wait_idle(qtbot, rotary)
    here = rotary.session.store.conversation_id
    rotary.session.documents.open_file(str(tmp_path / "bad.docx"))
    qtbot.waitUntil(bar.isVisible, timeout=3000)
    assert rotary.session.store.conversation_id == here      # it holds a chat: it stays
    rotary.window.conversations.delete_requested.emit(here)  # the list's Delete, confirmed
    assert not bar.isVisible() and not rotary.history.exists(here)


@pytest.mark.parametrize("language", ["en", "ko"])
def test_the_card_fits_a_640_by_420_window(qtbot, make_app, tmp_path, language):
    """Opening a document widened the window to ~766 px by itself, and "Anything to look
    for?" shrank to "A…"."""
    from app.settings.model import Settings
    rotary = make_app(settings=Settings(first_run_done=True, language=language))
    wait_ready(qtbot, rotary)
    FakeDocuments(rotary.fake["engine"], part_delay=0.3)
    window, panel = rotary.window, rotary.document_widgets.panel
    window.resize(640, 420)
    qtbot.waitUntil(lambda: window.width() == 640, timeout=2000)
    name = "Jahresbericht über die Reisekosten 2026 (final, korrigiert, zweite Fassung).pdf"
    (tmp_path / name).write_bytes(b"%PDF-1.4")
    rotary.session.documents.open_file(str(tmp_path / name))
    qtbot.waitUntil(panel.options.isVisible, timeout=3000)
    qtbot.wait(50)
    assert window.width() == 640
    placeholder = panel.question.fontMetrics().horizontalAdvance(panel.question.placeholderText())
    assert panel.question.width() >= placeholder + 8
    assert panel.title.toolTip() == "Jahresbericht.pdf"           # the engine's name, in full
    assert panel.width() <= rotary.window.chat.width()
    rotary.session.documents.summarize("short")
    qtbot.waitUntil(lambda: panel.bar.maximum() == 3, timeout=3000)
    qtbot.wait(50)
    assert window.width() == 640 and panel.status.width() <= panel.width()
    wait_idle(qtbot, rotary)


def test_while_a_summary_runs_the_card_keeps_what_the_document_holds_not_the_invitation(
        qtbot, make_app, tmp_path):
    rotary, _docs = _app(make_app, qtbot, part_delay=0.3)
    panel = _summarizing(qtbot, rotary, tmp_path / "Jahresbericht.pdf")
    assert "Ask a question" not in panel.found.text()       # no choice to make any more
    assert panel.found.text() and panel.found.text() == panel.overview_line
    wait_idle(qtbot, rotary)


def test_write_again_never_shows_an_empty_line_and_says_what_the_document_holds(
        qtbot, make_app, tmp_path):
    # QA (03h): during Write again the card showed an empty line where the overview goes.
    rotary, docs = _app(make_app, qtbot, part_delay=0.3)
    panel = _summarizing(qtbot, rotary, tmp_path / "Jahresbericht.pdf")
    wait_idle(qtbot, rotary)
    rotary.window.chat.message_widgets[1].regenerate_button.click()
    assert panel.running.isVisibleTo(panel)
    assert panel.found.isVisibleTo(panel) == bool(panel.found.text())     # no empty line
    qtbot.waitUntil(lambda: "Reading part 1" in panel.status.text(), timeout=3000)
    assert panel.found.isVisibleTo(panel) and panel.found.text() == (
        "42 pages, about 31,000 words, read in 3 parts, about 4 minutes on this computer.")
    wait_idle(qtbot, rotary)
    assert len(docs.requests) == 3 and docs.requests[-1].index_path     # indexed again too
