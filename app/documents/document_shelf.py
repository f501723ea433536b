"""The documents of the open conversation: a list above the messages.

Files dropped or chosen (several at once are read one after another: app/session/document_queue.py)
go through the document card (app/session/document_session.py: read, counted, indexed for
questions); once read each is recorded in the history (app/conversation/history.py,
conversation_documents) and listed here with what it holds. "Summarise…" brings the card back for it; its ✕ takes it off
the list (the file and the messages stay); beyond three documents the list scrolls. Questions in the conversation search every
listed document (the chat request carries them: app/session/requests.py).
"""

from __future__ import annotations

from pathlib import Path
from typing import Protocol

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import (QFrame, QHBoxLayout, QLabel, QPushButton, QScrollArea,
                               QSizePolicy, QToolButton, QVBoxLayout, QWidget)

from app.documents.document_text import stored_overview_text
from app.widgets.elided_label import ElidedLabel
from app.conversation.history import ConversationDocument, HistoryStore
from app.session.document_queue import DocumentQueue
from app.text.i18n import tr


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
    """Keeps the shelf in step with the open conversation (app.wiring connects it to the
    document card's Qt face, the chat and the shelf); files attached go to the session's queue
    (app.session.document_queue), which reads them in turn."""

    def __init__(self, queue: DocumentQueue[object], chat: OpenConversation,
                 history: HistoryStore, shelf: DocumentShelf,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.queue, self.chat, self.history, self.shelf = queue, chat, history, shelf

    def attach(self, paths: list[str]) -> bool:
        """Read ``paths`` one after another into the open conversation (or a new one)."""
        return self.queue.attach(paths)

    def attach_text(self, text: str, folder: Path, key: str) -> bool:
        """A message's text refused as too long, as a document of the open conversation."""
        return self.queue.attach_text(text, folder, key)

    def remove(self, sha256: str) -> None:
        """Off the open conversation's list: questions no longer search it."""
        if self.chat.conversation_id is not None:
            self.history.remove_document(self.chat.conversation_id, sha256)
        self.refresh()

    def refresh(self, *_opened: object) -> None:
        self.shelf.show_documents(self.history.documents(self.chat.conversation_id))
