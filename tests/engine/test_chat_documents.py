"""A chat request that carries documents is answered from them on the engine thread: passages
chosen, the answer streamed, its page references checked and handed back with RequestFinished.
A chat request without documents stays a plain chat. The service is the real one; the model
is scripted (tests/scripted_model.py), the index and the checks are the engine's own."""

from __future__ import annotations

import queue
import threading

import pytest

from engine.api import (ChatMessage, ChatRequest, DocumentAnswered, DocumentScope, LoadRequest,
                        ModelLoaded, PassagesChosen, RequestFailed, RequestFinished,
                        RequestStarted, ResponseStats, StepRecord, StopReason)
from engine.documents.ask import Question
from engine.documents.index import PassageIndex
from engine.documents.types import Document, Section
from engine.messages import msg
from engine.runtime.service import EngineService
from tests.scripted_model import ScriptedModel

PAGES = {1: "Budget overview for the office.",
         2: "The travel budget for 2026 is 48,250 EUR.",
         3: "The printer contract with Kyocera ends on 30 June 2027."}
ANSWER = "The travel budget is 48,250 EUR [p. 2]. The contract ends on 30 June 2027 [p. 2]."


class Loaded:
    """The service's Model: plain chat answers "Plain answer."; documents go to ``reader``."""

    def __init__(self, reader: ScriptedModel) -> None:
        self.reader, self.chats = reader, []
        self.release = threading.Event()       # a chat waits for it when ``hold`` is set
        self.hold = False

    def loaded_event(self, request_id: int):
        return ModelLoaded(request_id, None, None, msg("runtime.ready"))     # no facts needed

    def chat(self, request: ChatRequest, stop, emit) -> None:
        self.chats.append(request)
        if self.hold:
            self.release.wait(10)
        emit(StepRecord(request.request_id, "Plain answer.", 1, 1, 3, 1.0, 1.0, 0.0, 4, 4096,
                        conversation_id=request.conversation_id))
        stats = ResponseStats(request_id=request.request_id, prompt_tokens=3,
                              generated_tokens=1, prompt_tps=1.0, decode_tps=1.0, ttft_s=0.0,
                              total_s=0.0, context_used=4, context_size=4096,
                              stop_reason=StopReason.EOS)
        emit(RequestFinished(request.request_id, "Plain answer.", stats,
                             request.conversation_id))

    def document(self, request, stop, emit) -> None:
        raise AssertionError("no summaries here")

    def documents_model(self) -> ScriptedModel:
        return self.reader

    def forget_conversation(self, conversation_id: int) -> None:
        pass

    def idle_work(self) -> None:
        return None

    def close(self) -> None:
        pass


class Collector:
    def __init__(self) -> None:
        self.events: queue.Queue = queue.Queue()

    def __call__(self, event) -> None:
        self.events.put(event)

    def until_finished(self, request_id: int) -> list:
        seen = []
        while True:
            event = self.events.get(timeout=30)
            if getattr(event, "request_id", None) != request_id:
                continue
            seen.append(event)
            if isinstance(event, (RequestFinished, RequestFailed)):
                return seen


@pytest.fixture
def engine(tmp_path):
    index_path = tmp_path / "passages.db"
    document = Document("report.pdf", "report.pdf", "pdf", "a" * 64, tuple(
        Section(f"page {n}", text, page=n) for n, text in PAGES.items()), page_count=3)
    with PassageIndex(index_path) as index:
        index.add(document)
    reader = ScriptedModel([ANSWER])
    model = Loaded(reader)
    collector = Collector()
    service = EngineService(collector, lambda request, emit: model)
    service.load(LoadRequest("scripted"))
    assert isinstance(collector.events.get(timeout=30), ModelLoaded)
    yield service, collector, model, DocumentScope((document.sha256,), str(index_path))
    service.shutdown()


CONVERSATION = (ChatMessage("system", "Be brief."), ChatMessage("user", "Hello"),
                ChatMessage("assistant", "Hello, how can I help?"),
                ChatMessage("user", "What is the travel budget?"))


def test_a_chat_request_with_documents_is_answered_from_them_with_checked_pages(engine):
    service, collector, model, scope = engine
    request = ChatRequest(CONVERSATION, temperature=0.2, conversation_id=7, think=False,
                          documents=scope)
    service.chat(request)
    events = collector.until_finished(request.request_id)
    kinds = [type(e) for e in events]
    assert kinds[:2] == [RequestStarted, PassagesChosen] and kinds[-1] is RequestFinished
    assert not [e for e in events if isinstance(e, DocumentAnswered)]   # no event of its own
    finished = events[-1]
    assert finished.text == ANSWER and finished.conversation_id == 7
    answered = finished.document
    assert answered is not None and answered.text == ANSWER and answered.mode == "passages"
    assert [(c.marker, c.status) for c in answered.checks] == [("[p. 2]", "found"),
                                                               ("[p. 2]", "not_found")]
    assert [p.page for p in answered.passages] == [1, 2, 3]
    assert "".join(e.text for e in events if isinstance(e, StepRecord)) == ANSWER
    # The engine split the conversation: the model read the passages, the history and the
    # question, and answered with the request's own settings.
    asked = model.reader.requests[-1]
    assert asked.request_id == request.request_id and asked.documents is None
    assert (asked.temperature, asked.think, asked.conversation_id) == (0.2, False, 7)
    assert asked.messages[0].role == "system" and asked.messages[0].content.endswith("Be brief.")
    assert [m.content for m in asked.messages[1:3]] == ["Hello", "Hello, how can I help?"]
    assert "[p. 2]\nThe travel budget" in asked.messages[-1].content
    assert asked.messages[-1].content.endswith("Question: What is the travel budget?")
    assert model.chats == []                               # never the plain chat


def test_a_chat_request_without_documents_is_a_plain_chat(engine):
    service, collector, model, _ = engine
    request = ChatRequest(CONVERSATION, conversation_id=7)
    service.chat(request)
    events = collector.until_finished(request.request_id)
    assert not [e for e in events if isinstance(e, PassagesChosen)]
    assert events[-1].text == "Plain answer." and events[-1].document is None
    assert model.chats == [request] and model.reader.requests == []


def test_a_question_stopped_while_it_waits_ends_without_starting(engine):
    service, collector, model, scope = engine
    model.hold = True
    first = ChatRequest(CONVERSATION, conversation_id=1)
    service.chat(first)
    question = ChatRequest(CONVERSATION, conversation_id=2, documents=scope)
    service.chat(question)
    assert service.waiting(question.request_id)
    service.stop(question.request_id)
    model.release.set()
    events = collector.until_finished(question.request_id)
    assert [type(e) for e in events] == [RequestFinished]     # never started, nothing read
    assert events[0].text == "" and events[0].document is None
    assert events[0].stats.stop_reason == StopReason.STOPPED
    assert model.reader.requests == []


def test_a_missing_document_fails_the_request_in_plain_words(engine):
    service, collector, _, scope = engine
    gone = DocumentScope(("0" * 64,), scope.index_path)
    request = ChatRequest(CONVERSATION, documents=gone)
    service.chat(request)
    events = collector.until_finished(request.request_id)
    assert isinstance(events[-1], RequestFailed)
    assert "Attach it again" in str(events[-1].error.message)


def test_the_question_is_the_last_user_message_and_the_system_prompt_is_kept_apart():
    request = ChatRequest((ChatMessage("system", "One."), ChatMessage("user", "First?"),
                           ChatMessage("assistant", "Yes."), ChatMessage("system", "Two."),
                           ChatMessage("user", "Second?")), documents=DocumentScope((), "x"))
    question = Question.of(request)
    assert question.text == "Second?" and question.system_prompt == "One.\nTwo."
    assert [m.content for m in question.history] == ["First?", "Yes."]
    with pytest.raises(ValueError):
        Question.of(ChatRequest((ChatMessage("user", "x"),)))     # no documents


def test_the_model_loaded_here_answers_a_chat_request_with_documents(tiny_moe_path, cpu_recipe,
                                                                     tmp_path):
    """The real engine thread and llama.cpp: LocalModel hands its loaded model to the
    documents' code, which streams an answer and checks it (the tiny model writes noise)."""
    index_path = tmp_path / "passages.db"
    document = Document("memo.txt", "memo.txt", "text", "b" * 64, (
        Section("lines 1–2", "The travel budget for 2026 is 48,250 EUR."),))
    with PassageIndex(index_path) as index:
        index.add(document)
    collector = Collector()
    service = EngineService(collector)
    try:
        service.load(LoadRequest(str(tiny_moe_path), recipe=cpu_recipe(n_ctx=1024)))
        while not isinstance(event := collector.events.get(timeout=60), (ModelLoaded,
                                                                          RequestFailed)):
            pass
        assert isinstance(event, ModelLoaded), event
        request = ChatRequest((ChatMessage("user", "What is the travel budget?"),),
                              max_tokens=8, temperature=0,
                              documents=DocumentScope((document.sha256,), str(index_path)))
        service.chat(request)
        events = collector.until_finished(request.request_id)
    finally:
        service.shutdown()
    assert [type(e) for e in events[:2]] == [RequestStarted, PassagesChosen]
    finished = events[-1]
    assert isinstance(finished, RequestFinished) and finished.document is not None
    assert finished.document.text == finished.text == "".join(
        e.text for e in events if isinstance(e, StepRecord))
    assert finished.document.passages[0].document == "memo.txt"
