"""The list of conversations: search, open, new, rename (F2) and delete (Delete key)."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (QHBoxLayout, QInputDialog, QLineEdit, QListWidget,
                               QListWidgetItem, QMessageBox, QPushButton, QVBoxLayout, QWidget)

from app.conversation.history import ConversationSummary
from app.text.i18n import tr


TITLE_ROLE = Qt.ItemDataRole.UserRole + 1      # the title, without the activity mark
STATE_ROLE = Qt.ItemDataRole.UserRole + 2      # "writing", "waiting" or ""
MARKS = {"writing": "●", "waiting": "○"}


class ConversationList(QWidget):
    open_requested = Signal(int)
    new_requested = Signal()
    rename_requested = Signal(int, str)
    delete_requested = Signal(int)
    search_changed = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.activity: dict[int, str] = {}       # app.session.requests.RequestTracker.activity
        self.search = QLineEdit()
        self.search.setPlaceholderText(tr("Search conversations"))
        self.search.setAccessibleName(tr("Search conversations"))
        self.search.setClearButtonEnabled(True)
        self.search.textChanged.connect(self.search_changed)
        self.items = QListWidget()
        self.items.setAccessibleName(tr("Conversations"))
        self.items.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.items.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.items.itemActivated.connect(self._activated)
        self.items.itemClicked.connect(self._activated)
        self.new_button = QPushButton(tr("New chat"))
        self.new_button.setAccessibleName(tr("Start a new chat"))
        self.new_button.clicked.connect(self.new_requested)
        self.rename_button = QPushButton(tr("Rename"))
        self.rename_button.setAccessibleName(tr("Rename the selected conversation"))
        self.rename_button.clicked.connect(self.ask_rename)
        self.delete_button = QPushButton(tr("Delete"))
        self.delete_button.setAccessibleName(tr("Delete the selected conversation"))
        self.delete_button.clicked.connect(self.ask_delete)
        self._layout()
        QShortcut(QKeySequence(Qt.Key.Key_F2), self.items, self.ask_rename,
                  context=Qt.ShortcutContext.WidgetShortcut)
        QShortcut(QKeySequence(QKeySequence.StandardKey.Delete), self.items, self.ask_delete,
                  context=Qt.ShortcutContext.WidgetShortcut)

    def _layout(self) -> None:
        buttons = QHBoxLayout()
        for button in (self.rename_button, self.delete_button):
            buttons.addWidget(button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.new_button)
        layout.addWidget(self.search)
        layout.addWidget(self.items, 1)
        layout.addLayout(buttons)

    def show_conversations(self, conversations: list[ConversationSummary],
                           current: int | None) -> None:
        self.items.blockSignals(True)
        self.items.clear()
        for summary in conversations:
            item = QListWidgetItem(summary.title)
            item.setData(Qt.ItemDataRole.UserRole, summary.id)
            item.setData(TITLE_ROLE, summary.title)
            self.items.addItem(item)
            if summary.id == current:
                self.items.setCurrentItem(item)
        self.items.blockSignals(False)
        self.set_activity(self.activity)

    def set_activity(self, activity: dict[int, str]) -> None:
        """A mark before each conversation being written into (●) or waiting its turn (○),
        said in words to screen readers and in the tooltip."""
        self.activity = dict(activity)
        for row in range(self.items.count()):
            item = self.items.item(row)
            title = item.data(TITLE_ROLE)
            state = self.activity.get(item.data(Qt.ItemDataRole.UserRole), "")
            words = {"writing": tr("writing an answer"),
                     "waiting": tr("waiting for the other answer")}.get(state, "")
            item.setText(f"{MARKS[state]} {title}" if state in MARKS else title)
            item.setToolTip(f"{title} ({words})" if words else title)
            item.setData(Qt.ItemDataRole.AccessibleTextRole,
                         f"{title}, {words}" if words else title)
            item.setData(STATE_ROLE, state)

    def select(self, conversation_id: int | None) -> None:
        """Highlight the open conversation; None (a new chat) highlights nothing."""
        self.items.blockSignals(True)
        self.items.clearSelection()
        self.items.setCurrentItem(None)  # type: ignore[call-overload]  # Qt takes none
        for row in range(self.items.count()):
            item = self.items.item(row)
            if item.data(Qt.ItemDataRole.UserRole) == conversation_id:
                self.items.setCurrentItem(item)
        self.items.blockSignals(False)

    def selected_id(self) -> int | None:
        item = self.items.currentItem()
        return None if item is None else int(item.data(Qt.ItemDataRole.UserRole))

    def _activated(self, item: QListWidgetItem) -> None:
        self.open_requested.emit(int(item.data(Qt.ItemDataRole.UserRole)))

    def ask_rename(self) -> None:
        conversation_id = self.selected_id()
        if conversation_id is None:
            return
        title, accepted = QInputDialog.getText(
            self, tr("Rename conversation"), tr("New name:"),
            text=self.items.currentItem().data(TITLE_ROLE))
        if accepted and title.strip():
            self.rename_requested.emit(conversation_id, title.strip())

    def ask_delete(self) -> None:
        conversation_id = self.selected_id()
        if conversation_id is None:
            return
        # Buttons that say what they do (Yes/No made a reader go back to the question);
        # Cancel is the default, so Enter deletes nothing.
        box = QMessageBox(QMessageBox.Icon.Question, tr("Delete conversation"),
                          tr("Delete “{title}”? This cannot be undone.").format(
                              title=self.items.currentItem().data(TITLE_ROLE)),
                          QMessageBox.StandardButton.Cancel, self)
        delete = box.addButton(tr("Delete"), QMessageBox.ButtonRole.DestructiveRole)
        box.setDefaultButton(QMessageBox.StandardButton.Cancel)
        box.exec()
        if box.clickedButton() is delete:
            self.delete_requested.emit(conversation_id)
