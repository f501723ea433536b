"""A dropped document driven without Qt: the document session (app.session.document_session)
and the queue of files (app.session.document_queue) inside the app's ``Session``
(app.session.session) over a fake engine, with the real conversation store, request tracker
and chat, the engine's events handed to ``Session.on_event`` and the events the screen would
get through the session's one callback collected in a list."""

from __future__ import annotations

import dataclasses
import itertools
from pathlib import Path

import pytest

from engine.api import (DocumentFinished, DocumentInspected, DocumentOverview, DocumentProgress,
                        DocumentRequest, DocumentSummary, RequestFailed, RequestFinished,
                        ResponseStats, StepRecord, StopReason)
from engine.errors import CorruptDocumentError, EngineError, ReadingStoppedError
from engine.messages import msg
from app.conversation.history import HistoryStore
from app.session.requests import DOCUMENT_JOBS
from app.session import JobKind
from app.session import document_events as shown
from app.session.document_session import Stage
from app.session.events import AnswerPiece, BusyChanged, StepShown, UiEvent
from app.session.session import Session
from tests.support.session_doubles import Loop, NoticeBar, exchange


def _document_job(docs):
    """The document job in the tracker's one table of jobs (None: none in flight)."""
    return next((job for job in docs.jobs.jobs.values() if job.kind in DOCUMENT_JOBS), None)


class Engine:
    """The engine as the session and the tracker see it: request ids, what was stopped."""

    def __init__(self) -> None:
        self.ids = itertools.count(1)
        self.documents: list[DocumentRequest] = []
        self.asked: list[object] = []
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
        self.asked.append(request)
        return next(self.ids)

    def waits(self, request_id: int) -> bool:
        return False

    def forget_conversation(self, conversation_id: int) -> None:
        pass


class Documents:
    """The app's session (``owner``) with its document session and queue, as app.application
    builds it; ``events``: what the document card was told, ``shown``: everything."""

    def __init__(self, tmp_path: Path) -> None:
        self.history = HistoryStore(tmp_path / "history.db")
        self.engine, self.notices, self.loop = Engine(), NoticeBar(), Loop()
        self.loading = False
        self.shown: list[UiEvent] = []
        self.owner = Session(self.history, self.engine, self.notices, self.loop,
                             self.shown.append, summary_messages=exchange,
                             index_path=str(tmp_path / "passages.db"),
                             model_loading=lambda: self.loading)
        self.owner.requests.model_ready, self.owner.requests.model_name = True, "m"
        self.store, self.jobs = self.owner.store, self.owner.requests
        self.session, self.queue = self.owner.documents, self.owner.document_queue

    @property
    def events(self) -> list[object]:
        return [event for event in self.shown if isinstance(event, shown.DocumentEvent)]

    def said(self, kind: type) -> list[object]:
        return [event for event in self.events if isinstance(event, kind)]

    def answer(self, event_of: type, **values: object) -> None:
        """The engine's event for the request in flight."""
        request_id = self.session.request_id
        assert request_id is not None
        self.owner.on_event(event_of(request_id=request_id, conversation_id=None, **values))


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
    assert _document_job(docs) is not None and _document_job(docs).kind is JobKind.LOOK
    assert docs.events[:2] == [shown.Checking("report.pdf"), shown.HereChanged(True)]
    with pytest.raises(dataclasses.FrozenInstanceError):
        task.stage = Stage.CHOSEN      # type: ignore[misc]  # replaced whole, never changed

    docs.answer(DocumentInspected, overview=overview("report.pdf"))
    owner = docs.store.conversation_id
    assert docs.said(shown.OverviewReady) == [shown.OverviewReady(
        overview("report.pdf"), "short", "", False, path, owner)]
    assert docs.session.task.stage is Stage.CHOSEN and _document_job(docs) is None
    assert [d.name for d in docs.history.documents(owner)] == ["report.pdf"]   # on its list

    assert docs.session.summarize("detailed", "  what does it cost?  ")
    request = docs.engine.documents[-1]
    assert not request.inspect_only and (request.preset, request.question) == \
        ("detailed", "what does it cost?")
    assert _document_job(docs).kind is JobKind.SUMMARY and docs.jobs.busy
    docs.owner.on_event(progress(docs.session.request_id))
    docs.answer(DocumentFinished, overview=overview("report.pdf"), summary=summary("Budgets."))
    assert docs.said(shown.Started) == [shown.Started("report.pdf")]
    assert len(docs.said(shown.Progress)) == 1
    assert docs.said(shown.Done) == [shown.Done(summary("Budgets."))]
    assert [m.content for m in docs.store.messages] == ["Document: report.pdf (detailed)",
                                                        "Budgets."]
    assert docs.session.task is None and _document_job(docs) is None and not docs.notices.posted


def test_events_of_other_requests_are_not_the_sessions(docs, tmp_path):
    assert docs.session.open_file(_file(tmp_path, "report.pdf"))
    before = list(docs.events)
    docs.owner.on_event(DocumentInspected(999, None, overview("other.pdf")))
    docs.owner.on_event(RequestFailed(999, CorruptDocumentError("broken")))
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
    assert docs.session.task is None and _document_job(docs) is None
    assert not docs.history.exists(provisional)       # named for a file it never held
    assert docs.session.open_file(_file(tmp_path, "good.pdf"))
    assert docs.notices.withdrawn == [docs.notices.posted[0]]   # the stale notice goes


def test_a_failed_send_leaves_nothing_in_hand(docs, tmp_path):
    docs.engine.fail_next = EngineError("No model is loaded yet.")
    assert not docs.session.open_file(_file(tmp_path, "report.pdf"))
    assert docs.session.task is None and _document_job(docs) is None
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


def test_a_document_attached_while_the_model_loads_is_read_once_it_is_ready(docs, tmp_path):
    docs.owner.set_model_ready(False)
    docs.loading = True
    path = _file(tmp_path, "report.pdf")
    assert docs.queue.attach([path]) and docs.queue.attach([path])
    assert docs.queue.held == (path,) and not docs.engine.documents
    assert docs.said(shown.WaitingForModel)[-1].names == "report.pdf"
    docs.owner.chat.new_chat()                   # shown in any conversation meanwhile
    assert docs.events[-1] == shown.HereChanged(True)
    docs.loading = False
    docs.owner.set_model_ready(False, failed=True)
    assert "could not be loaded" in docs.said(shown.WaitingForModel)[-1].why
    assert docs.queue.held == (path,) and not docs.engine.documents
    docs.owner.set_model_ready(True)             # the session reads what waited
    assert docs.jobs.model_ready and docs.queue.held == ()
    assert docs.engine.documents[-1].path == path and docs.said(shown.Checking)
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
    docs.store.delete(doomed)                   # the user deletes it: the chat tells the card
    assert docs.engine.stopped == [request_id]
    assert docs.events[-2:] == [shown.Closed(), shown.HereChanged(False)]   # then New chat
    assert docs.session.task is None and _document_job(docs) is None
    docs.owner.on_event(DocumentFinished(request_id, None, overview("report.pdf"),
                                           summary("Too late.")))
    assert docs.store.messages == [] and not docs.said(shown.Done)


def test_the_card_follows_its_conversation(docs, tmp_path):
    assert docs.session.open_file(_file(tmp_path, "report.pdf"))
    docs.answer(DocumentInspected, overview=overview("report.pdf"))
    owner = docs.store.conversation_id
    docs.owner.chat.new_chat()                      # not shown there
    assert docs.events[-1] == shown.HereChanged(False)
    docs.owner.chat.open_conversation(owner)        # back in its own
    assert docs.events[-1] == shown.HereChanged(True)
    docs.owner.chat.new_chat()
    docs.queue.dismiss()
    assert docs.session.task is None and docs.events[-1] == shown.Closed()


# ---- with the chat: what the user does there reaches the document session directly --------

def test_write_again_and_edit_in_the_chat_read_the_document_again(docs, tmp_path):
    _summarised(docs, _file(tmp_path, "report.pdf"), "First summary.")
    docs.owner.chat.regenerate()                  # Write again on the summary
    task = docs.session.task
    assert (task.stage, task.replace_from, task.summary_only) == (Stage.SUMMARISING, 1, True)
    assert [m.content for m in docs.store.messages] == ["Document: report.pdf (short)"]
    docs.answer(DocumentFinished, overview=overview("report.pdf"), summary=summary("Second."))
    assert [m.content for m in docs.store.messages] == ["Document: report.pdf (short)",
                                                        "Second."]
    assert not docs.engine.asked                  # no chat answer was asked for

    docs.owner.chat.edit_document(1)              # not a "Document:" message: nothing
    assert docs.session.task is None
    docs.owner.chat.edit_document(0)              # Edit on "Document:": its card, to change
    assert docs.session.task.stage is Stage.LOOKING and docs.engine.documents[-1].inspect_only
    docs.answer(DocumentInspected, overview=overview("report.pdf"))
    assert docs.said(shown.OverviewReady)[-1].replacing
    assert docs.session.summarize("detailed")
    docs.answer(DocumentFinished, overview=overview("report.pdf"), summary=summary("Third."))
    assert [m.content for m in docs.store.messages] == ["Document: report.pdf (detailed)",
                                                        "Third."]


def test_a_summarys_events_go_to_the_document_session_and_a_waiting_message_goes_after(
        docs, tmp_path):
    path = _file(tmp_path, "report.pdf")
    assert docs.session.open_file(path)
    docs.answer(DocumentInspected, overview=overview("report.pdf"))
    assert docs.session.summarize("short")
    request_id = docs.session.request_id
    assert [e for e in docs.shown if isinstance(e, BusyChanged)][-1] == \
        BusyChanged(True, "Reading the document…")
    assert docs.owner.chat.send("And the costs?")           # it waits for the summary
    assert not docs.engine.asked
    docs.owner.on_event(progress(request_id))
    docs.owner.on_event(StepRecord(request_id, "x", 1, 1, 10, 100.0, 20.0, 0.1, 11, 4096))
    assert len(docs.said(shown.Progress)) == 1                # the card's, not the chat's
    assert [e for e in docs.shown if isinstance(e, StepShown)][-1].reading_document
    assert not [e for e in docs.shown if isinstance(e, AnswerPiece)]
    docs.answer(DocumentFinished, overview=overview("report.pdf"), summary=summary("Costs."))
    docs.loop.turn()
    assert [r.messages[-1].content for r in docs.engine.asked] == ["And the costs?"]


# ---- QA: a document dropped while another is summarised ------------------------------------

def test_a_document_dropped_during_a_summary_says_what_it_waits_for_and_the_notice_goes(
        docs, tmp_path):
    path = _file(tmp_path, "report.pdf")
    assert docs.session.open_file(path)
    docs.queue.attach([_file(tmp_path, "other.pdf")])       # while it is read
    assert docs.notices.posted == [("info", "Please wait until the document has been read.")]
    docs.answer(DocumentInspected, overview=overview("report.pdf"))
    assert docs.notices.withdrawn == [docs.notices.posted[0]]          # it has been read
    assert docs.session.summarize("short")
    docs.queue.attach([_file(tmp_path, "other.pdf")])       # while it is summarised
    docs.queue.attach([_file(tmp_path, "third.pdf")])       # said once, not twice
    waited = ("info", "Please wait until the document has been summarised.")
    assert docs.notices.posted[1:] == [waited, waited]
    assert docs.notices.withdrawn == [docs.notices.posted[0], waited]
    docs.answer(DocumentFinished, overview=overview("report.pdf"), summary=summary("Budgets."))
    assert docs.notices.withdrawn == [docs.notices.posted[0], waited, waited]   # all ended
    assert len(docs.engine.documents) == 2            # its look and its summary: no other


def test_a_document_dropped_during_an_answer_waits_for_the_answer(docs, tmp_path):
    assert docs.owner.chat.send("Hello?")
    request_id = docs.jobs.current.request_id
    assert not docs.queue.attach([_file(tmp_path, "report.pdf")])
    notice = ("info", "Please wait until the current answer is finished.")
    assert docs.notices.posted == [notice] and not docs.notices.withdrawn
    docs.owner.on_event(RequestFinished(request_id, "Hi.", ResponseStats(
        request_id=request_id, prompt_tokens=10, generated_tokens=3, prompt_tps=100.0,
        decode_tps=20.0, ttft_s=0.1, total_s=0.3, context_used=13, context_size=4096,
        stop_reason=StopReason.EOS)))
    assert docs.notices.withdrawn == [notice]


def test_a_documents_problem_goes_when_the_user_goes_elsewhere_not_when_the_app_does(
        docs, tmp_path):
    _summarised(docs, _file(tmp_path, "report.pdf"))
    earlier = docs.store.conversation_id
    docs.owner.chat.new_chat()
    assert docs.session.open_file(_file(tmp_path, "broken.pdf"))
    docs.answer(RequestFailed, error=CorruptDocumentError("The file is damaged."))
    problem = docs.notices.posted[-1]
    assert problem[0] == "error" and docs.store.conversation_id is None   # its chat went
    assert not docs.notices.withdrawn                  # the app left it: the notice stays
    docs.owner.chat.open_conversation(earlier)         # the user goes elsewhere: it goes
    assert docs.notices.withdrawn == [problem]
    assert docs.session.open_file(_file(tmp_path, "broken.pdf"))
    docs.answer(RequestFailed, error=CorruptDocumentError("The file is damaged."))
    assert docs.notices.withdrawn == [problem]
    docs.owner.chat.new_chat()                         # New chat: it goes too
    assert docs.notices.withdrawn == [problem, docs.notices.posted[-1]]


def test_a_documents_problem_goes_when_the_user_deletes_its_conversation(docs, tmp_path):
    _summarised(docs, _file(tmp_path, "other.pdf"))
    other = docs.store.conversation_id
    docs.owner.chat.new_chat()
    _summarised(docs, _file(tmp_path, "report.pdf"))
    here = docs.store.conversation_id
    assert docs.session.open_file(_file(tmp_path, "broken.pdf"))
    docs.answer(RequestFailed, error=CorruptDocumentError("The file is damaged."))
    problem = docs.notices.posted[-1]
    assert problem[0] == "error" and docs.store.conversation_id == here   # it holds a summary
    docs.owner.chat.delete(other)                      # another conversation: it stays
    assert not docs.notices.withdrawn and docs.store.conversation_id == here
    docs.owner.chat.delete(here)                       # the user deletes this one: it goes
    assert docs.notices.withdrawn == [problem] and docs.store.conversation_id is None
    assert not docs.history.exists(here)

# ---- QA: a document read again is on its conversation's list again -------------------------

@pytest.mark.parametrize("again", ["edit", "write_again"])
def test_a_document_read_again_comes_back_to_the_list(docs, tmp_path, again):
    _summarised(docs, _file(tmp_path, "report.pdf"), "First summary.")
    owner = docs.store.conversation_id
    assert docs.history.remove_document(owner, "sha-report.pdf")      # the user's ✕
    if again == "edit":
        assert docs.session.edit(0)
        docs.answer(DocumentInspected, overview=overview("report.pdf"))
        assert docs.session.summarize("short")
    else:
        assert docs.session.write_again(0)
        assert docs.engine.documents[-1].index_path          # its passages indexed again
        docs.answer(DocumentInspected, overview=overview("report.pdf"))   # the summary's look
    docs.answer(DocumentFinished, overview=overview("report.pdf"), summary=summary("Again."))
    assert [d.name for d in docs.history.documents(owner)] == ["report.pdf"]
    assert shown.ListChanged() in docs.events[-3:]
