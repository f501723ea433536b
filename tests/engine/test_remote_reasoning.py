"""The office-server client against a scripted server: reasoning_content (vLLM, llama-server)
and <think> sections streamed as text are thinking, never the answer; a turn marker ends
the answer; a looping answer is stopped; the choice to think reaches the server."""

from __future__ import annotations

import json
import threading
import time

import pytest

uvicorn = pytest.importorskip("uvicorn")
pytest.importorskip("sse_starlette")

from sse_starlette.sse import EventSourceResponse  # noqa: E402
from starlette.applications import Starlette  # noqa: E402
from starlette.responses import JSONResponse  # noqa: E402
from starlette.routing import Route  # noqa: E402

from engine.api import (ChatMessage, ChatRequest, RequestFinished,  # noqa: E402
                        StepRecord)
from engine.runtime.generation.loop_guard import LIMIT  # noqa: E402
from tests.support.fixture_server import free_port  # noqa: E402
from tests.support.remote_recorder import Recorder, connected  # noqa: E402

SCRIPTS = {
    "reasoning": [{"reasoning_content": "The user asks"}, {"reasoning_content": " about it."},
                  {"content": "Rotary"}, {"content": " keeps experts."}],
    "inline": [{"content": "<th"}, {"content": "ink>Hmm,"}, {"content": " let me see.</think>"},
               {"content": "\n\nRotary keeps"}, {"content": " experts.<|im_"},
               {"content": "start|>user\nMore"}],
    "loop": [{"content": "Sure:"}] + [{"content": " option"}] * 400,
    "harmony": [{"content": "<|channel|>"}, {"content": "analysis<|message|>"},
                {"content": "Short one."}, {"content": "<|end|><|start|>assistant"},
                {"content": "<|channel|>final<|message|>Rotary"}, {"content": " keeps experts."},
                {"content": "<|return|>"}],
}


class Scripted:
    def __init__(self) -> None:
        self.script, self.payloads = "reasoning", []

    async def chat(self, request):
        self.payloads.append(json.loads(await request.body()))
        chunks = SCRIPTS[self.script]

        async def stream():
            for delta in chunks:
                yield {"data": json.dumps({"choices": [{"delta": delta, "finish_reason": None}]})}
            yield {"data": json.dumps({"choices": [{"delta": {}, "finish_reason": "stop"}],
                                       "usage": {"prompt_tokens": 9,
                                                 "completion_tokens": len(chunks)}})}
            yield {"data": "[DONE]"}
        return EventSourceResponse(stream())


async def _models(request):
    return JSONResponse({"object": "list", "data": [{"id": "thinker", "object": "model"}]})


async def _tokenize(request):
    return JSONResponse({"tokens": [1, 2, 3]})


@pytest.fixture(scope="module")
def server():
    scripted = Scripted()
    app = Starlette(routes=[Route("/v1/models", _models),
                            Route("/tokenize", _tokenize, methods=["POST"]),
                            Route("/v1/chat/completions", scripted.chat, methods=["POST"])])
    port = free_port()
    running = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="error"))
    thread = threading.Thread(target=running.run, daemon=True)
    thread.start()
    while not running.started:
        time.sleep(0.05)
    scripted.url = f"http://127.0.0.1:{port}"
    yield scripted
    running.should_exit = True
    thread.join(10)


def _ask(server, script: str, think=None):
    server.script = script
    recorder = Recorder()
    engine = connected(server.url, recorder)
    try:
        request = ChatRequest((ChatMessage("user", "What does Rotary do?"),), temperature=0.0,
                              think=think)
        last = recorder.until(engine.chat(request))
    finally:
        engine.shutdown()
    steps = [e for e in recorder.seen if isinstance(e, StepRecord)]
    return last, "".join(s.text for s in steps), "".join(s.thinking for s in steps)


def test_reasoning_content_is_thinking_and_the_choice_reaches_the_server(server):
    finished, shown, thought = _ask(server, "reasoning", think=False)
    assert isinstance(finished, RequestFinished)
    assert finished.text == shown == "Rotary keeps experts."
    assert finished.thinking == thought == "The user asks about it."
    assert server.payloads[-1]["chat_template_kwargs"] == {"enable_thinking": False}


def test_think_sections_streamed_as_text_and_a_new_turn_never_reach_the_answer(server):
    finished, shown, thought = _ask(server, "inline")
    assert finished.text == "Rotary keeps experts." and shown.strip() == finished.text
    assert finished.thinking == thought == "Hmm, let me see."
    assert "chat_template_kwargs" not in server.payloads[-1]
    assert finished.stats.stop_reason == "eos"


def test_a_looping_server_answer_is_stopped_keeping_the_repeated_words_once(server, caplog):
    with caplog.at_level("WARNING", logger="rotary.remote"):
        finished, shown, _ = _ask(server, "loop")
    assert isinstance(finished, RequestFinished) and finished.stats.stop_reason == "loop"
    assert shown.count("option") <= LIMIT
    assert finished.text == "Sure: option"
    assert any("thinker" in r.getMessage() and "step chat: the answer repeated" in r.getMessage()
               for r in caplog.records)          # the step named, as on this computer


def test_harmony_passed_through_as_text_is_split_by_channel(server):
    finished, shown, thought = _ask(server, "harmony")
    assert finished.text == shown == "Rotary keeps experts."
    assert finished.thinking == thought == "Short one."
