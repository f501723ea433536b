"""The remote backend against a real llama-cpp-python server on 127.0.0.1 (demo model)."""

from __future__ import annotations

import threading

import pytest

pytest.importorskip("llama_cpp.server.app", reason="llama-cpp-python's server extra")

from engine.api import (ChatMessage, ChatRequest, LoadRequest, RequestFailed,
                        RequestFinished, StepRecord)
from engine.errors import (ServerAuthError, ServerBusyError, ServerContextFullError,
                           ServerDroppedError, ServerModelNotFoundError, ServerUnreachableError)
from engine.demo.demo_model import DEMO_TEXT
from engine.remote.config import ServerConfig
from engine.remote.errors import status_error
from tests.support.fixture_server import FixtureServer, free_port
from engine.remote.service import RemoteEngineService, list_models
from tests.support.remote_recorder import Recorder, ask, connected


@pytest.fixture(scope="module")
def server(demo_gguf):
    with FixtureServer(demo_gguf) as running:
        yield running


def test_streams_the_answer_with_the_gauges_numbers(server):
    recorder = Recorder()
    engine = connected(server.url, recorder)
    try:
        finished = recorder.until(engine.chat(ask("Hello", conversation_id=4)))
        hello_tokens = engine.count_tokens("Hello")
    finally:
        engine.shutdown()
    assert isinstance(finished, RequestFinished), finished
    steps = [e for e in recorder.seen if isinstance(e, StepRecord)]
    assert len(steps) > 10
    assert finished.text == recorder.texts(finished.request_id) == DEMO_TEXT
    assert finished.stats.stop_reason == "eos"
    assert all(s.on_server and s.conversation_id == 4 for s in steps)
    assert finished.conversation_id == 4
    assert [s.generated_tokens for s in steps] == list(range(1, len(steps) + 1))
    assert steps[-1].ttft_s > 0 and steps[-1].decode_tps > 0
    # prompt tokens come from the server's own tokenizer, so the context used is real
    assert finished.stats.prompt_tokens == hello_tokens > 0
    assert steps[-1].context_used == steps[-1].prompt_tokens + len(steps)


def test_loaded_event_names_the_server_and_its_tokenizer(server):
    recorder = Recorder()
    engine = connected(server.url + "/v1/", recorder)
    engine.shutdown()
    loaded = recorder.seen[-1]
    assert loaded.server.address == f"{server.url}/v1/chat/completions"
    assert loaded.server.model == server.alias
    assert loaded.server.tokenizer == "/extras/tokenize"
    assert not hasattr(loaded, "recipe") and not hasattr(loaded, "facts")  # nothing made up


def test_stop_mid_answer_keeps_what_was_written(server):
    engine_box = {}

    def stop_after_three(event):
        if isinstance(event, StepRecord) and event.generated_tokens == 3:
            engine_box["engine"].stop()         # on the engine thread, between tokens

    recorder = Recorder(stop_after_three)
    engine_box["engine"] = engine = connected(server.url, recorder)
    try:
        finished = recorder.until(engine.chat(ask("Hello")))
        again = recorder.until(engine.chat(ask("Hello")))      # the server still serves
    finally:
        engine.shutdown()
    assert finished.stats.stop_reason == "stopped"
    assert finished.text == recorder.texts(finished.request_id)
    assert 3 <= finished.stats.generated_tokens < 10
    assert DEMO_TEXT.startswith(finished.text)
    assert again.stats.stop_reason == "stopped"


def test_a_second_conversation_gets_its_own_answer(server):
    recorder = Recorder()
    engine = connected(server.url, recorder)
    try:
        first = recorder.until(engine.chat(ask("Hello", conversation_id=1)))
        follow_up = ChatRequest((ChatMessage("user", "Hello"), ChatMessage("assistant", first.text),
                                 ChatMessage("user", "And?")), temperature=0.0, conversation_id=1)
        second = recorder.until(engine.chat(ask("Who are you?", conversation_id=2)))
        third = recorder.until(engine.chat(follow_up))
    finally:
        engine.shutdown()
    for event, conversation in ((first, 1), (second, 2), (third, 1)):
        assert isinstance(event, RequestFinished), event
        assert event.conversation_id == conversation
        assert event.text == recorder.texts(event.request_id) and event.text
    ids = {e.request_id: e.conversation_id for e in recorder.seen if isinstance(e, StepRecord)}
    assert ids == {first.request_id: 1, second.request_id: 2, third.request_id: 1}
    assert third.stats.prompt_tokens > first.stats.prompt_tokens


def test_a_server_without_a_chat_counter_says_so_plainly(server):
    from engine.errors import ServerProtocolError

    recorder = Recorder()
    engine = connected(server.url, recorder)
    try:
        with pytest.raises(ServerProtocolError) as raised:
            engine.count_chat_tokens((ChatMessage("user", "Hello"),))
        assert engine.count_tokens("Hello") > 0           # its text tokenizer still works
    finally:
        engine.shutdown()
    assert "cannot count the words of a whole conversation" in raised.value.message


def test_model_list_and_a_model_that_is_not_there(server):
    models = list_models(ServerConfig(server.url))
    assert [m.id for m in models] == [server.alias]
    recorder = Recorder()
    engine = RemoteEngineService(recorder, ServerConfig(server.url))
    try:
        failed = recorder.until(engine.load(LoadRequest("no-such-model")))
    finally:
        engine.shutdown()
    assert isinstance(failed.error, ServerModelNotFoundError)
    assert "no-such-model" in failed.error.message


def test_context_exceeded_is_its_own_error_and_teaches_the_context_size(server):
    recorder = Recorder()
    engine = connected(server.url, recorder)
    try:
        failed = recorder.until(engine.chat(ask("Hello " * 600, conversation_id=9)))
        assert engine.server.context_size == 512     # learnt from the server's refusal
    finally:
        engine.shutdown()
    assert isinstance(failed, RequestFailed) and failed.conversation_id == 9
    assert isinstance(failed.error, ServerContextFullError)
    assert "too long" in failed.error.message


def test_wrong_key_missing_key_and_right_key(demo_gguf):
    with FixtureServer(demo_gguf, api_key="office-secret") as keyed:
        for key in ("wrong", None):
            recorder = Recorder()
            engine = RemoteEngineService(recorder, ServerConfig(keyed.url, api_key=key))
            failed = recorder.until(engine.load(LoadRequest("")))
            engine.shutdown()
            assert isinstance(failed.error, ServerAuthError), failed
            assert "key" in failed.error.message
        recorder = Recorder()
        engine = connected(keyed.url, recorder, api_key="office-secret")
        finished = recorder.until(engine.chat(ask("Hello")))
        engine.shutdown()
        assert finished.text == DEMO_TEXT


def test_server_killed_mid_answer_keeps_the_partial_answer(demo_gguf):
    # The demo answer takes ~70 ms: on a machine too busy to kill within it, try again.
    for _ in range(3):
        failed, texts = _killed_at_first_word(demo_gguf)
        if isinstance(failed, RequestFailed):
            break
    assert isinstance(failed, RequestFailed), failed
    assert isinstance(failed.error, ServerDroppedError)
    assert failed.conversation_id == 3
    partial = failed.error.partial_text
    assert partial and partial == texts
    assert DEMO_TEXT.startswith(partial) and partial != DEMO_TEXT
    assert "kept" in failed.error.message


def _killed_at_first_word(demo_gguf):
    with FixtureServer(demo_gguf) as doomed:
        def kill_on_first_token(event):
            if isinstance(event, StepRecord) and event.generated_tokens == 1:
                doomed.kill()

        recorder = Recorder(kill_on_first_token)
        engine = connected(doomed.url, recorder)
        try:
            outcome = recorder.until(engine.chat(ask("Hello", conversation_id=3)))
        finally:
            engine.shutdown()
    return outcome, recorder.texts(outcome.request_id)


def test_a_server_that_is_not_there():
    url = f"http://127.0.0.1:{free_port()}"
    recorder = Recorder()
    engine = RemoteEngineService(recorder, ServerConfig(url, connect_timeout_s=2.0))
    try:
        failed = recorder.until(engine.load(LoadRequest("")))
        refused = recorder.until(engine.chat(ask("Hello")))
    finally:
        engine.shutdown()
    assert isinstance(failed.error, ServerUnreachableError)
    assert url in failed.error.message
    assert "not connected" in refused.error.message


def test_busy_status_carries_the_servers_retry_hint():
    error = status_error(503, "overloaded", "http://x", "m", retry_after="7")
    assert isinstance(error, ServerBusyError) and error.retry_after_s == 7.0
    assert "7 seconds" in error.message
    assert status_error(429, "slow down", "http://x", "m").retry_after_s is None


@pytest.mark.parametrize("url", ["", "office-server:8000", "ftp://x", "http://"])
def test_an_address_that_is_not_one(url):
    with pytest.raises(ServerUnreachableError):
        ServerConfig(url)


def test_address_shown_is_the_one_that_receives_the_conversation():
    config = ServerConfig("https://ai.office.lan:8443/v1/")
    assert config.address == "https://ai.office.lan:8443/v1/chat/completions"
    assert config.host_port == ("ai.office.lan", 8443)
    assert ServerConfig("https://ai.office.lan").host_port == ("ai.office.lan", 443)


def test_an_answer_the_server_cuts_off_is_labelled_not_finished(demo_gguf):
    """llama-cpp-python's default: a new request ends the streaming one with a bare [DONE]."""
    import httpx

    with FixtureServer(demo_gguf, extra=("--interrupt_requests", "True")) as server:
        # The other desk's request must land within the ~70 ms the demo answer takes, so it
        # waits, connected, for the first word; if the machine is too slow even so, retry.
        for _ in range(3):
            failed, texts = _interrupted_answer(server, httpx)
            if isinstance(failed, RequestFailed):
                break
    assert isinstance(failed, RequestFailed), failed
    assert isinstance(failed.error, ServerDroppedError)
    assert failed.error.partial_text == texts
    assert DEMO_TEXT.startswith(failed.error.partial_text) and failed.error.partial_text != DEMO_TEXT


def _interrupted_answer(server, httpx):
    first_word, other = threading.Event(), httpx.Client(base_url=server.url, timeout=30)
    other.get("/v1/models")                   # connected before the answer starts

    def other_desk() -> None:
        first_word.wait(30)
        other.post("/extras/tokenize", json={"input": "hi"})

    desk = threading.Thread(target=other_desk)
    desk.start()
    recorder = Recorder(lambda e: isinstance(e, StepRecord) and first_word.set())
    engine = connected(server.url, recorder)
    try:
        outcome = recorder.until(engine.chat(ask("Hello")))
    finally:
        engine.shutdown()
        first_word.set()
        desk.join(30)
        other.close()
    return outcome, recorder.texts(outcome.request_id)


def test_four_desks_at_once_get_their_own_whole_answers(server):
    """Four engines (four desks) ask one server at the same moment, for different lengths."""
    lengths = (7, 19, 31, 200)
    desks = [(Recorder(), length) for length in lengths]
    engines = [connected(server.url, recorder) for recorder, _ in desks]
    try:
        ids = [engine.chat(ask("Hello", conversation_id=10 + i, max_tokens=length))
               for i, (engine, (_, length)) in enumerate(zip(engines, desks))]
        outcomes = [recorder.until(request_id) for (recorder, _), request_id in zip(desks, ids)]
    finally:
        for engine in engines:
            engine.shutdown()
    texts = []
    for i, ((recorder, length), finished) in enumerate(zip(desks, outcomes)):
        assert isinstance(finished, RequestFinished), finished
        assert finished.conversation_id == 10 + i
        assert finished.text == recorder.texts(finished.request_id)
        assert DEMO_TEXT.startswith(finished.text)
        assert finished.stats.generated_tokens == min(length, outcomes[-1].stats.generated_tokens)
        texts.append(finished.text)
    assert texts[-1] == DEMO_TEXT and len(set(texts)) == 4


def test_a_long_conversation_on_the_server_slides_instead_of_failing(server):
    """The server's size is learnt from its first refusal; from then on the oldest
    turns go (the server's own tokenizer counts them) and every turn is answered."""
    recorder = Recorder()
    engine = connected(server.url, recorder)
    history: list[ChatMessage] = []
    left = []
    try:
        for turn in range(8):
            history.append(ChatMessage("user", f"turn {turn}: " + "tell me more " * 20))
            event = recorder.until(engine.chat(ChatRequest(tuple(history), max_tokens=100,
                                                           temperature=0.0)))
            assert isinstance(event, RequestFinished), event
            left.append(event.context.left_out if event.context else 0)
            history.append(ChatMessage("assistant", event.text))
        assert engine.server.context_size == 512 and sum(left) > 0, left
    finally:
        engine.shutdown()
