"""The session's jobs, driven without Qt: every engine request is a Job of its kind, bound
to its conversation, and what it keeps is typed (MessageStats)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from engine.api import ChatRequest, StopReason
from app.conversation.history import StoredMessage
from app.conversation.message_stats import MessageStats
from app.session import Job, JobKind, RequestTracker


ROOT = Path(__file__).resolve().parents[2]


class Engine:
    """The engine as the tracker sees it: request ids, and what was stopped."""

    def __init__(self) -> None:
        self.asked: list[ChatRequest] = []
        self.stopped: list[int | None] = []

    def chat(self, request: ChatRequest) -> int:
        self.asked.append(request)
        return request.request_id

    def stop(self, request_id: int | None = None) -> None:
        self.stopped.append(request_id)

    def waits(self, request_id: int) -> bool:
        return False

    def forget_conversation(self, conversation_id: int) -> None:
        pass


def _tracker(open_conversation: int | None = 1) -> tuple[RequestTracker, Engine]:
    engine = Engine()
    return RequestTracker(engine, lambda: open_conversation, model_name="m"), engine


def test_a_chat_answer_and_a_document_read_are_jobs_of_their_kind():
    tracker, engine = _tracker()
    question = (StoredMessage("user", "hello"),)
    answer = tracker.ask(1, question, None)
    assert (answer.kind, answer.conversation, answer.model_name) == (JobKind.ANSWER, 1, "m")
    assert engine.asked[0].conversation_id == 1
    look = Job(99, 1, kind=JobKind.LOOK, phase="Looking at the document…")
    tracker.begin(look)                              # in the same table as the answer
    assert tracker.jobs == {answer.request_id: answer, 99: look} and look.model_name == "m"
    assert tracker.document_here() is look and tracker.shows(99) and tracker.busy
    tracker.stop()                                   # Stop in its conversation stops the answer
    assert engine.stopped == [answer.request_id]
    assert tracker.end(99) is look and tracker.document_here() is None
    assert tracker.end(answer.request_id) is None    # an answer ends by its own events


def test_a_document_read_elsewhere_does_not_make_the_open_chat_busy():
    tracker, _engine = _tracker(open_conversation=2)
    tracker.begin(Job(4, 1, kind=JobKind.LOOK, phase="Looking at the document…"))
    tracker.begin(Job(5, 1, kind=JobKind.SUMMARY, phase="Reading the document…"))
    assert list(tracker.jobs) == [5]                 # one document job at a time
    assert tracker.document_here() is None
    assert not tracker.busy and not tracker.shows(5)
    assert tracker.activity() == {1: "writing"}


def test_an_ended_job_keeps_typed_stats_on_its_message():
    tracker, _engine = _tracker()
    job = tracker.ask(1, (StoredMessage("user", "hi"),), None)
    job.text = "Hello there"
    stats = MessageStats(stop_reason=StopReason.EOS, generated_tokens=3)
    message = job.saved(stats)
    assert message is not None and message.stats is stats and job.stats is stats
    assert message.stats.to_data() == {"stop_reason": "eos", "generated_tokens": 3}
    job.dropped = True
    assert job.saved(stats) is None                  # a replaced answer keeps nothing


def test_the_session_loads_no_qt():
    loaded = subprocess.run(
        [sys.executable, "-c", "import sys, app.session.session; "
         "print(sorted({m.split('.')[0] for m in sys.modules} & {'PySide6', 'shiboken6', 'qasync'}))"],
        cwd=ROOT, capture_output=True, text=True, timeout=60, check=True)
    assert loaded.stdout.strip() == "[]"
