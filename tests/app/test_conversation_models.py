"""The conversation store and the request tracker (app/conversation/) as plain Python: no
Qt application, no qtbot, a real history database in a temporary folder and an engine
double that records what it was asked."""

from __future__ import annotations

import pytest

from engine.api import (ChatMessage, CitationCheck, ContextReport, DocumentAnswered,
                        DocumentScope, PassageRef, RequestFinished, ResponseStats, StopReason)
from engine.messages import msg
from app.conversation import ConversationStore, Wait
from app.session import Job, JobKind
from app.session.requests import RequestEvents, RequestTracker
from app.conversation.store import StoreEvents, document_scope, title_from
from app.conversation.history import ConversationDocument, HistoryStore, StoredMessage
from app.conversation.message_stats import MessageStats
from tests.support.session_doubles import ChatEngine


class Heard:
    """Every callback of both models, in order."""

    def __init__(self) -> None:
        self.said: list[tuple] = []

    def __call__(self, name: str):
        return lambda *args: self.said.append((name, *args))

    def names(self) -> list[str]:
        return [said[0] for said in self.said]


@pytest.fixture
def history(tmp_path):
    store = HistoryStore(tmp_path / "history.db")
    yield store
    store.close()


@pytest.fixture
def heard():
    return Heard()


@pytest.fixture
def store(history, heard):
    events = StoreEvents(listed=heard("listed"), added=heard("added"),
                         truncated=heard("truncated"), deleting=heard("deleting"))
    return ConversationStore(history, events, untitled=lambda: "Untitled")


@pytest.fixture
def engine():
    return ChatEngine()


@pytest.fixture
def tracker(engine, store, heard):
    events = RequestEvents(activity=heard("activity"), document_shown=heard("shown"),
                           document_ended=heard("ended"))
    return RequestTracker(engine, lambda: store.conversation_id, events, model_name="M",
                          model_ready=True)


def _finished(request_id: int, text: str = "", left_out: int = 0,
              document: DocumentAnswered | None = None) -> RequestFinished:
    stats = ResponseStats(request_id=request_id, prompt_tokens=10, generated_tokens=5,
                          prompt_tps=100.0, decode_tps=20.04, ttft_s=0.1, total_s=0.5,
                          context_used=15, context_size=4096, stop_reason=StopReason.EOS,
                          thinking_tokens=2)
    return RequestFinished(request_id, text, stats, thinking="clean thought",
                           context=ContextReport(left_out=left_out, kept_tokens=300,
                                                 context_size=4096), document=document)


# ---- the store ------------------------------------------------------------------------------

def test_titles_are_told_apart_and_read_from_the_first_line_with_words(store, history, heard):
    first = store.create("handbook.pdf")
    store.clear()
    second = store.create("handbook.pdf")
    assert history.title(first) == "handbook.pdf" and history.title(second) == "handbook.pdf (2)"
    assert heard.names() == ["listed", "listed"]
    assert title_from("```python\n# Heading\nprint(1)") == "Heading"
    assert title_from("x" * 60) == "x" * 47 + "…"


def test_a_conversation_named_for_a_document_takes_its_name_or_goes(store, history, heard):
    named = store.ensure("scan.pdf", provisional=True)
    assert store.ensure("other") == named                     # the open one stays
    store.name_from_document(named, "Budget 2026.pdf")
    assert history.title(named) == "Budget 2026.pdf"
    store.name_from_document(named, "later.pdf")              # named once: the user's now
    assert history.title(named) == "Budget 2026.pdf"
    store.clear()
    empty = store.ensure("broken.pdf", provisional=True)
    store.document_failed(empty)                              # holds nothing: it goes
    assert not history.exists(empty) and store.conversation_id is None
    assert ("deleting", empty) in heard.said
    asked = store.ensure("broken.pdf", provisional=True)
    store.add(StoredMessage("user", "What is in it?"))
    store.document_failed(asked)                              # named for its question
    assert history.title(asked) == "What is in it?"


def test_a_question_names_a_conversation_whose_document_never_joined(store, history):
    conversation = store.ensure("scan.pdf", provisional=True)
    store.name_from_question("When does the contract end?")
    assert history.title(conversation) == "When does the contract end?"
    other = store.ensure("x")
    history.add_document(other, ConversationDocument("abc", "a.pdf", "/a.pdf", {}))
    store.provisional.add(other)
    store.name_from_question("Something else")                # it holds a document: kept
    assert history.title(other) == "When does the contract end?"


def test_messages_are_added_kept_elsewhere_and_truncated_with_the_window(store, history, heard):
    conversation = store.create("Hello")
    for text in ("one", "two", "three"):
        store.add(StoredMessage("user", text))
    assert ("added", 2, store.messages[2]) in heard.said
    other = history.create_conversation("Other")
    store.keep(other, [StoredMessage("user", "Document: a.pdf"),
                       StoredMessage("assistant", "Its summary")])
    assert [m.content for m in history.messages(other)] == ["Document: a.pdf", "Its summary"]
    assert len(store.messages) == 3                           # not shown in the open one
    store.keep(None, [StoredMessage("user", "nowhere")])      # no conversation: kept nowhere
    history.set_window_start(conversation, store.messages[1].id)
    assert store.window_index() == 1
    store.truncate_from(1)
    assert [m.content for m in history.messages(conversation)] == ["one"]
    assert heard.said[-1] == ("truncated", 1, 0)              # the window's start is gone
    store.truncate_from(5)                                    # out of range: nothing
    assert heard.said[-1] == ("truncated", 1, 0)


def test_the_window_moves_and_a_message_too_long_is_never_sent_again(store, history):
    conversation = store.create("Long")
    for text in ("a", "b", "c", "d"):
        store.add(StoredMessage("user", text))
    sent = store.sent()
    assert [m.content for m in sent] == ["a", "b", "c", "d"]
    assert store.move_window(conversation, sent, 2) == 2      # the model now sees c, d
    assert [m.content for m in store.sent()] == ["c", "d"]
    assert store.move_window(conversation, sent, 0) is None   # nothing left out
    store.mark_too_long(store.sent())
    assert [m.content for m in store.sent()] == ["c"]
    assert history.messages(conversation)[3].stats == MessageStats(too_long=True)


def test_think_follows_the_policy_then_the_conversation_then_the_default(store, history):
    think = store.think
    think.default = True
    assert think.for_conversation(None) is True
    think.choose(None, False)                                 # chosen before it exists
    conversation = store.create("Think")
    assert history.think(conversation) is False and think.for_conversation(conversation) is False
    think.policy = True
    assert think.for_conversation(conversation) is True


def test_an_answer_with_no_text_is_not_kept_and_its_saved_part_goes(store, history, tracker):
    conversation = store.create("Q")
    store.add(StoredMessage("user", "Q?"))
    answer = tracker.ask(conversation, store.sent(), None)
    answer.text = "   "
    answer.message = StoredMessage("assistant", "partial")
    store.save_answer(conversation, answer.message)
    assert store.end_answer(answer, MessageStats(stop_reason="eos")) is None
    assert [m.role for m in history.messages(conversation)] == ["user"]
    again = tracker.ask(conversation, store.sent(), None)
    again.text = "An answer."
    kept = store.end_answer(again, MessageStats(stop_reason="eos"))
    assert kept is not None and history.messages(conversation)[-1].content == "An answer."


def test_deleting_the_open_conversation_says_so_first_and_clears_it(store, history, heard):
    conversation = store.create("Gone")
    store.delete(conversation)
    assert heard.names()[-2:] == ["deleting", "listed"]
    assert store.conversation_id is None and not history.exists(conversation)


# ---- the tracker ----------------------------------------------------------------------------

def test_an_answer_is_asked_with_the_system_prompt_and_reports_its_activity(
        store, tracker, engine, heard):
    conversation = store.create("Hi")
    store.add(StoredMessage("user", "Hi"))
    tracker.system_prompt, tracker.temperature = "Be brief.", 0.3
    answer = tracker.ask(conversation, store.sent(), True)
    request = engine.asked[-1]
    assert request.messages == (ChatMessage("system", "Be brief."), ChatMessage("user", "Hi"))
    assert (request.conversation_id, request.think, request.temperature) == (conversation, True,
                                                                             0.3)
    assert request.model_sampling and request.documents is None
    assert answer.request_id == 1
    assert tracker.current is answer and tracker.busy and tracker.shows(answer.request_id)
    assert heard.said[-1] == ("activity", {conversation: "writing"})
    assert tracker.leave() is answer and not tracker.busy     # the user left it: it goes on
    assert tracker.running_in(conversation) is answer


def test_an_answer_behind_another_one_says_why_it_waits(store, tracker, engine):
    first = tracker.ask(store.create("A"), (), None)
    store.clear()
    second = tracker.ask(store.create("B"), (), None)
    assert tracker.waiting(second) is Wait.OTHER
    assert tracker.activity()[second.conversation_id] == "waiting"
    tracker.finish(first.request_id, "done")
    engine.waiting.add(second.request_id)                     # a stopped one still ending
    assert tracker.waiting(second) is Wait.PREVIOUS
    assert tracker.started(second.request_id) is second       # its first piece: it began
    assert tracker.waiting(second) is None
    assert tracker.activity() == {second.conversation_id: "writing"}


def test_streamed_text_is_saved_at_most_once_per_interval(store, tracker):
    answer = tracker.ask(store.create("A"), (), None)
    tracker.save_interval_s = 3600
    answer.text = "Hel"
    first = tracker.progress(answer)
    assert first is not None and first.status == "writing" and first.content == "Hel"
    answer.text = "Hello"
    assert tracker.progress(answer) is None                   # too soon
    assert tracker.progress(answer, force=True).content == "Hello"


def test_a_document_read_holds_its_conversation_and_lets_a_waiting_message_go(
        store, tracker, heard, engine):
    conversation = store.create("doc.pdf")
    tracker.begin(Job(7, conversation, kind=JobKind.SUMMARY, phase="Reading the document…"))
    assert heard.said[-2:] == [("shown", True, "Reading the document…"),
                               ("activity", {conversation: "writing"})]
    assert tracker.busy and tracker.shows(7)
    waiting = tracker.waiting_message
    assert waiting.put("And the budget?") and not waiting.put("A second one")
    assert waiting.here() == "And the budget?" and not tracker.may_send_queued()
    assert tracker.stop() and engine.stopped == [7]
    assert tracker.end(7) is not None and tracker.end(7) is None
    assert heard.said[-2:] == [("shown", False, ""), ("ended",)]
    assert tracker.may_send_queued()
    store.clear()
    assert waiting.here() == ""                               # said in its own conversation only
    assert waiting.take().text == "And the budget?" and waiting.queued is None


def test_a_document_read_elsewhere_does_not_make_the_open_chat_busy(store, tracker, heard):
    elsewhere = store.create("doc.pdf")
    store.clear()
    tracker.begin(Job(3, elsewhere, kind=JobKind.LOOK, phase="Reading…"))
    assert ("shown", True, "Reading…") not in heard.said
    assert not tracker.busy and not tracker.stop()


def test_the_end_of_an_answer_takes_the_engines_numbers_and_the_apps_labels(store, tracker):
    conversation = store.create("A")
    answer = tracker.ask(conversation, (), None)
    stats = tracker.finished_stats(_finished(answer.request_id, "text"))
    assert stats.to_data() == {"decode_tps": 20.0, "generated_tokens": 5,
                               "stop_reason": StopReason.EOS, "thinking_tokens": 2,
                               "context_tokens": 300, "context_size": 4096}
    assert answer.thinking == "clean thought"
    tracker.stop_everything()                                 # the model is being changed
    answer.text = "streamed"
    ended = tracker.finish(answer.request_id, "")
    assert ended is answer and ended.text == "streamed"       # the engine's text, else streamed
    assert ended.stop_reason == StopReason.RELOADED            # the app's reason is kept
    assert tracker.current is None and not tracker.jobs
    assert tracker.finish(answer.request_id, "") is None      # ended once


def test_deleting_a_conversation_drops_its_answers_and_its_waiting_message(store, tracker,
                                                                           engine):
    conversation = store.create("A")
    answer = tracker.ask(conversation, (), None)
    assert tracker.waiting_message.put("next")
    tracker.drop_conversation(conversation)
    assert answer.dropped and engine.stopped == [answer.request_id]
    assert tracker.waiting_message.queued is None
    assert engine.forgotten == [conversation]                  # its kept model state too
    assert tracker.live(answer.request_id) is None            # its late pieces are ignored
    assert tracker.running_in(conversation) is None


def test_quitting_stops_every_answer_labelled_closed(store, tracker, engine):
    first = tracker.ask(store.create("A"), (), None)
    tracker.stop_everything(StopReason.STOPPED)
    store.clear()
    second = tracker.ask(store.create("B"), (), None)
    assert tracker.close() == [first, second]
    assert (first.stop_reason, second.stop_reason) == (StopReason.STOPPED, StopReason.CLOSED)
    assert tracker.leave() is second and tracker.current is None


def test_write_again_drops_the_answer_being_written(store, tracker, engine):
    conversation = store.create("A")
    answer = tracker.ask(conversation, (), None)
    assert tracker.running_in(conversation) is answer
    assert tracker.drop_current() is answer and answer.dropped
    assert engine.stopped == [answer.request_id] and tracker.current is None
    assert tracker.drop_current() is None


def test_a_question_in_a_conversation_with_documents_carries_them(store, history, tracker,
                                                                  engine):
    conversation = store.create("Budget")
    store.add(StoredMessage("user", "What is the travel budget?"))
    assert document_scope(history, conversation, lambda: "Korean") is None   # none yet
    history.add_document(conversation, ConversationDocument("aa11", "budget.pdf", "/b.pdf", {}))
    history.add_document(conversation, ConversationDocument("bb22", "plan.pdf", "/p.pdf", {}))
    scope = document_scope(history, conversation, lambda: "Korean")
    assert scope == DocumentScope(("aa11", "bb22"), str(history.passage_index), "Korean")
    tracker.ask(conversation, store.sent(), None, scope)
    request = engine.asked[-1]
    assert request.documents == scope and not request.model_sampling
    assert request.messages[-1] == ChatMessage("user", "What is the travel budget?")
    store.add(StoredMessage("assistant", "48,250 EUR."))
    tracker.ask(conversation, store.sent(), None, scope)     # no question last: plain chat
    assert engine.asked[-1].documents is None


def test_an_answer_from_documents_keeps_how_it_was_read(store, tracker):
    answer = tracker.ask(store.create("Budget"), (StoredMessage("user", "Budget?"),), None)
    passage = PassageRef("budget.pdf", "aa11", "p. 2", 2, 40, 1.5)
    checks = (CitationCheck("[p. 2]", 10, 16, "budget.pdf", msg("documents.page_ref", page=2),
                            "found", ("48250",), ("48250",)),
              CitationCheck("[p. 9]", 30, 36, "budget.pdf", msg("documents.page_ref", page=9),
                            "not_found", ("7",), ()))
    answered = DocumentAnswered(answer.request_id, answer.conversation_id, "text", (passage,),
                                checks, msg("documents.read_for_answer",
                                            where=msg("documents.pages_ref", pages="2")),
                                "passages")
    stats = tracker.finished_stats(_finished(answer.request_id, "text", document=answered))
    assert stats.document_answer == {
        "mode": "passages", "read": [["budget.pdf", "p. 2", 2]],
        "citations": {"checked": 2, "passed": 1, "not_found": ["[p. 9]"]}}


def test_only_an_answer_the_model_ended_itself_counts_as_no_answer(store, tracker, caplog):
    answer = tracker.ask(store.create("A"), (), None)
    for reason in (StopReason.STOPPED, StopReason.RELOADED, StopReason.CLOSED,
                   StopReason.FAILED):
        assert not tracker.gave_nothing(answer, MessageStats(stop_reason=reason))
    assert tracker.gave_nothing(answer, MessageStats(stop_reason=StopReason.EOS, generated_tokens=3))
    assert "the model gave no answer" in caplog.text          # the log says what it did


def test_message_stats_read_the_history_of_an_older_rotary_and_write_the_same_keys():
    old = {"decode_tps": 12.5, "generated_tokens": 40, "stop_reason": "eos",
           "context_tokens": 300, "context_size": 4096, "someday": 1}
    stats = MessageStats.from_data(old)
    assert (stats.stop_reason, stats.context_size, stats.too_long) == ("eos", 4096, False)
    assert stats.to_data() == {k: v for k, v in old.items() if k != "someday"}
    assert MessageStats.from_data(None) == MessageStats() and not MessageStats()
    marked = stats.with_(too_long=True)
    assert marked.to_data()["too_long"] is True and not stats.too_long
