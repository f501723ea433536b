"""The requests in flight: every engine request is a ``Job`` (an answer, a question about
documents, a document's look or summary) in one table keyed by the request id its engine
events carry, bound to the conversation that asked for it; the answer streaming into the
open chat; the message that waits for them (app.session.waiting). Plain Python: it tells
its owner what changed through the callbacks of ``RequestEvents`` (app.session.chat_session
turns them into UI events). ``Requests`` is what another flow (app.session.document_session)
may use of it.

Each job is written to its own conversation, never to the one now open. A document job
(``begin``/``end``, by app.session.document_session) follows the same rules as an answer:

- Leaving its conversation (New chat, opening another): it goes on and is written into
  its own conversation; opening that conversation again shows it still being written.
  A message sent meanwhile elsewhere waits its turn (the engine writes one at a time).
- Stop (or Escape): it ends now; what was written is kept, labelled "You stopped".
- Write again / Edit: it is replaced; nothing more of it is written and its saved part
  is deleted. On a summary, Write again reads the document again with the same style
  and question; Edit on its "Document:" message opens the card to change either.
- Deleting its conversation: it is stopped and nothing of it is kept.
- Changing the model, or quitting: it is stopped and kept, labelled with why.
- An answer that ends without any text is not kept: its question stays (with Write
  again), and a notice says the model gave no answer and the likely reason.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field
from typing import Callable, Protocol

from engine.api import ChatMessage, ChatRequest, DocumentAnswered, DocumentScope, RequestFinished, \
    StopReason
from app.conversation.chat_text import Wait
from app.conversation.history import WRITING, StoredMessage
from app.conversation.message_stats import DocumentData, MessageStats
from app.session.jobs import Job, JobKind
from app.session.waiting import WaitingMessage

log = logging.getLogger("rotary.chat")
SAVE_INTERVAL_S = 1.0      # at most about this much streamed text is lost in a crash
# What a conversation in the list is doing (RequestTracker.activity).
WRITING_NOW, WAITING = "writing", "waiting"


class Engine(Protocol):
    """What the tracker asks of the engine (app.bridge.engine_bridge.EngineBridge)."""

    def chat(self, request: ChatRequest) -> int: ...

    def stop(self, request_id: int | None = None) -> None: ...

    def waits(self, request_id: int) -> bool: ...

    def forget_conversation(self, conversation_id: int) -> None: ...


class Requests(Protocol):
    """What a flow that uses the engine for a conversation sees (app.session.document_session)."""

    @property
    def busy(self) -> bool: ...

    model_ready: bool
    model_name: str

    def begin(self, job: Job) -> None: ...

    def end(self, request_id: int) -> Job | None: ...


def _nothing(*_args: object) -> None:
    return None


@dataclass
class RequestEvents:
    """What the tracker reports; each defaults to nothing."""
    activity: Callable[[dict[int, str]], None] = _nothing    # RequestTracker.activity()
    document_shown: Callable[[bool, str], None] = _nothing  # busy, phase, in the open chat
    document_ended: Callable[[], None] = _nothing           # a waiting message may go now


DOCUMENT_JOBS = (JobKind.LOOK, JobKind.SUMMARY)


@dataclass
class RequestTracker:
    """Every job in flight, by request id. ``open_conversation`` says which conversation
    the user sees; the engine's events come in through ``started``, ``token`` and ``finish``
    (answers) and ``end`` (documents)."""
    engine: Engine
    open_conversation: Callable[[], int | None]
    events: RequestEvents = field(default_factory=RequestEvents)
    jobs: dict[int, Job] = field(default_factory=dict)   # until each ends
    current: Job | None = None            # the answer streaming into the open chat
    save_interval_s: float = SAVE_INTERVAL_S
    model_name: str = ""
    model_ready: bool = False
    system_prompt: str = ""
    temperature: float = 0.7
    model_sampling: bool = True              # the model's own defaults (Settings)

    def __post_init__(self) -> None:
        self.waiting_message = WaitingMessage(self.open_conversation)

    @property
    def busy(self) -> bool:
        """Something is being written into the open conversation."""
        return self.current is not None or self.document_here() is not None

    def document_here(self) -> Job | None:
        """The document being looked at or summarised (one at a time), when it belongs to
        the open conversation."""
        return next((job for job in self.jobs.values() if job.kind in DOCUMENT_JOBS
                     and job.conversation_id == self.open_conversation()), None)

    def shows(self, request_id: int) -> bool:
        """Is this the answer (or document job) being written into the open chat?"""
        here = self.document_here()
        if here is not None and here.request_id == request_id:
            return True
        return self.current is not None and self.current.request_id == request_id

    @property
    def partial(self) -> str:
        return self.current.text if self.current is not None else ""

    def running_in(self, conversation_id: int) -> Job | None:
        """The answer still being written into this conversation (it was left), if any."""
        return next((a for a in self.jobs.values() if a.conversation_id == conversation_id
                     and a.kind not in DOCUMENT_JOBS and not a.dropped and not a.stop_reason),
                    None)

    # ---- asking ---------------------------------------------------------------------------

    def ask(self, conversation_id: int, sent: tuple[StoredMessage, ...], think: bool | None,
            documents: DocumentScope | None = None) -> Job:
        """Send the open conversation's messages; the answer streams into it. With
        ``documents`` the engine answers the last question from their passages and checks
        its page references (RequestFinished.document). Raises EngineError (no model yet)."""
        if not sent or sent[-1].role != "user":
            documents = None                  # only a question is answered from documents
        system = (ChatMessage("system", self.system_prompt),) if self.system_prompt.strip() \
            else ()
        request_id = self.engine.chat(ChatRequest(
            system + tuple(ChatMessage(m.role, m.content) for m in sent),
            temperature=self.temperature, conversation_id=conversation_id, think=think,
            # as before: an answer from documents samples at the chosen temperature
            model_sampling=self.model_sampling and documents is None, documents=documents))
        self.current = Job(request_id, conversation_id, self.model_name, sent=sent,
                           kind=JobKind.ANSWER if documents is None else JobKind.QUESTION)
        self.jobs[request_id] = self.current
        self.report_activity()
        return self.current

    def waiting(self, answer: Job) -> Wait | None:
        """Why ``answer`` waits its turn, or None."""
        if answer.started:
            return None
        if any(a is not answer and not a.dropped for a in self.jobs.values()):
            return Wait.OTHER
        return Wait.PREVIOUS if self.engine.waits(answer.request_id) else None

    def activity(self) -> dict[int, str]:
        """Which conversations are being written into, and which wait their turn."""
        doing: dict[int, str] = {}
        for job in self.jobs.values():
            if job.dropped or job.conversation_id is None:
                continue
            state = WRITING_NOW if job.kind in DOCUMENT_JOBS or not self.waiting(job) \
                else WAITING
            if doing.get(job.conversation_id) != WRITING_NOW:
                doing[job.conversation_id] = state
        return doing

    def report_activity(self) -> None:
        self.events.activity(self.activity())

    # ---- a document's look or summary (app.session.document_session) -----------------------

    def begin(self, job: Job) -> None:
        """A document job: sending in its conversation waits, and Stop there stops it,
        until ``end``. One at a time: it replaces one the document session no longer follows."""
        for stale in [j.request_id for j in self.jobs.values() if j.kind in DOCUMENT_JOBS]:
            del self.jobs[stale]
        job.model_name = job.model_name or self.model_name
        self.jobs[job.request_id] = job
        if job.conversation_id == self.open_conversation():
            self.events.document_shown(True, job.phase)
        self.report_activity()

    def end(self, request_id: int) -> Job | None:
        """The document job ended (None: no such job in flight)."""
        job = self.jobs.get(request_id)
        if job is None or job.kind not in DOCUMENT_JOBS:
            return None
        was_here = self.document_here() is job
        del self.jobs[request_id]
        self.report_activity()
        if was_here:
            self.events.document_shown(self.busy, "")
        self.events.document_ended()
        return job

    # ---- engine events ----------------------------------------------------------------------

    def started(self, request_id: int) -> Job | None:
        """The engine took this request; it may have waited behind another one."""
        answer = self.jobs.get(request_id)
        if answer is not None and not answer.started:
            answer.started = True
            self.report_activity()
        return answer

    def live(self, request_id: int) -> Job | None:
        """Its job, while it is still wanted (None: not ours, or dropped)."""
        answer = self.jobs.get(request_id)
        return None if answer is None or answer.dropped else answer

    def progress(self, answer: Job, force: bool = False) -> StoredMessage | None:
        """The row to save now, batched: one write per ``save_interval_s``, never one per
        token (at most that much streamed text is lost in a crash)."""
        now = time.monotonic()
        if answer.dropped or not answer.text or (
                not force and now - answer.saved_at < self.save_interval_s):
            return None
        answer.saved_at = now
        if answer.message is None:
            answer.message = StoredMessage("assistant", answer.text,
                                           model_name=answer.model_name, status=WRITING,
                                           thinking=answer.thinking)
        else:
            answer.message.content, answer.message.thinking = answer.text, answer.thinking
        return answer.message

    def finished_stats(self, event: RequestFinished) -> MessageStats:
        """What its answer keeps of the engine's numbers (the label under it, the gauge);
        the engine's thinking, cleaned of markers, replaces the streamed one; an answer from
        documents keeps how it was read."""
        stats = MessageStats(decode_tps=round(event.stats.decode_tps, 1),
                             generated_tokens=event.stats.generated_tokens,
                             stop_reason=event.stats.stop_reason,
                             thinking_tokens=event.stats.thinking_tokens)
        answer = self.jobs.get(event.request_id)
        if answer is not None and event.thinking:
            answer.thinking = event.thinking
        if event.document is not None:
            stats = stats.with_(document_answer=document_stats(event.document))
        context = event.context
        if context is not None and answer is not None and not answer.dropped:
            if context.context_size:        # an office server may not say its size
                stats = stats.with_(context_tokens=context.kept_tokens,
                                    context_size=context.context_size)
            if context.thinking_stopped:
                stats = stats.with_(thinking_stopped=True)
        return stats

    def finish(self, request_id: int, text: str) -> Job | None:
        """The answer ended (None: not one of ours): no longer in flight; its final text."""
        answer = self.jobs.get(request_id)
        if answer is None or answer.kind in DOCUMENT_JOBS:
            return None
        del self.jobs[request_id]
        self.report_activity()
        if answer is self.current:
            self.current = None
        answer.text = text or answer.text
        return answer

    @staticmethod
    def gave_nothing(answer: Job, stats: MessageStats) -> bool:
        """An answer kept nothing although the model ended by itself (not stopped, not
        failed): the user is told, with the likely why; the log says what the model did."""
        if stats.stop_reason in (StopReason.STOPPED, StopReason.RELOADED, StopReason.CLOSED,
                                    StopReason.FAILED):
            return False
        log.warning("the model gave no answer: request %d, %s tokens, stop reason %s, "
                    "text %r", answer.request_id, stats.generated_tokens,
                    stats.stop_reason, answer.text[:80])
        return True

    # ---- stopping -------------------------------------------------------------------------

    def stop(self) -> bool:
        """Stop what is being written into the open conversation (False: nothing is)."""
        here = self.current or self.document_here()
        if here is None:
            return False
        self.engine.stop(here.request_id)
        return True

    def stop_everything(self, reason: str = StopReason.RELOADED) -> None:
        """The model is being changed: every job, left ones included, stops; an answer is
        kept, labelled ``reason``; a summary keeps what it has (app.session.document_session)."""
        for job in list(self.jobs.values()):
            if job.kind not in DOCUMENT_JOBS:
                job.stop_reason = job.stop_reason or reason
            self.engine.stop(job.request_id)

    def drop_conversation(self, conversation_id: int) -> None:
        """Its conversation is deleted: its answers stop and nothing of them is kept, in the
        engine's memory of it either (its document job is the document session's)."""
        self.engine.forget_conversation(conversation_id)
        for answer in self.jobs.values():
            if answer.conversation_id == conversation_id and answer.kind not in DOCUMENT_JOBS:
                answer.dropped = True
                self.engine.stop(answer.request_id)
        self.waiting_message.drop(conversation_id)        # nowhere to send it any more

    def drop_current(self) -> Job | None:
        """Write again / Edit: the answer being written is replaced (returned, to delete
        its saved part)."""
        answer, self.current = self.current, None
        if answer is not None:
            answer.dropped = True
            self.engine.stop(answer.request_id)
        return answer

    def leave(self) -> Job | None:
        """The open conversation is left: its answer goes on (returned, to save it)."""
        answer, self.current = self.current, None
        return answer

    def close(self) -> list[Job]:
        """Rotary is quitting: each answer stops, labelled so (returned, to end each)."""
        self.waiting_message.drop()
        answers = [job for job in self.jobs.values() if job.kind not in DOCUMENT_JOBS]
        for answer in answers:
            answer.stop_reason = answer.stop_reason or StopReason.CLOSED
            self.engine.stop(answer.request_id)
        return answers

    def may_send_queued(self) -> bool:
        """Not while the next document of the same drop is read, or while Write again
        writes a new answer where it waits (it goes when that one ends)."""
        queued = self.waiting_message.queued
        return queued is not None and self.document_here() is None and not (
            queued.conversation_id == self.open_conversation() and self.current is not None)


def document_stats(answered: DocumentAnswered) -> DocumentData:
    """What an answer from documents keeps of how it was read: the pages, and its page
    references checked (the stats under the answer, the history)."""
    checked = [c for c in answered.checks if c.status != "unchecked"]
    return {"mode": answered.mode,
            "read": [[p.document, p.label, p.page] for p in answered.passages],
            "citations": {"checked": len(checked),
                          "passed": sum(1 for c in checked if c.status == "found"),
                          "not_found": [c.marker for c in checked if c.failed]}}
