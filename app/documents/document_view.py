"""The document card above the message box, the Attach button and file drops on the chat.

``DocumentWidgets`` builds them; the main window places them in the chat pane and
app.wiring connects them to the document session (app.session.session) and its Qt face
(app.documents.document_flow); the chat pane itself knows nothing about documents.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

import platformdirs
from PySide6.QtCore import QEvent, QObject, Signal
from PySide6.QtWidgets import (QComboBox, QFileDialog, QFrame, QHBoxLayout, QLabel, QLineEdit,
                               QProgressBar, QPushButton, QSizePolicy, QVBoxLayout, QWidget)

from engine.api import DocumentOverview, DocumentProgress
from engine.messages import Msg
from app.widgets.accessibility import announce
from app.documents.document_shelf import ConversationDocuments, DocumentShelf
from app.conversation.chat_text import progress_text
from app.documents.document_text import overview_text, title_text
from app.widgets.elided_label import ElidedLabel
from app.session.document_session import SUPPORTED
from app.text.i18n import LANGUAGES, tr
from app.widgets.translation import resolve_language


def _button(text: str, accessible: str, slot: Callable[[], None]) -> QPushButton:
    button = QPushButton(text)
    button.setAccessibleName(accessible)
    button.clicked.connect(slot)
    return button


class DocumentPanel(QFrame):
    summarize_requested = Signal(str, str)      # preset name, the user's own request
    cancel_requested = Signal()
    stop_requested = Signal()

    def __init__(self, presets: list[tuple[str, Msg]], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("documentPanel")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setAccessibleName(tr("Document"))
        self.title = ElidedLabel()
        self.title.setObjectName("documentTitle")
        self.title.setAccessibleName(tr("Document"))
        self.found = QLabel("")
        self.found.setWordWrap(True)
        self.found.setAccessibleName(tr("What was found in the document"))
        self.replacing = QLabel(tr("Summarise replaces this document's earlier summary, and "
                                   "what followed it in the conversation."))
        self.replacing.setWordWrap(True)
        self.replacing.hide()
        self.options = self._build_options(presets)
        self.running = self._build_running()
        self.waiting = self._build_waiting()
        layout = QVBoxLayout(self)
        for part in (self.title, self.found, self.replacing, self.options, self.running,
                     self.waiting):
            layout.addWidget(part)
        self.here = True                # its conversation is the open one
        self.in_use = False             # something to show (checking, options, progress)
        self.overview_line = ""         # what the document holds, said in the card
        self.hide()

    def _build_options(self, presets: list[tuple[str, Msg]]) -> QWidget:
        """Style, question and buttons one under the other: the card fits the chat column
        of a 640-px window (in one row it widened the window and cut the question short)."""
        row = QWidget()
        layout = QVBoxLayout(row)
        layout.setContentsMargins(0, 0, 0, 0)
        self.preset = QComboBox()
        self.preset.setAccessibleName(tr("Kind of summary"))
        self.preset.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.preset.setMinimumContentsLength(5)      # beside the buttons in a 640-px window
        for name, title in presets:
            self.preset.addItem(title_text(title), name)
        self.question = QLineEdit()
        self.question.setPlaceholderText(tr("Anything to look for? (optional)"))
        self.question.setAccessibleName(tr("What the summary should focus on"))
        self.question.returnPressed.connect(self._summarize_clicked)
        self.summarize_button = _button(tr("Summarise"), tr("Summarise the document"),
                                        self._summarize_clicked)
        self.cancel_button = _button(tr("Close"), tr("Close this card; the document stays in "
                                                     "the conversation"), self._cancel_clicked)
        # The question, then the style beside the buttons: one row less (on an 800x600
        # screen the card left the conversation about 95 px).
        buttons = QHBoxLayout()
        buttons.addWidget(self.preset, 1)
        buttons.addWidget(self.summarize_button)
        buttons.addWidget(self.cancel_button)
        layout.addWidget(self.question)
        layout.addLayout(buttons)
        return row

    def _build_waiting(self) -> QWidget:
        row = QWidget()
        layout = QHBoxLayout(row)
        layout.setContentsMargins(0, 0, 0, 0)
        self.drop_button = _button(tr("Don't read"), tr("Don't read the documents waiting for "
                                                        "the model"), self._cancel_clicked)
        layout.addStretch(1)
        layout.addWidget(self.drop_button)
        row.hide()
        return row

    def _build_running(self) -> QWidget:
        row = QWidget()
        layout = QVBoxLayout(row)
        layout.setContentsMargins(0, 0, 0, 0)
        self.bar = QProgressBar()
        self.bar.setAccessibleName(tr("Parts of the document read"))
        self.bar.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        self.status = QLabel("")
        self.status.setWordWrap(True)
        self.status.setAccessibleName(tr("Reading progress"))
        self.stop_button = _button(tr("Stop"), tr("Stop reading; keep what was read so far"),
                                   self._stop_clicked)
        progress = QHBoxLayout()
        progress.addWidget(self.bar, 1)
        progress.addWidget(self.stop_button)
        layout.addWidget(self.status)
        layout.addLayout(progress)
        return row

    # The card's buttons send what the card holds (style, question), not clicked(bool).
    def _summarize_clicked(self) -> None:
        if self.summarize_button.isVisible() and self.summarize_button.isEnabled():
            self.summarize_requested.emit(self.preset.currentData(), self.question.text())

    def _cancel_clicked(self) -> None:
        self.cancel_requested.emit()

    def _stop_clicked(self) -> None:
        self.stop_requested.emit()

    # ---- what the flow says ------------------------------------------------------------

    def show_checking(self, name: str) -> None:
        self.title.setText(name)
        self._say_found(tr("Looking at the document…"))
        self.overview_line = ""
        self.options.hide()
        self.running.hide()
        self.waiting.hide()
        self._reveal()

    def show_waiting(self, names: str, why: str) -> None:
        """Documents attached while the model loads: they wait, and "Don't read" drops them."""
        self.title.setText(names)
        self._say_found(why)
        self.overview_line = ""
        self.options.hide()
        self.running.hide()
        self.replacing.hide()
        self.waiting.show()
        self._reveal()
        announce(self.found, why)

    def show_overview(self, overview: DocumentOverview, preset: str = "short", question: str = "",
                      replacing: bool = False) -> None:
        """``replacing``: Edit on a "Document:" message (its summary will be replaced)."""
        self.title.setText(overview.name)
        self.overview_line = overview_text(overview)
        self._say_found(self.overview_line + "\n" + tr(
            "Ask a question about it below, or choose a summary:"))
        self.replacing.setVisible(replacing)
        self.preset.setCurrentIndex(max(0, self.preset.findData(preset)))
        self.question.setText(question)
        self.options.show()
        self.running.hide()
        self.waiting.hide()
        self._reveal()
        # Focus stays where the user types (MainWindow.keep_typing_focus puts it in
        # the message box): on Summarise, a second Enter started a summary by accident.
        announce(self.found, self.found.text())

    def show_started(self, name: str = "") -> None:
        # what it holds stays; the invitation to choose goes (Write again: no look before,
        # so nothing to say, and no empty line, until the summary's own look: show_read)
        if not self.in_use:
            self.overview_line = ""
        self._say_found(self.overview_line)
        if name:
            self.title.setText(name)
        self.options.hide()
        self.replacing.hide()
        self.waiting.hide()
        self.bar.setRange(0, 0)               # busy until the first part reports
        self.status.setText(tr("Reading the document…"))
        self.running.show()
        self._reveal()

    def show_read(self, overview: DocumentOverview) -> None:
        """The document was read: what it holds, said while its summary is written."""
        self.overview_line = overview_text(overview)
        if not self.running.isHidden():
            self._say_found(self.overview_line)

    def _say_found(self, text: str) -> None:
        self.found.setText(text)
        self.found.setVisible(bool(text))          # an empty line says nothing

    def _reveal(self) -> None:
        self.in_use = True
        self.setVisible(self.here)

    def set_here(self, here: bool) -> None:
        """Shown only in the conversation the document belongs to."""
        self.here = here
        self.setVisible(here and self.in_use)

    def show_progress(self, event: DocumentProgress) -> None:
        self.bar.setRange(0, max(1, event.parts))
        self.bar.setValue(event.parts_done)
        self.status.setText(progress_text(event))
        self.waiting.hide()
        self.running.show()         # also while pictures of pages are read, before the overview

    def escape(self) -> bool:
        """Escape in the window: closes the card while it offers its choices (Close) or
        while documents wait for the model (Don't read); a card that is reading is left to
        the chat's Escape (Stop)."""
        if self.isVisible() and (self.options.isVisible() or self.waiting.isVisible()):
            self._cancel_clicked()
            return True
        return False

    def close_panel(self, *_args: object) -> None:
        self.in_use, self.overview_line = False, ""
        self.waiting.hide()
        self.hide()


class FileDropFilter(QObject):
    """Accepts files dropped on the chat (the message box included): ``files_dropped``."""

    files_dropped = Signal(list)         # local paths, in the order dropped

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if kind in (QEvent.Type.DragEnter, QEvent.Type.DragMove) and _dropped_files(event):
            event.acceptProposedAction()        # type: ignore[attr-defined]
            return True
        if kind == QEvent.Type.Drop and _dropped_files(event):
            event.acceptProposedAction()        # type: ignore[attr-defined]
            self.files_dropped.emit(_dropped_files(event))
            return True
        return False


def _dropped_files(event: QEvent) -> list[str]:
    mime = event.mimeData()                     # type: ignore[attr-defined]
    if mime is None or not mime.hasUrls():
        return []
    return [url.toLocalFile() for url in mime.urls() if url.isLocalFile()]


def interface_language(choice: str) -> str:
    return LANGUAGES.get(resolve_language(choice), "English")


class DocumentWidgets:
    """The document card, the list of the conversation's documents, the Attach button and
    the file-drop filter. The main window places them in the chat pane
    (app.main_window); app.wiring connects them to the session's documents."""

    def __init__(self, presets: list[tuple[str, Msg]]) -> None:
        self.panel = DocumentPanel(presets)
        self.shelf = DocumentShelf()
        self.attach = QPushButton(tr("Attach…"))
        self.attach.setAccessibleName(tr("Add documents to ask about or summarise (PDF, "
                                         "Word, text)"))
        self.drops = FileDropFilter()


def start_folder(last_folder: str) -> str:
    """Where the file chooser opens: the last document's folder, else the user's Documents
    (with "" Qt opens the folder the app was started from: its own install folder)."""
    for folder in (last_folder, platformdirs.user_documents_dir(), str(Path.home())):
        if folder and Path(folder).is_dir():
            return folder
    return ""


def choose_files(parent: QWidget, last_folder: str, shelved: ConversationDocuments) -> None:
    """The file chooser, opened in ``last_folder`` (the last document's, app.session)."""
    patterns = " ".join(f"*{suffix}" for suffix in SUPPORTED)
    paths, _ = QFileDialog.getOpenFileNames(parent, tr("Choose documents"),
                                            start_folder(last_folder),
                                            tr("Documents ({patterns})").format(patterns=patterns))
    if paths:
        shelved.attach(paths)
