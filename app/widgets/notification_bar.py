"""Shows notices from the NotificationService at the top of the window.

Not a modal dialog: the user can keep reading while a notice is up. Keyboard users
reach the buttons with Tab; screen readers hear the message (assertive for errors).
"""

from __future__ import annotations

from typing import Callable

from PySide6.QtGui import QGuiApplication, QResizeEvent
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QScrollArea, QWidget

from app.widgets.accessibility import announce
from app.text.i18n import tr
from app.widgets.notifications import DiagnosticContext, Notice, copy_details_text


MAX_LINES = 4           # a longer notice scrolls


def _call(callback: Callable[[], object]) -> None:
    """Calling through here keeps the button's ``checked`` argument away from callbacks."""
    callback()


class NotificationBar(QFrame):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.notice: Notice | None = None
        self.context = DiagnosticContext()      # app.__main__ feeds it the loaded recipe
        self.message = QLabel()
        self.message.setWordWrap(True)
        self.message.setAccessibleName(tr("Notice"))
        # A long notice (a line for each of several files) scrolls beyond a few lines
        # rather than squeezing the chat and the document card below it.
        self.scroller = QScrollArea()
        self.scroller.setWidget(self.message)
        self.scroller.setWidgetResizable(True)
        self.scroller.setFrameShape(QFrame.Shape.NoFrame)
        self.scroller.setFocusPolicy(Qt.FocusPolicy.NoFocus)     # Tab goes to the buttons
        self.scroller.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.scroller.setStyleSheet("QScrollArea, QScrollArea > QWidget > QWidget "
                                    "{ background: transparent; }")
        self.copy_button = QPushButton(tr("Copy details"))
        self.copy_button.setAccessibleName(tr("Copy the details of this notice"))
        self.copy_button.clicked.connect(self.copy_details)
        self.close_button = QPushButton(tr("Dismiss"))
        self.close_button.setAccessibleName(tr("Dismiss this notice"))
        self.close_button.clicked.connect(self.dismiss)
        self.row = QHBoxLayout(self)
        self.row.addWidget(self.scroller, 1)
        self.action_buttons: list[QPushButton] = []
        self.row.addWidget(self.copy_button)
        self.row.addWidget(self.close_button)
        self.hide()

    def show_notice(self, notice: Notice) -> None:
        self.notice = notice
        self.setObjectName(f"notice_{notice.level}")
        self.style().unpolish(self)
        self.style().polish(self)
        self.message.setText(notice.message)
        self.copy_button.setVisible(bool(notice.details))
        self._set_actions(notice)
        self.show()
        self._fit_height()
        announce(self, notice.message, polite=notice.level == "info")

    def _set_actions(self, notice: Notice) -> None:
        for button in self.action_buttons:
            self.row.removeWidget(button)
            button.deleteLater()
        self.action_buttons = []
        # Tab reaches them before Copy (the focus chain is a ring: there is always one)
        before = self.copy_button.previousInFocusChain() or self.copy_button
        for action in notice.actions:
            button = QPushButton(action.label)
            button.setAccessibleName(action.label)
            button.clicked.connect(lambda _checked=False, run=action.callback: _call(run))
            button.clicked.connect(self.dismiss)
            self.row.insertWidget(1 + len(self.action_buttons), button)
            QWidget.setTabOrder(before, button)
            before = button
            self.action_buttons.append(button)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit_height()

    def _fit_height(self) -> None:
        """As tall as the message, up to MAX_LINES lines; beyond that it scrolls."""
        width = max(50, self.scroller.viewport().width())
        cap = self.message.fontMetrics().lineSpacing() * MAX_LINES
        self.scroller.setFixedHeight(min(self.message.heightForWidth(width), cap))

    def withdraw(self, notice: Notice) -> None:
        """Hide the bar if it still shows ``notice`` (a newer notice stays up)."""
        if self.notice is notice:
            self.dismiss()

    def details_text(self) -> str:
        if self.notice is None:
            return ""
        return copy_details_text(self.notice, self.context)

    def copy_details(self) -> None:
        QGuiApplication.clipboard().setText(self.details_text())

    def dismiss(self) -> None:
        self.notice = None
        self.hide()
