"""A dropped document, from "what was found" to its summary in the conversation. No Qt.

Steps: ``open_file`` asks the engine to read the file and plan the parts (nothing is
generated) → ``OverviewReady`` → the user picks a style and presses Summarise →
``summarize`` → ``Progress`` events → the document and its summary become two messages of
the conversation (so follow-up questions there can refer to them) → ``Done``. Errors go to
the notices (app.session.document_problems); Stop keeps the partial summary, labelled partial.

The document in hand is one frozen ``DocumentTask``, replaced whole on each step (None: there
is none). It belongs to one conversation (``owner``) and follows the chat's rules
(app.session.requests): the summary goes on when the user opens another conversation (the
card shows only in its own), and is dropped when its conversation is deleted. Write again on a
summary reads the document again with the same style and question; Edit on its "Document:"
message opens the card with them, and Summarise replaces that message and what follows it.

What the screen shows comes out as typed events (app.session.document_events) through one
``report`` callback; the engine's events come in through ``on_event``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum
from pathlib import Path
from typing import Callable, Generic, Protocol

from engine.api import (DocumentFinished, DocumentInspected, DocumentOverview, DocumentProgress,
                        DocumentRequest, RequestFailed)
from engine.errors import EngineError
from app.conversation import Conversations
from app.conversation.history import StoredMessage
from app.conversation.message_stats import DocumentData
from app.session import document_events as shown
from app.session.document_problems import DocumentProblems
from app.session.jobs import Job, JobKind
from app.session.notices import N, Notices, OneNotice, not_ready_text
from app.text.i18n import tr

SUPPORTED = (".pdf", ".docx", ".txt", ".text", ".md", ".markdown")


class Stage(Enum):
    LOOKING = "looking"            # the engine reads and plans it: nothing is generated
    CHOSEN = "chosen"              # what was found is shown: the user picks a style
    SUMMARISING = "summarising"    # the summary is being written


@dataclass(frozen=True)
class DocumentTask:
    """The document in hand. ``request_id`` is the engine request in flight (None once its
    overview is shown); ``replace_from``: Edit and Write again replace the messages from
    there; ``summary_only``: Write again keeps the "Document:" message."""
    path: str
    owner: int | None              # the conversation the card and the summary belong to
    stage: Stage
    request_id: int | None = None
    overview: DocumentOverview | None = None
    preset: str = "short"
    question: str = ""
    replace_from: int | None = None
    summary_only: bool = False

    @property
    def name(self) -> str:
        return Path(self.path).name


class DocumentEngine(Protocol):
    """What the session asks of the engine (app.bridge.engine_bridge.EngineBridge)."""

    def document(self, request: DocumentRequest) -> int: ...

    def stop(self, request_id: int | None = None) -> None: ...


class Jobs(Protocol):
    """The conversation's requests in flight (app.session.requests.RequestTracker): sending in
    the document's conversation waits, and Stop there stops it, from ``begin`` to ``end``."""

    @property
    def busy(self) -> bool: ...

    @property
    def model_ready(self) -> bool: ...

    @property
    def model_name(self) -> str: ...

    def begin(self, job: Job) -> None: ...

    def end(self, request_id: int) -> Job | None: ...


# The document and its summary as the conversation keeps them (app.documents.document_text).
Exchange = Callable[[DocumentFinished, DocumentTask, str], tuple[StoredMessage, StoredMessage]]


class DocumentSession(Generic[N]):
    """The document card's state machine. ``index_path``: where passages are indexed."""

    def __init__(self, engine: DocumentEngine, conversations: Conversations, jobs: Jobs,
                 notices: Notices[N], report: Callable[[shown.DocumentEvent], None],
                 exchange: Exchange, language: Callable[[], str],
                 index_path: str | None = None, not_ready: OneNotice[N] | None = None) -> None:
        self.engine, self.conversations, self.jobs, self.notices = \
            engine, conversations, jobs, notices
        self.report, self.exchange, self.language = report, exchange, language
        self.index_path = index_path
        self.problems = DocumentProblems(notices)
        self.not_ready = not_ready or OneNotice(notices)   # shared with the chat
        self.task: DocumentTask | None = None
        self.last_folder = ""            # where the file chooser opens next time
        self.please_wait: OneNotice[N] = OneNotice(notices)   # goes when that work ends

    @property
    def request_id(self) -> int | None:
        return self.task.request_id if self.task is not None else None

    # ---- the user's actions ------------------------------------------------------------

    def open_file(self, path: str, preset: str = "short", question: str = "") -> bool:
        if not self._can_start():
            return False
        if Path(path).suffix.lower() not in (*SUPPORTED, ".doc"):
            self.problems.refused(Path(path).name,
                                  tr("Rotary reads PDF, Word (.docx), text and Markdown files."))
            return False
        self.problems.withdraw()
        return self._look(DocumentTask(path, None, Stage.LOOKING, preset=preset,
                                       question=question))

    def _look(self, task: DocumentTask) -> bool:
        # The document joins the conversation as soon as it is read: questions search it.
        owner = self.conversations.ensure(task.name, provisional=True)
        self.last_folder = str(Path(task.path).parent)
        return self._start(replace(task, owner=owner), DocumentRequest(
            task.path, inspect_only=True, index_path=self.index_path, conversation_id=owner),
            JobKind.LOOK, tr("Looking at the document…"), shown.Checking(task.name))

    def summarize(self, preset: str, question: str = "") -> bool:
        task = self.task
        if task is None or task.stage is not Stage.CHOSEN or task.overview is None:
            return False
        if task.replace_from is not None:           # Edit: the old document and after go
            self.conversations.truncate_from(task.replace_from)
        owner = self.conversations.ensure(task.overview.name)
        return self._run(replace(task, owner=owner, preset=preset, question=question.strip()))

    def _run(self, task: DocumentTask) -> bool:
        request = DocumentRequest(task.path, preset=task.preset, language=self.language(),
                                  question=task.question, index_path=self.index_path,
                                  conversation_id=task.owner)
        if not self._start(replace(task, stage=Stage.SUMMARISING), request, JobKind.SUMMARY,
                           tr("Reading the document…"), shown.Started(task.name)):
            return False
        self.problems.withdraw()
        return True

    def _start(self, task: DocumentTask, request: DocumentRequest, kind: JobKind, phase: str,
               said: shown.Checking | shown.Started) -> bool:
        """Sent: it is the task in hand, a job of its conversation (False: the notice says
        why, and the task in hand is as it was)."""
        try:
            request_id = self.engine.document(request)
        except EngineError as error:
            self.notices.engine_error(error)
            return False
        self.task = replace(task, request_id=request_id)
        self.jobs.begin(Job(request_id, task.owner, self.jobs.model_name, kind, phase))
        self.report(said)
        self.follow_conversation()
        return True

    def write_again(self, index: int) -> bool:
        """Write again on a summary: the document is read again with the same style and
        question; the new summary replaces the old one."""
        document = self._document_at(index)
        if document is None:
            return False
        task = DocumentTask(str(document["path"]), self.conversations.conversation_id,
                            Stage.SUMMARISING, preset=str(document.get("preset") or "short"),
                            question=str(document.get("question", "")),
                            replace_from=index + 1, summary_only=True)
        self.last_folder = str(Path(task.path).parent)
        self.conversations.truncate_from(index + 1)
        return self._run(task)

    def edit(self, index: int) -> bool:
        """Edit on a "Document:" message: its card, with its style and question to change."""
        document = self._document_at(index)
        if document is None:
            return False
        return self._look(DocumentTask(str(document["path"]), None, Stage.LOOKING,
                                       preset=str(document.get("preset") or "short"),
                                       question=str(document.get("question", "")),
                                       replace_from=index))

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
            self.engine.stop(self.request_id)   # the engine answers with the partial summary

    def dismiss(self) -> bool:
        """Cancel on the card: nothing is read, and an Edit changes nothing (False: a request
        runs, Stop ends it)."""
        if self.request_id is not None:
            return False
        self.task = None
        self.report(shown.Closed())
        return True

    def _can_start(self) -> bool:
        if self._in_the_way():
            self.please_wait.say(self._what_to_wait_for())
            return False
        if not self.jobs.model_ready:
            self.not_ready.say(not_ready_text())
            return False
        return True

    def _what_to_wait_for(self) -> str:
        """The work in the way, as the user sees it: this document's, else an answer."""
        task = self.task
        if task is None or task.request_id is None:
            return tr("Please wait until the current answer is finished.")
        if task.stage is Stage.LOOKING:
            return tr("Please wait until the document has been read.")
        return tr("Please wait until the document has been summarised.")

    def work_ended(self) -> None:
        """An answer or a document's job ended: once nothing is in the way, the "please
        wait" notice no longer applies."""
        if self.please_wait.shown and not self._in_the_way():
            self.please_wait.withdraw()

    def _in_the_way(self) -> bool:
        """An answer or a document is being written here, or a document is read anywhere
        (one at a time)."""
        return self.jobs.busy or self.request_id is not None

    # ---- the chat's conversations ------------------------------------------------------

    def follow_conversation(self, *_args: object) -> None:
        self.report(shown.HereChanged(self.task is not None and
                                      self.task.owner == self.conversations.conversation_id))

    def on_conversation_deleted(self, conversation_id: int) -> None:
        """Its summary stops and nothing of it is kept; its card closes."""
        task = self.task
        if task is None or task.owner != conversation_id:
            return
        self.task = None
        if task.request_id is not None:
            self.engine.stop(task.request_id)
            self.jobs.end(task.request_id)
        self.report(shown.Closed())

    # ---- the engine's events -----------------------------------------------------------

    def on_event(self, event: object) -> None:
        """DocumentInspected, DocumentProgress, DocumentFinished or RequestFailed of the
        request in flight; any other event is not the session's."""
        task = self.task
        if task is None or task.request_id is None \
                or getattr(event, "request_id", None) != task.request_id:
            return
        if isinstance(event, DocumentInspected):
            self._inspected(task, event)
        elif isinstance(event, DocumentProgress):
            self.report(shown.Progress(event))
        elif isinstance(event, DocumentFinished):
            self._finished(task, event)
        elif isinstance(event, RequestFailed):
            self._failed(task, event)

    def _inspected(self, task: DocumentTask, event: DocumentInspected) -> None:
        self.conversations.name_from_document(task.owner, event.overview.name)
        # Read into its conversation (again, after Edit or Write again): on its list.
        self.report(shown.Read(event.overview, task.path, task.owner))
        if task.stage is not Stage.LOOKING:          # a summary's own look: it runs on
            self.task = replace(task, overview=event.overview)
            return
        # The plan before the run: wait for the user.
        self.problems.read(task.name)
        self.task = replace(task, stage=Stage.CHOSEN, overview=event.overview, request_id=None)
        self.jobs.end(event.request_id)
        self.report(shown.OverviewReady(event.overview, task.preset, task.question,
                                        task.replace_from is not None, task.path, task.owner))

    def _finished(self, task: DocumentTask, event: DocumentFinished) -> None:
        self.task = None
        exchange = self.exchange(event, task, self.jobs.model_name)
        self.conversations.keep(task.owner, exchange[1:] if task.summary_only else exchange)
        self.jobs.end(event.request_id)
        self.report(shown.Done(event.summary))

    def _failed(self, task: DocumentTask, event: RequestFailed) -> None:
        self.task = None
        self.problems.failed(task.name, event.error)
        self.jobs.end(event.request_id)
        self.conversations.document_failed(task.owner)   # not named for a file it never held
        self.report(shown.Done(None))
