"""The chat pane: messages, the input box, send/stop, copy, edit and regenerate.

Each message is its own widget, so while an answer streams only that widget changes,
and at most every ``RENDER_INTERVAL_MS`` (tokens arrive far faster than anyone reads).
Inside it, finished paragraphs are appended to the text document once and only the
open tail is replaced, so Qt re-lays out a few blocks, not the whole answer.
"""

from __future__ import annotations

import math

from PySide6.QtCore import QEvent, QObject, QSize, Qt, QTimer, Signal
from PySide6.QtGui import (QGuiApplication, QKeySequence, QShortcut, QTextBlockFormat,
                           QTextCharFormat, QTextCursor)
from PySide6.QtWidgets import (QApplication, QFrame, QGraphicsOpacityEffect, QHBoxLayout,
                               QLabel, QPlainTextEdit, QPushButton, QScrollArea, QSizePolicy,
                               QTextBrowser, QVBoxLayout, QWidget)

from engine.api import StopReason
from app.accessibility import StreamAnnouncer, announce
from app.history import INTERRUPTED, WRITING, StoredMessage
from app.i18n import tr
from app.markdown_render import StreamingMarkdown
from app.theme import is_dark

RENDER_INTERVAL_MS = 80
BUBBLE_SHARE = 0.8          # a user's bubble takes at most this share of the column
BUBBLE_PADDING = 10         # pixels of bubble around its text
COLUMN_MAX_WIDTH = 860      # messages read as one column, not lines across a wide screen
COLUMN_MARGIN = 20
# Colours, sizes and the visible focus ring are in resources/styles/rotary.qss (app.theme),
# found by these object names.


def _button(text: str, accessible: str, slot, name: str = "") -> QPushButton:
    button = QPushButton(text)
    button.setAccessibleName(accessible)
    button.setObjectName(name)
    button.clicked.connect(slot)
    return button


def _action(text: str, accessible: str, slot) -> QPushButton:
    """A quiet text button under a message (Copy, Edit, Write again)."""
    button = _button(text, accessible, slot, "messageAction")
    button.setCursor(Qt.CursorShape.PointingHandCursor)
    return button


CONVERSATION_MIN_HEIGHT = 110    # px: on an 800x600 screen it shrank to ~95 with a document open

class MessageBody(QTextBrowser):
    """Read-only rich text that grows to fit its document (no inner scroll bar) and is
    selectable and readable with the keyboard."""

    bubble = False      # (set before __init__ runs: Qt sends change events from it)

    def __init__(self, parent=None, bubble: bool = False) -> None:
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

    def _fit_height(self, size) -> None:
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

    def changeEvent(self, event) -> None:
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

    def __init__(self, index: int, role: str, text: str = "", parent=None,
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
        self._hovered = self._focus_inside = self._pinned = False
        self._fade = QGraphicsOpacityEffect(self.buttons)
        self.buttons.setGraphicsEffect(self._fade)
        self._show_actions()
        side = Qt.AlignmentFlag.AlignRight if role == "user" else Qt.AlignmentFlag(0)
        self.content_layout = QVBoxLayout(self)
        self.content_layout.setContentsMargins(0, 0, 0, 0)
        self.content_layout.setSpacing(4)
        for part in (self.speaker, self.body, self.status, self.buttons):
            self.content_layout.addWidget(part, 0, side)
        self.show_final(text)

    def _make_body(self) -> MessageBody:
        body = MessageBody(bubble=self.role == "user")
        body.setAccessibleName(self.speaker.text())
        body.installEventFilter(self)
        return body

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
        if self.role == "user":
            parts.append(self.edit_button)
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

    def enterEvent(self, event) -> None:
        super().enterEvent(event)
        self._hovered = True
        self._show_actions()

    def leaveEvent(self, event) -> None:
        super().leaveEvent(event)
        self._hovered = False
        self._show_actions()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() in (QEvent.Type.FocusIn, QEvent.Type.FocusOut):
            # By FocusOut, the application's focus widget is already the new one.
            self._focus_inside = self.isAncestorOf(QApplication.focusWidget())
            self._show_actions()
        return super().eventFilter(watched, event)

    def resizeEvent(self, event) -> None:
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
        """The model's thinking, collapsed above the answer (app.thinking_section); made on
        first use, in the layout slot just above the body. Never part of ``text``.
        ``stopped``: its thinking budget ran out and it was steered to answer."""
        section = getattr(self, "thinking_section", None)
        if section is None:
            if not text:
                return
            from app.thinking_section import ThinkingSection  # noqa: PLC0415 - rare part
            section = self.thinking_section = ThinkingSection(self)
            layout = self.layout()
            layout.insertWidget(layout.indexOf(self.body), section)
        section.set_text(text, done, stopped)

    def show_status(self, text: str) -> None:
        self.status.setText(text)
        self.status.setVisible(bool(text))


class ChatPane(QWidget):
    send_requested = Signal(str)
    edit_send_requested = Signal(int, str)
    document_edit_requested = Signal(int)     # Edit on a "Document:" message
    stop_requested = Signal()
    regenerate_requested = Signal()
    queued_cancel_requested = Signal()        # "Don't send" on the waiting message

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.message_widgets: list[MessageWidget] = []
        self.streaming: MessageWidget | None = None
        self.editing_index: int | None = None
        self.busy = False
        self.follow_end = True          # keep the latest message in view
        # Asked first on Escape (the document card closes); True: Escape was used.
        self.escape_handlers: list = []
        self.render_timer = QTimer(self, singleShot=True, interval=RENDER_INTERVAL_MS)
        self.render_timer.timeout.connect(self._render_streaming)
        self.announcer = StreamAnnouncer(self)
        self._build()
        QTimer.singleShot(0, self._prewarm)

    def _prewarm(self) -> None:
        # PySide6 builds its Python enum types on first use (~35 ms for a message bubble);
        # pay that once after the window shows, not on the user's first send.
        MessageWidget(0, "assistant", "*warm*\n\n```\nx\n```").deleteLater()

    # ---- layout -------------------------------------------------------------------------

    def _build(self) -> None:
        self.scroll = QScrollArea()
        self.scroll.setWidgetResizable(True)
        self.scroll.setAccessibleName(tr("Conversation"))
        self.scroll.setObjectName("conversation")
        # The document card and the list above it never squeeze the conversation away.
        self.scroll.setMinimumHeight(CONVERSATION_MIN_HEIGHT)
        self.column = QWidget()
        self.column.setObjectName("conversationColumn")
        self.column_layout = QVBoxLayout(self.column)
        self.column_layout.setSpacing(12)
        self.column_layout.addStretch(1)
        self.column.installEventFilter(self)
        self._centre_column()
        self.scroll.setWidget(self.column)
        bar = self.scroll.verticalScrollBar()
        bar.rangeChanged.connect(self._range_changed)
        bar.valueChanged.connect(self._scrolled)
        self.empty_hint = QLabel(tr("Type a message below and press Enter to send it."))
        self.empty_hint.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty_hint.setWordWrap(True)       # a narrow window shows no sideways scroll bar
        self.empty_hint.setObjectName("emptyHint")
        # Alone in an empty conversation it takes (nearly) all the height: centred.
        self.column_layout.insertWidget(0, self.empty_hint, 100)
        self.window_marker = _window_marker()
        self.phase = QLabel("")
        self.phase.setObjectName("phase")
        # "Reading 15 passages from …" (two documents) widened the window past the screen.
        self.phase.setWordWrap(True)
        self.phase.setAccessibleName(tr("What the assistant is doing"))
        self.model_warning = QLabel("")
        self.model_warning.setObjectName("modelWarning")
        self.model_warning.setWordWrap(True)
        self.model_warning.setAccessibleName(tr("About this model"))
        self.model_warning.hide()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)     # an 800x600 screen needs every line
        layout.addWidget(self.model_warning)
        layout.addWidget(self.scroll, 1)
        layout.addWidget(self.phase)
        layout.addWidget(self._build_queued_note())
        layout.addLayout(self._build_input_row())

    def _build_queued_note(self) -> QFrame:
        """A message sent while the answer is written waits here, said until it goes, with
        "Don't send" to take it back into the box."""
        self.queued_note = QFrame()
        self.queued_note.setObjectName("queuedNote")
        self.queued_text = QLabel("")
        self.queued_text.setWordWrap(True)          # a long question must not widen the window
        self.queued_text.setAccessibleName(tr("Message waiting to be sent"))
        self.queued_cancel = _button(tr("Don't send"), tr("Don't send the waiting message; "
                                                          "put it back in the message box"),
                                     self.queued_cancel_requested)
        row = QHBoxLayout(self.queued_note)
        row.setContentsMargins(8, 4, 8, 4)
        row.addWidget(self.queued_text, 1)
        row.addWidget(self.queued_cancel)
        self.queued_note.hide()
        return self.queued_note

    def _build_input_row(self) -> QHBoxLayout:
        self.input = QPlainTextEdit()
        self.input.setObjectName("messageInput")
        self.input.setAccessibleName(tr("Message"))
        self.input.setAccessibleDescription(tr("Enter sends the message; Shift+Enter starts "
                                               "a new line."))
        self.input.setPlaceholderText(tr("Write your message…"))
        self.input.setTabChangesFocus(True)
        self.input.setMaximumHeight(90)
        self.input.setMinimumHeight(56)           # three lines; less where the screen is small
        self.input.installEventFilter(self)
        self.send_button = _button(tr("Send"), tr("Send the message"), self._send,
                                   "primaryButton")
        self.stop_button = _button(tr("Stop"), tr("Stop writing the answer"),
                                   self.stop_requested, "stopButton")
        self.stop_button.hide()
        QShortcut(QKeySequence(Qt.Key.Key_Escape), self, self._escape)
        # The buttons stack beside the message box, so a narrow window still leaves it wide;
        # document_view puts Attach… at the top of this column.
        self.button_column = QVBoxLayout()
        self.button_column.addWidget(self.send_button)
        self.button_column.addWidget(self.stop_button)
        self.button_column.addStretch(1)
        row = QHBoxLayout()
        row.addWidget(self.input, 1)
        row.addLayout(self.button_column)
        return row

    def _centre_column(self) -> None:
        """Messages read as one column of at most COLUMN_MAX_WIDTH, centred in a wide
        window (margins, not a maximum width: nothing here can widen the window)."""
        side = max(COLUMN_MARGIN, (self.column.width() - COLUMN_MAX_WIDTH) // 2)
        if self.column_layout.contentsMargins().left() != side:
            self.column_layout.setContentsMargins(side, 16, side, 16)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.column:
            if event.type() == QEvent.Type.Resize:
                self._centre_column()
            return False
        if watched is self.input and event.type() == QEvent.Type.KeyPress:
            plain_enter = (event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter)
                           and not event.modifiers() & Qt.KeyboardModifier.ShiftModifier)
            if plain_enter:
                self._send()
                return True
        return super().eventFilter(watched, event)

    # ---- user actions --------------------------------------------------------------------

    def _send(self) -> None:
        text = self.input.toPlainText().strip()
        if not text or not self.send_button.isEnabled():
            return
        if self.editing_index is not None:
            self.edit_send_requested.emit(self.editing_index, text)
        else:
            self.send_requested.emit(text)

    def _escape(self) -> None:
        """Cancels an edit first (the user is in it), then closes a card above the box
        (escape_handlers); a second Escape stops the answer."""
        if self.editing_index is not None:
            self.cancel_edit()
        elif any(handler() for handler in self.escape_handlers):
            return
        elif self.stop_button.isVisible():
            self.stop_requested.emit()

    def begin_edit(self, index: int) -> None:
        if self.message_widgets[index].is_document:     # its style and question, not text
            self.document_edit_requested.emit(index)
            return
        self.editing_index = index
        self.input.setPlainText(self.message_widgets[index].text)
        self.send_button.setText(tr("Send edited message"))
        self.phase.setText(tr("Editing an earlier message. Press Escape to cancel."))
        self.input.setFocus()

    def cancel_edit(self) -> None:
        was_editing, self.editing_index = self.editing_index is not None, None
        self.input.clear()
        self.send_button.setText(tr("Send"))
        if was_editing:     # else the line says what the message just sent is waiting for
            self.phase.setText("")

    def accept_sent(self) -> None:
        """The controller took the message: clear the box."""
        self.cancel_edit()

    @staticmethod
    def copy(text: str) -> None:
        QGuiApplication.clipboard().setText(text)

    # ---- drawing what the controller says --------------------------------------------------

    def show_conversation(self, messages: list[StoredMessage]) -> None:
        self.cancel_edit()
        self._remove_from(0)
        self.follow_end = True          # open at the latest messages
        for index, message in enumerate(messages):
            self.add_message(index, message)
        self._scroll_to_end()

    def add_message(self, index: int, message: StoredMessage) -> MessageWidget:
        widget = MessageWidget(index, message.role, message.content,
                               is_document=bool(message.stats.get("document")))
        widget.show_status(_stored_status(message))
        widget.set_thinking(message.thinking, True, _thinking_stopped(message))
        widget.copy_requested.connect(self.copy)
        widget.edit_requested.connect(self.begin_edit)
        widget.regenerate_requested.connect(self.regenerate_requested)
        self.column_layout.insertWidget(self.column_layout.count() - 1, widget)
        self._chain_focus(widget)
        self.message_widgets.append(widget)
        self.empty_hint.hide()
        self._update_regenerate_buttons()
        return widget

    def _chain_focus(self, widget: MessageWidget) -> None:
        """Tab reads the conversation in order, each text then its buttons, and goes on
        to the message box: insert the new message after the previous one's last button."""
        previous = (self.message_widgets[-1].focus_order()[-1] if self.message_widgets
                    else self.scroll)
        for part in widget.focus_order():
            QWidget.setTabOrder(previous, part)
            previous = part

    def update_message(self, index: int, message: StoredMessage) -> None:
        """A message shown while it was still being written has ended."""
        if 0 <= index < len(self.message_widgets):
            widget = self.message_widgets[index]
            widget.show_final(message.content)
            widget.set_thinking(message.thinking, True, _thinking_stopped(message))
            widget.show_status(_stored_status(message))

    def show_queued(self, text: str) -> None:
        """What the waiting message waits for ("": none waits here)."""
        if text != self.queued_text.text():
            announce(self.queued_text, text)        # a screen reader hears it waits
        self.queued_text.setText(text)
        self.queued_note.setVisible(bool(text))

    def take_back(self, text: str) -> None:
        """The waiting message back in the box, unless the user has begun another there."""
        if text and not self.input.toPlainText().strip():
            self.input.setPlainText(text)
            self.input.moveCursor(QTextCursor.MoveOperation.End)
        self.input.setFocus()

    def set_model_warning(self, text: str) -> None:
        """Plain words about the loaded model (e.g. a base model), shown above the chat."""
        self.model_warning.setText(text)
        self.model_warning.setVisible(bool(text))

    def start_answer(self, index: int) -> None:
        self.follow_end = True          # a new question and its answer come into view
        self._scroll_to_end()
        self.streaming = self.add_message(index, StoredMessage("assistant", ""))
        self.streaming.set_streaming(True)
        self.announcer.reset()

    def add_piece(self, piece: str) -> None:
        if self.streaming is None:
            return
        if not self.streaming.text:
            self.streaming.show_status("")      # its text now says it
        self.streaming.append(piece)
        self.announcer.add(piece)
        if not self.render_timer.isActive():
            self.render_timer.start()

    def _render_streaming(self) -> None:
        if self.streaming is not None:
            self.streaming.refresh()

    def finish_answer(self, index: int, message: StoredMessage, reason: str) -> None:
        widget, self.streaming = self.streaming, None
        self.render_timer.stop()
        if widget is None:
            return
        if not message.content:
            self._remove_from(index)
        else:
            widget.show_final(message.content)
            widget.set_streaming(False)
            widget.show_status(_failed_status(message) if reason == StopReason.FAILED
                               else _status_for(reason))
            if message.thinking:
                widget.set_thinking(message.thinking, True, _thinking_stopped(message))
        self.announcer.finish(_announcement_for(reason))
        self._update_regenerate_buttons()

    def truncate(self, index: int) -> None:
        self._remove_from(index)
        self._update_regenerate_buttons()

    def show_window_start(self, index: int) -> None:
        """A quiet line above message ``index``: the model no longer sees what is above it
        (older turns slid out of its memory). 0, or no such message: no line."""
        marker = self.window_marker
        self.column_layout.removeWidget(marker)
        if not 0 < index < len(self.message_widgets):
            marker.hide()
            return
        at = self.column_layout.indexOf(self.message_widgets[index])
        self.column_layout.insertWidget(at, marker)
        marker.show()

    def set_busy(self, busy: bool) -> None:
        self.busy = busy
        self._update_regenerate_buttons()
        self.stop_button.setVisible(busy)
        self.send_button.setVisible(not busy)
        if not busy and not self.input.hasFocus() and self.isActiveWindow():
            self.input.setFocus()

    def set_ready(self, ready: bool) -> None:
        self.send_button.setEnabled(ready)

    def set_phase(self, text: str) -> None:
        if self.editing_index is None:
            self.phase.setText(text)
        # An answer with no text yet says what it waits for in its own box, too: one line,
        # cut at the box's edge (the line below the conversation has all of it).
        if self.streaming is not None and not self.streaming.text:
            width = max(120, self.streaming.body.width())
            self.streaming.show_status(self.streaming.status.fontMetrics().elidedText(
                text, Qt.TextElideMode.ElideRight, width))

    def _remove_from(self, index: int) -> None:
        removed = self.message_widgets[index:]
        if self.streaming in removed:           # never keep a pointer to a deleted bubble
            self.streaming = None
            self.render_timer.stop()
        for widget in removed:
            self.column_layout.removeWidget(widget)
            widget.deleteLater()
        del self.message_widgets[index:]
        self.empty_hint.setVisible(not self.message_widgets)

    def _update_regenerate_buttons(self) -> None:
        """Only the last message can be written again: the last answer, or the last
        question when it has no answer (stopped before any text)."""
        last = len(self.message_widgets) - 1
        for index, widget in enumerate(self.message_widgets):
            widget.regenerate_button.setVisible(index == last and not self.busy)
            widget.set_actions_pinned(index == last)

    def _range_changed(self, _minimum: int, maximum: int) -> None:
        if self.follow_end:
            self.scroll.verticalScrollBar().setValue(maximum)

    def _scrolled(self, value: int) -> None:
        self.follow_end = value >= self.scroll.verticalScrollBar().maximum() - 40

    def _scroll_to_end(self) -> None:
        bar = self.scroll.verticalScrollBar()
        bar.setValue(bar.maximum())


def _thinking_stopped(message: StoredMessage) -> bool:
    return bool(message.stats.get("thinking_stopped"))


def _window_marker() -> QLabel:
    marker = QLabel(tr("Earlier messages are no longer sent to the model: its memory "
                       "begins here."))
    marker.setObjectName("windowMarker")
    marker.setWordWrap(True)
    marker.setAlignment(Qt.AlignmentFlag.AlignCenter)
    marker.setAccessibleName(marker.text())
    marker.hide()
    return marker


def _status_for(reason: str) -> str:
    return {StopReason.STOPPED: tr("You stopped this answer."),
            StopReason.RELOADED: tr("Stopped when the model was changed."),
            StopReason.CLOSED: tr("Stopped when Rotary was closed."),
            StopReason.LENGTH: tr("The answer reached its length limit."),
            StopReason.FAILED: tr("This answer was not finished. See the notice at the top.")
            }.get(reason, "")


def _stored_status(message: StoredMessage) -> str:
    if message.status == INTERRUPTED:
        return tr("This answer was cut off when Rotary closed unexpectedly.")
    if message.status == WRITING:
        return tr("This answer is still being written…")
    if message.stats.get("stop_reason") == StopReason.FAILED:
        return _failed_status(message)
    return _status_for(message.stats.get("stop_reason", "")) if message.role == "assistant" \
        else ""


def _failed_status(message: StoredMessage) -> str:
    """Why the answer was not finished, kept with it (the notice can be dismissed)."""
    why = message.stats.get("failed_because", "")
    return tr("This answer was not finished: {why}").format(why=why) if why \
        else tr("This answer was not finished.")


def _announcement_for(reason: str) -> str:
    return tr("Answer stopped.") if reason in (StopReason.STOPPED, StopReason.RELOADED,
                                               StopReason.CLOSED) \
        else tr("Answer finished.")
