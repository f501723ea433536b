"""The document card above the message box, the Attach button and file drops on the chat.

``install_documents`` builds them into the existing chat pane and connects them to a
``DocumentFlow``; the chat pane itself knows nothing about documents.
"""

from __future__ import annotations

from pathlib import Path

import platformdirs
from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (QComboBox, QFileDialog, QFrame, QHBoxLayout, QLabel, QLineEdit,
                               QProgressBar, QPushButton, QSizePolicy, QVBoxLayout, QWidget)

from app.document_flow import SUPPORTED, DocumentFlow
from app.document_text import found_text, preset_titles, words_text
from app.i18n import LANGUAGES, resolve_language, tr
from app.qt_compat import emit


def _button(text: str, accessible: str, slot) -> QPushButton:
    button = QPushButton(text)
    button.setAccessibleName(accessible)
    button.clicked.connect(slot)
    return button


class ElidedLabel(QLabel):
    """One line that never widens the window: a long file name is cut in the middle
    ("Jahresbericht…final.pdf"), and the whole name is in the tooltip."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.full_text = ""
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)

    def setText(self, text: str) -> None:
        self.full_text = text
        self.setToolTip(text)
        self._elide()

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._elide()

    def _elide(self) -> None:
        super().setText(self.fontMetrics().elidedText(self.full_text, Qt.TextElideMode.ElideMiddle,
                                                      max(0, self.width())))


class DocumentPanel(QFrame):
    summarize_requested = Signal(str, str)      # preset name, the user's own request
    cancel_requested = Signal()
    stop_requested = Signal()

    def __init__(self, presets: list[tuple[str, str]], parent=None) -> None:
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
        layout = QVBoxLayout(self)
        for part in (self.title, self.found, self.replacing, self.options, self.running):
            layout.addWidget(part)
        self.here = True                # its conversation is the open one
        self.in_use = False             # something to show (checking, options, progress)
        self.hide()

    def _build_options(self, presets: list[tuple[str, str]]) -> QWidget:
        """Style, question and buttons one under the other: the card fits the chat column
        of a 640-px window (in one row it widened the window and cut the question short)."""
        row = QWidget()
        layout = QVBoxLayout(row)
        layout.setContentsMargins(0, 0, 0, 0)
        self.preset = QComboBox()
        self.preset.setAccessibleName(tr("Kind of summary"))
        self.preset.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.preset.setMinimumContentsLength(8)
        titles = preset_titles()
        for name, title in presets:
            self.preset.addItem(titles.get(name, title), name)
        self.question = QLineEdit()
        self.question.setPlaceholderText(tr("Anything to look for? (optional)"))
        self.question.setAccessibleName(tr("What the summary should focus on"))
        self.question.returnPressed.connect(self._summarize_clicked)
        self.summarize_button = _button(tr("Summarise"), tr("Summarise the document"),
                                        self._summarize_clicked)
        self.cancel_button = _button(tr("Cancel"), tr("Do not summarise this document"),
                                     self._cancel_clicked)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.summarize_button)
        buttons.addWidget(self.cancel_button)
        layout.addWidget(self.preset)
        layout.addWidget(self.question)
        layout.addLayout(buttons)
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

    # Emits go through qt_compat.emit (PySide6 6.12.0), hence these small methods.
    def _summarize_clicked(self) -> None:
        if self.summarize_button.isVisible() and self.summarize_button.isEnabled():
            emit(self.summarize_requested, self.preset.currentData(), self.question.text())

    def _cancel_clicked(self) -> None:
        emit(self.cancel_requested)

    def _stop_clicked(self) -> None:
        emit(self.stop_requested)

    # ---- what the flow says ------------------------------------------------------------

    def show_checking(self, name: str) -> None:
        self.title.setText(name)
        self.found.setText(tr("Looking at the document…"))
        self.options.hide()
        self.running.hide()
        self._reveal()

    def show_overview(self, overview, preset: str = "short", question: str = "",
                      replacing: bool = False) -> None:
        """``replacing``: Edit on a "Document:" message (its summary will be replaced)."""
        self.title.setText(overview.name)
        self.found.setText(overview_text(overview))
        self.replacing.setVisible(replacing)
        self.preset.setCurrentIndex(max(0, self.preset.findData(preset)))
        self.question.setText(question)
        self.options.show()
        self.running.hide()
        self._reveal()
        if self.isVisible():
            self.summarize_button.setFocus()

    def show_started(self, name: str = "") -> None:
        if not self.in_use:             # Write again: no look at the document before
            self.found.setText("")
        if name:
            self.title.setText(name)
        self.options.hide()
        self.replacing.hide()
        self.bar.setRange(0, 0)               # busy until the first part reports
        self.status.setText(tr("Reading the document…"))
        self.running.show()
        self._reveal()

    def _reveal(self) -> None:
        self.in_use = True
        self.setVisible(self.here)

    def set_here(self, here: bool) -> None:
        """Shown only in the conversation the document belongs to."""
        self.here = here
        self.setVisible(here and self.in_use)

    def show_progress(self, event) -> None:
        self.bar.setRange(0, max(1, event.parts))
        self.bar.setValue(event.parts_done)
        left = time_left_text(event.seconds_left)
        self.status.setText(f"{progress_text(event)} {left}".strip())

    def close_panel(self, *_args) -> None:
        self.in_use = False
        self.hide()


def overview_text(overview) -> str:
    """The engine's numbers in the interface's words: "42 pages, about 31,000 words, ..."."""
    found, words = found_text(overview), words_text(overview.words)
    parts = tr("read in one pass") if overview.parts == 1 else \
        tr("read in {n} parts").format(n=overview.parts)
    text = f"{found}, {words}, {parts}"
    if overview.estimated_s >= 0:
        text += ", " + duration_text(overview.estimated_s, overview.on_server)
    text += "."
    if overview.unreadable_pages:
        shown = ", ".join(str(p) for p in overview.unreadable_pages[:10])
        text += " " + tr("Pages without text (probably images) are skipped: {pages}.").format(
            pages=shown + ("…" if len(overview.unreadable_pages) > 10 else ""))
    return text


def duration_text(seconds: float, on_server: bool = False) -> str:
    if on_server:         # the office server's model reads it; the time is measured from here
        return _server_duration_text(seconds)
    if seconds < 45:
        return tr("less than a minute on this computer")
    minutes = max(1, round(seconds / 60))
    if minutes >= 90:
        return tr("about {n} hours on this computer").format(n=f"{seconds / 3600:.1f}")
    return tr("about 1 minute on this computer") if minutes == 1 else \
        tr("about {n} minutes on this computer").format(n=minutes)


def _server_duration_text(seconds: float) -> str:
    if seconds < 45:
        return tr("less than a minute on the office server")
    minutes = max(1, round(seconds / 60))
    if minutes >= 90:
        return tr("about {n} hours on the office server").format(n=f"{seconds / 3600:.1f}")
    return tr("about 1 minute on the office server") if minutes == 1 else \
        tr("about {n} minutes on the office server").format(n=minutes)


def progress_text(event) -> str:
    if event.phase == "reading":
        return tr("Reading part {part} of {parts}…").format(part=event.part, parts=event.parts)
    if event.phase == "combining":
        return tr("Writing the summary from the notes on all {parts} parts…").format(
            parts=event.parts)
    return tr("Reading the whole document and writing the summary…")


def time_left_text(seconds: float) -> str:
    if seconds < 0:
        return ""
    if seconds < 45:
        return tr("Less than a minute left.")
    minutes = max(1, round(seconds / 60))
    return tr("About 1 minute left.") if minutes == 1 else \
        tr("About {n} minutes left.").format(n=minutes)


class FileDropFilter(QObject):
    """Accepts a dropped file on the chat (the message box included) and opens it."""

    def __init__(self, flow: DocumentFlow, parent=None) -> None:
        super().__init__(parent)
        self.flow = flow

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if kind in (QEvent.Type.DragEnter, QEvent.Type.DragMove) and _dropped_file(event):
            event.acceptProposedAction()
            return True
        if kind == QEvent.Type.Drop and _dropped_file(event):
            event.acceptProposedAction()
            self.flow.open_file(_dropped_file(event))
            return True
        return False


def _dropped_file(event) -> str:
    mime = event.mimeData()
    if mime is None or not mime.hasUrls():
        return ""
    files = [url.toLocalFile() for url in mime.urls() if url.isLocalFile()]
    return files[0] if files else ""


def interface_language(choice: str) -> str:
    return LANGUAGES.get(resolve_language(choice), "English")


def install_documents(rotary) -> DocumentFlow:
    """Build the document card, the Attach button and file drops into the chat pane."""
    flow = DocumentFlow(rotary.bridge, rotary.chat, rotary.notices,
                        lambda: interface_language(rotary.settings.current.language), rotary)
    pane = rotary.window.chat
    panel = DocumentPanel(rotary.bridge.summary_presets())
    pane.layout().insertWidget(pane.layout().count() - 1, panel)     # above the message box
    attach = _button(tr("Attach…"), tr("Summarise a document (PDF, Word, text)"),
                     lambda: choose_file(pane, flow))
    pane.button_column.insertWidget(0, attach)
    QShortcut(QKeySequence("Ctrl+O"), pane, lambda: choose_file(pane, flow))
    drops = FileDropFilter(flow, pane)
    for widget in (pane, pane.input, pane.scroll.viewport()):
        widget.setAcceptDrops(True)
        widget.installEventFilter(drops)
    _connect(rotary.bridge, flow, panel)
    pane.document_panel, pane.attach_button, flow.panel = panel, attach, panel
    chain_focus(rotary.window, panel, attach)
    return flow


def chain_focus(window, panel: DocumentPanel, attach: QPushButton) -> None:
    """Tab follows the screen: the conversation, the document card, the message box, Send
    (or Stop), Attach, the notice's buttons, the gauge, then the conversation list."""
    pane, bar, listing = window.chat, window.notice_bar, window.conversations
    order = [pane.scroll, panel.preset, panel.question, panel.summarize_button,
             panel.cancel_button, panel.stop_button, pane.input, pane.send_button,
             pane.stop_button, attach, bar.copy_button, bar.close_button,
             *window.gauge.sections.values(), listing.new_button, listing.search,
             listing.items, listing.rename_button, listing.delete_button, pane.scroll]
    for first, second in zip(order, order[1:]):
        QWidget.setTabOrder(first, second)


def _connect(bridge, flow: DocumentFlow, panel: DocumentPanel) -> None:
    bridge.document_event.connect(flow.on_event)
    bridge.failed.connect(flow.on_failed)
    flow.checking.connect(panel.show_checking)
    flow.overview_ready.connect(lambda overview: panel.show_overview(
        overview, flow.preset, flow.question, flow.replace_from is not None))
    flow.started.connect(panel.show_started)
    flow.progress.connect(panel.show_progress)
    flow.done.connect(panel.close_panel)
    flow.closed.connect(panel.close_panel)
    flow.here_changed.connect(panel.set_here)
    panel.summarize_requested.connect(flow.summarize)
    panel.cancel_requested.connect(flow.dismiss)
    panel.stop_requested.connect(flow.stop)


def start_folder(flow: DocumentFlow) -> str:
    """Where the file chooser opens: the last document's folder, else the user's Documents
    (with "" Qt opens the folder the app was started from: its own install folder)."""
    for folder in (flow.last_folder, platformdirs.user_documents_dir(), str(Path.home())):
        if folder and Path(folder).is_dir():
            return folder
    return ""


def choose_file(parent, flow: DocumentFlow) -> None:
    patterns = " ".join(f"*{suffix}" for suffix in SUPPORTED)
    path, _ = QFileDialog.getOpenFileName(parent, tr("Choose a document to summarise"),
                                          start_folder(flow),
                                          tr("Documents ({patterns})").format(patterns=patterns))
    if path:
        flow.open_file(path)
