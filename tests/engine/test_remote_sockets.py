"""Trust: the local engine opens no internet socket; the remote one talks only to its server.

Each scenario runs in a fresh interpreter whose audit hook (PEP 578) records every socket
created and every address connected to, from the first import on.
"""

from __future__ import annotations

import json
import pathlib
import subprocess
import sys
import textwrap

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]

HOOK = textwrap.dedent("""
    import json, socket, sys
    created, connected = [], []
    def hook(event, args):
        if event == "socket.__new__":
            created.append(int(args[1]))
        elif event == "socket.connect":
            connected.append(list(args[1]) if isinstance(args[1], tuple) else str(args[1]))
    sys.addaudithook(hook)
    def report():
        print("SOCKETS " + json.dumps({"created": created, "connected": connected}))
""")

LOCAL = HOOK + textwrap.dedent("""
    import queue
    from engine.api import ChatMessage, ChatRequest, LoadRequest, RequestFinished, ModelLoaded
    from engine.runtime.service import EngineService
    from tests.conftest import make_cpu_recipe
    events = queue.Queue()
    engine = EngineService(events.put)
    engine.load(LoadRequest(sys.argv[1], recipe=make_cpu_recipe()))
    engine.chat(ChatRequest((ChatMessage("user", "Hello"),), max_tokens=8))
    seen = [events.get(timeout=120)]
    while not isinstance(seen[-1], RequestFinished):
        assert type(seen[-1]).__name__ != "RequestFailed", seen[-1]
        seen.append(events.get(timeout=120))
    engine.shutdown()
    assert any(isinstance(event, ModelLoaded) for event in seen)
    report()
""")

REMOTE = HOOK + textwrap.dedent("""
    import queue
    from engine.api import ChatMessage, ChatRequest, LoadRequest, RequestFinished
    from engine.remote.config import ServerConfig
    from engine.remote.service import RemoteEngineService
    events = queue.Queue()
    engine = RemoteEngineService(events.put, ServerConfig(sys.argv[1]))
    engine.load(LoadRequest(""))
    request_id = engine.chat(ChatRequest((ChatMessage("user", "Hello"),), max_tokens=8))
    while True:
        event = events.get(timeout=120)
        if isinstance(event, RequestFinished) and event.request_id == request_id:
            break
        assert type(event).__name__ != "RequestFailed", event
    engine.count_tokens("one more request")
    engine.shutdown()
    report()
""")


def _sockets(script: str, argument: str) -> dict:
    result = subprocess.run([sys.executable, "-c", script, argument], cwd=ROOT,
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-3000:]
    line = next(out for out in result.stdout.splitlines() if out.startswith("SOCKETS "))
    return json.loads(line.removeprefix("SOCKETS "))


def test_local_engine_creates_no_internet_socket(tiny_moe_path):
    import socket
    seen = _sockets(LOCAL, str(tiny_moe_path))
    assert not {socket.AF_INET, socket.AF_INET6} & set(seen["created"]), seen
    assert seen["connected"] == [], seen


def test_remote_engine_connects_only_to_the_configured_server(tmp_path):
    pytest.importorskip("llama_cpp.server.app", reason="llama-cpp-python's server extra")
    from engine.demo.demo_model import write_demo_model
    from tests.support.fixture_server import FixtureServer

    with FixtureServer(write_demo_model(tmp_path / "demo.gguf")) as server:
        seen = _sockets(REMOTE, server.url)
    assert seen["connected"], "the remote engine connected nowhere"
    assert {tuple(address) for address in seen["connected"]} == {("127.0.0.1", server.port)}
