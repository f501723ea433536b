"""What the app's document tests share: a scripted document run on the fake engine
(``FakeDocuments``), a file dropped on a widget (``drop``), the app with a scripted document
model (``app_with_documents``) and two small PDFs whose answers are known."""

from __future__ import annotations

import time

from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QApplication

from engine.api import (Citation, DocumentFinished, DocumentInspected, DocumentOverview,
                        DocumentProgress, DocumentSummary, RequestFailed)
from engine.messages import msg
from tests.app.conftest import wait_ready
from tests.app.fakes import FakeScript
from tests.scripted_model import ScriptedModel
from tests.support.document_samples import write_pdf

PAGES = msg("documents.pages", n=42)
FOUND = msg("documents.found", found=PAGES, words=msg("documents.words_about", n=31000))
OVERVIEW = DocumentOverview(
    name="Jahresbericht.pdf", kind="pdf", pages=42, sections=42, words=31000, tokens=40000,
    parts=3, model_calls=4, estimated_s=240.0, unreadable_pages=(), from_cache=False,
    message=msg("documents.overview_timed", found=FOUND, how=msg("documents.read_parts", n=3),
                duration=msg("documents.here.minutes", n=4)), found=FOUND)


def read_note(parts: int, parts_read: int, partial: bool, amount=PAGES):
    how = msg("documents.in_parts", n=parts) if parts > 1 else msg("documents.in_one_pass")
    if not partial:
        return msg("documents.note.all", found=amount, how=how)
    if parts_read == parts:
        return msg("documents.note.all_unfinished", found=amount, how=how)
    if parts_read == 0:
        return msg("documents.note.none", found=amount)
    return msg("documents.note.partial", done=parts_read, parts=parts, found=amount)


class FakeDocuments:
    """Scripted DocumentRequest handling on the fake engine's listener, from a thread."""

    def __init__(self, engine, fail=None, part_delay=0.05):
        self.engine, self.fail, self.part_delay, self.requests = engine, fail, part_delay, []
        engine.documents = self._run      # runs on the fake engine's thread, in its turn

    def _run(self, request, stop):
        self.requests.append(request)
        emit, rid, cid = self.engine.listener, request.request_id, request.conversation_id
        if self.fail is not None:
            emit(RequestFailed(rid, self.fail))
            return
        emit(DocumentInspected(rid, cid, OVERVIEW))
        if request.inspect_only:
            return
        done = 0
        for part in range(1, 4):
            if stop.is_set():
                break
            emit(DocumentProgress(rid, cid, "reading", part, 3, part - 1, 180.0 - 60 * part,
                                  msg("documents.progress.part", part=part, parts=3),
                                  msg("documents.left.minutes", n=3 - part)))
            time.sleep(self.part_delay)
            done = part
        partial = done < 3
        body = "Travel costs rose [pages 1–14]."
        text = ("Partial summary: stopped before the end.\n\n" if partial else "") + \
            body + "\n\nRead all of it (42 pages) in 3 parts."
        citations = tuple(Citation(f"pages {14 * p - 13}–{14 * p}", tuple(range(14 * p - 13, 14 * p + 1)),
                                   "notes") for p in range(1, done + 1))
        emit(DocumentFinished(rid, cid, OVERVIEW, DocumentSummary(
            text=text, partial=partial, parts=3, parts_read=done, tokens=40000,
            tokens_read=done * 13000, model_calls=done + (not partial),
            read_note=read_note(3, done, partial),
            citations=citations, preset=request.preset, body=body)))


def drop(widget, *paths):
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(p)) for p in paths])
    point = QPointF(widget.rect().center())
    enter = QDragEnterEvent(point.toPoint(), Qt.DropAction.CopyAction, mime,
                            Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(widget, enter)
    drop = QDropEvent(point, Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton,
                      Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(widget, drop)
    return enter.isAccepted(), drop.isAccepted()


def budget_pdf(path):
    return write_pdf(path, [["Budget overview", "Nothing to see on page one."],
                            ["The travel budget for 2026 is 48,250 EUR."],
                            ["Staff numbers are stable."]])


def contracts_pdf(path):
    return write_pdf(path, [["Contracts"], ["The printer contract with Kyocera ends on "
                                            "30 June 2027."]])


def app_with_documents(make_app, qtbot, answers=()):
    model = ScriptedModel(list(answers))
    rotary = make_app(script=FakeScript(document_model=model))
    wait_ready(qtbot, rotary)
    return rotary, model
