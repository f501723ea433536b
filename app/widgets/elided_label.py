"""A one-line label that never widens its window (the document card's title, the list of a
conversation's documents)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QLabel, QSizePolicy, QWidget


class ElidedLabel(QLabel):
    """One line that never widens the window: a long file name is cut in the middle
    ("Jahresbericht…final.pdf"), or a line at its end, and the whole text is in the tooltip."""

    def __init__(self, parent: QWidget | None = None, mode: Qt.TextElideMode = Qt.TextElideMode.ElideMiddle) -> None:
        super().__init__(parent)
        self.full_text, self.mode = "", mode
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)

    def setText(self, text: str) -> None:
        self.full_text = text
        self.setToolTip(text)
        self._elide()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._elide()

    def _elide(self) -> None:
        super().setText(self.fontMetrics().elidedText(self.full_text, self.mode, max(0, self.width())))
