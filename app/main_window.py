"""The main window: conversations on the left, the chat in the middle, live numbers on
the right, notices on top. It only arranges widgets; behaviour is wired in app.wiring."""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QAction, QGuiApplication, QKeySequence
from PySide6.QtWidgets import (QFrame, QLabel, QMainWindow, QScrollArea, QSizePolicy, QSplitter,
                               QVBoxLayout, QWidget)

from app.chat_view import ChatPane
from app.conversation_list import ConversationList
from app.gauge import GaugeWidget
from app.i18n import tr
from app.loading import LoadingPanel
from app.notification_bar import NotificationBar
from app.theme import window_icon


SIDE_SHARE = 0.2       # at most this share of the width for each side column
DEFAULT_SIZE = (1180, 760)


class MainWindow(QMainWindow):
    closed = Signal()

    def __init__(self) -> None:
        super().__init__()
        self.setWindowTitle(tr("Rotary"))
        self.setAccessibleName(tr("Rotary"))
        self.setWindowIcon(window_icon())
        self.resize(*_first_size())
        self.notice_bar = NotificationBar()
        self.conversations = ConversationList()
        self.chat = ChatPane()
        self.loading = LoadingPanel()
        self.gauge = GaugeWidget()
        self.model_label = QLabel(tr("No model loaded"))
        self.model_label.setAccessibleName(tr("Current model"))
        # A long model name is cut at the window's edge instead of widening the window.
        self.model_label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.statusBar().addPermanentWidget(self.model_label, 1)
        self._build()
        self.actions: dict[str, QAction] = {}
        self._build_menus()

    def _build(self) -> None:
        middle = QWidget()
        middle_layout = QVBoxLayout(middle)
        middle_layout.setContentsMargins(0, 0, 0, 0)
        # Notices sit above the chat only: one that appears never moves the conversation
        # list (a click meant for one conversation landed on the next).
        middle_layout.addWidget(self.notice_bar)
        middle_layout.addWidget(self.loading)
        middle_layout.addWidget(self.chat, 1)
        splitter = self.splitter = QSplitter(Qt.Orientation.Horizontal)
        for part, stretch in ((self.conversations, 0), (middle, 1), (self._gauge_column(), 0)):
            splitter.addWidget(part)
            splitter.setStretchFactor(splitter.count() - 1, stretch)
            splitter.setCollapsible(splitter.count() - 1, False)
        splitter.setSizes([230, 680, 270])
        central = QWidget()
        layout = QVBoxLayout(central)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(splitter, 1)
        self.setCentralWidget(central)

    def _gauge_column(self) -> QScrollArea:
        """The side panel scrolls where the window is short (on an 800x600 screen its
        sentences would be cut off at the bottom) instead of squeezing its sections."""
        column = QScrollArea()
        column.setWidget(self.gauge)
        column.setWidgetResizable(True)
        column.setFrameShape(QFrame.Shape.NoFrame)
        column.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        column.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        column.setMinimumWidth(self.gauge.MIN_WIDTH)
        self.gauge.setMinimumWidth(self.gauge.MIN_WIDTH - 12)    # beside its scroll bar
        column.setMaximumWidth(self.gauge.MAX_WIDTH)
        column.setStyleSheet("QScrollArea, QScrollArea > QWidget > QWidget "
                             "{ background: transparent; }")
        return column

    def balance_columns(self) -> None:
        """The chat stays the widest column: on every resize each side column gets a fifth
        of the width, within its own limits, and the chat the rest (a drag in between is
        kept until the next resize)."""
        handles = sum(self.splitter.handle(i).width() for i in (1, 2))
        total = self.splitter.width() - handles
        if total <= 0:
            return
        side = total * SIDE_SHARE
        left = int(min(230, max(self.conversations.minimumSizeHint().width(), side)))
        right = int(min(self.gauge.MAX_WIDTH, max(self.gauge.MIN_WIDTH, side)))
        self.splitter.setSizes([left, max(0, total - left - right), right])

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        # After this event the layouts give the splitter its new width; balance then.
        QTimer.singleShot(0, self.balance_columns)

    def _build_menus(self) -> None:
        file_menu = self.menuBar().addMenu(tr("&File"))
        self._add(file_menu, "new_chat", tr("&New chat"), QKeySequence.StandardKey.New)
        self._add(file_menu, "export", tr("&Export conversation…"), QKeySequence("Ctrl+E"))
        self._add(file_menu, "settings", tr("&Settings…"), QKeySequence("Ctrl+,"))
        self._add(file_menu, "wizard", tr("&First-time setup…"), None)
        self._add(file_menu, "quit", tr("&Quit"), QKeySequence("Ctrl+Q"))
        chat_menu = self.menuBar().addMenu(tr("&Chat"))
        self._add(chat_menu, "stop", tr("&Stop the answer"), QKeySequence("Ctrl+."))
        self._add(chat_menu, "regenerate", tr("&Write the last answer again"),
                  QKeySequence("Ctrl+R"))
        self._add(chat_menu, "edit_last", tr("&Edit my last message"), QKeySequence("Ctrl+Up"))
        self._add(chat_menu, "copy_last", tr("&Copy the last answer"),
                  QKeySequence("Ctrl+Shift+C"))
        think = self._add(chat_menu, "think", tr("&Think before answering"), QKeySequence("Ctrl+T"))
        think.setCheckable(True)
        think.setEnabled(False)         # app.application: when the model's template can choose
        go_menu = self.menuBar().addMenu(tr("&Go"))
        self._add(go_menu, "focus_input", tr("Go to the &message box"), QKeySequence("Ctrl+L"))
        self._add(go_menu, "focus_search", tr("&Search conversations"),
                  QKeySequence.StandardKey.Find)
        self._add(go_menu, "focus_list", tr("Go to the &conversation list"),
                  QKeySequence("Ctrl+Shift+L"))
        self._add(go_menu, "focus_gauge", tr("Go to the &live numbers"),
                  QKeySequence("Ctrl+Shift+G"))
        help_menu = self.menuBar().addMenu(tr("&Help"))
        self._add(help_menu, "help_guide", tr("&Getting started"),
                  QKeySequence.StandardKey.HelpContents)
        self._add(help_menu, "help_models", tr("&Where models come from"), None)
        self._add(help_menu, "help_log", tr("Open the &log folder"), None)
        self._add(help_menu, "help_about", tr("&About Rotary"), None)

    def _add(self, menu, key: str, text: str, shortcut) -> QAction:
        action = QAction(text, self)
        if shortcut is not None:
            action.setShortcut(shortcut)
        menu.addAction(action)
        self.actions[key] = action
        return action

    def set_model_text(self, text: str) -> None:
        self.model_label.setText(text)
        self.model_label.setToolTip(text)       # the whole name, when the line is cut

    def bring_to_front(self) -> None:
        """Another start of Rotary asked us to show ourselves."""
        self.setWindowState(self.windowState() & ~Qt.WindowState.WindowMinimized)
        self.show()
        self.raise_()
        self.activateWindow()

    def closeEvent(self, event) -> None:
        self.closed.emit()
        super().closeEvent(event)


def _first_size() -> tuple[int, int]:
    """The default size, shrunk to fit a small screen (a 1024x768 laptop or projector) so
    that the gauge column is never cut off at the screen's edge."""
    screen = QGuiApplication.primaryScreen()
    if screen is None:
        return DEFAULT_SIZE
    room = screen.availableGeometry()
    return min(DEFAULT_SIZE[0], room.width() - 40), min(DEFAULT_SIZE[1], room.height() - 60)
