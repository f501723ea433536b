"""A dropped document, from "what was found" to its summary in the conversation. No widgets.

Steps: ``open_file`` asks the engine to read the file and plan the parts (nothing is
generated) → ``overview_ready`` → the user picks a style and presses Summarise →
``summarize`` → ``progress`` events → the document and its summary become two messages of
the conversation (so follow-up questions there can refer to them) → ``done``. Errors go to
the notification service; Stop keeps the partial summary, labelled partial.

The card and its summary belong to one conversation (``owner``) and follow the chat's
rules (app.session.chat_session); the flow sees the conversation and the requests in flight
only through their interfaces (app.conversation: ``Conversations``, ``Requests``): the summary goes on when the user opens another conversation
(the card shows only in its own), and is dropped when its conversation is deleted. Write
again on a summary reads the document again with the same style and question; Edit on its
"Document:" message opens the card with them, and Summarise replaces that message and what
follows it.
"""

from __future__ import annotations

import logging
from dataclasses import asdict
from pathlib import Path
from typing import Callable, Protocol

from PySide6.QtCore import QObject, Signal

from engine.api import (DocumentFinished, DocumentInspected, DocumentOverview, DocumentProgress,
                        DocumentRequest, RequestFailed)
from engine.errors import EngineError, ReadingStoppedError
from app.bridge.facade import summary_presets
from app.documents.document_text import answer_text, found_text, title_text
from app.text.error_text import error_text
from app.conversation import Conversations
from app.session import Job, JobKind, Requests
from app.conversation.history import StoredMessage
from app.conversation.message_stats import DocumentData, MessageStats
from app.text.i18n import tr
from app.widgets.notifications import Notice, NotificationService

log = logging.getLogger("rotary.documents")
SUPPORTED = (".pdf", ".docx", ".txt", ".text", ".md", ".markdown")


class DocumentEngine(Protocol):
    """What the flow asks of the engine (app.bridge.engine_bridge.EngineBridge)."""

    def document(self, request: DocumentRequest) -> int: ...

    def stop(self, request_id: int | None = None) -> None: ...


class DocumentFlow(QObject):
    checking = Signal(str)               # file name, while the engine reads and plans it
    overview_ready = Signal(object)      # engine.api.DocumentOverview
    started = Signal(str)                # file name: the summary is being written
    progress = Signal(object)            # engine.api.DocumentProgress
    done = Signal(object)                # engine.api.DocumentSummary, or None when it failed
    closed = Signal()                    # nothing to show any more
    here_changed = Signal(bool)          # the card's conversation is (not) the open one
    waiting_for_model = Signal(str, str)  # documents attached during a load, and why they wait

    def __init__(self, bridge: DocumentEngine, conversations: Conversations, requests: Requests,
                 notices: NotificationService, language: Callable[[], str],
                 index_path: str | None = None, model_loading: Callable[[], bool] = lambda: False,
                 parent: QObject | None = None) -> None:
        """``index_path``: where passages are indexed (their own file); ``model_loading``:
        app.setup.loading's flag (documents attached meanwhile wait for the model)."""
        super().__init__(parent)
        self.bridge, self.notices, self.language = bridge, notices, language
        self.conversations, self.requests = conversations, requests
        self.index_path, self.model_loading = index_path, model_loading
        self.path: str | None = None
        self.overview: DocumentOverview | None = None
        self.last_folder = ""            # where the file chooser opens next time
        self.request_id: int | None = None
        self.running = False
        self.owner: int | None = None    # the conversation the card and summary belong to
        self.preset, self.question = "short", ""
        self.replace_from: int | None = None   # Edit / Write again: messages replaced from here
        self.summary_only = False        # Write again: the "Document:" message stays
        self.problem: Notice | None = None   # the notice about the last document that failed
        # Several files at once (app.documents.document_shelf): each one's outcome, (name, problem or
        # ""), said together at the end rather than each notice replacing the last.
        self.outcomes: list[tuple[str, str]] | None = None
        # Attached while the model loads (a moment after the wizard's Finish): read, into the
        # conversation then open, once it is ready.
        self.held: list[str] = []

    @property
    def conversation_id(self) -> int | None:
        return self.owner

    # ---- the user's actions ------------------------------------------------------------

    def open_file(self, path: str, preset: str = "short", question: str = "") -> bool:
        if not self._can_start():
            return False
        if Path(path).suffix.lower() not in SUPPORTED and Path(path).suffix.lower() != ".doc":
            said = tr("Rotary reads PDF, Word (.docx), text and Markdown files.")
            if self.outcomes is not None:
                self.outcomes.append((Path(path).name, said))
            else:
                self.notices.info(said)
            return False
        self._withdraw_problem()
        self.replace_from, self.summary_only = None, False
        return self._inspect(path, preset, question)

    def _inspect(self, path: str, preset: str, question: str) -> bool:
        self.path, self.overview, self.running = path, None, False
        self.preset, self.question = preset, question
        self.last_folder = str(Path(path).parent)
        # The document joins the conversation as soon as it is read: questions search it.
        self.owner = self.conversations.ensure(Path(path).name, provisional=True)
        request_id = self._send(DocumentRequest(path, inspect_only=True,
                                                index_path=self.index_path,
                                                conversation_id=self.owner))
        if request_id is None:
            return False
        self.requests.begin(Job(request_id, self.owner, kind=JobKind.LOOK,
                                phase=tr("Looking at the document…")))
        self.checking.emit(Path(path).name)
        self.follow_conversation()
        return True

    def summarize(self, preset: str, question: str = "") -> bool:
        if self.path is None or self.overview is None or self.request_id is not None:
            return False
        if self.replace_from is not None:           # Edit: the old document and after go
            self.conversations.truncate_from(self.replace_from)
        self.owner = self.conversations.ensure(self.overview.name)
        self.preset, self.question = preset, question.strip()
        return self._run(self.path, tr("Reading the document…"))

    def _run(self, path: str, phase: str) -> bool:
        request_id = self._send(DocumentRequest(path, preset=self.preset,
                                                language=self.language(), question=self.question,
                                                conversation_id=self.owner))
        if request_id is None:
            return False
        self._withdraw_problem()
        self.running = True
        self.requests.begin(Job(request_id, self.owner, kind=JobKind.SUMMARY, phase=phase))
        self.started.emit(Path(path).name)
        self.follow_conversation()
        return True

    def write_again(self, index: int) -> bool:
        """Write again on a summary: the document is read again with the same style and
        question; the new summary replaces the old one."""
        document = self._document_at(index)
        if document is None:
            return False
        path = self.path = str(document["path"])
        self.owner = self.conversations.conversation_id
        self.preset, self.question = str(document.get("preset") or "short"), \
            str(document.get("question", ""))
        self.last_folder = str(Path(path).parent)
        self.replace_from, self.summary_only = index + 1, True
        self.conversations.truncate_from(index + 1)
        return self._run(path, tr("Reading the document…"))

    def edit(self, index: int) -> bool:
        """Edit on a "Document:" message: its card, with its style and question to change."""
        document = self._document_at(index)
        if document is None:
            return False
        self.replace_from, self.summary_only = index, False
        return self._inspect(str(document["path"]), str(document.get("preset") or "short"),
                             str(document.get("question", "")))

    def _document_at(self, index: int) -> DocumentData | None:
        """The stored document of message ``index``, if it can be read again now."""
        if not self._can_start() or not 0 <= index < len(self.conversations.messages):
            return None
        document = self.conversations.messages[index].stats.document or {}
        path = str(document.get("path") or "")
        if not Path(path).is_file():
            self.notices.info(tr("The document is no longer at {path}. Attach it again to "
                                 "summarise it.").format(path=path or document.get("name", "")))
            return None
        return document

    def stop(self) -> None:
        if self.request_id is not None:
            self.bridge.stop(self.request_id)   # the engine answers with the partial summary

    def dismiss(self) -> None:
        """Cancel on the card: nothing is read, and an Edit changes nothing."""
        if self.request_id is None:
            self.held = []                          # "Don't read" while the model loads
            self.path = self.overview = None
            self.replace_from, self.summary_only = None, False
            self.closed.emit()

    # ---- documents attached while the model loads -----------------------------------------

    def waits_for_model(self) -> bool:
        return not self.requests.model_ready and self.model_loading()

    def hold(self, paths: list[str]) -> None:
        """Read once the model is ready (it failed with "No model is loaded yet"); the card
        says they wait."""
        self.held += [path for path in paths if path not in self.held]
        self._say_held(tr("Waiting for the model to finish loading before reading."))

    def release(self) -> list[str]:
        """The model is ready: what waited for it, to be read now."""
        held, self.held = self.held, []
        return held

    def load_failed(self) -> None:
        """They wait on for a model that loads (the load's notice says what to do)."""
        if self.held:
            self._say_held(tr("The model could not be loaded. Reading starts as soon as a "
                              "model has loaded."))

    def _say_held(self, why: str) -> None:
        self.waiting_for_model.emit(", ".join(Path(path).name for path in self.held), why)
        self.follow_conversation()

    def _can_start(self) -> bool:
        if self.requests.busy or self.request_id is not None:
            self.notices.info(tr("Please wait until the current answer is finished."))
            return False
        if not self.requests.model_ready:
            self.notices.info(tr("The model is not ready yet. Please wait until loading "
                                 "has finished."))
            return False
        return True

    def _send(self, request: DocumentRequest) -> int | None:
        """Its request id, or None (the notice says why)."""
        try:
            self.request_id = self.bridge.document(request)
        except EngineError as error:
            self.notices.engine_error(error)
            return None
        return self.request_id

    def _withdraw_problem(self) -> None:
        """A new document (or a summary that starts) makes the last document's notice stale."""
        if self.problem is not None:
            self.notices.withdraw(self.problem)
            self.problem = None

    # ---- the chat's conversations ------------------------------------------------------

    def follow_conversation(self, *_args: object) -> None:
        # Held documents go to the conversation open when the model is ready: shown in any.
        self.here_changed.emit(bool(self.held) or (
            self.path is not None and self.owner == self.conversations.conversation_id))

    def on_conversation_deleted(self, conversation_id: int) -> None:
        """Its summary stops and nothing of it is kept; its card closes."""
        if self.path is None or self.owner != conversation_id:
            return
        if self.request_id is not None:
            self.bridge.stop(self.request_id)
            self.requests.end(self.request_id)
        self.request_id, self.running, self.path, self.overview = None, False, None, None
        self.replace_from, self.summary_only = None, False
        self.closed.emit()

    # ---- engine results (connected in app.wiring) --------------------------------------

    def on_event(self, event: object) -> None:
        """Its request's events (app.session.Session routes a document job's here)."""
        if getattr(event, "request_id", None) != self.request_id:
            return
        if isinstance(event, RequestFailed):
            self.on_failed(event.request_id, event.error)
        elif isinstance(event, DocumentInspected):
            self._on_inspected(event)
        elif isinstance(event, DocumentProgress):
            self.progress.emit(event)
        elif isinstance(event, DocumentFinished):
            self._on_finished(event)

    def _on_inspected(self, event: DocumentInspected) -> None:
        self.overview = event.overview
        self.conversations.name_from_document(self.owner, event.overview.name)
        if not self.running and self.outcomes is not None:
            self.outcomes.append((Path(self.path or event.overview.name).name, ""))
        if not self.running and self.request_id is not None:   # the plan: wait for the user
            self.requests.end(self.request_id)
            self.request_id = None
            self.overview_ready.emit(event.overview)

    def _on_finished(self, event: DocumentFinished) -> None:
        self.request_id, self.running = None, False
        exchange = self._exchange(event)
        self.conversations.keep(self.owner, exchange[1:] if self.summary_only else exchange)
        self.requests.end(event.request_id)
        self.path, self.replace_from, self.summary_only = None, None, False
        self.done.emit(event.summary)

    def on_failed(self, request_id: int, error: EngineError) -> None:
        if request_id != self.request_id:
            return
        name = Path(self.path or "").name
        self.request_id, self.running, self.path = None, False, None
        self.replace_from, self.summary_only = None, False
        if self.outcomes is not None:                # said with the other files at the end
            log.error("%s could not be read: %s\n%s", name, error.message, error.details)
            self.outcomes.append((name, error_text(error)[0]))
        elif isinstance(error, ReadingStoppedError):   # the user's own Stop: said, not an error
            log.info("document stopped before it was read: %s", error.message)
            self.problem = self.notices.info(error_text(error)[0])
        else:
            self.problem = self.notices.engine_error(error)
        self.requests.end(request_id)
        self.conversations.document_failed(self.owner)        # not named for a file it never held
        self.done.emit(None)

    def _exchange(self, event: DocumentFinished) -> tuple[StoredMessage, StoredMessage]:
        """The document as the user's message, the summary as the answer (kept in history)."""
        overview, summary = event.overview, event.summary
        titles = dict(summary_presets())
        asked = "\n\n" + tr("I asked: {question}").format(question=self.question) \
            if self.question else ""
        user = StoredMessage("user", tr("Document: {name} — {found}\n{style}").format(
            name=overview.name, found=found_text(overview),
            style=title_text(titles.get(summary.preset, summary.preset))) + asked,
            stats=MessageStats(document={
                "path": self.path, "name": overview.name, "kind": overview.kind,
                "pages": overview.pages, "words": overview.words,
                "preset": summary.preset, "question": self.question}))
        answer = StoredMessage("assistant", answer_text(overview, summary),
                               model_name=self.requests.model_name,
                               stats=MessageStats(document_summary={
                                   "partial": summary.partial, "parts": summary.parts,
                                   "parts_read": summary.parts_read,
                                   "model_calls": summary.model_calls,
                                   "citations": [asdict(c) for c in summary.citations]}))
        return user, answer
