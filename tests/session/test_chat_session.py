"""The chat session driven without Qt: a real history database, an engine double that records
what it is asked, the engine's own events handed to ``Session.on_event``, and a list that
collects the UI events the session reports through its one callback."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from engine.api import (RequestFailed, RequestFinished,
                        RequestStarted, ResponseStats, StepRecord, StopReason)
from engine.errors import EngineError, MessageTooLongError
from app.conversation.history import HistoryStore
from app.session.events import (ActivityChanged, AnswerDone, AnswerPiece, AnswerStarted,
                                ConversationOpened,
                                BusyChanged, MessageAdded, PhaseChanged,
                                QueuedChanged, RequestEnded, StepShown, ThinkingChanged,
                                Truncated, UiEvent)
from app.session.session import Session
from tests.support.session_doubles import ChatEngine, Loop, NoticeBar, exchange


@dataclass
class World:
    session: Session
    engine: ChatEngine
    loop: Loop
    notices: NoticeBar
    history: HistoryStore
    shown: list[UiEvent]

    def of(self, kind: type) -> list:
        return [event for event in self.shown if isinstance(event, kind)]

    def stream(self, request_id: int, *pieces: str, thinking: str = "") -> None:
        self.session.on_event(RequestStarted(request_id))
        if thinking:
            self.session.on_event(_step(request_id, "", thinking=thinking))
        for piece in pieces:
            self.session.on_event(_step(request_id, piece))

    def finish(self, request_id: int, text: str = "", reason: str = StopReason.EOS) -> None:
        self.session.on_event(RequestFinished(request_id, text, _stats(request_id, reason)))


def _step(request_id: int, text: str, thinking: str = "") -> StepRecord:
    return StepRecord(request_id, text, 1, 1, 10, 100.0, 20.0, 0.1, 11, 4096,
                      thinking=thinking)


def _stats(request_id: int, reason: str) -> ResponseStats:
    return ResponseStats(request_id=request_id, prompt_tokens=10, generated_tokens=3,
                         prompt_tps=100.0, decode_tps=20.0, ttft_s=0.1, total_s=0.3,
                         context_used=13, context_size=4096, stop_reason=reason)


@pytest.fixture
def world(tmp_path):
    history = HistoryStore(tmp_path / "history.db")
    engine, loop, notices, shown = ChatEngine(), Loop(), NoticeBar(), []
    session = Session(history, engine, notices, loop, shown.append, summary_messages=exchange)
    session.requests.model_ready, session.requests.model_name = True, "m"
    yield World(session, engine, loop, notices, history, shown)
    history.close()


def _contents(world: World, conversation: int) -> list[tuple[str, str]]:
    return [(m.role, m.content) for m in world.history.messages(conversation)]


def test_a_message_is_sent_with_its_conversation_and_streams_into_it(world):
    chat, store = world.session.chat, world.session.store
    assert chat.send("  Hello  ")
    conversation = store.conversation_id
    assert conversation is not None and world.engine.asked[0].conversation_id == conversation
    assert world.of(MessageAdded)[0].message.content == "Hello"
    assert world.of(AnswerStarted) == [AnswerStarted(1, 1)]
    assert world.of(BusyChanged)[-1] == BusyChanged(True, "Reading your message…")
    world.stream(1, "Hi", " there", thinking="Greet back.")
    assert world.of(PhaseChanged)[-2:] == [PhaseChanged("Thinking…"),
                                           PhaseChanged("Writing the answer…")]
    assert [e.text for e in world.of(AnswerPiece)] == ["Hi", " there"]
    assert world.of(ThinkingChanged)[:2] == [ThinkingChanged("Greet back.", False),
                                             ThinkingChanged("Greet back.", True)]
    assert world.session.requests.partial == "Hi there"
    assert any(isinstance(e, StepShown) and not e.reading_document for e in world.shown)
    world.finish(1)
    done = world.of(AnswerDone)[-1]
    assert (done.index, done.message.content, done.stop_reason) == (1, "Hi there", "eos")
    assert world.shown[-2:] == [BusyChanged(False, ""), RequestEnded(world.shown[-1].finished)]
    assert _contents(world, conversation) == [("user", "Hello"), ("assistant", "Hi there")]
    saved = world.history.messages(conversation)[-1]
    assert saved.thinking == "Greet back." and saved.stats.generated_tokens == 3
    assert not world.session.requests.busy and not world.session.requests.jobs


def test_an_answer_left_for_a_new_chat_is_written_into_its_own_conversation(world):
    chat, store = world.session.chat, world.session.store
    chat.send("First")
    first = store.conversation_id
    world.stream(1, "Part")
    chat.new_chat()
    assert store.conversation_id is None and not world.session.requests.busy
    shown_before = len(world.of(AnswerPiece))
    world.stream(1, " two")
    assert len(world.of(AnswerPiece)) == shown_before          # not into the open chat
    assert world.of(ActivityChanged)[-1].activity == {first: "writing"}
    world.finish(1)
    assert not world.of(AnswerDone)                             # it ended elsewhere
    assert _contents(world, first) == [("user", "First"), ("assistant", "Part two")]


def test_a_message_sent_while_an_answer_is_written_waits_and_goes_after_it(world):
    chat = world.session.chat
    chat.send("One")
    assert chat.send("Two")                                     # it waits
    assert world.of(QueuedChanged)[-1].text != ""
    assert not chat.send("Three")                               # one waits already
    assert len(world.engine.asked) == 1
    world.stream(1, "Answer one")
    world.finish(1)
    assert len(world.engine.asked) == 1                         # in the next turn of the loop
    world.loop.turn()
    assert len(world.engine.asked) == 2 and world.engine.asked[1].messages[-1].content == "Two"
    assert world.of(QueuedChanged)[-1].text == ""


def test_a_waiting_message_not_sent_because_the_user_left_waits_in_its_own_box(world):
    chat = world.session.chat
    chat.send("One")
    first = world.session.store.conversation_id
    assert chat.send("Two")                                     # it waits in the first
    chat.new_chat()                                             # the user looks elsewhere
    world.finish(1, "Answer one")
    world.loop.turn()
    assert len(world.engine.asked) == 1                         # not sent here
    assert "was not sent" in world.notices.posted[-1][1]
    chat.open_conversation(first)
    assert world.of(ConversationOpened)[-1].draft == "Two"      # the user finds it there


def test_stop_ends_the_answer_and_keeps_what_was_written(world):
    chat = world.session.chat
    chat.send("Tell me")
    world.stream(1, "Once upon")
    chat.stop()
    assert world.engine.stopped == [1] and world.of(PhaseChanged)[-1] == PhaseChanged("Stopping…")
    world.finish(1, reason=StopReason.STOPPED)
    assert world.of(AnswerDone)[-1].stop_reason == StopReason.STOPPED
    assert _contents(world, world.session.store.conversation_id)[-1] == ("assistant", "Once upon")


def test_write_again_replaces_the_last_answer(world):
    chat = world.session.chat
    chat.send("Q")
    world.stream(1, "Old")
    world.finish(1)
    chat.regenerate()
    assert world.of(Truncated)[-1] == Truncated(1)
    assert len(world.engine.asked) == 2
    world.stream(2, "New")
    world.finish(2)
    assert _contents(world, world.session.store.conversation_id) == [("user", "Q"),
                                                                    ("assistant", "New")]


def test_deleting_a_conversation_during_its_answer_keeps_nothing_of_it(world):
    chat, store = world.session.chat, world.session.store
    chat.send("Doomed")
    doomed = store.conversation_id
    world.stream(1, "Some")
    store.delete(doomed)
    assert world.engine.stopped == [1] and world.engine.forgotten == [doomed]
    assert store.conversation_id is None and not world.history.exists(doomed)
    world.stream(1, " more")
    world.finish(1, reason=StopReason.STOPPED)
    assert not world.history.list_conversations() and not world.session.requests.jobs


def test_a_failure_goes_to_the_notices_never_into_the_answer(world):
    chat = world.session.chat
    chat.send("Q")
    world.stream(1, "Half")
    world.session.on_event(RequestFailed(1, EngineError("The model stopped unexpectedly.")))
    assert world.notices.posted[-1][0] == "error"
    saved = world.history.messages(world.session.store.conversation_id)[-1]
    assert saved.content == "Half" and saved.stats.stop_reason == StopReason.FAILED
    assert saved.stats.failed_because == "The model stopped unexpectedly."
    assert world.of(AnswerDone)[-1].stop_reason == StopReason.FAILED


def test_closing_keeps_the_answer_labelled_closed(world):
    chat = world.session.chat
    chat.send("Q")
    world.stream(1, "Unfinished")
    chat.close()
    assert world.engine.stopped == [1]
    saved = world.history.messages(world.session.store.conversation_id)[-1]
    assert (saved.content, saved.stats.stop_reason) == ("Unfinished", StopReason.CLOSED)


def test_the_reading_line_is_said_again_each_second_until_the_first_word(world):
    from engine.api import PromptProgress
    chat = world.session.chat
    chat.send("A long message")
    world.session.on_event(PromptProgress(1, None, 2500, 5000, 2.5, 2.5))
    assert "%" in world.of(PhaseChanged)[-1].text
    delay, again, handle = world.loop.later[-1]
    assert delay == 1.0
    again()
    assert "%" in world.of(PhaseChanged)[-1].text
    world.stream(1, "First")
    assert world.loop.later[-1][2].cancelled                    # no countdown over the answer


def test_attaching_a_refused_message_withdraws_its_notice_and_no_other(world):
    chat, stream = world.session.chat, world.session.chat.stream
    assert chat.send("A very long text")
    world.session.on_event(RequestFailed(1, MessageTooLongError("This message is too long.")))
    conversation = world.session.store.conversation_id
    refusal = world.notices.posted[-1]
    stream.refused_text_attached(conversation)          # "Attach as a document"
    assert world.notices.withdrawn == [refusal]
    assert chat.send("Another")                           # a later error is another matter
    world.session.on_event(RequestFailed(2, EngineError("The model stopped unexpectedly.")))
    stream.refused_text_attached(conversation)
    assert world.notices.withdrawn == [refusal]


def test_the_not_ready_notice_is_said_once_at_a_time_and_goes_when_the_model_is_ready(world):
    not_ready = ("info", "The model is not ready yet. Please wait until loading has finished.")
    world.session.set_model_ready(False)
    assert not world.session.chat.send("Hello") and not world.session.chat.send("Hello")
    assert world.notices.posted == [not_ready] * 2 and world.notices.withdrawn == [not_ready]
    assert not world.session.documents.open_file("report.pdf")   # attached: the same notice
    assert world.notices.posted == [not_ready] * 3 and len(world.notices.withdrawn) == 2
    world.session.set_model_ready(False, failed=True)             # not ready still: it stays
    assert len(world.notices.withdrawn) == 2
    world.session.set_model_ready(True)
    assert world.notices.withdrawn == [not_ready] * 3 and not world.engine.asked
    world.session.set_model_ready(True)                           # withdrawn once only
    assert len(world.notices.withdrawn) == 3


def test_a_conversation_left_keeps_its_unsent_text_until_sent_or_deleted(world):
    chat, box = world.session.chat, {"text": ""}
    chat.draft = lambda: box["text"]
    assert chat.send("first")
    world.finish(1, "One")
    first = world.session.store.conversation_id
    box["text"] = "half a question"
    chat.new_chat()
    assert world.of(ConversationOpened)[-1].draft == ""       # New chat has its own
    box["text"] = "   "                                        # blanks are no draft
    chat.open_conversation(first)
    assert world.of(ConversationOpened)[-1].draft == "half a question"
    assert chat.drafts == {}                                   # it is in the box again
    box["text"] = "again"
    chat.new_chat()
    chat.delete(first)                                         # deleted: its draft goes
    assert chat.drafts == {}
