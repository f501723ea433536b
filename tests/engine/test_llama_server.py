"""The office-server path against llama.cpp's own llama-server, the server docs/office-server.md tells IT
to run: built from the same vendored llama.cpp as the engine's wheel (stock, CPU) by
``bootstrap.py test`` and cached like the wheel; the demo model on 127.0.0.1.

The tests assert behaviour only (what the user and IT see), so they hold whatever the remote
engine does inside. Without a built llama-server they skip, and say how to build one; under
``bootstrap.py test`` (ROTARY_LLAMA_SERVER set) a missing one fails instead.
"""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import time
from pathlib import Path

import httpx
import pytest

from engine.api import (ChatMessage, DocumentFinished, DocumentProgress,
                        DocumentRequest, LoadRequest, RequestFailed, RequestFinished, StepRecord)
from tests.support.document_samples import long_pdf
from engine.errors import ServerAuthError, ServerContextFullError
from engine.demo.demo_model import DEMO_TEXT
from engine.remote.config import ServerConfig
from tests.support.fixture_server import free_port
from engine.remote.service import RemoteEngineService
from tests.support.remote_recorder import Recorder, ask, connected, document_events

ROOT = Path(__file__).resolve().parents[2]
N_CTX, PARALLEL = 8192, 4          # llama-server gives each of the 4 slots 8192 / 4 tokens
SLOT_CTX = N_CTX // PARALLEL


def llama_server_binary() -> Path | None:
    """ROTARY_LLAMA_SERVER (bootstrap.py test sets it), else the one bootstrap.py cached."""
    configured = os.environ.get("ROTARY_LLAMA_SERVER")
    if configured:
        return Path(configured)
    spec = importlib.util.spec_from_file_location("rotary_llama_build", ROOT / "llama_build.py")
    llama_build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(llama_build)
    built = [llama_build.llama_server_path(v) for v in ("vulkan", "cpu")]
    return next((path for path in built if path.exists()), None)


BINARY = llama_server_binary()
pytestmark = pytest.mark.skipif(
    BINARY is None, reason="llama-server is not built: python3 bootstrap.py test builds it")


class LlamaServer:
    """``with LlamaServer(model, ...) as server: server.url`` — llama-server, started, then
    stopped; its log in ``log_path``."""

    def __init__(self, model: Path, log_path: Path, *, n_ctx: int = N_CTX,
                 parallel: int = PARALLEL, api_key: str | None = None,
                 alias: str = "rotary-demo") -> None:
        if not BINARY.exists():
            pytest.fail(f"ROTARY_LLAMA_SERVER names {BINARY}, which does not exist")
        self.port, self.alias, self.log_path = free_port(), alias, log_path
        self.url = f"http://127.0.0.1:{self.port}"
        self.command = [str(BINARY), "--model", str(model), "--alias", alias,
                        "--host", "127.0.0.1", "--port", str(self.port), "--ctx-size", str(n_ctx),
                        "--parallel", str(parallel), "--threads", "1", "--no-webui"]
        if api_key:
            self.command += ["--api-key", api_key]
        self.process: subprocess.Popen | None = None

    def __enter__(self) -> "LlamaServer":
        with open(self.log_path, "wb") as log:       # the child keeps its own copy
            self.process = subprocess.Popen(self.command, stdout=log, stderr=subprocess.STDOUT,
                                            stdin=subprocess.DEVNULL)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:     # /health: 503 while loading, 200 when ready
            if self.process.poll() is not None:
                pytest.fail(f"llama-server exited with {self.process.returncode}:\n"
                            f"{self.log_path.read_text(errors='replace')[-3000:]}")
            try:
                if httpx.get(self.url + "/health", timeout=1.0, trust_env=False).is_success:
                    return self
            except httpx.TransportError:
                pass
            time.sleep(0.1)
        self.__exit__()
        pytest.fail("llama-server did not become ready within 60 s")

    def __exit__(self, *_exception) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)

    def log_mark(self) -> int:
        return len(self.log_path.read_bytes())

    def log_since(self, mark: int) -> str:
        return self.log_path.read_bytes()[mark:].decode(errors="replace")

    def wait_for_log(self, mark: int, text: str, within_s: float = 10.0) -> str:
        """The first line after ``mark`` that holds ``text``, once the server has written it."""
        deadline = time.monotonic() + within_s
        while time.monotonic() < deadline:
            line = next((line for line in self.log_since(mark).splitlines() if text in line), "")
            if line:
                return line
            time.sleep(0.05)
        pytest.fail(f"llama-server never logged {text!r}:\n{self.log_since(mark)[-2000:]}")

    def get(self, path: str) -> dict:
        return httpx.get(self.url + path, timeout=10, trust_env=False).json()

    def post(self, path: str, body: dict) -> dict:
        return httpx.post(self.url + path, json=body, timeout=10, trust_env=False).json()


@pytest.fixture(scope="module")
def server(demo_gguf, tmp_path_factory):
    with LlamaServer(demo_gguf, tmp_path_factory.mktemp("llama-server") / "server.log") as up:
        yield up


def test_streams_the_answer_counted_by_the_servers_tokenizer(server):
    recorder = Recorder()
    engine = connected(server.url, recorder)
    try:
        loaded = recorder.seen[-1]
        finished = recorder.until(engine.chat(ask("Hello", conversation_id=4)))
        chat_tokens = engine.count_chat_tokens((ChatMessage("user", "Hello"),))
        counted = engine.count_tokens("Hello there, office")
    finally:
        engine.shutdown()
    assert loaded.server.model == server.alias and loaded.server.tokenizer == "/tokenize"
    assert isinstance(finished, RequestFinished), finished
    steps = [e for e in recorder.seen if isinstance(e, StepRecord)]
    assert finished.text == recorder.texts(finished.request_id) == DEMO_TEXT
    assert finished.stats.stop_reason == "eos" and finished.conversation_id == 4
    assert [s.generated_tokens for s in steps] == list(range(1, len(steps) + 1))
    assert all(s.on_server and s.conversation_id == 4 for s in steps)
    # Counts are llama-server's own: /tokenize for a text, the templated chat for a prompt.
    assert counted == len(server.post("/tokenize", {"content": "Hello there, office"})["tokens"])
    assert finished.stats.prompt_tokens == chat_tokens > counted // 3 > 0
    assert finished.stats.generated_tokens >= len(steps)       # llama-server counts the end too
    assert finished.stats.context_used == (finished.stats.prompt_tokens
                                           + finished.stats.generated_tokens)


def test_the_context_length_is_the_slots_from_props(server):
    recorder = Recorder()
    engine = connected(server.url, recorder)
    try:
        context = engine.server.context_size
        too_long = recorder.until(engine.chat(ask("Hello " * (SLOT_CTX + 100), conversation_id=9)))
    finally:
        engine.shutdown()
    props = server.get("/props")
    assert context == props["default_generation_settings"]["n_ctx"] == SLOT_CTX
    assert props["total_slots"] == PARALLEL
    assert isinstance(too_long, RequestFailed) and too_long.conversation_id == 9
    assert isinstance(too_long.error, ServerContextFullError), too_long.error


def test_stop_ends_the_answer_at_once_and_the_server_stops_writing(server):
    box: dict = {}

    def stop_once_after_three(event):
        if isinstance(event, StepRecord) and event.generated_tokens == 3 and not box.get("at"):
            box["at"] = time.perf_counter()
            box["engine"].stop()                  # on the engine thread, between tokens

    recorder = Recorder(stop_once_after_three)
    box["engine"] = engine = connected(server.url, recorder)
    try:
        mark = server.log_mark()
        finished = recorder.until(engine.chat(ask("Hello", conversation_id=6)))
        ended = time.perf_counter()
        released = server.wait_for_log(mark, "stop processing: n_tokens")
        cancelled = server.log_since(mark)
        again = recorder.until(engine.chat(ask("Hello")))     # the server still serves
    finally:
        engine.shutdown()
    assert finished.stats.stop_reason == "stopped" and ended - box["at"] < 1.0
    assert finished.text == recorder.texts(finished.request_id)
    assert DEMO_TEXT.startswith(finished.text) and finished.text != DEMO_TEXT
    # llama-server saw the stream close and stopped writing: its own log cancels the task
    # and releases the slot before the answer's end (the full answer ends at prompt + 76).
    assert "stop: cancel task" in cancelled
    used = int(re.search(r"stop processing: n_tokens = (\d+)", released).group(1))
    assert used < again.stats.prompt_tokens + again.stats.generated_tokens, released
    assert again.stats.stop_reason == "eos" and again.text == DEMO_TEXT


def test_the_access_key_right_wrong_and_missing(demo_gguf, tmp_path):
    with LlamaServer(demo_gguf, tmp_path / "keyed.log", api_key="office-secret") as keyed:
        for key in ("wrong", None):
            recorder = Recorder()
            engine = RemoteEngineService(recorder, ServerConfig(keyed.url, api_key=key))
            failed = recorder.until(engine.load(LoadRequest("")))
            engine.shutdown()
            assert isinstance(failed, RequestFailed) and isinstance(failed.error, ServerAuthError)
            assert "key" in failed.error.message
        recorder = Recorder()
        engine = connected(keyed.url, recorder, api_key="office-secret")
        try:
            finished = recorder.until(engine.chat(ask("Hello")))
        finally:
            engine.shutdown()
    assert finished.text == DEMO_TEXT


def test_four_desks_at_once_on_four_slots(server):
    lengths = (7, 19, 31, 200)
    desks = [Recorder() for _ in lengths]
    engines = [connected(server.url, recorder) for recorder in desks]
    try:                     # chat() only queues: the four go out together, one per engine
        ids = [engine.chat(ask("Hello", conversation_id=20 + i, max_tokens=length))
               for i, (engine, length) in enumerate(zip(engines, lengths))]
        outcomes = [recorder.until(request_id) for recorder, request_id in zip(desks, ids)]
    finally:
        for engine in engines:
            engine.shutdown()
    for i, (recorder, finished) in enumerate(zip(desks, outcomes)):
        assert isinstance(finished, RequestFinished), finished
        assert finished.conversation_id == 20 + i
        assert finished.text == recorder.texts(finished.request_id)
        assert DEMO_TEXT.startswith(finished.text)
        assert finished.stats.generated_tokens == min(lengths[i],
                                                      outcomes[-1].stats.generated_tokens)
    assert outcomes[-1].text == DEMO_TEXT
    assert len({finished.text for finished in outcomes}) == 4


def test_a_document_summary_is_sized_from_the_servers_context(server, tmp_path):
    recorder = Recorder()
    engine = connected(server.url, recorder)
    path = long_pdf(tmp_path / "long.pdf", 6, paragraphs_per_page=1)
    try:
        assert engine.server.context_size == SLOT_CTX       # known at once, from /props
        request = DocumentRequest(str(path), cache_dir=str(tmp_path / "cache"), conversation_id=5)
        finished = document_events(recorder, engine.document(request))
    finally:
        engine.shutdown()
    assert isinstance(finished, DocumentFinished), finished
    summary = finished.summary
    assert summary.parts >= 2 and summary.parts_read == summary.parts and not summary.partial
    assert finished.overview.on_server and finished.conversation_id == 5
    mine = [e for e in recorder.seen if getattr(e, "request_id", None) == request.request_id]
    reading = [e.part for e in mine if isinstance(e, DocumentProgress) and e.phase == "reading"]
    assert set(reading) == set(range(1, summary.parts + 1))
    steps = [e for e in mine if isinstance(e, StepRecord)]
    assert steps and all(s.context_used <= SLOT_CTX for s in steps)   # every prompt fit
