"""Document summaries through the office server: a real llama-cpp-python server on 127.0.0.1
(demo model), and a fake server with no tokenizer."""

from __future__ import annotations

import contextlib
import threading
import time

import pytest

pytest.importorskip("llama_cpp.server.app", reason="llama-cpp-python's server extra")

from engine.api import (ChatMessage, DocumentFinished, DocumentInspected,
                        DocumentProgress, DocumentRequest, RequestFailed, RequestStarted,
                        StepRecord)
from tests.support.document_samples import long_pdf
from engine.documents.summarize import DocumentSummarizer
from engine.errors import ServerNoTokenizerError
from engine.remote.client import ServerClient
from engine.remote.config import ServerConfig
from engine.remote.documents import RemoteSummaryModel
from tests.support.fixture_server import FixtureServer, free_port
from engine.remote.service import connect
from tests.support.remote_recorder import Recorder, connected, document_events

N_CTX = 2048


@pytest.fixture(scope="module")
def server(demo_gguf):
    with FixtureServer(demo_gguf, n_ctx=N_CTX) as running:
        yield running


class Tokenizations:
    """Counts the server's tokenizer calls by wrapping the engine's HTTP client."""

    def __init__(self, client) -> None:
        self.calls = 0
        original = client._tokenize

        def counting(path, text, model, stop=None):
            self.calls += 1
            return original(path, text, model, stop)
        client._tokenize = counting


def test_a_long_document_is_read_in_parts_sized_by_the_server(server, tmp_path):
    recorder = Recorder()
    engine = connected(server.url, recorder)
    path = long_pdf(tmp_path / "long.pdf", 6, paragraphs_per_page=1)
    try:
        assert engine.server.context_size == 0          # llama-cpp-python's server does not say
        tokenizations = Tokenizations(engine.model.client)
        request = DocumentRequest(str(path), cache_dir=str(tmp_path / "cache"), conversation_id=5)
        finished = document_events(recorder, engine.document(request))
        learnt = engine.server.context_size
    finally:
        engine.shutdown()
    assert isinstance(finished, DocumentFinished), finished
    summary = finished.summary
    assert learnt == N_CTX                               # from the server's refusal
    assert summary.parts >= 2 and summary.parts_read == summary.parts and not summary.partial
    assert summary.model_calls > summary.parts           # parts, then combining
    assert tokenizations.calls > summary.parts           # every count asked the server
    assert finished.overview.on_server and "on the office server" in str(finished.overview.message)
    mine = [e for e in recorder.seen if getattr(e, "request_id", None) == request.request_id]
    progress = [e for e in mine if isinstance(e, DocumentProgress)]
    steps = [e for e in mine if isinstance(e, StepRecord)]
    assert isinstance(mine[0], RequestStarted) and mine[0].conversation_id == 5
    assert isinstance(mine[1], DocumentInspected) and mine[1].conversation_id == 5
    assert progress and all(e.conversation_id == 5 and e.parts == summary.parts for e in progress)
    assert all(e.request_id == request.request_id for e in recorder.seen
               if isinstance(e, (DocumentProgress, DocumentInspected)))
    assert progress[-1].phase == "combining"
    reading = [e.part for e in progress if e.phase == "reading"]
    assert reading == sorted(reading) and set(reading) == set(range(1, summary.parts + 1))
    assert steps and all(s.on_server and s.conversation_id == 5 for s in steps)
    assert all(s.context_used <= N_CTX for s in steps)   # no prompt exceeded the context
    assert finished.conversation_id == 5


def test_stop_keeps_the_notes_of_the_parts_already_read(server, tmp_path):
    box = {}

    def stop_in_part_two(event):
        if isinstance(event, DocumentProgress) and event.phase == "reading" and event.part == 2:
            box["engine"].stop()          # on the engine thread, between calls

    recorder = Recorder(stop_in_part_two)
    box["engine"] = engine = connected(server.url, recorder)
    path = long_pdf(tmp_path / "stop.pdf", 6, paragraphs_per_page=1)
    try:
        request = DocumentRequest(str(path), cache_dir=str(tmp_path / "cache"), conversation_id=8)
        finished = document_events(recorder, engine.document(request))
    finally:
        engine.shutdown()
    assert isinstance(finished, DocumentFinished), finished
    summary = finished.summary
    assert summary.partial and summary.parts_read == 1 < summary.parts
    assert summary.text.startswith("Partial summary")
    assert len(summary.citations) == 1 and summary.citations[0].text.strip()


def test_parts_fit_the_servers_context_by_its_own_counts(server, tmp_path):
    client = ServerClient(ServerConfig(server.url))
    try:
        model = RemoteSummaryModel(client, connect(client, ""))
        path = long_pdf(tmp_path / "plan.pdf", 6, paragraphs_per_page=1)
        summarizer = DocumentSummarizer(model, DocumentRequest(str(path), inspect_only=True),
                                        lambda event: None, threading.Event())
        summarizer.run()
        plan = summarizer.plan
        assert model.context_size == plan.budget.n_ctx == N_CTX
        assert len(plan.parts) >= 2
        for part in plan.parts:
            assert part.tokens <= plan.budget.part_text
            assert model.count(part.text) == part.tokens           # the server's tokenizer
            messages = summarizer.prompts.part(part.text, part.index, len(plan.parts),
                                               part.label, 100)
            # the whole prompt as counted here is what the server reads (its own usage)
            assert model.count_chat(messages) == model._prompt_tokens(
                [{"role": m.role, "content": m.content} for m in messages])
        clipped = model.clip(plan.parts[0].text, 50)       # notes too long for a merge
        assert plan.parts[0].text.startswith(clipped) and 40 <= model.count(clipped) <= 50
    finally:
        client.close()


def no_tokenizer_app(calls: list[str]):
    from starlette.applications import Starlette
    from starlette.responses import JSONResponse
    from starlette.routing import Route

    async def models(request):
        return JSONResponse({"object": "list", "data": [
            {"id": "plain-model", "object": "model", "max_model_len": 4096}]})

    async def chat(request):
        calls.append("chat")
        return JSONResponse({"detail": "not in this test"}, status_code=500)

    return Starlette(routes=[Route("/v1/models", models),
                             Route("/v1/chat/completions", chat, methods=["POST"])])


@contextlib.contextmanager
def serving(app):
    """An ASGI app on 127.0.0.1 in a thread; yields its URL."""
    uvicorn = pytest.importorskip("uvicorn")
    port = free_port()
    running = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="error"))
    thread = threading.Thread(target=running.run, daemon=True)
    thread.start()
    while not running.started:
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        running.should_exit = True
        thread.join(10)


@pytest.fixture
def plain_server():
    calls: list[str] = []
    with serving(no_tokenizer_app(calls)) as url:
        yield url, calls


def test_a_server_without_a_tokenizer_says_so_instead_of_guessing(plain_server, tmp_path):
    url, calls = plain_server
    recorder = Recorder()
    engine = connected(url, recorder)
    try:
        path = long_pdf(tmp_path / "plain.pdf", 2, paragraphs_per_page=1)
        request = DocumentRequest(str(path), conversation_id=3)
        failed = document_events(recorder, engine.document(request))
    finally:
        engine.shutdown()
    assert isinstance(failed, RequestFailed) and failed.conversation_id == 3
    assert isinstance(failed.error, ServerNoTokenizerError)
    assert "cannot count words" in failed.error.message and url in failed.error.message
    assert calls == []                   # nothing was sent to the model on a guess
    assert not [e for e in recorder.seen if isinstance(e, (DocumentInspected, StepRecord))]


def test_llama_server_and_vllm_count_whole_chats_themselves(tmp_path):
    """With a chat counter (llama-server's /apply-template, vLLM's chat /tokenize) nothing is
    measured by probing, and the context comes from /props or /v1/models."""
    pytest.importorskip("sse_starlette")
    from tests.support.server_families import family_app

    for family, context, counted in (("llama-server", 8192, 13), ("vllm", 32768, 11)):
        calls: list[str] = []
        with serving(family_app(family, calls)) as url:
            client = ServerClient(ServerConfig(url))
            try:
                model = RemoteSummaryModel(client, connect(client, ""))
                messages = (ChatMessage("system", "Be brief."),
                            ChatMessage("user", "one two three"))
                assert (model.context_size, model.count_chat(messages)) == (context, counted)
                assert "chat" not in calls              # no probe answer was asked for
            finally:
                client.close()


def test_the_command_line_summarises_on_the_server(server, tmp_path, capsys, monkeypatch):
    import json

    from engine.__main__ import main

    monkeypatch.setenv("ROTARY_HOME", str(tmp_path / "home"))
    path = long_pdf(tmp_path / "cli.pdf", 6, paragraphs_per_page=1)
    assert main(["summarize", str(path), "--server", server.url, "--model", server.alias,
                 "--json"]) == 0
    captured = capsys.readouterr()
    out = json.loads(captured.out)
    assert len(out["parts"]) >= 2 and out["overview"]["on_server"]
    assert out["summary"]["parts_read"] == len(out["parts"]) and not out["summary"]["partial"]
    assert "on the office server" in captured.err
    assert main(["summarize", str(path)]) == 2                 # neither a file nor a server
    assert "--server" in capsys.readouterr().err


def test_a_question_is_answered_by_the_server_from_passages_that_fit(server, tmp_path):
    from engine.api import (ChatMessage, ChatRequest, DocumentAnswered, DocumentScope,
                            PassagesChosen, RequestFinished)
    from engine.documents.cache import TextCache
    from engine.documents.extract import read_document
    from engine.documents.index import PassageIndex

    document = read_document(long_pdf(tmp_path / "long.pdf", 12, paragraphs_per_page=1),
                             cache=TextCache(tmp_path / "cache"))
    with PassageIndex(tmp_path / "index.sqlite") as index:
        index.add(document)
    recorder = Recorder()
    engine = connected(server.url, recorder)
    try:
        request = ChatRequest((ChatMessage("user", "What does page 7 say about the printer?"),),
                              max_tokens=16, temperature=0.3, conversation_id=9,
                              documents=DocumentScope((document.sha256,),
                                                      str(tmp_path / "index.sqlite")))
        engine.chat(request)
        while True:
            event = recorder.events.get(timeout=120)
            recorder.seen.append(event)
            if getattr(event, "request_id", None) == request.request_id and isinstance(
                    event, (RequestFinished, RequestFailed)):
                break
    finally:
        engine.shutdown()
    assert isinstance(event, RequestFinished), event
    mine = [e for e in recorder.seen if getattr(e, "request_id", None) == request.request_id]
    chosen = next(e for e in mine if isinstance(e, PassagesChosen))
    assert not chosen.whole and 0 < len(chosen.passages) < 12     # 12 pages do not fit 2,048
    assert isinstance(mine[-1].document, DocumentAnswered) and mine[-1].conversation_id == 9
    assert mine[-1].document.text == mine[-1].text and mine[-1].document.mode == "passages"
    assert not [e for e in mine if isinstance(e, DocumentAnswered)]     # only in the finish
    steps = [e for e in mine if isinstance(e, StepRecord)]
    assert steps and all(s.on_server and s.context_used <= N_CTX for s in steps)
