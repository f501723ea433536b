"""Stop works even while the server is silent (a long prompt on a busy server).

The server here is a small real ASGI app (starlette + sse-starlette under uvicorn, on
127.0.0.1) that lists one model, opens the answer's stream, and then says nothing.
"""

from __future__ import annotations

import asyncio
import threading
import time

import pytest

uvicorn = pytest.importorskip("uvicorn")
pytest.importorskip("sse_starlette")

from sse_starlette.sse import EventSourceResponse  # noqa: E402
from starlette.applications import Starlette  # noqa: E402
from starlette.responses import JSONResponse  # noqa: E402
from starlette.routing import Route  # noqa: E402

from engine.api import ChatMessage, ChatRequest, RequestFinished  # noqa: E402
from engine.remote.fixture_server import free_port  # noqa: E402
from tests.engine.test_remote import Recorder, connected  # noqa: E402


async def _models(request):
    return JSONResponse({"object": "list", "data": [{"id": "silent", "object": "model"}]})


async def _silent_answer(request):
    async def nothing_yet():
        await asyncio.sleep(60)
        yield {"data": "[DONE]"}
    return EventSourceResponse(nothing_yet())


@pytest.fixture
def silent_server():
    app = Starlette(routes=[Route("/v1/models", _models),
                            Route("/v1/chat/completions", _silent_answer, methods=["POST"])])
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="error"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(10)


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
