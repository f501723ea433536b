"""The requests in flight: each answer by its request id, bound to the conversation that
asked for it; the one streaming into the open chat; a document read using the engine; the
message that waits for them. Plain Python: it tells its owner what changed through the
callbacks of ``RequestEvents`` (app.chat.chat_controller turns them into Qt signals).
``Requests`` is what another flow (app.documents.document_flow) may use of it.

Every answer is an ``Job`` keyed by the request id its engine events carry, and
bound to the conversation that asked for it, so it is written to its own conversation,
never to the one now open. A document summary (``app.documents.document_flow``) is an "external"
request bound the same way, and follows the same rules:

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
    """What a flow that uses the engine for a conversation sees (app.documents.document_flow)."""

    @property
    def busy(self) -> bool: ...

    model_ready: bool
    model_name: str

    def begin_external(self, request_id: int, phase: str,
                       conversation_id: int | None = None,
                       kind: JobKind = JobKind.SUMMARY) -> None: ...

    def end_external(self) -> None: ...


def _nothing(*_args: object) -> None:
    return None


@dataclass
class RequestEvents:
    """What the tracker reports; each defaults to nothing."""
    activity: Callable[[dict[int, str]], None] = _nothing    # RequestTracker.activity()
    external_shown: Callable[[bool, str], None] = _nothing  # busy, phase, in the open chat
    external_ended: Callable[[], None] = _nothing           # a waiting message may go now


@dataclass
class Queued:
    """A message sent while an answer is written or a document read in its conversation."""
    conversation_id: int | None
    text: str


@dataclass
class RequestTracker:
    """Requests in flight, by request id. ``open_conversation`` says which one the user
    sees; the engine's events come in through ``started``, ``token``, ``thinking`` and
    ``finish``."""
    engine: Engine
    open_conversation: Callable[[], int | None]
    events: RequestEvents = field(default_factory=RequestEvents)
    answers: dict[int, Job] = field(default_factory=dict)   # until each ends
    current: Job | None = None            # the one streaming into the open chat
    external: Job | None = None              # a document's look or summary (JobKind)
    queued: Queued | None = None             # it waits and goes when that ends
    save_interval_s: float = SAVE_INTERVAL_S
    model_name: str = ""
    model_ready: bool = False
    system_prompt: str = ""
    temperature: float = 0.7
    model_sampling: bool = True              # the model's own defaults (Settings)

    @property
    def busy(self) -> bool:
        """Something is being written into the open conversation."""
        return self.current is not None or self.external_here()

    @property
    def external_id(self) -> int | None:
        return self.external.request_id if self.external is not None else None

    def external_here(self) -> bool:
        return self.external is not None and \
            self.external.conversation_id == self.open_conversation()

    def shows(self, request_id: int) -> bool:
        """Is this the answer (or document summary) being written into the open chat?"""
        if self.external_here() and request_id == self.external_id:
            return True
        return self.current is not None and self.current.request_id == request_id

    @property
    def partial(self) -> str:
        return self.current.text if self.current is not None else ""

    def running_in(self, conversation_id: int) -> Job | None:
        """The answer still being written into this conversation (it was left), if any."""
        return next((a for a in self.answers.values() if a.conversation_id == conversation_id
                     and not a.dropped and not a.stop_reason), None)

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
        self.answers[request_id] = self.current
        self.report_activity()
        return self.current

    def waiting(self, answer: Job) -> Wait | None:
        """Why ``answer`` waits its turn, or None."""
        if answer.started:
            return None
        if any(a is not answer and not a.dropped for a in self.answers.values()) \
                or self.external is not None:
            return Wait.OTHER
        return Wait.PREVIOUS if self.engine.waits(answer.request_id) else None

    def activity(self) -> dict[int, str]:
        """Which conversations are being written into, and which wait their turn."""
        doing: dict[int, str] = {}
        if self.external is not None and self.external.conversation_id is not None:
            doing[self.external.conversation_id] = WRITING_NOW
        for answer in self.answers.values():
            if not answer.dropped and answer.conversation_id is not None:
                state = WAITING if self.waiting(answer) else WRITING_NOW
                if doing.get(answer.conversation_id) != WRITING_NOW:
                    doing[answer.conversation_id] = state
        return doing

    def report_activity(self) -> None:
        self.events.activity(self.activity())

    # ---- another flow using the engine (app.documents.document_flow) -------------------------------

    def begin_external(self, request_id: int, phase: str,
                       conversation_id: int | None = None,
                       kind: JobKind = JobKind.SUMMARY) -> None:
        """Sending in that conversation waits, and Stop there stops this request, until
        ``end_external``."""
        self.external = Job(request_id, conversation_id, self.model_name, kind, phase)
        if self.external_here():
            self.events.external_shown(True, phase)
        self.report_activity()

    def end_external(self) -> None:
        was_here, self.external = self.external_here(), None
        self.report_activity()
        if was_here:
            self.events.external_shown(self.busy, "")
        self.events.external_ended()

    def begin(self, job: Job) -> None:
        """A document's job (app.session.document_session.Jobs) in the external slot."""
        self.begin_external(job.request_id, job.phase, job.conversation_id, job.kind)

    def end(self, request_id: int) -> Job | None:
        """That job ended (None: it is not the one in the slot)."""
        job = self.external
        if job is None or job.request_id != request_id:
            return None
        self.end_external()
        return job

    # ---- engine events ----------------------------------------------------------------------

    def started(self, request_id: int) -> Job | None:
        """The engine took this request; it may have waited behind another one."""
        answer = self.answers.get(request_id)
        if answer is not None:
            answer.started = True
            self.report_activity()
        return answer

    def live(self, request_id: int) -> Job | None:
        """Its answer, while it is still wanted (None: not ours, or dropped)."""
        answer = self.answers.get(request_id)
        return None if answer is None or answer.dropped else answer

    def token(self, request_id: int) -> Job | None:
        """The answer a piece of text is for: it has begun, whatever it waited for."""
        answer = self.live(request_id)
        if answer is not None and not answer.started:
            answer.started = True
            self.report_activity()
        return answer

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
        answer = self.answers.get(event.request_id)
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

    def finish(self, request_id: int, text: str, stats: MessageStats) -> Job | None:
        """It ended (None: not one of ours): no longer in flight; its final text, and
        its stop reason is the app's when the app stopped it (``stop_reason``)."""
        answer = self.answers.pop(request_id, None)
        if answer is None:
            return None
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
        if self.current is not None:
            self.engine.stop(self.current.request_id)
        elif self.external is not None and self.external_here():
            self.engine.stop(self.external.request_id)
        else:
            return False
        return True

    def stop_everything(self, reason: str = StopReason.RELOADED) -> None:
        """The model is being changed: every answer, left ones included, stops and is kept,
        labelled ``reason``; a summary keeps what it has (app.documents.document_flow)."""
        for answer in list(self.answers.values()):
            answer.stop_reason = answer.stop_reason or reason
            self.engine.stop(answer.request_id)
        if self.external is not None:
            self.engine.stop(self.external.request_id)

    def drop_conversation(self, conversation_id: int) -> None:
        """Its conversation is deleted: its answers stop and nothing of them is kept, in the
        engine's memory of it either."""
        self.engine.forget_conversation(conversation_id)
        for answer in self.answers.values():
            if answer.conversation_id == conversation_id:
                answer.dropped = True
                self.engine.stop(answer.request_id)
        if self.queued is not None and self.queued.conversation_id == conversation_id:
            self.queued = None                             # nowhere to send it any more

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
        self.queued = None
        for request_id, answer in self.answers.items():
            answer.stop_reason = answer.stop_reason or StopReason.CLOSED
            self.engine.stop(request_id)
        return list(self.answers.values())

    # ---- a message that waits ---------------------------------------------------------------

    def queue(self, text: str) -> bool:
        """False: one waits already (this one stays in the box)."""
        if self.queued is not None:
            return False
        self.queued = Queued(self.open_conversation(), text)
        return True

    def queued_here(self) -> str:
        """The text waiting in the open conversation ("" : none)."""
        if self.queued is None or self.queued.conversation_id != self.open_conversation():
            return ""
        return self.queued.text

    def waits_in(self, conversation_id: int) -> bool:
        """A message waits to be sent in this conversation."""
        return self.queued is not None and self.queued.conversation_id == conversation_id

    def take_queued(self) -> Queued | None:
        queued, self.queued = self.queued, None
        return queued

    def may_send_queued(self) -> bool:
        """Not while the next document of the same drop is read, or while Write again
        writes a new answer where it waits (it goes when that one ends)."""
        return self.queued is not None and not self.external_here() and not (
            self.queued.conversation_id == self.open_conversation() and self.current is not None)


def document_stats(answered: DocumentAnswered) -> DocumentData:
    """What an answer from documents keeps of how it was read: the pages, and its page
    references checked (the stats under the answer, the history)."""
    checked = [c for c in answered.checks if c.status != "unchecked"]
    return {"mode": answered.mode,
            "read": [[p.document, p.label, p.page] for p in answered.passages],
            "citations": {"checked": len(checked),
                          "passed": sum(1 for c in checked if c.status == "found"),
                          "not_found": [c.marker for c in checked if c.failed]}}
