"""Labels that keep to their column: one line that never widens its window (the document
card's title, the list of a conversation's documents), and wrapped lines that are never cut
(a refused message's mark)."""

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


class WrappedLabel(QLabel):
    """Wrapped text that is never cut: a word-wrapped label inside a box layout in the chat's
    scroll area gets one line's height (the scroll area sizes by sizeHint, not by
    height-for-width), so it asks for the height its width needs."""

    def __init__(self, text: str = "", parent: QWidget | None = None) -> None:
        super().__init__(text, parent)
        self.setWordWrap(True)

    def setText(self, text: str) -> None:
        super().setText(text)
        self._fit()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit()

    def _fit(self) -> None:
        self.setMinimumHeight(max(0, self.heightForWidth(self.width())))
