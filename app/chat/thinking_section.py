"""The model's thinking above an answer: one line, collapsed, that opens to show it.

While the model thinks the line says "Thinking…"; once the answer begins it says how long
the thinking was ("Thought for 120 words", a catalogue message). Click it, or press Enter
or Space on it, to open or close the text. The thinking is never part of the answer: Copy,
the history's answer text, titles and summaries never hold it (contract B in the briefs).
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QLabel, QSizePolicy, QToolButton, QVBoxLayout, QWidget

from engine.messages import msg
from app.text.i18n import tr
from app.text.messages import say


class _Header(QToolButton):
    """A flat arrow-and-words button; Enter toggles it as Space and a click do."""

    def keyPressEvent(self, event: QKeyEvent) -> None:  # Qt's name
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self.click()
            return
        super().keyPressEvent(event)


class ThinkingSection(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.text, self.done, self.stopped = "", False, False
        self.header = _Header()
        self.header.setObjectName("thinkingHeader")
        self.header.setCheckable(True)
        self.header.setAutoRaise(True)
        self.header.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.header.setArrowType(Qt.ArrowType.RightArrow)
        self.header.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.header.toggled.connect(self._toggled)
        self.body = QLabel()
        self.body.setObjectName("thinkingText")
        self.body.setWordWrap(True)
        self.body.setTextFormat(Qt.TextFormat.PlainText)
        self.body.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse
                                          | Qt.TextInteractionFlag.TextSelectableByKeyboard)
        self.body.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        self.body.setStyleSheet("color: palette(placeholder-text); padding-left: 18px;")
        self.body.setAccessibleName(tr("What the model thought"))
        self.body.hide()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addWidget(self.header, 0, Qt.AlignmentFlag.AlignLeft)
        layout.addWidget(self.body)
        self._update_header()

    @property
    def expanded(self) -> bool:
        return self.header.isChecked()

    def set_text(self, text: str, done: bool, stopped: bool = False) -> None:
        """``stopped``: the thinking reached its budget and the model was steered to answer
        (engine/runtime/conversation/context_window.py): the header says so."""
        self.text, self.done, self.stopped = text, done, stopped
        if self.expanded:
            self.body.setText(text)
        self._update_header()

    def _toggled(self, on: bool) -> None:
        self.header.setArrowType(Qt.ArrowType.DownArrow if on else Qt.ArrowType.RightArrow)
        if on:
            self.body.setText(self.text)
        self.body.setVisible(on)

    def _update_header(self) -> None:
        code = "runtime.thought_for_stopped" if self.stopped else "runtime.thought_for"
        title = say(msg(code, words=len(self.text.split()))) if self.done else tr("Thinking…")
        self.header.setText(title)
        self.header.setAccessibleName(title)
        self.header.setAccessibleDescription(tr("Shows or hides what the model thought "
                                                "before answering"))
