"""What the menus and a message do to the open conversation: export it, edit the last
question, copy the last answer, attach a message refused as too long as a document.

``ConversationActions`` belongs to app.application.RotaryApp; app.wiring connects the
menu actions and the chat pane to it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from PySide6.QtWidgets import QFileDialog

from app.chat.chat_view import ChatPane
from app.conversation.chat_text import conversation_to_markdown
from app.conversation.history import HistoryStore
from app.conversation.store import ConversationStore, mark_attached
from app.documents.document_shelf import ConversationDocuments
from app.text.i18n import tr
from app.widgets.notifications import NotificationService


class ConversationActions:
    def __init__(self, store: ConversationStore, history: HistoryStore,
                 notices: NotificationService, pane: ChatPane, documents: ConversationDocuments,
                 attached_texts: Path,
                 refused_text_attached: Callable[[int | None], None] = lambda _cid: None) -> None:
        self.store, self.history, self.notices, self.pane = store, history, notices, pane
        self.shelved_documents, self.attached_texts = documents, attached_texts
        # app.session.chat_stream: the conversation's "too long" notice goes
        self.refused_text_attached = refused_text_attached

    def ask_export(self) -> None:
        if self.store.conversation_id is None:
            self.notices.info(tr("There is no conversation to export yet."))
            return
        title = self.history.title(self.store.conversation_id)
        path, _ = QFileDialog.getSaveFileName(self.pane.window(), tr("Export conversation"),
                                              str(Path.home() / f"{title}.md"),
                                              tr("Markdown files (*.md)"))
        if path:
            self.export_to(Path(path))

    def export_to(self, path: Path) -> None:
        if self.store.conversation_id is None:
            self.notices.info(tr("There is no conversation to export yet."))
            return
        title = self.history.title(self.store.conversation_id)
        try:
            path.write_text(conversation_to_markdown(title, self.store.messages), encoding="utf-8")
        except OSError as exc:
            self.notices.warning(tr("The conversation could not be saved there."), repr(exc))
            return
        self.notices.info(tr("Conversation saved to {path}.").format(path=path))

    def edit_last_message(self) -> None:
        for index in range(len(self.store.messages) - 1, -1, -1):
            if self.store.messages[index].role == "user":
                self.pane.begin_edit(index)
                return

    def attach_message_text(self, index: int) -> None:
        """"Attach as a document" on a message refused as too long: one click, and its text
        is a document of the conversation (read, indexed, on its list); the mark stays."""
        messages = self.store.messages
        if not 0 <= index < len(messages) or messages[index].role != "user":
            return
        message, conversation_id = messages[index], self.store.conversation_id
        if self.shelved_documents.attach_text(message.content, self.attached_texts,
                                              f"message-{message.id}"):
            mark_attached(self.history, message)
            self.pane.update_message(index, message)
            self.refused_text_attached(conversation_id)

    def copy_last_answer(self) -> None:
        answers = [m for m in self.store.messages if m.role == "assistant"]
        if answers:
            self.pane.copy(answers[-1].content)
