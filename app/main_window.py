"""The main window: conversations on the left, the chat in the middle, live numbers on
the right, notices on top. It only arranges widgets; behaviour is wired in app.wiring."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import (QAction, QCloseEvent, QGuiApplication, QKeySequence, QResizeEvent,
                           QShortcut)
from PySide6.QtWidgets import (QFrame, QLabel, QMainWindow, QMenu, QMessageBox, QScrollArea,
                               QSizePolicy, QSplitter, QVBoxLayout, QWidget)

from app.chat.chat_view import ChatPane
from app.chat.conversation_list import ConversationList
from app.gauge.gauge import GaugeWidget
from app.widgets.help import show_text
from app.text.i18n import tr
from app.setup.loading import LoadingPanel
from app.widgets.notification_bar import NotificationBar
from app.widgets.theme import window_icon

if TYPE_CHECKING:
    from app.documents.document_view import DocumentWidgets


SIDE_SHARE = 0.2       # at most this share of the width for each side column
DEFAULT_SIZE = (1180, 760)


class MainWindow(QMainWindow):
    closed = Signal()

    def __init__(self, documents: DocumentWidgets | None = None) -> None:
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
        self.menu_actions: dict[str, QAction] = {}
        self._build_menus()
        # The document card, list and Attach button (app.documents.document_view), when documents are used.
        self.documents = documents
        self.help_box: QMessageBox | None = None       # Help's open text (app.widgets.help)
        self.open_documents = QShortcut(QKeySequence("Ctrl+O"), self.chat)
        if documents is not None:
            self._place_documents(documents)
            self._chain_focus(documents)

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

    def _place_documents(self, documents: DocumentWidgets) -> None:
        """The card above the message box, the list above the messages, Attach first in the
        button column; files dropped anywhere on the chat (the message box included)."""
        pane, composer = self.chat, self.chat.composer
        scroll = pane.scroll_area
        above_input = cast(QVBoxLayout, composer.layout())      # its last item: the box's row
        above_input.insertWidget(above_input.count() - 1, documents.panel)
        layout = cast(QVBoxLayout, pane.layout())
        layout.insertWidget(layout.indexOf(scroll), documents.shelf)
        composer.button_column.insertWidget(0, documents.attach)
        for widget in (pane, composer.input, scroll.viewport()):
            widget.setAcceptDrops(True)
            widget.installEventFilter(documents.drops)

    def _chain_focus(self, documents: DocumentWidgets) -> None:
        """Tab follows the screen: the conversation, the document card, "Don't send" on a
        waiting message, the message box, Attach, Send (or Stop), the notice's buttons, then
        the conversation list. The gauge's sections are not in the Tab cycle (Tab wandered
        into the side panel's text): Ctrl+Shift+G goes there, and the arrow keys move
        between them."""
        pane, bar, listing, panel = self.chat, self.notice_bar, self.conversations, documents.panel
        scroll, composer = pane.scroll_area, pane.composer
        order: list[QWidget] = [scroll, panel.question, panel.preset, panel.summarize_button,
                 panel.cancel_button, panel.stop_button, panel.drop_button, composer.queued_cancel,
                 composer.input, documents.attach,
                 composer.send_button, composer.stop_button, bar.copy_button, bar.close_button,
                 listing.new_button, listing.search, listing.items, listing.rename_button,
                 listing.delete_button, scroll]
        for first, second in zip(order, order[1:]):
            QWidget.setTabOrder(first, second)

    def show_help(self, title: str, text: str) -> None:
        """A Help text beside the chat, open until closed (app.widgets.help)."""
        self.help_box = show_text(self, title, text)

    def focus_gauge(self) -> None:
        """Go → live numbers (Ctrl+Shift+G): the gauge's first section."""
        self.gauge.first_section().setFocus(Qt.FocusReason.ShortcutFocusReason)

    def keep_typing_focus(self) -> None:
        """A document's card offers its choices: focus stays in the message box (on
        Summarise, a second Enter started a summary by accident)."""
        if self.documents is not None and self.documents.panel.isVisible():
            self.chat.composer.input.setFocus(Qt.FocusReason.OtherFocusReason)

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

    def resizeEvent(self, event: QResizeEvent) -> None:
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

    def _add(self, menu: QMenu, key: str, text: str,
             shortcut: QKeySequence | QKeySequence.StandardKey | None) -> QAction:
        action = QAction(text, self)
        if shortcut is not None:
            action.setShortcut(shortcut)
        menu.addAction(action)
        self.menu_actions[key] = action
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

    def closeEvent(self, event: QCloseEvent) -> None:
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
