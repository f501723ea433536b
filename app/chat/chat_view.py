"""The chat pane: messages, the input box, send/stop, copy, edit and regenerate.

Each message is its own widget (app.chat.message_widget), so while an answer streams only that
widget changes, and at most every ``RENDER_INTERVAL_MS`` (tokens arrive far faster than
anyone reads).
"""

from __future__ import annotations

from typing import Callable

from PySide6.QtCore import QEvent, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QGuiApplication, QKeyEvent, QKeySequence, QShortcut, QTextCursor
from PySide6.QtWidgets import (QFrame, QHBoxLayout, QLabel, QPlainTextEdit, QScrollArea,
                               QVBoxLayout, QWidget)

from engine.api import StopReason
from app.widgets.accessibility import StreamAnnouncer, announce
from app.conversation.history import StoredMessage
from app.text.i18n import tr
from app.chat.message_widget import (MessageWidget, failed_status, push_button, show_refused,
                                     status_for, stored_status, thinking_stopped)

RENDER_INTERVAL_MS = 80
COLUMN_MAX_WIDTH = 860      # messages read as one column, not lines across a wide screen
COLUMN_MARGIN = 20
CONVERSATION_MIN_HEIGHT = 110    # px: on an 800x600 screen it shrank to ~95 with a document open
# Colours, sizes and the visible focus ring are in resources/styles/rotary.qss (app.widgets.theme),
# found by these object names.


class ChatPane(QWidget):
    send_requested = Signal(str)
    edit_send_requested = Signal(int, str)
    document_edit_requested = Signal(int)     # Edit on a "Document:" message
    stop_requested = Signal()
    regenerate_requested = Signal()
    queued_cancel_requested = Signal()        # "Don't send" on the waiting message
    attach_text_requested = Signal(int)       # a refused message's text, as a document

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.message_widgets: list[MessageWidget] = []
        self.streaming: MessageWidget | None = None
        self.editing_index: int | None = None
        self.busy = False
        self.follow_end = True          # keep the latest message in view
        # Asked first on Escape (the document card closes); True: Escape was used.
        self.escape_handlers: list[Callable[[], bool]] = []
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
        self.scroll_area = QScrollArea()
        self.scroll_area.setWidgetResizable(True)
        self.scroll_area.setAccessibleName(tr("Conversation"))
        self.scroll_area.setObjectName("conversation")
        # The document card and the list above it never squeeze the conversation away.
        self.scroll_area.setMinimumHeight(CONVERSATION_MIN_HEIGHT)
        self.column = QWidget()
        self.column.setObjectName("conversationColumn")
        self.column_layout = QVBoxLayout(self.column)
        self.column_layout.setSpacing(12)
        self.column_layout.addStretch(1)
        self.column.installEventFilter(self)
        self._centre_column()
        self.scroll_area.setWidget(self.column)
        bar = self.scroll_area.verticalScrollBar()
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
        # A long line ("Reading 15 passages from …", two documents) would widen the window.
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
        layout.addWidget(self.scroll_area, 1)
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
        self.queued_cancel = push_button(tr("Don't send"),
                                         tr("Don't send the waiting message; put it back in "
                                            "the message box"),
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
        self.send_button = push_button(tr("Send"), tr("Send the message"), self._send,
                                       "primaryButton")
        self.stop_button = push_button(tr("Stop"), tr("Stop writing the answer"),
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
        if watched is self.input and isinstance(event, QKeyEvent) \
                and event.type() == QEvent.Type.KeyPress:
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
                               is_document=bool(message.stats.document))
        widget.show_status(stored_status(message))
        show_refused(widget, message)
        widget.set_thinking(message.thinking, True, thinking_stopped(message))
        widget.attach_requested.connect(self.attach_text_requested)
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
                    else self.scroll_area)
        for part in widget.focus_order():
            QWidget.setTabOrder(previous, part)
            previous = part

    def update_message(self, index: int, message: StoredMessage) -> None:
        """A message shown while it was still being written has ended, or one was marked
        (refused as too long, then attached as a document)."""
        if 0 <= index < len(self.message_widgets):
            widget = self.message_widgets[index]
            widget.show_final(message.content)
            widget.set_thinking(message.thinking, True, thinking_stopped(message))
            widget.show_status(stored_status(message))
            show_refused(widget, message)

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
            widget.show_status(failed_status(message) if reason == StopReason.FAILED
                               else status_for(reason))
            if message.thinking:
                widget.set_thinking(message.thinking, True, thinking_stopped(message))
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
            self.scroll_area.verticalScrollBar().setValue(maximum)

    def _scrolled(self, value: int) -> None:
        self.follow_end = value >= self.scroll_area.verticalScrollBar().maximum() - 40

    def _scroll_to_end(self) -> None:
        bar = self.scroll_area.verticalScrollBar()
        bar.setValue(bar.maximum())


def _window_marker() -> QLabel:
    marker = QLabel(tr("Earlier messages are no longer sent to the model: its memory "
                       "begins here."))
    marker.setObjectName("windowMarker")
    marker.setWordWrap(True)
    marker.setAlignment(Qt.AlignmentFlag.AlignCenter)
    marker.setAccessibleName(marker.text())
    marker.hide()
    return marker


def _announcement_for(reason: str) -> str:
    return tr("Answer stopped.") if reason in (StopReason.STOPPED, StopReason.RELOADED,
                                               StopReason.CLOSED) \
        else tr("Answer finished.")
