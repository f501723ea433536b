"""The chat pane: the conversation (copy, edit, write again) above the message box
(app.chat.composer).

Each message is its own widget (app.chat.message_widget), so while an answer streams only that
widget changes, and at most every ``RENDER_INTERVAL_MS`` (tokens arrive far faster than
anyone reads).
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QLabel, QScrollArea, QVBoxLayout, QWidget

from engine.api import StopReason
from app.widgets.accessibility import StreamAnnouncer
from app.conversation.history import StoredMessage
from app.text.i18n import tr
from app.chat.composer import Composer
from app.chat.message_widget import (MessageWidget, failed_status, show_refused,
                                     status_for, stored_status, thinking_stopped)

RENDER_INTERVAL_MS = 80
COLUMN_MAX_WIDTH = 860      # messages read as one column, not lines across a wide screen
COLUMN_MARGIN = 20
CONVERSATION_MIN_HEIGHT = 110    # px: on an 800x600 screen it shrank to ~95 with a document open
# Colours, sizes and the visible focus ring are in resources/styles/rotary.qss (app.widgets.theme),
# found by these object names.


class ConversationScroll(QScrollArea):
    """The conversation's scroll area: one centred column, and the latest message kept in
    view until the user scrolls up to read."""

    def __init__(self) -> None:
        super().__init__()
        self.follow_end = True
        self.setWidgetResizable(True)
        self.setAccessibleName(tr("Conversation"))
        self.setObjectName("conversation")
        # The document card and the list above it never squeeze the conversation away.
        self.setMinimumHeight(CONVERSATION_MIN_HEIGHT)
        self.column = QWidget()
        self.column.setObjectName("conversationColumn")
        self.column_layout = QVBoxLayout(self.column)
        self.column_layout.setSpacing(12)
        self.column_layout.addStretch(1)
        self.column.installEventFilter(self)
        self._centre_column()
        self.setWidget(self.column)
        bar = self.verticalScrollBar()
        bar.rangeChanged.connect(self._range_changed)
        bar.valueChanged.connect(self._scrolled)

    def _centre_column(self) -> None:
        """Messages read as one column of at most COLUMN_MAX_WIDTH, centred in a wide
        window (margins, not a maximum width: nothing here can widen the window)."""
        side = max(COLUMN_MARGIN, (self.column.width() - COLUMN_MAX_WIDTH) // 2)
        if self.column_layout.contentsMargins().left() != side:
            self.column_layout.setContentsMargins(side, 16, side, 16)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        # The column, not the area: a scroll bar that comes or goes narrows it too.
        if watched is self.column and event.type() == QEvent.Type.Resize:
            self._centre_column()
        return super().eventFilter(watched, event)

    def keep_end_in_view(self) -> None:
        """The latest message in view, and kept there as the conversation grows."""
        self.follow_end = True
        bar = self.verticalScrollBar()
        bar.setValue(bar.maximum())

    def _range_changed(self, _minimum: int, maximum: int) -> None:
        if self.follow_end:
            self.verticalScrollBar().setValue(maximum)

    def _scrolled(self, value: int) -> None:
        self.follow_end = value >= self.verticalScrollBar().maximum() - 40


class ChatPane(QWidget):
    """The conversation above the message box (app.chat.composer): what the controller says
    is drawn here, one MessageWidget a message."""
    document_edit_requested = Signal(int)     # Edit on a "Document:" message
    regenerate_requested = Signal()
    attach_text_requested = Signal(int)       # a refused message's text, as a document

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.message_widgets: list[MessageWidget] = []
        self.streaming: MessageWidget | None = None
        self.busy = False
        self.render_timer = QTimer(self, singleShot=True, interval=RENDER_INTERVAL_MS)
        self.render_timer.timeout.connect(self._render_streaming)
        self.announcer = StreamAnnouncer(self)
        self._build()
        QTimer.singleShot(0, self._prewarm)

    def _prewarm(self) -> None:
        # PySide6 builds its Python enum types on first use (~35 ms for a message bubble);
        # pay that once after the window shows, not on the user's first send.
        MessageWidget(0, "assistant", "*warm*\n\n```\nx\n```").deleteLater()

    def _build(self) -> None:
        self.scroll_area = ConversationScroll()
        self.column_layout = self.scroll_area.column_layout     # the messages go in here
        self.empty_hint = QLabel(tr("Type a message below and press Enter to send it."))
        self.empty_hint.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty_hint.setWordWrap(True)       # a narrow window shows no sideways scroll bar
        self.empty_hint.setObjectName("emptyHint")
        # Alone in an empty conversation it takes (nearly) all the height: centred.
        self.column_layout.insertWidget(0, self.empty_hint, 100)
        self.window_marker = _window_marker()
        self.model_warning = QLabel("")
        self.model_warning.setObjectName("modelWarning")
        self.model_warning.setWordWrap(True)
        self.model_warning.setAccessibleName(tr("About this model"))
        self.model_warning.hide()
        self.composer = Composer()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)     # an 800x600 screen needs every line
        layout.addWidget(self.model_warning)
        layout.addWidget(self.scroll_area, 1)
        layout.addWidget(self.composer)

    def begin_edit(self, index: int) -> None:
        """Edit on a message: its text into the box; a document's style and question are
        edited on its card instead."""
        widget = self.message_widgets[index]
        if widget.is_document:
            self.document_edit_requested.emit(index)
        else:
            self.composer.begin_edit(index, widget.text)

    @staticmethod
    def copy(text: str) -> None:
        QGuiApplication.clipboard().setText(text)

    # ---- drawing what the controller says --------------------------------------------------

    def show_conversation(self, messages: list[StoredMessage]) -> None:
        self.composer.clear()
        self._remove_from(0)
        for index, message in enumerate(messages):
            self.add_message(index, message)
        self.scroll_area.keep_end_in_view()     # open at the latest messages

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

    def set_model_warning(self, text: str) -> None:
        """Plain words about the loaded model (e.g. a base model), shown above the chat."""
        self.model_warning.setText(text)
        self.model_warning.setVisible(bool(text))

    def start_answer(self, index: int) -> None:
        self.scroll_area.keep_end_in_view()     # a new question and its answer come into view
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
        """No Write again while an answer is written (the composer shows Stop)."""
        self.busy = busy
        self._update_regenerate_buttons()

    def set_phase(self, text: str) -> None:
        """An answer with no text yet says what it waits for in its own box: one line, cut
        at the box's edge (the composer's line above the message box has all of it)."""
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
