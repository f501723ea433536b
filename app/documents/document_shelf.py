"""The documents of the open conversation: a list above the messages, and several files
dropped or chosen at once, read one after another.

Each file goes through the document card (app/documents/document_flow.py: read, counted, indexed for
questions); once read it is recorded in the history (app/conversation/history.py, conversation_documents)
and listed here with what it holds. "Summarise…" brings the card back for it; its ✕ takes it off
the list (the file and the messages stay); beyond three documents the list scrolls. Questions in the conversation search every
listed document (the chat request carries them: app/session/requests.py).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Protocol

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import (QFrame, QHBoxLayout, QLabel, QPushButton, QScrollArea,
                               QSizePolicy, QToolButton, QVBoxLayout, QWidget)

from engine.api import DocumentOverview, DocumentSummary
from engine.messages import to_data
from app.documents.document_flow import DocumentFlow
from app.documents.document_text import stored_overview_text
from app.widgets.elided_label import ElidedLabel
from app.conversation.history import ConversationDocument, HistoryStore
from app.conversation.store import title_from
from app.text.i18n import tr


_UNSAFE = re.compile(r'[\\/:*?"<>|\x00-\x1f…]')     # not in a file name on any system
VISIBLE_ROWS = 3                  # more documents than this scroll in the list


class DocumentLine(QWidget):
    """A document's name, and under it what it holds: on one line beside the buttons, a
    small window cut what it holds short ("about 3,6…"); each line is cut only when the
    window is narrower still, and the whole text is in the tooltip."""

    def __init__(self, name: str, said: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.full_text = f"{name} — {said}" if said else name
        self.setToolTip(self.full_text)
        self.name = ElidedLabel()                  # a long name is cut in the middle
        self.name.setText(name)
        self.holds = ElidedLabel(mode=Qt.TextElideMode.ElideRight)
        self.holds.setObjectName("documentHolds")
        self.holds.setText(said)
        self.holds.setVisible(bool(said))
        for part in (self.name, self.holds):
            part.setToolTip(self.full_text)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self.name)
        layout.addWidget(self.holds)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)


class DocumentShelf(QFrame):
    """"Documents in this conversation": one line per document, with its Summarise button and
    a ✕ that takes it off the list."""

    summarise_requested = Signal(str)    # path of the document to bring the card back for
    remove_requested = Signal(str)       # sha256 of the document to take off the list

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("documentShelf")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setAccessibleName(tr("Documents in this conversation"))
        self.heading = QLabel(tr("Documents in this conversation (questions search them all):"))
        self.heading.setWordWrap(True)
        holder = QWidget()
        self.rows = QVBoxLayout(holder)
        self.rows.setContentsMargins(0, 0, 0, 0)
        # Many documents scroll here rather than squeezing the messages and the card.
        self.list_area = QScrollArea()
        self.list_area.setWidget(holder)
        self.list_area.setWidgetResizable(True)
        self.list_area.setFrameShape(QFrame.Shape.NoFrame)
        self.list_area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        # Not a Tab stop of its own (it showed no focus and had no name): its buttons are.
        self.list_area.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 4, 8, 4)
        layout.addWidget(self.heading)
        layout.addWidget(self.list_area)
        self.labels: list[DocumentLine] = []
        self.remove_buttons: list[QToolButton] = []
        self.hide()

    def show_documents(self, documents: list[ConversationDocument]) -> None:
        while self.rows.count():
            item = self.rows.takeAt(0)
            widget = None if item is None else item.widget()
            if widget is not None:
                widget.deleteLater()
        self.labels, self.remove_buttons = [], []
        rows = [self._row(document) for document in documents]
        for row in rows:
            self.rows.addWidget(row)
        shown = rows[:VISIBLE_ROWS]          # one line each, so the height is known exactly
        self.list_area.setFixedHeight(sum(row.sizeHint().height() for row in shown)
                                      + self.rows.spacing() * max(0, len(shown) - 1))
        self.setVisible(bool(documents))

    def _row(self, document: ConversationDocument) -> QWidget:
        row = QWidget()
        layout = QHBoxLayout(row)
        layout.setContentsMargins(0, 0, 0, 0)
        label = DocumentLine(document.name, stored_overview_text(document.overview))
        label.setAccessibleName(tr("Document {name}").format(name=document.name))
        button = QPushButton(tr("Summarise…"))
        button.setAccessibleName(tr("Summarise {name}").format(name=document.name))
        button.clicked.connect(lambda _=False, path=document.path: self.summarise_requested.emit(path))
        remove = QToolButton()             # a small ✕, as on a mail's attachment: the row stays narrow
        remove.setText("✕")
        remove.setAccessibleName(tr("Remove {name} from this conversation").format(name=document.name))
        remove.setToolTip(tr("Remove {name} from this conversation").format(name=document.name) + "\n"
                          + tr("Questions will no longer search it. The file itself is not deleted."))
        remove.clicked.connect(lambda _=False, sha=document.sha256: self.remove_requested.emit(sha))
        layout.addWidget(label, 1)
        layout.addWidget(button)
        layout.addWidget(remove)
        self.labels.append(label)
        self.remove_buttons.append(remove)
        return row


class OpenConversation(Protocol):
    """The chat as the list sees it: which conversation is open."""

    @property
    def conversation_id(self) -> int | None: ...


class ConversationDocuments(QObject):
    """Keeps the shelf in step with the open conversation; reads dropped files in turn.
    app.wiring.connect_document_shelf connects it to the flow, the chat and the shelf."""

    def __init__(self, flow: DocumentFlow, chat: OpenConversation, history: HistoryStore,
                 shelf: DocumentShelf, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.flow, self.chat, self.history, self.shelf = flow, chat, history, shelf
        self.waiting: list[str] = []

    def attach(self, paths: list[str]) -> bool:
        """Read ``paths`` one after another into the open conversation (or a new one)."""
        if not paths:
            return False
        if self.flow.waits_for_model():     # a moment after the wizard's Finish
            self.flow.hold(paths)
            return True
        self.waiting = list(paths)
        # Several files: each one's outcome is said on its own line once all were tried.
        self.flow.outcomes = [] if len(paths) > 1 else None
        self._next()
        return self.flow.path is not None

    def attach_text(self, text: str, folder: Path, key: str) -> bool:
        """A message's text (refused as too long to read as a message) as a document of the
        open conversation: written to a text file under ``folder``/``key`` (named after its
        first line, as the conversation list names it) and read like a dropped file."""
        name = _UNSAFE.sub(" ", title_from(text)).strip(" .") or "message"
        path = folder / key / f"{name[:60]}.txt"
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        except OSError as error:
            self.flow.notices.warning(tr("The text could not be saved as a document."),
                                      repr(error))
            return False
        return self.attach([str(path)])

    def read_held(self, *_ready: object) -> None:
        """The model is ready: the documents attached while it loaded are read now."""
        self.attach(self.flow.release())

    def remove(self, sha256: str) -> None:
        """Off the open conversation's list: questions no longer search it."""
        if self.chat.conversation_id is not None:
            self.history.remove_document(self.chat.conversation_id, sha256)
        self.refresh()

    def refresh(self, *_opened: object) -> None:
        self.shelf.show_documents(self.history.documents(self.chat.conversation_id))

    def read(self, overview: DocumentOverview) -> None:
        """The flow read a document: it joins the open conversation's list; on to the next."""
        conversation = self.flow.conversation_id
        if conversation is not None and overview.sha256 and self.flow.path:
            self.history.add_document(conversation, ConversationDocument(
                overview.sha256, overview.name, str(Path(self.flow.path)),
                {"found": to_data(overview.found) if overview.found else None,
                 "notes": [to_data(note) for note in overview.notes]}))
        self.refresh()
        self._next()

    def failed_or_finished(self, summary: DocumentSummary | None) -> None:
        if summary is None:           # this file failed (the notice says why): on to the next
            self._next()
        self.refresh()

    def _next(self) -> None:
        while self.waiting:
            if self.flow.open_file(self.waiting.pop(0)):
                return
        self._say_outcomes()

    def _say_outcomes(self) -> None:
        """One notice for files attached together: a line for each, read or why not."""
        outcomes, self.flow.outcomes = self.flow.outcomes, None
        failed = [name for name, problem in outcomes or () if problem]
        if not failed:
            return                      # all read: the list above the messages shows them
        lines = [tr("{name}: read.").format(name=name) if not problem
                 else tr("{name}: not read. {why}").format(name=name, why=problem)
                 for name, problem in outcomes or ()]
        head = tr("{failed} of {count} files could not be read:").format(
            failed=len(failed), count=len(outcomes or ()))
        self.flow.problem = self.flow.notices.warning("\n".join([head, *lines]))
