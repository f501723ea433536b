"""A dropped document driven without Qt: the session (app.session.document_session) and the
queue of files (app.session.document_queue) over a fake engine, the real conversation store
and request tracker, with the events the screen would get collected in a list."""

from __future__ import annotations

import dataclasses
import itertools
from pathlib import Path

import pytest

from engine.api import (DocumentFinished, DocumentInspected, DocumentOverview, DocumentProgress,
                        DocumentRequest, DocumentSummary, RequestFailed)
from engine.errors import CorruptDocumentError, EngineError, ReadingStoppedError
from engine.messages import msg
from app.conversation import ConversationStore
from app.conversation.history import HistoryStore, StoredMessage
from app.conversation.message_stats import MessageStats
from app.session import JobKind, RequestTracker
from app.session import document_events as shown
from app.session.document_queue import DocumentQueue
from app.session.document_session import DocumentSession, DocumentTask, Stage


class Engine:
    """The engine as the session and the tracker see it: request ids, what was stopped."""

    def __init__(self) -> None:
        self.ids = itertools.count(1)
        self.documents: list[DocumentRequest] = []
        self.stopped: list[int | None] = []
        self.fail_next: EngineError | None = None

    def document(self, request: DocumentRequest) -> int:
        if self.fail_next is not None:
            error, self.fail_next = self.fail_next, None
            raise error
        self.documents.append(request)
        return next(self.ids)

    def stop(self, request_id: int | None = None) -> None:
        self.stopped.append(request_id)

    def chat(self, request: object) -> int:
        return next(self.ids)

    def waits(self, request_id: int) -> bool:
        return False

    def forget_conversation(self, conversation_id: int) -> None:
        pass


class Notices:
    """The notice bar: what was posted (level, message) and what was withdrawn."""

    def __init__(self) -> None:
        self.posted: list[tuple[str, str]] = []
        self.withdrawn: list[tuple[str, str]] = []

    def info(self, message: str) -> tuple[str, str]:
        self.posted.append(("info", message))
        return self.posted[-1]

    def warning(self, message: str, details: str = "") -> tuple[str, str]:
        self.posted.append(("warning", message))
        return self.posted[-1]

    def engine_error(self, error: EngineError) -> tuple[str, str]:
        self.posted.append(("error", error.message))
        return self.posted[-1]

    def withdraw(self, notice: tuple[str, str]) -> None:
        self.withdrawn.append(notice)


def exchange(event: DocumentFinished, task: DocumentTask,
             model_name: str) -> tuple[StoredMessage, StoredMessage]:
    """The two messages a summary becomes (app.documents.document_text words them)."""
    document = {"path": task.path, "name": event.overview.name, "preset": task.preset,
                "question": task.question}
    return (StoredMessage("user", f"Document: {event.overview.name} ({task.preset})",
                          stats=MessageStats(document=document)),
            StoredMessage("assistant", event.summary.body, model_name=model_name))


class Documents:
    """One session with its queue, as app.documents.document_flow builds them."""

    def __init__(self, tmp_path: Path) -> None:
        self.history = HistoryStore(tmp_path / "history.db")
        self.store = ConversationStore(self.history)
        self.engine, self.notices = Engine(), Notices()
        self.loading = False
        self.jobs = RequestTracker(self.engine, lambda: self.store.conversation_id,
                                   model_name="m", model_ready=True)
        self.events: list[object] = []
        self.session = DocumentSession(self.engine, self.store, self.jobs, self.notices,
                                       self._show, exchange, lambda: "English",
                                       str(tmp_path / "passages.db"))
        self.queue = DocumentQueue(self.session, self.history, self.events.append,
                                   lambda: self.loading)

    def _show(self, event: object) -> None:
        self.queue.see(event)
        self.events.append(event)

    def said(self, kind: type) -> list[object]:
        return [event for event in self.events if isinstance(event, kind)]

    def answer(self, event_of: type, **values: object) -> None:
        """The engine's event for the request in flight."""
        request_id = self.session.request_id
        assert request_id is not None
        self.session.on_event(event_of(request_id=request_id, conversation_id=None, **values))


def overview(name: str) -> DocumentOverview:
    return DocumentOverview(name=name, kind="pdf", pages=2, sections=2, words=900, tokens=1200,
                            parts=1, model_calls=1, estimated_s=10.0, unreadable_pages=(),
                            from_cache=False, message=msg("documents.pages", n=2),
                            sha256=f"sha-{name}")


def summary(body: str, partial: bool = False, preset: str = "short") -> DocumentSummary:
    return DocumentSummary(text=body, partial=partial, parts=1, parts_read=0 if partial else 1,
                           tokens=1200, tokens_read=1200, model_calls=1,
                           read_note=msg("documents.pages", n=2), citations=(), preset=preset,
                           body=body)


def progress(request_id: int) -> DocumentProgress:
    return DocumentProgress(request_id, None, "reading", 1, 1, 0, -1.0,
                            msg("documents.pages", n=1))


@pytest.fixture
def docs(tmp_path: Path) -> Documents:
    return Documents(tmp_path)


def _file(tmp_path: Path, name: str) -> str:
    path = tmp_path / name
    path.write_bytes(b"%PDF-1.4")
    return str(path)


def _summarised(docs: Documents, path: str, body: str = "It is about budgets.") -> None:
    assert docs.session.open_file(path)
    docs.answer(DocumentInspected, overview=overview(Path(path).name))
    assert docs.session.summarize("short")
    docs.answer(DocumentFinished, overview=overview(Path(path).name), summary=summary(body))


def test_a_document_is_looked_at_then_summarised_into_its_conversation(docs, tmp_path):
    path = _file(tmp_path, "report.pdf")
    assert docs.session.open_file(path, "short", "")
    task = docs.session.task
    assert task is not None and task.stage is Stage.LOOKING
    assert docs.engine.documents[-1].inspect_only
    assert docs.jobs.external is not None and docs.jobs.external.kind is JobKind.LOOK
    assert docs.events[:2] == [shown.Checking("report.pdf"), shown.HereChanged(True)]
    with pytest.raises(dataclasses.FrozenInstanceError):
        task.stage = Stage.CHOSEN      # type: ignore[misc]  # replaced whole, never changed

    docs.answer(DocumentInspected, overview=overview("report.pdf"))
    owner = docs.store.conversation_id
    assert docs.said(shown.OverviewReady) == [shown.OverviewReady(
        overview("report.pdf"), "short", "", False, path, owner)]
    assert docs.session.task.stage is Stage.CHOSEN and docs.jobs.external is None
    assert [d.name for d in docs.history.documents(owner)] == ["report.pdf"]   # on its list

    assert docs.session.summarize("detailed", "  what does it cost?  ")
    request = docs.engine.documents[-1]
    assert not request.inspect_only and (request.preset, request.question) == \
        ("detailed", "what does it cost?")
    assert docs.jobs.external.kind is JobKind.SUMMARY and docs.jobs.busy
    docs.session.on_event(progress(docs.session.request_id))
    docs.answer(DocumentFinished, overview=overview("report.pdf"), summary=summary("Budgets."))
    assert docs.said(shown.Started) == [shown.Started("report.pdf")]
    assert len(docs.said(shown.Progress)) == 1
    assert docs.said(shown.Done) == [shown.Done(summary("Budgets."))]
    assert [m.content for m in docs.store.messages] == ["Document: report.pdf (detailed)",
                                                        "Budgets."]
    assert docs.session.task is None and docs.jobs.external is None and not docs.notices.posted


def test_events_of_other_requests_are_not_the_sessions(docs, tmp_path):
    assert docs.session.open_file(_file(tmp_path, "report.pdf"))
    before = list(docs.events)
    docs.session.on_event(DocumentInspected(999, None, overview("other.pdf")))
    docs.session.on_event(RequestFailed(999, CorruptDocumentError("broken")))
    assert docs.events == before and docs.session.task.stage is Stage.LOOKING


def test_stop_keeps_the_partial_summary_and_stop_before_reading_is_said_quietly(docs, tmp_path):
    path = _file(tmp_path, "report.pdf")
    assert docs.session.open_file(path)
    docs.answer(DocumentInspected, overview=overview("report.pdf"))
    assert docs.session.summarize("short")
    request_id = docs.session.request_id
    docs.session.stop()
    assert docs.engine.stopped == [request_id]
    docs.answer(DocumentFinished, overview=overview("report.pdf"),
                summary=summary("Half of it.", partial=True))
    assert docs.said(shown.Done)[-1].summary.partial
    assert docs.store.messages[-1].content == "Half of it."

    assert docs.session.open_file(path)                     # stopped before it was read
    docs.session.stop()
    docs.answer(RequestFailed, error=ReadingStoppedError("You stopped it."))
    assert docs.notices.posted == [("info", "You stopped it.")]
    assert docs.said(shown.Done)[-1] == shown.Done(None) and docs.session.task is None


def test_a_failing_document_is_said_once_and_its_new_conversation_goes(docs, tmp_path):
    assert docs.session.open_file(_file(tmp_path, "broken.pdf"))
    provisional = docs.store.conversation_id
    docs.answer(RequestFailed, error=CorruptDocumentError("The file is damaged."))
    assert [level for level, _ in docs.notices.posted] == ["error"]
    assert docs.said(shown.Done) == [shown.Done(None)]
    assert docs.session.task is None and docs.jobs.external is None
    assert not docs.history.exists(provisional)       # named for a file it never held
    assert docs.session.open_file(_file(tmp_path, "good.pdf"))
    assert docs.notices.withdrawn == [docs.notices.posted[0]]   # the stale notice goes


def test_a_failed_send_leaves_nothing_in_hand(docs, tmp_path):
    docs.engine.fail_next = EngineError("No model is loaded yet.")
    assert not docs.session.open_file(_file(tmp_path, "report.pdf"))
    assert docs.session.task is None and docs.jobs.external is None
    assert docs.notices.posted == [("error", "No model is loaded yet.")]


def test_several_files_are_read_in_turn_and_their_outcomes_said_together(docs, tmp_path):
    first, table, last = (_file(tmp_path, "a.pdf"), str(tmp_path / "table.xlsx"),
                          _file(tmp_path, "c.pdf"))
    assert docs.queue.attach([first, table, last])
    docs.answer(DocumentInspected, overview=overview("a.pdf"))     # the next one is sent
    assert docs.session.task.path == last                         # table.xlsx was refused
    docs.answer(RequestFailed, error=CorruptDocumentError("The file is damaged."))
    assert [level for level, _ in docs.notices.posted] == ["warning"]    # one, said together
    lines = docs.notices.posted[0][1].splitlines()
    assert lines[0] == "2 of 3 files could not be read:"
    assert lines[1] == "a.pdf: read." and lines[2].startswith("table.xlsx: not read.")
    assert lines[3].startswith("c.pdf: not read.")
    assert [d.name for d in docs.history.documents(docs.store.conversation_id)] == ["a.pdf"]
    assert shown.ListChanged() in docs.events
    assert docs.queue.attach([_file(tmp_path, "d.pdf")])          # a new one: the old notice goes
    assert docs.notices.withdrawn == [docs.notices.posted[0]]


def test_write_again_replaces_the_summary_and_edit_replaces_both(docs, tmp_path):
    path = _file(tmp_path, "report.pdf")
    _summarised(docs, path, "First summary.")
    assert docs.session.write_again(0)
    task = docs.session.task
    assert (task.stage, task.replace_from, task.summary_only) == (Stage.SUMMARISING, 1, True)
    assert [m.content for m in docs.store.messages] == ["Document: report.pdf (short)"]
    docs.answer(DocumentFinished, overview=overview("report.pdf"), summary=summary("Second."))
    assert [m.content for m in docs.store.messages] == ["Document: report.pdf (short)",
                                                        "Second."]

    assert docs.session.edit(0)
    docs.answer(DocumentInspected, overview=overview("report.pdf"))
    assert docs.said(shown.OverviewReady)[-1].replacing
    assert docs.session.summarize("detailed")
    docs.answer(DocumentFinished, overview=overview("report.pdf"), summary=summary("Third."))
    assert [m.content for m in docs.store.messages] == ["Document: report.pdf (detailed)",
                                                        "Third."]


def test_write_again_on_a_moved_file_says_where_it_was(docs, tmp_path):
    path = _file(tmp_path, "report.pdf")
    _summarised(docs, path)
    Path(path).unlink()
    assert not docs.session.write_again(0)
    assert docs.notices.posted[-1][0] == "info" and path in docs.notices.posted[-1][1]
    assert len(docs.store.messages) == 2


def test_a_document_attached_while_the_model_loads_waits_for_it(docs, tmp_path):
    docs.jobs.model_ready, docs.loading = False, True
    path = _file(tmp_path, "report.pdf")
    assert docs.queue.attach([path]) and docs.queue.attach([path])
    assert docs.queue.held == (path,) and not docs.engine.documents
    assert docs.said(shown.WaitingForModel)[-1].names == "report.pdf"
    docs.queue.follow_conversation()             # shown in any conversation meanwhile
    assert docs.events[-1] == shown.HereChanged(True)
    docs.queue.load_failed()
    assert "could not be loaded" in docs.said(shown.WaitingForModel)[-1].why
    docs.jobs.model_ready, docs.loading = True, False
    docs.queue.read_held()
    assert docs.queue.held == () and docs.engine.documents[-1].path == path
    assert docs.session.task is not None and not docs.notices.posted


def test_dont_read_drops_the_documents_that_wait(docs, tmp_path):
    docs.jobs.model_ready, docs.loading = False, True
    docs.queue.attach([_file(tmp_path, "report.pdf")])
    docs.queue.dismiss()
    assert docs.queue.held == () and docs.events[-1] == shown.Closed()


def test_deleting_the_conversation_during_a_summary_stops_it_and_keeps_nothing(docs, tmp_path):
    path = _file(tmp_path, "report.pdf")
    assert docs.session.open_file(path)
    docs.answer(DocumentInspected, overview=overview("report.pdf"))
    assert docs.session.summarize("short")
    doomed, request_id = docs.store.conversation_id, docs.session.request_id
    docs.session.on_conversation_deleted(doomed + 1)       # another one: nothing happens
    assert docs.session.request_id == request_id
    docs.session.on_conversation_deleted(doomed)
    docs.store.delete(doomed)
    assert docs.engine.stopped == [request_id] and docs.events[-1] == shown.Closed()
    assert docs.session.task is None and docs.jobs.external is None
    docs.session.on_event(DocumentFinished(request_id, None, overview("report.pdf"),
                                           summary("Too late.")))
    assert docs.store.messages == [] and not docs.said(shown.Done)


def test_the_card_follows_its_conversation(docs, tmp_path):
    assert docs.session.open_file(_file(tmp_path, "report.pdf"))
    docs.answer(DocumentInspected, overview=overview("report.pdf"))
    docs.store.clear()                              # New chat: the card is not shown there
    docs.queue.follow_conversation()
    assert docs.events[-1] == shown.HereChanged(False)
    docs.queue.dismiss()
    assert docs.session.task is None and docs.events[-1] == shown.Closed()
