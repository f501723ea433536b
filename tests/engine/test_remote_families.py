"""What Rotary reads from each server family, against small ASGI servers that answer the way
llama.cpp's llama-server and vLLM document (vLLM needs a GPU, so it is not run here; the real
llama-server is in test_llama_server.py, llama-cpp-python's server in test_remote.py)."""

from __future__ import annotations

import threading
import time

import pytest

uvicorn = pytest.importorskip("uvicorn")
pytest.importorskip("sse_starlette")

from engine.api import ChatMessage, ChatRequest, RequestFinished  # noqa: E402
from tests.support.fixture_server import free_port  # noqa: E402
from tests.support.remote_recorder import Recorder, connected  # noqa: E402
from tests.support.server_families import WORDS, family_app  # noqa: E402


@pytest.fixture(params=["llama-server", "vllm"])
def family_server(request):
    calls: list[str] = []
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(family_app(request.param, calls), host="127.0.0.1",
                                           port=port, log_level="error"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.05)
    yield request.param, f"http://127.0.0.1:{port}", calls
    server.should_exit = True
    thread.join(10)


def test_context_tokenizer_and_usage_per_family(family_server):
    family, url, calls = family_server
    recorder = Recorder()
    engine = connected(url, recorder)
    try:
        info = engine.server
        assert info.model == f"{family}-model" and info.tokenizer == "/tokenize"
        assert info.context_size == (8192 if family == "llama-server" else 32768)
        assert engine.count_tokens("three words here") == 3
        request = ChatRequest((ChatMessage("user", "Hello there"),), conversation_id=5)
        first = recorder.until(engine.chat(request))
        second = recorder.until(engine.chat(request))
    finally:
        engine.shutdown()
    for finished in (first, second):
        assert isinstance(finished, RequestFinished), finished
        assert finished.text == "".join(WORDS) and finished.stats.stop_reason == "eos"
        assert finished.stats.prompt_tokens == 17                 # the server's own usage
        assert finished.stats.context_used == 17 + len(WORDS)
        assert finished.stats.context_size == info.context_size
    # The first answer's prompt was counted beforehand; once the server has shown that it
    # reports usage, Rotary stops asking.
    chats = [i for i, call in enumerate(calls) if call == "chat"]
    assert calls[chats[0] - 1] == "tokenize" and calls[chats[1] - 1] == "chat"


def test_a_limit_past_the_servers_context_is_retried_without_it(family_server):
    family, url, calls = family_server
    recorder = Recorder()
    engine = connected(url, recorder)
    try:
        finished = recorder.until(engine.chat(ChatRequest(
            (ChatMessage("user", "Hello there"),), max_tokens=40000)))
    finally:
        engine.shutdown()
    assert isinstance(finished, RequestFinished), finished
    assert finished.text == "".join(WORDS)
    assert calls.count("chat") == (2 if family == "vllm" else 1)


def test_a_whole_chat_is_counted_with_the_servers_template(family_server):
    family, url, _calls = family_server
    recorder = Recorder()
    engine = connected(url, recorder)
    try:
        messages = (ChatMessage("system", "Be brief."), ChatMessage("user", "one two three"))
        counted = engine.count_chat_tokens(messages)
    finally:
        engine.shutdown()
    # "<s> role content </s>" per message: 5 and 6 words; llama-server's rendered prompt
    # also ends with the assistant's opening "<s> assistant" (2 more).
    assert counted == (13 if family == "llama-server" else 11)
