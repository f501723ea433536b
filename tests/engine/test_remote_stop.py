"""Stop works even while the server is silent (a long prompt on a busy server) or hangs.

Three servers on 127.0.0.1: a small real ASGI app (starlette + sse-starlette under uvicorn)
that opens the answer's stream and then says nothing; the same app stuck before it answers
at all (no status line, no headers: what an earlier stop could not end);
and llama-cpp-python's real server frozen with SIGSTOP, a hung process whose kernel still
accepts connections.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import threading
import time

import pytest

uvicorn = pytest.importorskip("uvicorn")
pytest.importorskip("sse_starlette")

from sse_starlette.sse import EventSourceResponse  # noqa: E402
from starlette.applications import Starlette  # noqa: E402
from starlette.responses import JSONResponse  # noqa: E402
from starlette.routing import Route  # noqa: E402

from engine.api import ChatMessage, ChatRequest, RequestFinished, RequestStarted  # noqa: E402
from tests.support.fixture_server import FixtureServer, free_port  # noqa: E402
from tests.support.remote_recorder import Recorder, ask, connected  # noqa: E402

STOP_WITHIN_S = 2.0


async def _models(request):
    return JSONResponse({"object": "list", "data": [{"id": "silent", "object": "model"}]})


async def _silent_answer(request):
    async def nothing_yet():
        await asyncio.sleep(60)
        yield {"data": "[DONE]"}
    return EventSourceResponse(nothing_yet())


async def _stuck_before_answering(request):
    await asyncio.sleep(60)        # not a byte back, not even the status line
    return JSONResponse({})


async def _tokenize(request):
    return JSONResponse({"tokens": [1, 2, 3]})


def _serve(answer):
    app = Starlette(routes=[Route("/v1/models", _models),
                            Route("/tokenize", _tokenize, methods=["POST"]),
                            Route("/v1/chat/completions", answer, methods=["POST"])])
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="error"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(10)


@pytest.fixture
def silent_server():
    yield from _serve(_silent_answer)


@pytest.fixture
def stuck_server():
    yield from _serve(_stuck_before_answering)


def test_stop_while_the_server_is_still_silent(silent_server):
    recorder = Recorder()
    engine = connected(silent_server, recorder)
    try:
        request_id = engine.chat(ChatRequest((ChatMessage("user", "a long document…"),)))
        time.sleep(0.5)                       # the request is out; the server says nothing
        stopped_at = time.perf_counter()
        engine.stop()
        finished = recorder.until(request_id)
        waited = time.perf_counter() - stopped_at
    finally:
        engine.shutdown()
    assert isinstance(finished, RequestFinished), finished
    assert finished.stats.stop_reason == "stopped" and finished.text == ""
    assert waited < 2.0, f"stop took {waited:.1f} s"


def _stopped_in_time(recorder: Recorder, engine, request_id: int) -> RequestFinished:
    stopped_at = time.perf_counter()
    engine.stop(request_id)
    finished = recorder.until(request_id)
    waited = time.perf_counter() - stopped_at
    assert isinstance(finished, RequestFinished), finished
    assert finished.stats.stop_reason == "stopped" and finished.text == ""
    assert waited < STOP_WITHIN_S, f"stop took {waited:.1f} s"
    return finished


def test_stop_while_the_server_hangs_before_it_answers(stuck_server):
    """The old stop shut the socket of a response it did not have yet, so
    "Stopping…" lasted until the server's 60 s sleep (or the 300 s read limit) ended."""
    recorder = Recorder()
    engine = connected(stuck_server, recorder)
    try:
        request_id = engine.chat(ask("a long document…"))
        time.sleep(0.5)                       # sent; the server has not said a word
        _stopped_in_time(recorder, engine, request_id)
    finally:
        engine.shutdown()


def test_a_request_queued_behind_a_hung_one_says_it_waits_then_starts(stuck_server):
    recorder = Recorder()
    engine = connected(stuck_server, recorder)
    try:
        hung = engine.chat(ask("first", conversation_id=1))
        time.sleep(0.3)
        queued = engine.chat(ask("second", conversation_id=2))   # after New chat, say
        assert engine.waiting(queued) and not engine.waiting(hung)
        _stopped_in_time(recorder, engine, hung)
        deadline = time.monotonic() + STOP_WITHIN_S
        while not any(isinstance(e, RequestStarted) and e.request_id == queued
                      for e in recorder.seen):
            left = max(0.01, deadline - time.monotonic())
            recorder.seen.append(recorder.events.get(timeout=left))
        assert not engine.waiting(queued)
        started = next(e for e in recorder.seen
                       if isinstance(e, RequestStarted) and e.request_id == queued)
        assert started.conversation_id == 2
        _stopped_in_time(recorder, engine, queued)          # it hangs too; stop ends it
    finally:
        engine.shutdown()


@pytest.mark.skipif(sys.platform == "win32", reason="SIGSTOP")
def test_stop_while_the_real_server_is_frozen_then_it_serves_again(demo_gguf):
    pytest.importorskip("llama_cpp.server.app", reason="llama-cpp-python's server extra")
    with FixtureServer(demo_gguf) as server:
        recorder = Recorder()
        engine = connected(server.url, recorder)
        try:
            os.kill(server.process.pid, signal.SIGSTOP)      # hung: connections still accepted
            try:
                request_id = engine.chat(ask("Hello"))
                time.sleep(0.5)
                _stopped_in_time(recorder, engine, request_id)
            finally:
                os.kill(server.process.pid, signal.SIGCONT)
            again = recorder.until(engine.chat(ask("Hello")))
            assert isinstance(again, RequestFinished) and again.text
            assert again.stats.stop_reason != "stopped"
        finally:
            engine.shutdown()
