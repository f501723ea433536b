"""The engine thread: one owner of llama objects, one queue in, events out, typed failures."""

from __future__ import annotations

import threading
import time
from dataclasses import replace

import pytest

from engine.runtime import loader
from tests.support.event_collector import Collector
from engine.api import (ChatMessage, ChatRequest, DocumentRequest, LoadFallback, LoadProgress,
                        LoadRequest,
                        ModelLoaded, ModelUnloaded, RequestFailed, RequestFinished,
                        RequestStarted, StepRecord)
from engine.errors import (EngineStateError, InsufficientMemoryError, NotAGGUFError,
                           ReadingStoppedError)
from engine.plan.hardware import probe
from engine.model.inspect_gguf import inspect_model
from engine.plan import plan
from engine.runtime.requests import CancelToken
from engine.runtime.service import EngineService

HELLO = (ChatMessage("user", "hello the model"),)


@pytest.fixture
def engine_service():
    collector = Collector()
    service = EngineService(collector)
    yield service, collector
    service.shutdown()


def _load(service, collector, path, recipe):
    service.load(LoadRequest(model_path=str(path), recipe=recipe))
    return collector.until((ModelLoaded, RequestFailed))


def test_load_then_chat_streams_tokens_then_finishes(engine_service, tiny_moe_path, cpu_recipe):
    service, collector = engine_service
    loading = _load(service, collector, tiny_moe_path, cpu_recipe())
    assert isinstance(loading[0], LoadProgress) and isinstance(loading[-1], ModelLoaded)
    assert loading[-1].facts.n_expert == 8
    request = ChatRequest(messages=HELLO, max_tokens=8, temperature=0)
    service.chat(request)
    answer = collector.until(RequestFinished)
    steps = [e for e in answer if isinstance(e, StepRecord)]
    assert steps and all(s.request_id == request.request_id for s in steps)
    assert answer[-1].text == "".join(s.text for s in steps)
    assert answer[-1].stats.generated_tokens == len(steps)
    assert collector.threads == {"rotary-engine"}   # every event came from the engine thread


def test_stop_ends_the_answer_between_tokens(engine_service, tiny_moe_path, cpu_recipe):
    service, collector = engine_service
    _load(service, collector, tiny_moe_path, cpu_recipe())
    stopped = threading.Event()

    def stop_after_two(event):
        collector(event)
        if isinstance(event, StepRecord) and event.generated_tokens == 2 and not stopped.is_set():
            stopped.set()
            service.stop()

    service._listener = stop_after_two
    service.chat(ChatRequest(messages=HELLO, max_tokens=200, temperature=1.0, seed=5))
    finished = collector.until(RequestFinished)[-1]
    assert finished.stats.stop_reason in ("stopped", "eos")
    assert finished.stats.generated_tokens <= 3


def test_chat_without_a_model_fails_with_a_typed_error(engine_service):
    service, collector = engine_service
    request = ChatRequest(messages=HELLO)
    service.chat(request)
    failed = collector.until(RequestFailed)[-1]
    assert failed.request_id == request.request_id
    assert isinstance(failed.error, EngineStateError)
    assert "No model" in failed.error.message


def test_bad_model_file_fails_without_killing_the_engine(engine_service, tmp_path, tiny_moe_path,
                                                         cpu_recipe):
    service, collector = engine_service
    not_a_model = tmp_path / "notes.gguf"
    not_a_model.write_text("meeting notes, not a model")
    failed = _load(service, collector, not_a_model, cpu_recipe())[-1]
    assert isinstance(failed, RequestFailed) and isinstance(failed.error, NotAGGUFError)
    assert isinstance(_load(service, collector, tiny_moe_path, cpu_recipe())[-1], ModelLoaded)


def test_errors_never_enter_the_token_stream(engine_service, tiny_moe_path, cpu_recipe):
    service, collector = engine_service
    _load(service, collector, tiny_moe_path, cpu_recipe(n_ctx=256))
    service.chat(ChatRequest(messages=(ChatMessage("user", "the answer " * 300),)))
    events = collector.until(RequestFailed)
    assert not any(isinstance(e, StepRecord) for e in events)
    assert "too long" in events[-1].error.message


def test_unload_and_shutdown_close_the_model(engine_service, tiny_moe_path, cpu_recipe):
    service, collector = engine_service
    _load(service, collector, tiny_moe_path, cpu_recipe())
    native = service.model.loaded.native
    service.unload()
    collector.until(ModelUnloaded)
    assert service.model is None and native.ctx.ctx is None


def test_memory_failures_step_down_the_ladder_in_plain_words(engine_service, tiny_moe_path,
                                                             cpu_recipe, monkeypatch):
    service, collector = engine_service
    real_load, attempts = loader._load_native, []

    def fail_twice(facts, recipe, recorder, progress):
        attempts.append(recipe)
        if len(attempts) <= 2:
            raise InsufficientMemoryError("not enough memory", "cudaMalloc failed: out of memory")
        return real_load(facts, recipe, recorder, progress)

    monkeypatch.setattr(loader, "_load_native", fail_twice)
    planned = plan(inspect_model(tiny_moe_path), probe())
    events = _load(service, collector, tiny_moe_path, replace(planned, n_threads=1))
    fallbacks = [e for e in events if isinstance(e, LoadFallback)]
    assert isinstance(events[-1], ModelLoaded) and len(fallbacks) == 2
    assert all(f.message and "layer" not in str(f.message).lower() for f in fallbacks)
    assert events[-1].recipe == attempts[-1] != attempts[0]


def test_a_dense_model_is_reported_as_dense_and_still_runs(engine_service, tmp_path, cpu_recipe):
    from engine.demo.tiny_moe import write_tiny_moe

    service, collector = engine_service
    dense = write_tiny_moe(tmp_path / "dense.gguf", "dense")
    loaded = _load(service, collector, dense, cpu_recipe())[-1]
    assert isinstance(loaded, ModelLoaded)
    assert not loaded.facts.is_moe and loaded.facts.architecture == "qwen3"
    service.chat(ChatRequest(messages=HELLO, max_tokens=6, temperature=0))
    answer = collector.until(RequestFinished)
    assert [e for e in answer if isinstance(e, StepRecord)]


def test_a_model_under_a_non_ascii_path_loads(engine_service, tmp_path, tiny_moe_path, cpu_recipe):
    import shutil

    service, collector = engine_service
    folder = tmp_path / "모델 测试"
    folder.mkdir()
    target = folder / "модель.gguf"
    shutil.copy(tiny_moe_path, target)
    assert isinstance(_load(service, collector, target, cpu_recipe())[-1], ModelLoaded)


def test_loading_without_routing_installs_no_recorder(engine_service, tiny_moe_path, cpu_recipe):
    service, collector = engine_service
    service.load(LoadRequest(model_path=str(tiny_moe_path), recipe=cpu_recipe(),
                             record_routing=False))
    assert isinstance(collector.until((ModelLoaded, RequestFailed))[-1], ModelLoaded)
    assert service.model.loaded.recorder is None
    service.chat(ChatRequest(messages=HELLO, max_tokens=4, temperature=0))
    assert [e for e in collector.until(RequestFinished) if isinstance(e, StepRecord)]


# ---- each request has its own stop ---------------------------------------------------------

def _listen(service, collector, on_event):
    def listener(event):
        collector(event)
        on_event(event)
    service._listener = listener


def test_stop_then_send_at_once_stops_the_first_and_runs_the_second(engine_service,
                                                                     tiny_moe_path, cpu_recipe):
    """One shared flag, cleared when the next request was queued, un-stopped the
    answer still running. Stop, then send at once: the first ends, the second runs."""
    service, collector = engine_service
    _load(service, collector, tiny_moe_path, cpu_recipe())
    first = ChatRequest(messages=HELLO, max_tokens=64, temperature=1.0, seed=5)
    second = ChatRequest(messages=HELLO, max_tokens=6, temperature=0)

    def stop_and_send(event):
        if isinstance(event, StepRecord) and event.request_id == first.request_id \
                and event.generated_tokens == 2:
            service.stop()                # the answer being written, as the Stop button does
            service.chat(second)          # and the next message at once

    _listen(service, collector, stop_and_send)
    service.chat(first)
    events = collector.until(RequestFinished) + collector.until(RequestFinished)
    ends = {e.request_id: e for e in events if isinstance(e, RequestFinished)}
    assert ends[first.request_id].stats.stop_reason == "stopped"
    assert ends[first.request_id].stats.generated_tokens <= 3
    assert ends[second.request_id].stats.stop_reason != "stopped"
    assert ends[second.request_id].stats.generated_tokens > 0


def test_a_request_stopped_while_it_waits_never_starts(engine_service, tiny_moe_path,
                                                       cpu_recipe):
    service, collector = engine_service
    _load(service, collector, tiny_moe_path, cpu_recipe())
    running = ChatRequest(messages=HELLO, max_tokens=64, temperature=1.0, seed=5,
                          conversation_id=1)
    waiting = ChatRequest(messages=HELLO, max_tokens=6, conversation_id=2)
    seen = {}

    def on_event(event):
        if isinstance(event, StepRecord) and event.generated_tokens == 2 and not seen:
            service.chat(waiting)
            seen["queued"] = service.waiting(waiting.request_id)
            seen["running waits"] = service.waiting(running.request_id)
            service.stop(waiting.request_id)     # stop the waiting one only
            seen["still running"] = True
        if isinstance(event, StepRecord) and event.generated_tokens == 4:
            service.stop(running.request_id)

    _listen(service, collector, on_event)
    service.chat(running)
    events = collector.until(RequestFinished) + collector.until(RequestFinished)
    assert seen == {"queued": True, "running waits": False, "still running": True}
    started = [e.request_id for e in events if isinstance(e, RequestStarted)]
    assert started == [running.request_id]                 # the stopped one never started
    ends = [e for e in events if isinstance(e, RequestFinished)]
    assert [e.request_id for e in ends] == [running.request_id, waiting.request_id]
    assert ends[0].stats.stop_reason == "stopped" and ends[0].stats.generated_tokens == 4
    assert ends[1].text == "" and ends[1].stats.stop_reason == "stopped"
    assert ends[1].conversation_id == 2
    assert not any(isinstance(e, StepRecord) and e.request_id == waiting.request_id
                   for e in events)


def test_a_document_stopped_while_it_waits_ends_as_a_stop_not_a_fault(engine_service):
    service, _ = engine_service
    stop = CancelToken()
    stop.set()
    with pytest.raises(ReadingStoppedError):     # the app says it quietly (no error notice)
        EngineService._document(service, DocumentRequest(path="memo.pdf"), stop)


def test_stopping_a_conversation_stops_what_it_runs_and_what_it_has_waiting(
        engine_service, tiny_moe_path, cpu_recipe):
    service, collector = engine_service
    _load(service, collector, tiny_moe_path, cpu_recipe())
    mine = [ChatRequest(messages=HELLO, max_tokens=64, temperature=1.0, seed=5,
                        conversation_id=7),
            ChatRequest(messages=HELLO, max_tokens=64, conversation_id=7)]
    other = ChatRequest(messages=HELLO, max_tokens=3, temperature=0, conversation_id=8)

    def on_event(event):
        if isinstance(event, StepRecord) and event.request_id == mine[0].request_id \
                and event.generated_tokens == 2:
            service.chat(mine[1])
            service.chat(other)
            service.stop_conversation(7)

    _listen(service, collector, on_event)
    service.chat(mine[0])
    events = []
    for _ in range(3):
        events += collector.until(RequestFinished)
    ends = {e.request_id: e for e in events if isinstance(e, RequestFinished)}
    assert ends[mine[0].request_id].stats.stop_reason == "stopped"
    assert ends[mine[1].request_id].stats.stop_reason == "stopped"
    assert ends[mine[1].request_id].stats.generated_tokens == 0
    assert ends[other.request_id].stats.generated_tokens > 0


def test_shutdown_stops_the_answer_and_drops_what_waits(tiny_moe_path, cpu_recipe):
    collector = Collector()
    service = EngineService(collector)
    _load(service, collector, tiny_moe_path, cpu_recipe())
    long_answer = ChatRequest(messages=HELLO, max_tokens=400, temperature=1.0, seed=5)
    service.chat(long_answer)
    for _ in range(3):
        service.chat(ChatRequest(messages=HELLO, max_tokens=400))
    collector.until(StepRecord)
    started = time.perf_counter()
    service.shutdown()
    assert time.perf_counter() - started < 5.0
    assert not service._thread.is_alive() and service.model is None
