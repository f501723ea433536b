"""One message in the chat pane: the user's bubble or the assistant's column, its text,
status line and actions (Copy, Edit, Write again), and the words its status line says.

While an answer streams, finished paragraphs are appended to the text document once and
only the open tail is replaced, so Qt re-lays out a few blocks, not the whole answer.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Callable

from PySide6.QtCore import QEvent, QObject, QSize, QSizeF, Qt, Signal, SignalInstance
from PySide6.QtGui import QEnterEvent, QResizeEvent, QTextBlockFormat, QTextCharFormat, QTextCursor
from PySide6.QtWidgets import (QApplication, QFrame, QGraphicsOpacityEffect, QHBoxLayout,
                               QLabel, QPushButton, QSizePolicy, QTextBrowser, QVBoxLayout,
                               QWidget)

from engine.api import StopReason
from app.conversation.history import INTERRUPTED, WRITING, StoredMessage
from app.text.i18n import tr
from app.widgets.markdown_render import StreamingMarkdown
from app.widgets.elided_label import WrappedLabel
from app.widgets.theme import is_dark

if TYPE_CHECKING:
    from app.chat.thinking_section import ThinkingSection

BUBBLE_SHARE = 0.8          # a user's bubble takes at most this share of the column
BUBBLE_PADDING = 10         # pixels of bubble around its text

Slot = Callable[[], object] | SignalInstance     # what a button's click calls or emits


def push_button(text: str, accessible: str, slot: Slot, name: str = "") -> QPushButton:
    button = QPushButton(text)
    button.setAccessibleName(accessible)
    button.setObjectName(name)
    button.clicked.connect(slot)
    return button


def _action(text: str, accessible: str, slot: Slot) -> QPushButton:
    """A quiet text button under a message (Copy, Edit, Write again)."""
    button = push_button(text, accessible, slot, "messageAction")
    button.setCursor(Qt.CursorShape.PointingHandCursor)
    return button


class MessageBody(QTextBrowser):
    """Read-only rich text that grows to fit its document (no inner scroll bar) and is
    selectable and readable with the keyboard."""

    bubble = False      # (set before __init__ runs: Qt sends change events from it)

    def __init__(self, parent: QWidget | None = None, bubble: bool = False) -> None:
        super().__init__(parent)
        self.setOpenLinks(False)        # a link in an answer never opens by itself
        self.setOpenExternalLinks(False)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setTabChangesFocus(True)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.viewport().setAutoFillBackground(False)
        self.tail_start = 0
        # A bubble (the user's message) is as wide as its text, up to max_bubble_width;
        # Ignored: its width never pushes the column (or the window) wider.
        self.bubble, self.max_bubble_width = bubble, 0
        self._natural: tuple[tuple[int, str], int] = ((-1, ""), 0)  # (revision, font), width
        if bubble:
            self.setObjectName("userBody")
            self.document().setDocumentMargin(BUBBLE_PADDING)
        self.setSizePolicy(QSizePolicy.Policy.Ignored if bubble else QSizePolicy.Policy.Expanding,
                           QSizePolicy.Policy.Fixed)
        self.document().documentLayout().documentSizeChanged.connect(self._fit_height)

    def _fit_height(self, size: QSizeF) -> None:
        self.setFixedHeight(math.ceil(size.height()) + 2 * self.frameWidth() + 2)

    def natural_width(self) -> int:
        """The width of the text laid out without wrapping (its widest line)."""
        # The style sheet's font arrives when the widget is first polished: key on it too.
        key = (self.document().revision(), self.document().defaultFont().key())
        if self._natural[0] != key:
            unwrapped = self.document().clone(self)
            unwrapped.setTextWidth(-1)
            width = math.ceil(unwrapped.idealWidth()) + 2 * self.frameWidth() + 2
            unwrapped.deleteLater()
            self._natural = (key, width)
        return self._natural[1]

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange and self.bubble:
            self.updateGeometry()

    def sizeHint(self) -> QSize:
        hint = super().sizeHint()
        if self.bubble:
            width = self.natural_width()
            hint.setWidth(min(width, self.max_bubble_width) if self.max_bubble_width else width)
        return hint

    def set_all(self, html: str) -> None:
        self.setHtml(html)
        self.tail_start = self._end()

    def append_finished(self, html: str) -> None:
        """Replace the open tail with newly finished blocks; they are never redrawn.
        The tail then starts in a fresh plain block, or it would merge into the last
        finished block (e.g. become part of a list item)."""
        cursor = self._replace_tail(html)
        cursor.insertBlock(QTextBlockFormat(), QTextCharFormat())
        self.tail_start = self._end()

    def set_tail(self, html: str) -> None:
        self._replace_tail(html)

    def _replace_tail(self, html: str) -> QTextCursor:
        cursor = QTextCursor(self.document())
        cursor.setPosition(min(self.tail_start, self._end()))
        cursor.movePosition(QTextCursor.MoveOperation.End, QTextCursor.MoveMode.KeepAnchor)
        cursor.removeSelectedText()
        # The emptied block keeps the old tail's list/format; without this reset, the
        # new tail's first list item would join the old list and the rest start a new one.
        if cursor.currentList() is not None:
            cursor.currentList().remove(cursor.block())
        cursor.setBlockFormat(QTextBlockFormat())
        cursor.insertHtml(html)
        self._drop_empty_start_block()
        return cursor

    def _drop_empty_start_block(self) -> None:
        """A tail that opens with a list leaves the plain block it was inserted into
        empty, which would show as a blank line: remove it."""
        block = self.document().findBlock(self.tail_start)
        following = block.next()
        # Never across into a table (code blocks): that would delete part of it.
        if (block.length() == 1 and following.isValid()
                and QTextCursor(following).currentTable() is None):
            cursor = QTextCursor(block)
            cursor.setPosition(following.position(), QTextCursor.MoveMode.KeepAnchor)
            cursor.removeSelectedText()

    def _end(self) -> int:
        return self.document().characterCount() - 1


class MessageWidget(QFrame):
    """One message: the user's as a quiet bubble on the right, the assistant's as a plain
    column. Its actions (Copy, Edit, Write again) show while the mouse is over it or the
    keyboard is in it, and always on the last message; hidden, they keep their place in
    the Tab order and their accessible names.

    ``content_layout`` (the widget's own QVBoxLayout) holds, top to bottom: the speaker,
    then ``body`` – a section such as the thinking one goes just above it, at
    ``content_layout.indexOf(self.body)`` – then the status line and the actions.
    """

    copy_requested = Signal(str)
    edit_requested = Signal(int)
    regenerate_requested = Signal()
    attach_requested = Signal(int)      # a refused message's text, as a document instead

    def __init__(self, index: int, role: str, text: str = "", parent: QWidget | None = None,
                 is_document: bool = False) -> None:
        super().__init__(parent)
        self.index, self.role = index, role
        self.is_document = is_document      # a "Document:" message: Edit opens its card
        self.markdown = StreamingMarkdown(is_dark())
        self.markdown.append(text)
        self.setObjectName("userMessage" if role == "user" else "answerMessage")
        self.speaker = QLabel(tr("You") if role == "user" else tr("Assistant"))
        self.speaker.setObjectName("speaker")
        if role == "user":          # the bubble's side says who wrote it
            self.speaker.hide()
        self.body = self._make_body()
        self.status = QLabel("")
        self.status.setObjectName("messageStatus")
        self.status.setWordWrap(True)
        self.status.setAccessibleName(tr("Answer status"))
        self.status.hide()
        self.buttons = self._make_buttons()
        self.refused = self._make_refused()
        self.thinking_section: ThinkingSection | None = None     # made when first needed
        self._hovered = self._focus_inside = self._pinned = False
        self._fade = QGraphicsOpacityEffect(self.buttons)
        self.buttons.setGraphicsEffect(self._fade)
        self._show_actions()
        side = Qt.AlignmentFlag.AlignRight if role == "user" else Qt.AlignmentFlag(0)
        self.content_layout = QVBoxLayout(self)
        self.content_layout.setContentsMargins(0, 0, 0, 0)
        self.content_layout.setSpacing(4)
        for part in (self.speaker, self.body, self.refused, self.status, self.buttons):
            self.content_layout.addWidget(part, 0, side)
        self.show_final(text)

    def _make_body(self) -> MessageBody:
        body = MessageBody(bubble=self.role == "user")
        body.setAccessibleName(self.speaker.text())
        body.installEventFilter(self)
        return body

    def _make_refused(self) -> QFrame:
        """Under a message refused as too long, for good (the notice that said so is soon
        replaced): the model did not read it; its text can go in as a document instead."""
        row = QFrame()
        row.setObjectName("refusedNote")
        self.refused_text = WrappedLabel()
        self.refused_text.setAccessibleName(tr("Not read by the model"))
        self.attach_button = push_button(tr("Attach as a document"),
                                         tr("Attach this message's text to the conversation "
                                            "as a document, so that questions can be asked "
                                            "about it"), self._attach_clicked)
        layout = QHBoxLayout(row)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.refused_text, 1)
        layout.addWidget(self.attach_button)
        row.hide()
        return row

    def show_refused(self, refused: bool, attached: bool = False) -> None:
        """The mark of a message too long to read (``attached``: its text is a document now)."""
        self.refused_text.setText(
            tr("⚠ Not read: too long for the model's memory. Its text is attached as a "
               "document instead.") if attached else
            tr("⚠ Not read: too long for the model's memory."))
        self.attach_button.setVisible(refused and not attached)
        self.refused.setVisible(refused)

    def _make_buttons(self) -> QWidget:
        row = QWidget()
        layout = QHBoxLayout(row)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        if self.role == "user":         # under the bubble, on the right
            layout.addStretch(1)
        self.copy_button = _action(tr("Copy"), tr("Copy this message"), self._copy_clicked)
        layout.addWidget(self.copy_button)
        if self.role == "user":
            self.edit_button = _action(tr("Edit"), tr("Edit this message and send it again"),
                                       self._edit_clicked)
            layout.addWidget(self.edit_button)
            # Shown only on a last question left without an answer (stopped early).
            self.regenerate_button = _action(tr("Write again"),
                                             tr("Write an answer to this message"),
                                             self._regenerate_clicked)
        else:
            self.regenerate_button = _action(tr("Write again"), tr("Write this answer again"),
                                             self._regenerate_clicked)
        layout.addWidget(self.regenerate_button)
        if self.role != "user":
            layout.addStretch(1)
        for button in row.findChildren(QPushButton):
            button.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
            button.installEventFilter(self)
        return row

    def focus_order(self) -> list[QWidget]:
        parts = [self.body, self.copy_button]
        if self.role == "user":            # Tab skips the offer while it is hidden
            parts = [self.body, self.attach_button, self.copy_button, self.edit_button]
        return parts + [self.regenerate_button]

    # ---- actions on hover and focus ----------------------------------------------------------

    def actions_shown(self) -> bool:
        """Whether Copy/Edit/Write again are drawn now (they are always in the Tab order)."""
        return self._fade.opacity() > 0

    def set_actions_pinned(self, pinned: bool) -> None:
        """The last message shows its actions without the mouse over it."""
        self._pinned = pinned
        self._show_actions()

    def _show_actions(self) -> None:
        # Drawn or not, the row keeps its place: nothing below moves when the mouse passes.
        shown = self._hovered or self._focus_inside or self._pinned
        self._fade.setOpacity(1.0 if shown else 0.0)

    def enterEvent(self, event: QEnterEvent) -> None:
        super().enterEvent(event)
        self._hovered = True
        self._show_actions()

    def leaveEvent(self, event: QEvent) -> None:
        super().leaveEvent(event)
        self._hovered = False
        self._show_actions()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() in (QEvent.Type.FocusIn, QEvent.Type.FocusOut):
            # By FocusOut, the application's focus widget is already the new one.
            focus = QApplication.focusWidget()
            self._focus_inside = focus is not None and self.isAncestorOf(focus)
            self._show_actions()
        return super().eventFilter(watched, event)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if self.role == "user":
            self.body.max_bubble_width = int(self.width() * BUBBLE_SHARE)
            self.body.updateGeometry()

    # A button's clicked(bool) would pass its checked state on: these send what the bubble knows.
    def _copy_clicked(self) -> None:
        self.copy_requested.emit(self.text)

    def _edit_clicked(self) -> None:
        self.edit_requested.emit(self.index)

    def _regenerate_clicked(self) -> None:
        self.regenerate_requested.emit()

    def _attach_clicked(self) -> None:
        self.attach_requested.emit(self.index)

    @property
    def text(self) -> str:
        return self.markdown.text

    def append(self, piece: str) -> None:
        self.markdown.append(piece)

    def refresh(self) -> None:
        """Show text added since the last refresh (cheap: see MessageBody)."""
        for finished in self.markdown.take_finished_blocks():   # one by one: one rendering
            self.body.append_finished(finished)
        self.body.set_tail(self.markdown.tail_html())

    def show_final(self, text: str) -> None:
        """The answer is complete: flush what is left, and describe it for readers."""
        if text != self.markdown.text:          # the engine's final text differs: redo all
            self.markdown = StreamingMarkdown(is_dark())
            self.markdown.append(text)
            self.body.set_all("")
        self.refresh()
        self.body.setAccessibleDescription(text)
        self.body.updateGeometry()              # a bubble is as wide as its text

    def set_streaming(self, streaming: bool) -> None:
        self.buttons.setVisible(not streaming)

    def set_thinking(self, text: str, done: bool, stopped: bool = False) -> None:
        """The model's thinking, collapsed above the answer (app.chat.thinking_section); made on
        first use, in the layout slot just above the body. Never part of ``text``.
        ``stopped``: its thinking budget ran out and it was steered to answer."""
        section = self.thinking_section
        if section is None:
            if not text:
                return
            from app.chat.thinking_section import ThinkingSection  # noqa: PLC0415 - rare part
            section = self.thinking_section = ThinkingSection(self)
            self.content_layout.insertWidget(self.content_layout.indexOf(self.body), section)
        section.set_text(text, done, stopped)

    def show_status(self, text: str) -> None:
        self.status.setText(text)
        self.status.setVisible(bool(text))


# ---- what a message's status line says ----------------------------------------------------

def thinking_stopped(message: StoredMessage) -> bool:
    return message.stats.thinking_stopped


def show_refused(widget: MessageWidget, message: StoredMessage) -> None:
    """A message refused as too long keeps its mark, after a restart too (its stats)."""
    widget.show_refused(message.stats.too_long, message.stats.attached_as_document)


def status_for(reason: str) -> str:
    words: dict[str, str] = {
        StopReason.STOPPED: tr("You stopped this answer."),
        StopReason.RELOADED: tr("Stopped when the model was changed."),
        StopReason.CLOSED: tr("Stopped when Rotary was closed."),
        StopReason.LENGTH: tr("The answer reached its length limit."),
        StopReason.LOOP: tr("The model began repeating itself, so Rotary stopped it; the "
                            "repeats are left out."),
        StopReason.FAILED: tr("This answer was not finished. See the notice at the top.")}
    return words.get(reason, "")


def stored_status(message: StoredMessage) -> str:
    if message.status == INTERRUPTED:
        return tr("This answer was cut off when Rotary closed unexpectedly.")
    if message.status == WRITING:
        return tr("This answer is still being written…")
    if message.stats.stop_reason == StopReason.FAILED:
        return failed_status(message)
    return status_for(message.stats.stop_reason) if message.role == "assistant" \
        else ""


def failed_status(message: StoredMessage) -> str:
    """Why the answer was not finished, kept with it (the notice can be dismissed)."""
    why = message.stats.failed_because
    return tr("This answer was not finished: {why}").format(why=why) if why \
        else tr("This answer was not finished.")
