"""The message box and what sits beside and above it: Send and Stop, the line that says what
the assistant is doing, a message waiting to be sent, and editing an earlier message.

The chat pane (app.chat.chat_view) holds it below the conversation; the controller hears what
the user sends through its signals (app.wiring.connect_chat).
"""

from __future__ import annotations

from typing import Callable

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtGui import QKeyEvent, QKeySequence, QShortcut, QTextCursor
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPlainTextEdit, QVBoxLayout, QWidget

from app.widgets.accessibility import announce
from app.text.i18n import tr
from app.chat.message_widget import push_button


class Composer(QWidget):
    send_requested = Signal(str)
    edit_send_requested = Signal(int, str)
    stop_requested = Signal()
    queued_cancel_requested = Signal()        # "Don't send" on the waiting message

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.editing_index: int | None = None
        # Asked first on Escape (the document card closes); True: Escape was used.
        self.escape_handlers: list[Callable[[], bool]] = []
        self.phase = QLabel("")
        self.phase.setObjectName("phase")
        # A long line ("Reading 15 passages from …", two documents) would widen the window.
        self.phase.setWordWrap(True)
        self.phase.setAccessibleName(tr("What the assistant is doing"))
        # app.main_window puts the document card between the waiting message and the box.
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.phase)
        layout.addWidget(self._build_queued_note())
        layout.addLayout(self._build_input_row())
        QShortcut(QKeySequence(Qt.Key.Key_Escape), self, self._escape)

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
        # The buttons stack beside the message box, so a narrow window still leaves it wide;
        # app.main_window puts Attach… at the top of this column.
        self.button_column = QVBoxLayout()
        self.button_column.addWidget(self.send_button)
        self.button_column.addWidget(self.stop_button)
        self.button_column.addStretch(1)
        row = QHBoxLayout()
        row.addWidget(self.input, 1)
        row.addLayout(self.button_column)
        return row

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.input and isinstance(event, QKeyEvent) \
                and event.type() == QEvent.Type.KeyPress:
            plain_enter = (event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter)
                           and not event.modifiers() & Qt.KeyboardModifier.ShiftModifier)
            if plain_enter:
                self._send()
                return True
        return super().eventFilter(watched, event)

    # ---- what the user does -------------------------------------------------------------

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
            self.clear()
        elif any(handler() for handler in self.escape_handlers):
            return
        elif self.stop_button.isVisible():
            self.stop_requested.emit()

    def begin_edit(self, index: int, text: str) -> None:
        """Message ``index`` back in the box; Send now sends it in its place."""
        self.editing_index = index
        self.input.setPlainText(text)
        self.send_button.setText(tr("Send edited message"))
        self.phase.setText(tr("Editing an earlier message. Press Escape to cancel."))
        self.input.setFocus()

    def clear(self) -> None:
        """An empty box, not editing: the message was taken, the edit cancelled, or another
        conversation opened."""
        was_editing, self.editing_index = self.editing_index is not None, None
        self.input.clear()
        self.send_button.setText(tr("Send"))
        if was_editing:     # else the line says what the message just sent is waiting for
            self.phase.setText("")

    def draft(self) -> str:
        """The unsent text a conversation keeps when the user leaves it (an edit is none)."""
        return "" if self.editing_index is not None else self.input.toPlainText()

    def restore_draft(self, text: str) -> None:
        """A conversation's unsent text, back in the box it was opened with (emptied)."""
        if text:
            self.input.setPlainText(text)
            self.input.moveCursor(QTextCursor.MoveOperation.End)

    # ---- what the controller says ---------------------------------------------------------

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

    def set_phase(self, text: str) -> None:
        """What the assistant is doing, unless the line says an edit is under way."""
        if self.editing_index is None:
            self.phase.setText(text)

    def set_busy(self, busy: bool) -> None:
        """Stop in place of Send while an answer is written; the box has the focus after."""
        self.stop_button.setVisible(busy)
        self.send_button.setVisible(not busy)
        if not busy and not self.input.hasFocus() and self.isActiveWindow():
            self.input.setFocus()

    def set_ready(self, ready: bool) -> None:
        self.send_button.setEnabled(ready)
