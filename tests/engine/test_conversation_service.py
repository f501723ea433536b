"""The engine thread keeps conversations' states (engine/runtime/service.py with
conversation_memory.py): it reads ahead while the user types, says in ResponseStats what it
reused, forgets a deleted conversation (with or without a model loaded) and keeps the
states on disk across a restart of the engine."""

from __future__ import annotations

import queue

import pytest

from engine.api import (ChatMessage, ChatRequest, LoadRequest, ModelLoaded, RequestFailed,
                        RequestFinished, Reuse)
from engine.runtime.service import EngineService

QUESTION = ChatMessage("user", "hello there, the model")
FOLLOW_UP = "and what then of the answer?"


@pytest.fixture(params=["attention", "hybrid"])
def fixture_path(request, tiny_moe_path, tiny_merged_moe_path):
    return {"attention": tiny_moe_path, "hybrid": tiny_merged_moe_path}[request.param]


class Engine:
    """An EngineService on a fixture model, with a blocking ``ask``."""

    def __init__(self, path, recipe, state_dir=None) -> None:
        self.events: queue.Queue = queue.Queue()
        self.service = EngineService(self.events.put)
        self.service.load(LoadRequest(str(path), recipe=recipe, state_dir=state_dir))
        assert isinstance(self._next(), ModelLoaded)

    def _next(self):
        while True:
            event = self.events.get(timeout=60)
            if isinstance(event, (ModelLoaded, RequestFinished, RequestFailed)):
                return event

    def ask(self, messages, conversation_id=1, quiet=True) -> RequestFinished:
        self.service.chat(ChatRequest(tuple(messages), max_tokens=12, temperature=0,
                                      conversation_id=conversation_id, stop_loops=False))
        finished = self._next()
        assert isinstance(finished, RequestFinished), finished
        if quiet:                     # the user reads the answer and types: reading ahead ends
            assert self.service.wait_quiet(30)
        return finished

    def close(self) -> None:
        self.service.shutdown()


def _tokens_read_alone(path, recipe, messages) -> RequestFinished:
    engine = Engine(path, recipe)
    try:
        return engine.ask(messages, conversation_id=99)
    finally:
        engine.close()


def test_reading_ahead_leaves_only_the_users_words_to_read(fixture_path, cpu_recipe):
    engine = Engine(fixture_path, cpu_recipe())
    try:
        first = engine.ask((QUESTION,))
        second = (QUESTION, ChatMessage("assistant", first.text), ChatMessage("user", FOLLOW_UP))
        answer = engine.ask(second)
    finally:
        engine.close()
    stats = answer.stats
    assert stats.reuse in (Reuse.IN_PLACE, Reuse.CHECKPOINT) and stats.reused_tokens > 0
    # the user's words (14 tokens), the end of their turn and the assistant's header (7);
    # not the answer, which was read ahead
    assert stats.prompt_tokens <= 22, stats
    alone = _tokens_read_alone(fixture_path, cpu_recipe(), second)
    assert answer.text == alone.text and alone.stats.reuse == Reuse.NONE


def test_a_request_right_after_an_answer_is_exact_whatever_was_read_ahead(fixture_path,
                                                                           cpu_recipe):
    engine = Engine(fixture_path, cpu_recipe())
    try:
        first = engine.ask((QUESTION,), quiet=False)
        second = (QUESTION, ChatMessage("assistant", first.text), ChatMessage("user", FOLLOW_UP))
        answer = engine.ask(second, quiet=False)
    finally:
        engine.close()
    assert answer.text == _tokens_read_alone(fixture_path, cpu_recipe(), second).text


def test_a_restarted_engine_reads_only_what_is_new(fixture_path, cpu_recipe, tmp_path):
    engine = Engine(fixture_path, cpu_recipe(), str(tmp_path))
    try:
        first = engine.ask((QUESTION,), conversation_id=5)
        engine.ask((ChatMessage("user", "another conversation"),), conversation_id=6)
    finally:
        engine.close()                                  # 6 is saved as the engine stops
    assert {p.name for p in tmp_path.glob("*.rstate")} == {"5.rstate", "6.rstate"}
    engine = Engine(fixture_path, cpu_recipe(), str(tmp_path))
    second = (QUESTION, ChatMessage("assistant", first.text), ChatMessage("user", FOLLOW_UP))
    try:
        answer = engine.ask(second, conversation_id=5)
    finally:
        engine.close()
    assert answer.stats.reuse == Reuse.DISK and answer.stats.prompt_tokens <= 22, answer.stats
    assert answer.text == _tokens_read_alone(fixture_path, cpu_recipe(), second).text


def test_the_first_message_sent_again_keeps_the_whole_conversation(fixture_path, cpu_recipe,
                                                                   tmp_path):
    """"Hello?" twice: the window still starts with the conversation (it once began at the
    latest "Hello?", leaving the first exchange out for good, a restart included); the answer
    is the one the whole conversation gives."""
    engine = Engine(fixture_path, cpu_recipe(), str(tmp_path))
    try:
        first = engine.ask((QUESTION,), conversation_id=7)
        again = (QUESTION, ChatMessage("assistant", first.text), QUESTION)
        second = engine.ask(again, conversation_id=7)
    finally:
        engine.close()
    assert second.context.left_out == 0, second.context
    engine = Engine(fixture_path, cpu_recipe(), str(tmp_path))         # and after a restart
    later = again + (ChatMessage("assistant", second.text), ChatMessage("user", FOLLOW_UP))
    try:
        third = engine.ask(later, conversation_id=7)
    finally:
        engine.close()
    assert third.context.left_out == 0 and third.stats.reuse == Reuse.DISK, third
    assert third.text == _tokens_read_alone(fixture_path, cpu_recipe(), later).text


def test_forgetting_a_conversation_deletes_its_state_with_or_without_a_model(
        tiny_moe_path, cpu_recipe, tmp_path):
    engine = Engine(tiny_moe_path, cpu_recipe(), str(tmp_path))
    try:
        engine.ask((QUESTION,), conversation_id=1)
        engine.ask((QUESTION,), conversation_id=2)
        engine.ask((QUESTION,), conversation_id=3)      # 1 and 2 are left: on disk
        engine.service.forget_conversation(1)
        engine.service.unload()
        engine.service.forget_conversation(2)          # no model loaded: the file still goes
        assert engine.service.wait_quiet(30)
    finally:
        engine.close()
    assert {p.name for p in tmp_path.glob("*.rstate")} == {"3.rstate"}


def test_a_slide_is_read_ahead_while_the_user_types(fixture_path, cpu_recipe):
    """When the next message would not fit, the window slides after the answer, not after
    the next message: every turn then reads only its own words, slides included, and the
    answer is the one a fresh engine gives to the same window."""
    engine = Engine(fixture_path, cpu_recipe(n_ctx=512))
    messages: tuple[ChatMessage, ...] = (ChatMessage("system", "be brief"),)
    read, left_out = [], []
    try:
        for turn in range(16):
            messages += (ChatMessage("user", f"question {turn}: " + "the model said " * 5),)
            finished = engine.ask(messages)
            read.append(finished.stats.prompt_tokens)
            left_out.append(finished.context.left_out)
            messages += (ChatMessage("assistant", finished.text),)
    finally:
        engine.close()
    assert left_out[-1] > 0 and len(set(left_out)) >= 3, left_out      # it slid, twice
    assert max(read[1:]) <= 48, (read, left_out)      # the user's words and headers only
    window = messages[:1] + messages[1 + left_out[-1]:-1]
    assert _tokens_read_alone(fixture_path, cpu_recipe(n_ctx=512), window).text == \
        finished.text
